require 'json'
require 'ffi'
require 'tmpdir'
require 'fileutils'

# The C heap's growth over many runs of each operation, for spec/hardening/native_heap_spec.rb. Run as a
# script in a quiet JRuby of its own (NativeHeapLoad::JVM_OPTIONS), so that the C heap moves only with what
# the operations leave behind:
#
#   jruby -I lib spec/support/native_heap_load.rb RUNS WARM_UP [OPERATION...]
#
# prints one JSON object: per operation, the bytes the C heap's allocated total grew by in each of
# INTERVALS intervals of RUNS runs (after WARM_UP runs, every reading taken once the heap has settled), or
# {"skipped": reason} where there is no glibc mallinfo2 (musl, macOS, FreeBSD).
#
# The reading is glibc's mallinfo2 (all arenas): uordblks (bytes in use in the arenas' chunks, a malloc(8)
# counts its 32-byte chunk) plus hblkhd (blocks mmap'd on their own). The operations run from a pool whose
# threads are replaced as it runs, so that memory kept per thread shows as growth too.
module NativeHeapLoad
  # -Xint: no JIT, whose compiler arenas and code metadata move the C heap by megabytes at a time. SerialGC:
  # no concurrent collector threads and their buffers. The JVM frees the ObjectMonitors of objects waited
  # on (thread joins, JRuby's own; the gem waits on no monitor) only when it deflates them, every 60 s by
  # default: every 20 ms here, so that what is seen is what is never freed (IgnoreUnrecognizedVMOptions: a
  # Java 8 or 11 deflates at safepoints).
  JVM_OPTIONS = %w[-Xint -XX:+UseSerialGC -XX:+IgnoreUnrecognizedVMOptions -XX:+UnlockDiagnosticVMOptions
                   -XX:GuaranteedAsyncDeflationInterval=20].freeze
  # Threads running at once, and the operations each runs before it ends and a new one takes its place.
  POOL_THREADS = 2
  RUNS_PER_THREAD = 25
  # A leak grows the heap in every interval; what the JVM caches for a while (its threads' memory pools, a
  # table grown once) in one or two of them only: the spec judges the smallest growth.
  INTERVALS = 3

  # Each operation runs a child to its end and leaves nothing open, as a careful caller does; each names
  # its command without a slash, so that the PATH search and its cache take part.
  OPERATIONS = {
    spawn: -> { Process.wait(POSIX::Spawn.spawn('true')) },
    # A directory on PATH changes before each spawn: the PATH watch reads the change and watches afresh.
    spawn_path_changing: lambda do
      entry = File.join(NativeHeapLoad.changing, "entry-#{Thread.current.object_id}") # one a thread: two run at once
      File.write(entry, '')
      File.delete(entry)
      Process.wait(POSIX::Spawn.spawn('true'))
    end,
    system: -> { POSIX::Spawn.system('true') },
    child: -> { POSIX::Spawn::Child.new('echo', 'x').out },
    handle_communicate: lambda do
      handle = POSIX::Spawn.start('cat', in: :pipe, out: :pipe, err: :pipe)
      handle.communicate('x')
      handle.wait
    end,
    # Through the pidfd watch's thread (its pidfd, its reap) and a callback queued to the reaper's.
    handle_on_exit: lambda do
      handle = POSIX::Spawn.start('true')
      handle.on_exit { nil }
      handle.wait
    end,
    popen_read: -> { IO.popen(%w[echo x], &:read) },
    backtick: -> { `echo x` },
    pty_spawn: lambda do
      POSIX::Spawn.pty_spawn('echo', 'x') do |reader, _, _|
        reader.read
      rescue Errno::EIO
        nil # the terminal hung up before the read saw its end
      end
    end
  }.freeze

  # glibc's struct mallinfo2: ten size_t.
  class MallInfo2 < FFI::Struct
    layout(*%i[arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost].flat_map { |f| [f, :size_t] })
  end

  module LibC
    extend FFI::Library
    ffi_lib FFI::Library::LIBC
    begin
      attach_function :mallinfo2, [], MallInfo2.by_value
    rescue FFI::NotFoundError
      nil # no glibc 2.33+: NativeHeapLoad.missing says so
    end
  end

  module_function

  # The first directory on PATH (the script puts it there), which spawn_path_changing changes.
  def changing
    @changing ||= Dir.mktmpdir('posix-spawn-heap').tap { |dir| at_exit { FileUtils.rm_rf(dir) } }
  end

  # Why the heap cannot be read here, or nil.
  def missing
    "no mallinfo2 in #{FFI::Library::LIBC} (glibc 2.33+ has it)" unless LibC.respond_to?(:mallinfo2)
  end

  def allocated
    info = LibC.mallinfo2
    info[:uordblks] + info[:hblkhd]
  end

  # The allocated total once garbage collection and finalization (jnr-ffi frees its memory in finalizers)
  # leave it where it is: two equal readings in a row, or the last of twelve.
  def settled
    last = nil
    12.times do
      java.lang.System.gc
      java.lang.System.runFinalization
      sleep 0.05 # the monitor deflation's interval, twice over
      now = allocated
      return now if now == last

      last = now
    end
    last
  end

  # Runs `operation` `count` times from the pool: POOL_THREADS at once, each replaced after RUNS_PER_THREAD.
  def pool(count, operation)
    left = count
    lock = Mutex.new
    take = -> { lock.synchronize { left.positive? && (left -= 1) } }
    running = []
    loop do
      running.reject! { |t| t.join(0) }
      break if running.empty? && lock.synchronize { left.zero? }

      running << Thread.new { RUNS_PER_THREAD.times { take.call ? operation.call : break } } while running.size < POOL_THREADS
      running.first.join
    end
  end

  # {name => [bytes the allocated total grew by in each of INTERVALS intervals of `runs` runs]}, after a
  # warm-up of `warm_up` runs.
  def measure(runs, warm_up, names)
    names.to_h do |name|
      operation = OPERATIONS.fetch(name)
      pool(warm_up, operation)
      readings = [settled]
      INTERVALS.times do
        pool(runs, operation)
        readings << settled
      end
      [name, readings.each_cons(2).map { |before, after| after - before }]
    end
  end
end

if $PROGRAM_NAME == __FILE__
  require 'posix/spawn'
  require 'posix/spawn/kernel'
  POSIX::Spawn::Kernel.install # popen and backtick as the drop-in runs them
  ENV['PATH'] = "#{NativeHeapLoad.changing}:#{ENV['PATH']}" # this JRuby's own
  runs, warm_up = ARGV.first(2).map { |n| Integer(n) }
  names = ARGV.drop(2).empty? ? NativeHeapLoad::OPERATIONS.keys : ARGV.drop(2).map(&:to_sym)
  report = if NativeHeapLoad.missing
             { 'skipped' => NativeHeapLoad.missing }
           else
             { 'runs' => runs, 'growth' => NativeHeapLoad.measure(runs, warm_up, names) }
           end
  puts JSON.generate(report)
end

# spawn-harness's Ruby worker, the same file on JRuby (this gem) and on MRI (the posix-spawn C gem): a
# long-lived process holding a live heap, asked for a few iterations of a case at a time, timing each one,
# and doing other work (replacing part of its heap, making garbage) between every two iterations, untimed.
# Reads commands from stdin, one a line:
#
#   heap MB       grow the live heap to about MB megabytes; prints the size reached
#   run CASE N    N iterations of CASE, each timed: prints their nanoseconds on one line
#   warm CASE N   the same, untimed: prints "ok"
#   cases         the cases this worker has, on one line
#
#   ruby -I LIB tools/harness/ruby_worker.rb
require 'posix/spawn'

if RUBY_ENGINE == 'ruby'
  require 'io/nonblock'
  # Debian's posix-spawn 0.3.13 predates Ruby 3's non-blocking pipes: its Child hands the child
  # non-blocking ends, and `head` fails with EAGAIN after 64 KiB. Give the child blocking ones.
  module BlockingChildEnds
    def spawn(*args)
      options = args.last.is_a?(Hash) ? args.last : {}
      options.each { |key, value| value.nonblock = false if value.is_a?(IO) && %i[in out err].include?(key) }
      super
    end
  end
  POSIX::Spawn.singleton_class.prepend(BlockingChildEnds)
  POSIX::Spawn::Child.prepend(BlockingChildEnds)
end

# spawn-harness's C worker built as a library (HARNESS_C_LIBRARY), for the c_spawnp case: C's spawn made
# from inside this JVM, with no Ruby or gem code around it.
if RUBY_ENGINE == 'jruby' && ENV['HARNESS_C_LIBRARY']
  require 'ffi'
  module InJvmC
    extend FFI::Library
    ffi_lib ENV['HARNESS_C_LIBRARY']
    attach_function :c_worker_spawnp, [], :int
  end
end

module Worker
  MIB = 1024 * 1024
  BLOCK = 4096
  INPUT = ("x" * MIB).freeze
  TRUE_ARGV = ['true'].freeze

  module_function

  def now
    Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
  end

  def check(ok, name)
    raise "#{name}: the child did not do what it should (#{$?.inspect})" unless ok
  end

  def spawn_wait
    Process.wait(POSIX::Spawn.spawn('true'))
    $?.success?
  end

  # Two threads that each do 4 spawns + waits when told to: an iteration ends when both are done.
  def two_threads
    @two_threads ||= Array.new(2) do
      go = Queue.new
      done = Queue.new
      Thread.new do
        while go.pop
          ok = Array.new(4) { spawn_wait }.all?
          done << ok
        end
      end
      [go, done]
    end
  end

  CASES = {
    'spawn' => -> { spawn_wait },
    'system' => -> { POSIX::Spawn.system('true') },
    'builtin_spawn' => -> { Process.wait(Process.spawn('true')); $?.success? },
    'child_1m' => -> { POSIX::Spawn::Child.new('head', '-c', MIB.to_s, '/dev/zero').out.bytesize == MIB },
    'child_16m' => -> { POSIX::Spawn::Child.new('head', '-c', (16 * MIB).to_s, '/dev/zero').out.bytesize == 16 * MIB },
    'child_cat_1m' => -> { POSIX::Spawn::Child.new('cat', input: INPUT).out.bytesize == MIB },
    'spawn_2t' => lambda do
      threads = two_threads
      threads.each { |go, _| go << true }
      threads.map { |_, done| done.pop }.all?
    end,
  }
  CASES['c_spawnp'] = -> { InJvmC.c_worker_spawnp == 1 } if defined?(InJvmC)
  # SubSpawn, which JRuby bundles (libfixposix's spawn: a fork of this JVM); none where it does not load.
  begin
    require 'subspawn'
    CASES['subspawn'] = -> { Process.wait(SubSpawn.spawn_compat('true')); $?.success? }
  rescue LoadError, StandardError
    nil
  end if RUBY_ENGINE == 'jruby'
  CASES.freeze

  # The live heap: 4 KiB strings, grown to a target and then partly replaced between iterations.
  def heap
    @heap ||= []
  end

  def grow_heap(mb)
    heap << ('h' * BLOCK) while heap.size * BLOCK < mb * MIB
    GC.start
    live_mb
  end

  def live_mb
    if RUBY_ENGINE == 'jruby'
      java.lang.management.ManagementFactory.getMemoryMXBean.getHeapMemoryUsage.getUsed / MIB.to_f
    else
      heap.size * BLOCK / MIB.to_f
    end
  end

  # Other work between iterations: 16 retained blocks replaced (old-generation writes), 64 KiB of garbage.
  def other_work
    unless heap.empty?
      16.times { heap[rand(heap.size)] = 'r' * BLOCK }
    end
    16.times { Array.new(64) { |i| i.to_s } }
    nil
  end

  def serve(input, output)
    input.each_line do |line|
      verb, name, count = line.split
      case verb
      when 'heap'
        output.puts format('%.0f', grow_heap(Integer(name)))
      when 'cases'
        output.puts CASES.keys.join(' ')
      when 'run', 'warm'
        operation = CASES.fetch(name)
        times = Array.new(Integer(count)) do
          started = now
          ok = operation.call
          elapsed = now - started
          check(ok, name)
          other_work
          elapsed
        end
        output.puts(verb == 'run' ? times.join(' ') : 'ok')
      else
        raise "unknown command #{line.inspect}"
      end
      output.flush
    end
  end
end

Worker.serve($stdin, $stdout)

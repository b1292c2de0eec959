require 'zlib'
require_relative '../support/process_resources'
require_relative 'native_heap'
require_relative 'emfile_moments'
require_relative 'operations'

# A million operations with nothing lost (issue #28): OPS operations mixing every way the gem starts a
# child (Soak::Operations::MIX), from THREADS threads, with timeouts, Thread#raise interrupts, children
# killed by signals and EMFILE moments. A warm-up of the same mix first (every class loaded, every gem
# thread started, the JIT settled), then the baseline; at the end the descriptors (fd and target), the
# children, the threads (name and id), the native heap (mallinfo2, after GC) and RSS are compared with it,
# and every operation's output bytes and status with what its child was told to do. Prints a progress
# line every ~10 s and a table with a PASS/FAIL verdict; exits 1 on any loss.
#
#   bin/dev rake soak OPS=1000000 THREADS=8      (JRUBY=10 bin/dev rake soak ... on JRuby 10)
#
# Also: SEED (the operations' payloads and codes, printed), WARMUP (operations, default OPS/50, at least
# 2,000), EMFILE_EVERY (seconds between moments, 3), SKIP (operations left out, comma-separated),
# MAX_SECONDS (the run stops starting operations after that long, and reports those done).
# The rake task runs this in a JRuby of its own whose heap is fixed and touched up front, so that RSS moves
# only with native memory.
module Soak
  # Fixed allowances, not per operation: the JVM's own noise (compiler arenas, malloc's caches, JIT code
  # and metaspace) does not grow with the run, a leak per operation does. 2 MiB of native heap is 2 bytes
  # an operation over a million (Child's known 240 bytes, issue #28, stays under it at 20,000 operations:
  # +1.3 MiB). RSS grew 9-14 MiB in runs of 20,000 on JRuby 9.4 and 10, the JIT still compiling.
  NATIVE_HEAP_ALLOWANCE = 2 << 20
  RSS_ALLOWANCE = 24 << 20

  # The operation counts, outcomes, bytes and statuses, added up from every thread.
  class Tally
    EXAMPLES_KEPT = 3 # losses described, per operation

    attr_reader :outcomes, :losses, :failure_count, :done, :bytes, :statuses

    def initialize
      @lock = Mutex.new
      @outcomes = Hash.new(0)
      @losses = Hash.new { |hash, kind| hash[kind] = [] }
      @failure_count = 0
      @done = 0
      @bytes = { expected: 0, received: 0, expected_crc: 0, received_crc: 0 }
      @statuses = 0
    end

    def add(kind, outcome, check)
      @lock.synchronize do
        @done += 1
        @outcomes[[kind, outcome]] += 1
        check.bytes.each { |key, value| @bytes[key] += value }
        @statuses += check.statuses
      end
    end

    def failure(kind, index, message)
      @lock.synchronize do
        @done += 1
        @outcomes[[kind, :LOST]] += 1
        @failure_count += 1
        @losses[kind] << "##{index}: #{message}" if @losses[kind].size < EXAMPLES_KEPT
      end
    end
  end

  # One operation's checks: raises Loss at the first difference, and counts what it compared.
  class Check
    attr_reader :bytes, :statuses

    def initialize
      @bytes = { expected: 0, received: 0, expected_crc: 0, received_crc: 0 }
      @statuses = 0
    end

    def output(stream, want, got)
      want = want.b
      got = String === got ? got.b : got
      @bytes[:expected] += want.bytesize
      @bytes[:expected_crc] += Zlib.crc32(want)
      if String === got
        @bytes[:received] += got.bytesize
        @bytes[:received_crc] += Zlib.crc32(got)
      end
      return if want == got

      at = String === got ? (0...[want.size, got.size].min).find { |i| want.getbyte(i) != got.getbyte(i) } || [want.size, got.size].min : nil
      raise Loss, "#{stream}: expected #{want.bytesize} bytes, got #{String === got ? "#{got.bytesize} (first difference at byte #{at})" : got.inspect}: " \
                  "#{got.inspect[0, 60]} for #{want.inspect[0, 60]}"
    end

    def status(status, exit: nil, termsig: nil, same_as: nil)
      @statuses += 1
      ok = if same_as then status.equal?(same_as) || status == same_as
           elsif termsig then status&.signaled? && status.termsig == Signal.list.fetch(termsig)
           else status&.exited? && status.exitstatus == exit
           end
      return if ok

      raise Loss, "status #{status.inspect}, expected #{same_as ? same_as.inspect : termsig ? "signal #{termsig}" : "exit #{exit}"}"
    end

    def expect(what, want, got)
      raise Loss, "#{what}: #{got.inspect}, expected #{want.inspect}" unless want == got
    end

    # The exception the block raises, which must be an `error`; any other goes on up.
    def raises(error)
      yield
    rescue error => e
      e
    else
      raise Loss, "no #{error} raised"
    end
  end

  # Runs the operations from `first` to `last` (exclusive) on `threads` threads, EMFILE moments beside them.
  class Phase
    def initialize(name, first, last, threads:, schedule:, seed:, tally:, emfile_every:, progress:, stop_at: nil)
      @name, @first, @last, @threads, @schedule, @seed, @tally = name, first, last, threads, schedule, seed, tally
      @stop_at = stop_at
      @next = java.util.concurrent.atomic.AtomicLong.new(first)
      @moments = EmfileMoments.new(every: emfile_every, hold: 0.2, on_loss: ->(message) { @tally.failure(:emfile_probe, -1, message) })
      @progress = progress
    end

    attr_reader :moments

    # Each operation once on this thread before the others start and before any EMFILE moment: every
    # class loaded and every thread of the gem started (the FS thread, the reaper) while descriptors are
    # to be had. These count with the phase.
    def prime
      prime_selectors(2 * @threads + 4)
      # JRuby's own reference reaper, a daemon thread that its first weakly held native object starts and the
      # JVM keeps (JRuby 10's soak saw it start mid-run): started here, so the thread check sees the gem's.
      Java::OrgJrubyUtil::ReferenceReaper.getInstance
      @schedule.uniq.each { |kind| operate(kind, @next.getAndIncrement) }
      self
    end

    # JRuby waits for a pipe to be readable on a Java selector from a pool that grows to the most reads
    # ever blocked at once and keeps them: grown here to more than the soak's threads can block in, so that
    # the descriptor check sees the gem's descriptors, not the pool's. A pool per kind of channel: IO.pipe's
    # (the JDK's selector, an epoll and an eventfd) and the gem's pipes of popen and popen4 (jnr-enxio's, a
    # pipe pair each on JRuby 10: one opened in an EMFILE moment was the JRuby 10 soak's last descriptor).
    def prime_selectors(count)
      pipes = Array.new(count) { IO.pipe } + Array.new(count) { POSIX::Spawn::Native.pipe(IO) }
      readers = pipes.map { |reader, _| Thread.new { reader.read } }
      sleep 0.01 until readers.all? { |thread| thread.status == 'sleep' }
      sleep 0.2
      pipes.each { |_, writer| writer.close }
      readers.each(&:join)
      pipes.each { |reader, _| reader.close }
    end

    def run
      started = now
      @moments.start
      workers = Array.new(@threads) { |n| Thread.new { work(n) } }
      report(started) until workers.all? { |worker| worker.join(@progress) }
      @moments.stop
      now - started
    end

    private

    def work(n)
      Thread.current.name = "soak-#{@name}-#{n}"
      while (index = @next.getAndIncrement) < @last
        operate(@schedule[index % @schedule.size], index)
        break if @stop_at && now > @stop_at
      end
    end

    def operate(kind, index)
      op = Op.make(@seed, index)
      check = Check.new
      epoch = @moments.epoch
      outcome = begin
        Operations.public_send(kind, op, check)
      rescue Errno::EMFILE => e
        raise Loss, "Errno::EMFILE outside an EMFILE moment: #{e.message}" unless @moments.overlapped?(epoch)

        :emfile
      end
      @tally.add(kind, outcome, check)
    rescue StandardError => e
      where = e.is_a?(Loss) ? '' : " (#{e.class} at #{e.backtrace&.first})"
      @tally.failure(kind, index, "#{e.message}#{where}")
    end

    def report(started)
      elapsed = now - started
      done = @tally.done
      resources = begin
        "fds #{ProcessResources.descriptors.size}, children #{ProcessResources.children.size}, " \
          "RSS #{Soak.mib(ProcessResources.rss_kib << 10)}, native heap #{Soak.mib(NativeHeap.allocated)} (no GC)"
      rescue SystemCallError => e # in an EMFILE moment /proc cannot be read either
        e.class.name
      end
      emfile = @tally.outcomes.sum { |(_, outcome), n| outcome == :emfile ? n : 0 }
      puts format('[%s %6.0f s] %d of %d (%.0f ops/s), %d EMFILE (%d moments), %d lost; %s', @name, elapsed, done,
                  @last - @first, done / elapsed, emfile, @moments.moments, @tally.failure_count, resources)
      $stdout.flush
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end

  module_function

  def mib(bytes)
    format('%.1f MiB', bytes / 1048576.0)
  end

  # JRuby's own cached pool (Ruby-0-Worker-N: a blocking read on a pty master runs there), whose threads
  # come and go by themselves, a minute after their last task.
  JRUBY_WORKERS = /\ARuby-\d+-Worker-\d+\z/

  # Java threads as { id => name } (ids are never reused, so a thread replaced under the same name shows),
  # without the JIT's and JRuby's pools.
  def threads
    java.lang.Thread.getAllStackTraces.keySet.to_a
                    .reject { |t| t.getName.match?(ProcessResources::JVM_OWN_THREADS) || t.getName.match?(JRUBY_WORKERS) }
                    .to_h { |t| [t.getId, t.getName] }
  end

  # This process's children as { pid => "state program" } ("Z sh": a zombie that ran sh).
  def children
    ProcessResources.children.to_h { |pid, state| [pid, "#{state} #{ProcessResources.program_name(pid)}"] }
  end

  def collect_garbage
    3.times do
      java.lang.System.gc
      java.lang.System.runFinalization
      sleep 0.1
    end
  end

  # The median of three readings, a moment apart.
  def steady(&read)
    Array.new(3) { sleep 0.2; read.call }.sort[1]
  end

  # After GC, and after the JVM's compiler has given its arena chunks back to malloc (HotSpot's chunk
  # pool is cleaned every 5 s): what is left is what the program holds.
  def readings
    collect_garbage
    sleep 6
    collect_garbage
    { descriptors: ProcessResources.descriptors, children: children, threads: threads,
      native_heap: steady { NativeHeap.allocated }, rss: steady { ProcessResources.rss_kib << 10 } }
  end

  # What AFTER's set has that BEFORE's has not (opened, started), and the reverse.
  def set_changes(before, after)
    [after.reject { |key, value| before[key] == value }, before.reject { |key, value| after[key] == value }]
  end

  # Readings after the run, read again for up to 5 s while a set still differs (a descriptor the JVM holds
  # for a moment, a child being reaped, a thread ending); a loss stays.
  def settled_readings(before)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
    loop do
      after = readings
      settled = %i[descriptors children threads].all? { |kind| set_changes(before[kind], after[kind]).all?(&:empty?) }
      return after if settled || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    end
  end

  def describe(kind, opened, closed)
    words = { descriptors: %w[descriptor opened closed], children: %w[child started ended], threads: %w[thread started ended] }
    noun, new_word, gone_word = words.fetch(kind)
    (opened.map { |key, value| "#{noun} #{key} (#{value}) #{new_word}" } + closed.map { |key, value| "#{noun} #{key} (#{value}) #{gone_word}" }).join('; ')
  end

  def run(ops:, threads:, seed:, warmup:, emfile_every:, skip:, max_seconds:)
    mix = Operations::MIX.reject { |kind, _| skip.include?(kind) }
    schedule = mix.flat_map { |kind, weight| [kind] * weight }.shuffle(random: Random.new(seed))
    abort 'soak: the drop-in did not install' unless POSIX::Spawn::Kernel.installed?
    puts "soak: #{ops} operations from #{threads} threads after #{warmup} of warm-up, seed #{seed}, on JRuby " \
         "#{JRUBY_VERSION} (Java #{ENV_JAVA['java.version']}), pid #{Process.pid}, descriptor limit " \
         "#{Process.getrlimit(:NOFILE).first}; mix #{mix.map { |kind, weight| "#{kind} #{weight}" }.join(', ')}"
    options = { threads: threads, schedule: schedule, seed: seed, emfile_every: emfile_every, progress: 10 }

    warm = Tally.new
    Phase.new('warm-up', 0, warmup, tally: warm, **options).prime.run
    before = readings
    before[:children].each { |pid, what| warm.failure(:warm_up, -1, "child #{pid} (#{what}) left at the end of the warm-up") }

    tally = Tally.new
    stop_at = Process.clock_gettime(Process::CLOCK_MONOTONIC) + max_seconds if max_seconds
    phase = Phase.new('run', warmup, warmup + ops, tally: tally, stop_at: stop_at, **options)
    seconds = phase.run
    after = settled_readings(before)
    report(before, after, tally, phase.moments, seconds, warm)
  end

  # Prints the figures; returns whether nothing was lost.
  def report(before, after, tally, moments, seconds, warm)
    ops = tally.done
    rows = []
    details = []
    %i[descriptors children threads].each do |kind|
      opened, closed = set_changes(before[kind], after[kind])
      same = opened.empty? && closed.empty?
      details << "#{kind}: #{describe(kind, opened, closed)}" unless same
      rows << [kind.to_s, "#{before[kind].size} (set)", "#{after[kind].size} (set)",
               same ? 'same set' : "#{opened.size} new, #{closed.size} gone", 'none', same]
    end
    { 'native heap' => [:native_heap, NATIVE_HEAP_ALLOWANCE], 'RSS' => [:rss, RSS_ALLOWANCE] }.each do |label, (kind, allowance)|
      change = after[kind] - before[kind]
      rows << [label, mib(before[kind]), mib(after[kind]), format('%+.2f MiB (%+.1f B/op)', change / 1048576.0, change.to_f / ops),
               "#{mib(allowance)}", change <= allowance]
    end
    bytes = tally.bytes
    bytes_ok = bytes[:expected] == bytes[:received] && bytes[:expected_crc] == bytes[:received_crc] && tally.failure_count.zero?
    rows << ['output bytes', "#{bytes[:expected]} expected", "#{bytes[:received]} received",
             bytes[:expected_crc] == bytes[:received_crc] ? 'CRC-32 sums equal' : 'CRC-32 sums differ', 'none', bytes_ok]
    rows << ['statuses', "#{tally.statuses} checked", "#{tally.failure_count} lost", '', 'none', tally.failure_count.zero?]

    puts
    puts format('%d operations in %.0f s: %.0f ops/s', ops, seconds, ops / seconds)
    print_table(%w[what before after change allowance verdict], rows.map { |row| row[0..4] + [row[5] ? 'PASS' : 'FAIL'] })
    details.each { |line| puts line }
    puts
    kinds = tally.outcomes.keys.map(&:first).uniq
    outcomes = tally.outcomes.keys.map(&:last).uniq
    print_table(['operation', *outcomes.map(&:to_s), 'total'],
                kinds.map { |kind| [kind.to_s, *outcomes.map { |o| tally.outcomes[[kind, o]].to_s }, tally.outcomes.sum { |(k, _), n| k == kind ? n : 0 }.to_s] })
    puts "EMFILE moments: #{moments.moments}, a Child refused with EMFILE in #{moments.refused} (got through in " \
         "#{moments.passed_through}, a descriptor freed meanwhile), the next Child worked after #{moments.recovered}"
    { 'warm-up' => warm, 'run' => tally }.each do |name, phase_tally|
      phase_tally.losses.each do |kind, examples|
        puts "lost in the #{name}: #{phase_tally.outcomes[[kind, :LOST]]} #{kind}, the first:"
        examples.each { |example| puts "  #{example}" }
      end
    end
    pass = rows.all? { |row| row[5] } && warm.failure_count.zero?
    puts "verdict: #{pass ? 'PASS' : 'FAIL'}"
    pass
  end

  def print_table(header, rows)
    widths = header.each_index.map { |i| [header[i], *rows.map { |row| row[i] }].map(&:size).max }
    [header, *rows].each { |row| puts row.each_with_index.map { |cell, i| cell.ljust(widths[i]) }.join('  ').rstrip }
  end
end

if $PROGRAM_NAME == __FILE__
  ops = Integer(ENV.fetch('OPS', '1000000').delete('_'))
  pass = Soak.run(ops: ops, threads: Integer(ENV.fetch('THREADS', '8')), seed: Integer(ENV.fetch('SEED') { rand(1 << 31).to_s }),
                  warmup: Integer(ENV.fetch('WARMUP') { [ops / 50, 2000].max.to_s }),
                  emfile_every: Float(ENV.fetch('EMFILE_EVERY', '3')), skip: ENV.fetch('SKIP', '').split(',').map(&:to_sym),
                  max_seconds: ENV['MAX_SECONDS'] && Float(ENV['MAX_SECONDS']))
  exit(pass ? 0 : 1)
end

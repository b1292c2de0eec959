require 'posix/spawn'
require 'posix/spawn/benchmark/cpu_clock'
require 'posix/spawn/benchmark/measure'

module POSIX
  module Spawn
    module Benchmark
      # The handles section, a supervisor's load: N children of `sleep 600` started one after another and kept
      # alive, a row per way of keeping them (the gem's spawn, whose caller waits; JRuby's Process.spawn +
      # Process.detach, a thread each; start + on_exit, the reaper's), then KILL to a probe child started the
      # same way while the N live: how long until its waiter hears of the end. All N are then killed and reaped.
      # Each way first starts and reaps WARMUP children untimed.
      class Handles
        COMMAND = %w[sleep 600].freeze
        DEFAULT_CHILDREN = 1000 # at the default --time, 1.5 s; in proportion to it otherwise
        DEFAULT_TIME = 1.5
        PROBES = 50
        WARMUP = 300 # children a way starts and reaps, untimed, before its timed run

        # start_us, cpu_us: per child started (wall, this JVM's CPU); p50_us, p99_us: KILL to the waiter's news.
        Row = Struct.new(:name, :children, :start_us, :cpu_us, :p50_us, :p99_us)

        # The measured rows, and the section's seconds.
        attr_reader :rows, :seconds

        def initialize(settings, progress)
          @children = settings.count || [(DEFAULT_CHILDREN * settings.time / DEFAULT_TIME).round, 20].max
          @probes = [PROBES, @children].min
          @progress = progress
        end

        def measure
          begun = Benchmark.now
          ways = {
            'POSIX::Spawn.spawn + Process.wait' => -> { POSIX::Spawn.spawn(*COMMAND).then { |pid| [pid, -> { Process.wait(pid) }] } },
            'Process.spawn + Process.detach' => -> { Process.spawn(*COMMAND).then { |pid| [pid, Process.detach(pid).method(:join)] } },
            'POSIX::Spawn.start + on_exit' => lambda do
              ended = Queue.new
              handle = POSIX::Spawn.start(*COMMAND)
              handle.on_exit { ended << true }
              [handle.pid, ended.method(:pop)]
            end
          }
          ways.each { |name, start| row(name, [WARMUP, @children].min, 0, &start) } # the compilers' turn
          @rows = ways.map { |name, start| row(name, @children, @probes, &start) }
          @seconds = Benchmark.now - begun
          self
        end

        # The start + on_exit row against the gem's spawn.
        def summary
          spawn, detach, start = @rows
          format('%d alive: start + on_exit %.0f µs CPU a child, %.2fx spawn\'s; KILL to on_exit p50 %.0f µs, p99 %.0f µs ' \
                 '(Process.detach\'s thread: %.0f µs CPU a child, join p50 %.0f µs, p99 %.0f µs)',
                 @children, start.cpu_us, start.cpu_us / spawn.cpu_us, start.p50_us, start.p99_us, detach.cpu_us, detach.p50_us, detach.p99_us)
        end

        def table
          ["handles: #{@children} children of `#{COMMAND.join(' ')}` started from one thread and kept alive, then KILL to " \
           "#{@probes} more, one at a time: per child started, wall and this JVM's CPU (all threads); KILL to the waiter's news",
           format('%-36s %10s %10s %10s %10s', 'way', 'start µs', 'CPU µs', 'p50 µs', 'p99 µs'),
           *@rows.map { |r| format('%-36s %10.0f %10.0f %10.0f %10.0f', r.name, r.start_us, r.cpu_us, r.p50_us, r.p99_us) }]
        end

        private

        # COUNT children kept alive, then PROBES killed one at a time; START makes one child and returns
        # [pid, a lambda that returns once its end is known].
        def row(name, count, probes, &start)
          @progress.status("handles: #{name}, #{count} children")
          waits = []
          cpu0 = CpuClock.seconds
          t0 = Benchmark.now
          count.times { waits << start.call }
          wall = Benchmark.now - t0
          cpu = CpuClock.seconds - cpu0
          latencies = Array.new(probes) do
            pid, noticed = start.call
            t = Benchmark.now
            Process.kill(:KILL, pid)
            noticed.call
            Benchmark.now - t
          end.sort
          Row.new(name, count, wall * 1e6 / count, cpu * 1e6 / count, *([quantile(latencies, 0.5) * 1e6, quantile(latencies, 0.99) * 1e6] if probes.positive?))
        ensure
          waits.each { |pid, _| Process.kill(:KILL, pid) }
          waits.each { |_, noticed| noticed.call }
        end

        def quantile(sorted, p)
          sorted[[(sorted.size * p).ceil - 1, 0].max]
        end
      end
    end
  end
end

require 'posix/spawn'
require 'posix/spawn/benchmark/c_reference'
require 'posix/spawn/benchmark/cases'
require 'posix/spawn/benchmark/heap'
require 'posix/spawn/benchmark/runner'
require 'posix/spawn/benchmark/report'
require 'posix/spawn/benchmark/chart'

module POSIX
  module Spawn
    # What bin/posix-spawn-benchmark measures and how it reports it. Not loaded by `require 'posix/spawn'`.
    module Benchmark
      MB = 1024 * 1024 # and MiB: the heap sizes and the captured outputs are both binary megabytes

      # What one run was asked to do: the command-line options.
      Settings = Struct.new(:count, :rounds, :threads, :warmup, :mem_mb, :graph, :format, :chart, :only, keyword_init: true)

      module_function

      def now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end

      # COUNT split into PARTS whole numbers that differ by at most one: [4, 3, 3] for 10 in 3.
      def shares(count, parts)
        Array.new(parts) { |i| count / parts + (i < count % parts ? 1 : 0) }
      end

      def median(values)
        sorted = values.sort
        middle = sorted.size / 2
        sorted.size.odd? ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
      end

      # The full path of PROGRAM on PATH, as `command -v` prints it, or nil.
      def which(program)
        ENV.fetch('PATH', '').split(File::PATH_SEPARATOR).map { |dir| File.join(dir, program) }
           .find { |path| File.file?(path) && File.executable?(path) }
      end

      # The heap sizes to measure at: MEM_MB alone, or with --graph ten evenly spaced sizes ending at MEM_MB
      # and starting at a tenth of it, but at no more than 100 MB (the default size), so that a large
      # --mem-size still shows how the default compares.
      def heap_steps(mem_mb, graph)
        return [mem_mb] unless graph

        low = [mem_mb / 10.0, 100].min
        Array.new(10) { |i| (low + i * (mem_mb - low) / 9).round }
      end

      # Runs the benchmark SETTINGS describe: the report goes to stdout, progress to stderr.
      def run(settings)
        progress = Progress.new($stderr)
        heap = Heap.new
        heap.ensure_room_for(settings.mem_mb)
        cases = Cases.all.select { |c| settings.only.include?(c.group) }
        runner = Runner.new(cases.grep_v(Unavailable), settings, progress)
        runner.warm_up
        targets = heap_steps(settings.mem_mb, settings.graph)
        steps = targets.each_with_index.map do |target_mb, i|
          progress.say("step #{i + 1}/#{targets.size}: growing the live heap to #{target_mb} MB")
          live_mb = heap.grow_to(target_mb)
          Step.new(live_mb, runner.measure("step #{i + 1}, #{live_mb.round} MB: "))
        end
        progress.done
        report = Report.new(settings, cases, steps)
        $stdout.print report.public_send(settings.format)
        return unless settings.graph

        File.write(settings.chart, Chart.new(settings, cases, steps).svg)
        $stderr.puts "chart written to #{settings.chart}"
      end
    end
  end
end

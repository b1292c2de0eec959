require 'posix/spawn'
# For the drop-in's cases, without changing whether it is installed (requiring it the first time installs it).
installed = defined?(POSIX::Spawn::Kernel) && POSIX::Spawn::Kernel.installed?
require 'posix/spawn/kernel'
POSIX::Spawn::Kernel.uninstall unless installed
require 'posix/spawn/benchmark/measure'
require 'posix/spawn/benchmark/c_reference'
require 'posix/spawn/benchmark/cases'
require 'posix/spawn/benchmark/heap'
require 'posix/spawn/benchmark/runner'
require 'posix/spawn/benchmark/progress'
require 'posix/spawn/benchmark/summary'
require 'posix/spawn/benchmark/report'
require 'posix/spawn/benchmark/chart'
require 'posix/spawn/benchmark/cold'
require 'posix/spawn/benchmark/cold_report'
require 'posix/spawn/benchmark/interactive'
require 'posix/spawn/benchmark/handles'

module POSIX
  module Spawn
    module Benchmark
      # What one run was asked to do: the command-line options. COUNT is nil for a time budget (TIME).
      # What --only can choose: the groups of cases, and the interactive and handles sections (warm runs only).
      SECTIONS = [*GROUPS.keys, :interactive, :handles].freeze

      Settings = Struct.new(:count, :time, :warmup, :rounds, :threads, :mem_mb, :graph, :format, :chart, :only,
                            :cold, :jvms, keyword_init: true)

      module_function

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
        POSIX::Spawn::Kernel.uninstall # JRuby's builtin methods, but for the drop-in's own cases
        progress = Progress.new($stderr)
        cases = (settings.cold ? Cases.all([]) : Cases.all).select { |c| settings.only.include?(c.group) }
        return $stdout.print(Cold.new(settings, cases, progress).report.public_send(settings.format)) if settings.cold

        heap = Heap.new
        heap.ensure_room_for(settings.mem_mb)
        targets = cases.empty? ? [] : heap_steps(settings.mem_mb, settings.graph)
        runner = Runner.new(cases.grep_v(Unavailable), settings, progress, targets.size)
        runner.warm_up
        steps = targets.each_with_index.map do |target_mb, i|
          progress.status("growing the live heap to #{target_mb} MB")
          live_mb = heap.grow_to(target_mb)
          Step.new(live_mb, runner.measure(targets.size > 1 ? "heap #{i + 1}/#{targets.size}, #{live_mb.round} MB: " : ''))
        end
        interactive = Interactive.new(settings, progress).measure if settings.only.include?(:interactive)
        handles = Handles.new(settings, progress).measure if settings.only.include?(:handles)
        progress.done
        $stdout.print Report.new(settings, cases, runner, steps, interactive, handles).public_send(settings.format)
        return unless settings.graph

        File.write(settings.chart, Chart.new(settings, cases, steps).svg)
        $stderr.puts "chart written to #{settings.chart}"
      end
    end
  end
end

require 'json'

module POSIX
  module Spawn
    module Benchmark
      # The --cold run's report (Cold): for each case, over its fresh JVMs, the require, the first operation,
      # the first --count together and the whole process; as a table, CSV or JSON, each ending with the summary.
      class ColdReport
        COLUMNS = { require_ms: 'require', first_ms: 'first op', total_ms: 'first %d', process_ms: 'whole JVM' }.freeze

        # RUNS: { case => [Cold::Run, one a JVM] }
        def initialize(settings, cases, runs)
          @settings = settings
          @cases = cases
          @runs = runs
          @summary = Summary.cold(settings, runs)
          @name_width = cases.map { |c| c.name.size }.max
        end

        def table
          titles = COLUMNS.values.map { |title| format(title, @settings.count) }
          lines = ["posix-spawn-benchmark: cold. #{ColdReport.jvms(@settings.jvms)} a case, the cases taking turns, each doing " \
                   "the case's first #{@settings.count} operations from its start (JRuby booted; the gem's require timed apart, " \
                   "as the script's first line)",
                   Report.platform, '',
                   "ms, median [#{Benchmark.interval_name(@settings.jvms)}] over the JVMs",
                   format("  %-#{@name_width}s#{' %22s' * titles.size}", '', *titles)]
          GROUPS.each do |key, group|
            cases = @cases.select { |c| c.group == key }
            next if cases.empty?

            lines << group.title
            cases.each do |c|
              cells = COLUMNS.keys.map { |column| column == :require_ms && !c.needs ? '-' : cell(@runs[c].map(&column)) }
              lines << format("  %-#{@name_width}s#{' %22s' * cells.size}", c.name, *cells)
            end
          end
          [*lines, '', *@summary.lines].join("\n") + "\n"
        end

        def csv
          rows = [%w[group case jvm require_ms first_ms first_n_ms process_ms]]
          @cases.each do |c|
            @runs[c].each_with_index do |run, jvm|
              rows << [c.group, c.name, jvm + 1, *COLUMNS.keys.map { |column| run.public_send(column).round(2) }]
            end
          end
          Report.csv(rows)
        end

        def json
          results = @cases.map do |c|
            { case: c.name, group: c.group, needs: c.needs, runs: @runs[c].map { |run| run.to_h.merge(first_n_ms: run.total_ms) } }
          end
          JSON.pretty_generate(settings: @settings.to_h, platform: Report.platform, results: results, summary: @summary.lines) + "\n"
        end

        def self.jvms(n)
          "#{n} fresh JVM#{'s' unless n == 1}"
        end

        private

        def cell(values)
          low, high = Benchmark.interval(values)
          format('%.1f [%.1f-%.1f]', Benchmark.median(values), low, high)
        end
      end
    end
  end
end

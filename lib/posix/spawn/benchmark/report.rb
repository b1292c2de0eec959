require 'json'
require 'rbconfig'

module POSIX
  module Spawn
    module Benchmark
      # The measurements of one run as a table for people (`table`), or as `csv` or `json` for programs.
      # Times are microseconds per operation; a ratio is the median over the rounds of a case's time over
      # its group baseline's in the same round (Timing#ratio_to).
      class Report
        NAME_WIDTH = 40

        def initialize(settings, cases, steps)
          @settings = settings
          @cases = cases
          @steps = steps
        end

        def table
          [header, *(@settings.graph ? heap_table : case_table), '', NO_FSPAWN].join("\n") + "\n"
        end

        def csv
          rows = [%w[heap_mb group case min_us median_us max_us ratio]]
          results.each { |r| rows << r.values_at(:heap_mb, :group, :case, :min_us, :median_us, :max_us, :ratio) }
          rows.map { |row| row.map { |field| csv_field(field) }.join(',') }.join("\n") + "\n"
        end

        def json
          unavailable = @cases.grep(Unavailable).map { |c| { case: c.name, group: c.group, reason: c.reason } }
          JSON.pretty_generate(settings: @settings.to_h, platform: platform, note: NO_FSPAWN,
                               unavailable: unavailable, results: results) + "\n"
        end

        private

        def header
          s = @settings
          "posix-spawn-benchmark: #{s.count} operations per case in #{s.rounds} rounds on #{s.threads} " \
            "thread#{'s' unless s.threads == 1}, after #{s.warmup} to warm up\n#{platform}\n"
        end

        def platform
          "JRuby #{JRUBY_VERSION} on #{ENV_JAVA['java.vm.name']} #{ENV_JAVA['java.version']}, " \
            "#{RbConfig::CONFIG['host_os']} #{RbConfig::CONFIG['host_cpu']}, " \
            "#{java.lang.Runtime.getRuntime.availableProcessors} CPUs"
        end

        # One heap size: min, median and max of every case, and its ratio.
        def case_table
          step = @steps.first
          lines = [format('µs per operation, live heap %d MB', step.heap_mb),
                   format("  %-#{NAME_WIDTH}s %9s %9s %9s %7s", '', 'min', 'median', 'max', 'ratio')]
          each_group do |group, cases|
            lines << "#{group.title} (ratio to #{group.baseline})"
            cases.each do |c|
              timing = step.timings[c]
              lines << if timing
                         format("  %-#{NAME_WIDTH}s %9.1f %9.1f %9.1f %7s", c.name, *us(timing.to_a), ratio_text(step, c))
                       else
                         format("  %-#{NAME_WIDTH}s %s", c.name, c.reason)
                       end
            end
          end
          lines
        end

        # --graph: the median of every case at every heap size, and how the largest heap compares to the
        # smallest, as measured and net of the machine's drift. Steps run minutes apart and load from the
        # rest of the machine changes in between, but not within a round: so the second ratio compares the
        # case's time relative to the C loop's in the same rounds, a separate process whose time this JVM's
        # heap cannot change.
        def heap_table
          first, last = @steps.first, @steps.last
          control = @cases.grep(CReference).find(&:full_path?)
          lines = ['median µs per operation, by live heap (MB)',
                   format("  %-#{NAME_WIDTH}s%s %12s %14s", '', @steps.map { |s| format('%7d', s.heap_mb) }.join,
                          format('%d/%d MB', last.heap_mb, first.heap_mb), 'net of drift')]
          each_group do |group, cases|
            lines << group.title
            cases.each do |c|
              next lines << format("  %-#{NAME_WIDTH}s %s", c.name, c.reason) unless first.timings[c]

              medians = @steps.map { |s| format('%7.0f', s.timings[c].median * 1e6) }.join
              growth = last.timings[c].median / first.timings[c].median
              net = control ? format('%.2f', relative(last, c, control) / relative(first, c, control)) : '-'
              lines << format("  %-#{NAME_WIDTH}s%s %12.2f %14s", c.name, medians, growth, net)
            end
          end
          lines << '' << "net of drift: the same ratio, of times relative to #{control.name}'s in the same rounds" if control
          lines
        end

        def relative(step, c, other)
          step.timings[c].ratio_to(step.timings[other])
        end

        def each_group
          GROUPS.each do |key, group|
            cases = @cases.select { |c| c.group == key }
            yield group, cases unless cases.empty?
          end
        end

        def results
          @steps.flat_map do |step|
            step.timings.map do |c, timing|
              min, median, max = us(timing.to_a).map { |t| t.round(1) }
              { heap_mb: step.heap_mb.round, group: c.group, case: c.name,
                min_us: min, median_us: median, max_us: max, ratio: ratio(step, c)&.round(3) }
            end
          end
        end

        # The case's time relative to its group baseline's at that step, or nil when the baseline is not available.
        def ratio(step, c)
          baseline = step.timings.keys.find { |other| other.name == GROUPS.fetch(c.group).baseline }
          baseline && relative(step, c, baseline)
        end

        def ratio_text(step, c)
          (r = ratio(step, c)) ? format('%.2f', r) : '-'
        end

        def us(seconds)
          seconds.map { |s| s * 1e6 }
        end

        def csv_field(value)
          text = value.to_s
          text.match?(/[",\n]/) ? "\"#{text.gsub('"', '""')}\"" : text
        end
      end
    end
  end
end

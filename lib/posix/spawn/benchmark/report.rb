require 'json'
require 'rbconfig'

module POSIX
  module Spawn
    module Benchmark
      # The measurements of one warm run as a table for people (`table`), or as `csv` or `json` for
      # programs, each ending with the summary. Times are microseconds per operation; a ratio is the median
      # over the rounds of a case's time over its group baseline's in the same round (Timing#ratio_to),
      # with its interval.
      class Report
        # RUNNER: the Runner that measured STEPS, for its warm-ups and the time spent; INTERACTIVE and HANDLES:
        # those sections, measured (nil when left out).
        def initialize(settings, cases, runner, steps, interactive = nil, handles = nil)
          @settings = settings
          @cases = cases
          @warmups = runner.warmups
          @seconds = runner.seconds
          @steps = steps
          @interactive = interactive
          @handles = handles
          @control = cases.grep(CReference).find(&:full_path?)
          @summary = Summary.warm(settings, @warmups, steps, @control, interactive, handles)
          @name_width = cases.map { |c| c.name.size }.max
        end

        def table
          tables = [(@settings.graph ? heap_table : case_table if @cases.any?), (interactive_table if @interactive), (@handles.table if @handles)].compact
          [*header, *tables.flat_map { |t| ['', *t] }, '', NO_FSPAWN, '', *@summary.lines].join("\n") + "\n"
        end

        # The interactive section's rows follow the cases', in columns of their own.
        def csv
          keys = %i[heap_mb group case ops median_us spread_pct settled warmup_s ratio ratio_low ratio_high verdict]
          extra = %i[cpu_us p90_us p99_us cpu_ratio p90_ratio]
          round_trips = interactive_results.map do |r|
            [nil, 'interactive', "#{r[:kind]} #{r[:worker]}", r[:trips], r[:p50_us], *[nil] * 7, *r.values_at(*extra).map { |v| v.is_a?(Hash) ? v[:value] : v }]
          end
          handles = (@handles&.rows || []).map { |r| [nil, 'handles', r.name, r.children, r.start_us.round(1), *[nil] * 7, r.cpu_us.round(1), r.p50_us.round(1), r.p99_us.round(1)] }
          Report.csv([[*keys, *extra].map(&:to_s), *results.map { |r| r.values_at(*keys, *extra) }, *round_trips, *handles])
        end

        def json
          unavailable = @cases.grep(Unavailable).map { |c| { case: c.name, group: c.group, reason: c.reason } }
          JSON.pretty_generate(settings: @settings.to_h, platform: Report.platform, note: NO_FSPAWN, unavailable: unavailable,
                               seconds: @seconds.transform_values { |s| s.round(2) }, results: results,
                               interactive: (interactive_json if @interactive), handles: @handles&.rows&.map(&:to_h),
                               summary: @summary.lines) + "\n"
        end

        # ROWS as CSV, quoting the fields that need it.
        def self.csv(rows)
          rows.map { |row| row.map { |field| csv_field(field) }.join(',') }.join("\n") + "\n"
        end

        def self.csv_field(value)
          text = value.to_s
          text.match?(/[",\n]/) ? "\"#{text.gsub('"', '""')}\"" : text
        end

        def self.platform
          "JRuby #{JRUBY_VERSION} on #{ENV_JAVA['java.vm.name']} #{ENV_JAVA['java.version']}, " \
            "#{RbConfig::CONFIG['host_os']} #{RbConfig::CONFIG['host_cpu']}, " \
            "#{java.lang.Runtime.getRuntime.availableProcessors} CPUs"
        end

        private

        def header
          s = @settings
          timed = if s.count then "then #{s.count} operations timed"
                  else "then timed for #{s.time} s"
                  end
          threads = s.threads == 1 ? '1 thread' : "#{s.threads} threads"
          ["posix-spawn-benchmark: warm. Each case warmed up until its median operation in a window was no faster " \
           "than in the one before, within #{(Runner::AGREE * 100).round}% (settled; at most #{s.warmup} s),",
           "#{timed} in #{s.rounds} rounds, the cases taking turns in a new order each; #{threads}. Warming up took " \
           "#{Progress.duration(@seconds[:warm_up])}, timing #{Progress.duration(@seconds[:timing])}" \
           "#{", the interactive section #{Progress.duration(@interactive.seconds)}" if @interactive}" \
           "#{", the handles section #{Progress.duration(@handles.seconds)}" if @handles}",
           Report.platform]
        end

        # One heap size: each case's operations, median and spread, ratio and warm-up.
        def case_table
          step = @steps.first
          lines = [format('live heap %d MB. ops: operations timed; µs: median per operation over the rounds, ± half its %s ' \
                          '(a case slower than its share of a round runs in fewer rounds)', step.heap_mb, Benchmark.interval_name(@settings.rounds)),
                   format("  %-#{@name_width}s %8s %10s %6s   %-27s %s", '', 'ops', 'µs', '±%', 'ratio [interval]', 'warm-up')]
          each_group do |group, cases|
            lines << "#{group.title} (ratio to #{group.baseline})"
            cases.each do |c|
              timing = step.timings[c]
              next lines << format("  %-#{@name_width}s %s", c.name, c.reason) unless timing

              ratio = ratio(step, c)
              lines << format("  %-#{@name_width}s %8d %10.1f %6.1f   %-27s %s", c.name, timing.ops, timing.median * 1e6,
                              timing.spread * 100, ratio_text(c, ratio), warmup_text(c))
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
          lines = ['median µs per operation, by live heap (MB)',
                   format("  %-#{@name_width}s%s %12s %14s", '', @steps.map { |s| format('%7d', s.heap_mb) }.join,
                          format('%d/%d MB', last.heap_mb, first.heap_mb), 'net of drift')]
          each_group do |group, cases|
            lines << group.title
            cases.each do |c|
              next lines << format("  %-#{@name_width}s %s", c.name, c.reason) unless first.timings[c]

              medians = @steps.map { |s| format('%7.0f', s.timings[c].median * 1e6) }.join
              growth = last.timings[c].median / first.timings[c].median
              net = @control ? format('%.2f', relative(last, c, @control).value / relative(first, c, @control).value) : '-'
              lines << format("  %-#{@name_width}s%s %12.2f %14s", c.name, medians, growth, net)
            end
          end
          lines << '' << "net of drift: the same ratio, of times relative to #{@control.name}'s in the same rounds" if @control
          lines
        end

        # The round trips: how they were measured, then per kind each worker's row.
        def interactive_table
          run = @interactive.run
          mri = run.workers.find { |w| w.name == 'MRI' }
          ["interactive: a round trip with a live child, in worker processes of their own (no live heap), #{run.rounds} rounds " \
           "in #{Progress.duration(run.seconds)}, each worker and kind a batch in each, in a new order each round;",
           "per trip the worker's process CPU (all threads), and wall percentiles over all its trips; ratios to the #{Interactive::BASELINE}'s, " \
           "round by round [#{Benchmark.interval_name(run.rounds)}]",
           mri ? "MRI: #{mri.description}" : @interactive.mri_note,
           *run.table(@interactive.baseline)]
        end

        def interactive_results
          return [] unless @interactive

          @interactive.run.rows(@interactive.baseline).map do |r|
            r.transform_values do |v|
              case v
              when Float then v.round(1)
              when Ratio then { value: v.value.round(3), low: v.low.round(3), high: v.high.round(3) }
              else v
              end
            end
          end
        end

        def interactive_json
          run = @interactive.run
          { rounds: run.rounds, seconds: run.seconds.round(2), workers: run.workers.to_h { |w| [w.name, w.description] },
            mri_note: @interactive.mri_note, results: interactive_results }
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
              ratio = ratio(step, c)
              warmup = @warmups[c]
              { heap_mb: step.heap_mb.round, group: c.group, case: c.name, ops: timing.ops,
                median_us: (timing.median * 1e6).round(1), spread_pct: (timing.spread * 100).round(1),
                settled: warmup.settled, warmup_s: warmup.seconds.round(2),
                ratio: ratio&.value&.round(3), ratio_low: ratio&.low&.round(3), ratio_high: ratio&.high&.round(3),
                verdict: ratio && !baseline?(c) ? verdict(ratio) : nil }
            end
          end
        end

        # The case's time relative to its group baseline's at that step, or nil when the baseline is not available.
        def ratio(step, c)
          baseline = step.timings.keys.find { |other| baseline?(other) && other.group == c.group }
          baseline && relative(step, c, baseline)
        end

        def baseline?(c)
          c.name == GROUPS.fetch(c.group).baseline
        end

        def verdict(ratio)
          ratio.word('faster', 'slower')
        end

        def ratio_text(c, ratio)
          return '-' unless ratio
          return '1.00' if baseline?(c)

          "#{ratio} #{verdict(ratio)}"
        end

        def warmup_text(c)
          w = @warmups[c]
          format('%s %.1f s', w.settled ? 'settled' : 'UNSETTLED', w.seconds)
        end
      end
    end
  end
end

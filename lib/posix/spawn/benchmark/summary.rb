require 'posix/spawn/benchmark/measure'

module POSIX
  module Spawn
    module Benchmark
      # The answers, in four or five lines: each of the gem's ways against the ways JRuby already has, as the
      # other's time over the gem's in the same rounds with its interval, and what growing the heap did
      # (--graph). Printed last, and in the JSON report.
      class Summary
        # Each line: its title, whose ratios it gives, and [the gem's case, the other case, what to call it].
        COMPARISONS = [
          ['spawn + wait', 'gem', [['POSIX::Spawn.spawn', 'C posix_spawnp("true")', 'C posix_spawnp'],
                                   ['POSIX::Spawn.spawn', 'Process.spawn', "JRuby's Process.spawn"]]],
          [':chdir', 'gem', [['POSIX::Spawn.spawn chdir: Dir.tmpdir', 'Process.spawn chdir: Dir.tmpdir', "JRuby's Process.spawn chdir:"]]],
          ['capture 1 MiB', 'gem', [['POSIX::Spawn::Child 1 MiB', 'Open3.capture3 1 MiB', 'Open3.capture3'],
                                    ['POSIX::Spawn::Child 1 MiB', 'ProcessBuilder + drain threads 1 MiB', 'ProcessBuilder + drain threads']]],
          ['drop-in, 1 MiB', 'drop-in', [['Open3.capture3 1 MiB drop-in', 'Open3.capture3 1 MiB', "JRuby's Open3.capture3"],
                                         ['backtick 1 MiB drop-in', 'backtick 1 MiB builtin', 'backtick'],
                                         ['IO.popen(...).read 1 MiB drop-in', 'IO.popen(...).read 1 MiB builtin', 'IO.popen(...).read']]],
        ].freeze
        # The cases whose heap growth the --graph line gives.
        HEAP_CASES = ['POSIX::Spawn.spawn', 'Process.spawn', 'POSIX::Spawn::Child 1 MiB'].freeze
        TITLE_WIDTH = 16

        # A comparison measured: the other case's time over the gem's (RATIOS: Ratio, and for --cold the
        # same counting both sides' require).
        Item = Struct.new(:title, :subject, :label, :ratios) do
          def to_s
            main, with_require = ratios
            text = "#{label} #{main} #{verdict(main)}"
            with_require ? "#{text} (with the require #{with_require} #{verdict(with_require)})" : text
          end

          def verdict(ratio)
            ratio.word("#{subject} slower", "#{subject} faster")
          end
        end

        # HEADER: the first line; RATIOS: what to say of two cases by name ([Ratio...], nil when either was
        # not measured).
        def initialize(header, &ratios)
          @header = header
          @ratios = ratios
          @before = []
          @after = []
        end

        # The interactive section's lines, by round-trip kind.
        ROUND_TRIP_TITLES = { 'pipe' => 'pipe round trip', 'pty' => 'PTY round trip' }.freeze

        # The warm run's: its STEPS' first heap for the comparisons, the last over the first for the heap line,
        # INTERACTIVE's round trips and HANDLES' line (each nil when left out).
        def self.warm(settings, warmups, steps, control, interactive = nil, handles = nil)
          unsettled = warmups.count { |_, w| !w.settled }
          settled = unsettled.zero? ? "all #{warmups.size} cases settled" : "#{unsettled} of #{warmups.size} cases NOT settled"
          first = steps.first
          by_name = ->(step, name) { step.timings.find { |c, _| c.name == name } }
          note = ratio_note('in the same rounds', settings.rounds)
          what = first ? "#{first.heap_mb.round} MB live heap, #{settled}" : "the #{settings.only.join(' and ')} section#{'s' if settings.only.size > 1} only"
          summary = new("summary: warm, #{what}; #{note}") do |ours, theirs|
            mine, other = by_name.(first, ours), by_name.(first, theirs) if first
            [other[1].ratio_to(mine[1])] if mine && other
          end
          summary.round_trip_lines(interactive) if interactive
          summary.handles_line(handles) if handles
          summary.heap_line(steps, control, by_name) if settings.graph && first
          summary
        end

        # The cold run's: RUNS { case => [Cold::Run] }, JVM by JVM; the ratios pair the cases' runs in the
        # order they ran, turn by turn.
        def self.cold(settings, runs)
          by_name = runs.transform_keys(&:name)
          note = ratio_note('JVM by JVM', settings.jvms)
          header = "summary: cold, #{ColdReport.jvms(settings.jvms)} a case, each timing its first #{settings.count} operations; #{note}"
          summary = new(header) do |ours, theirs|
            mine, other = by_name[ours], by_name[theirs]
            next unless mine && other

            pairs = other.zip(mine)
            [Ratio.of(pairs.map { |o, m| o.total_ms / m.total_ms }),
             Ratio.of(pairs.map { |o, m| (o.require_ms + o.total_ms) / (m.require_ms + m.total_ms) })]
          end
          summary.require_line(runs)
          summary
        end

        def self.ratio_note(where, n)
          "ratio = the other's time over the gem's (drop-in's) #{where} [#{Benchmark.interval_name(n)}], level when it holds 1"
        end

        def items
          COMPARISONS.flat_map do |title, subject, pairs|
            pairs.filter_map do |ours, theirs, label|
              ratios = @ratios.call(ours, theirs)
              ratios && Item.new(title, subject, label, ratios)
            end
          end
        end

        def lines
          rows = items.group_by(&:title).map { |title, its| line(title, its.join('; ')) }
          [@header, *@before, *rows, *@after]
        end

        # --cold: how long the require of each feature of the gem the cases need took, over all their JVMs,
        # and a one-line file's in the others: what a script's first require costs, whatever it loads.
        def require_line(runs)
          by_feature = runs.group_by { |c, _| c.needs }
          features = by_feature.reject { |needs, _| needs.nil? }.sort.map do |needs, cases|
            "'#{needs}' #{median_over(cases.flat_map { |_, rs| rs.map(&:require_ms) })}"
          end
          return if features.empty?

          first = by_feature.fetch(nil, []).flat_map { |_, rs| rs.map(&:first_require_ms) }
          features << "a one-line file's #{median_over(first)} (any first require)" unless first.empty?
          @before << line('require', "#{features.join('; ')} (median [interval])")
        end

        # The handles section's start + on_exit against spawn, and its latencies (Handles#summary).
        def handles_line(handles)
          @after << line('handles', handles.summary)
        end

        # Per kind, each other worker's CPU a trip and wall p90 over the drop-in's, round by round.
        def round_trip_lines(interactive)
          interactive.run.rows(interactive.baseline).select { |r| r[:cpu_ratio] }.group_by { |r| r[:kind] }.each do |kind, rows|
            items = rows.flat_map do |r|
              [Item.new(nil, 'drop-in', "#{r[:worker]} CPU", [r[:cpu_ratio]]), Item.new(nil, 'drop-in', "#{r[:worker]} p90", [r[:p90_ratio]])]
            end
            @after << line(ROUND_TRIP_TITLES.fetch(kind), items.join('; '))
          end
        end

        # The time per operation at the largest heap over the smallest's, net of drift: relative to CONTROL's
        # (the C loop in its own process, which this JVM's heap cannot slow) in the same rounds; as measured
        # when there is no C loop.
        def heap_line(steps, control, by_name)
          first, last = steps.first, steps.last
          growth = HEAP_CASES.filter_map do |name|
            c, timing = by_name.(first, name)
            next unless c

            late = last.timings[c]
            ratio = if control
                      late.ratio_to(last.timings[control]).over(timing.ratio_to(first.timings[control]))
                    else
                      late.as_ratio.over(timing.as_ratio)
                    end
            "#{name} #{ratio} #{ratio.word('shrinks', 'grows', 'flat')}"
          end
          return if growth.empty?

          how = control ? 'net of drift' : 'as measured'
          @after << line("heap #{first.heap_mb.round}-#{last.heap_mb.round} MB",
                         format('time at %d MB over %d MB (%s): %s', last.heap_mb, first.heap_mb, how, growth.join('; ')))
        end

        private

        def median_over(ms)
          low, high = Benchmark.interval(ms)
          format('%.0f ms [%.0f-%.0f] over %d JVMs', Benchmark.median(ms), low, high, ms.size)
        end

        def line(title, text)
          format("  %-#{TITLE_WIDTH}s %s", title, text)
        end
      end
    end
  end
end

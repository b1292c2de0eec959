require 'cgi'

module POSIX
  module Spawn
    module Benchmark
      # The --graph chart as a standalone SVG: median time per operation against live heap size, one line per
      # case, one panel per group (capturing 16 MiB takes far longer than spawning, so each gets its own scale).
      class Chart
        WIDTH = 900
        PANEL_HEIGHT = 320
        PLOT = { left: 70, right: 590, top: 40, bottom: 270 }.freeze # plot area within a panel; legend to the right
        COLORS = %w[#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf].freeze

        def initialize(settings, cases, steps)
          @settings = settings
          @steps = steps
          @panels = GROUPS.map { |key, group| [group, cases.select { |c| c.group == key && steps.first.timings[c] }] }
                          .reject { |_, measured| measured.empty? }
        end

        def svg
          height = 40 + @panels.size * PANEL_HEIGHT
          budget = @settings.count ? "-n #{@settings.count}" : "-t #{@settings.time}"
          title = "posix-spawn-benchmark --graph #{budget} -m #{@settings.mem_mb} " \
                  "--threads #{@settings.threads}: median of #{@settings.rounds} rounds"
          body = @panels.each_with_index.map { |(group, cases), i| panel(group, cases, 40 + i * PANEL_HEIGHT) }
          <<~SVG
            <svg xmlns="http://www.w3.org/2000/svg" width="#{WIDTH}" height="#{height}" viewBox="0 0 #{WIDTH} #{height}" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="#fff"/>
            #{text(WIDTH / 2, 24, title, 'middle', 15)}
            #{body.join("\n")}
            </svg>
          SVG
        end

        private

        def panel(group, cases, top)
          medians = cases.to_h { |c| [c, @steps.map { |s| s.timings[c].median * 1e6 }] }
          y_step = tick_step(medians.values.flatten.max)
          y_max = (medians.values.flatten.max / y_step).ceil * y_step
          heaps = @steps.map(&:heap_mb)
          x = ->(mb) { PLOT[:left] + (mb - heaps.min) * (PLOT[:right] - PLOT[:left]) / [heaps.max - heaps.min, 1].max }
          y = ->(us) { top + PLOT[:bottom] - us * (PLOT[:bottom] - PLOT[:top]) / y_max }
          [
            text(PLOT[:left], top + PLOT[:top] - 12, CGI.escapeHTML(group.title), 'start', 13),
            *0.step(y_max, y_step).map do |us|
              %(<line x1="#{PLOT[:left]}" x2="#{PLOT[:right]}" y1="#{y[us].round(1)}" y2="#{y[us].round(1)}" stroke="#ddd"/>) +
                text(PLOT[:left] - 6, y[us] + 4, format('%g', us), 'end')
            end,
            *heaps.map { |mb| text(x[mb], top + PLOT[:bottom] + 16, mb.round.to_s, 'middle') },
            text((PLOT[:left] + PLOT[:right]) / 2, top + PLOT[:bottom] + 34, 'live heap (MB)', 'middle'),
            %(<text transform="translate(16 #{top + (PLOT[:top] + PLOT[:bottom]) / 2}) rotate(-90)" text-anchor="middle">µs per operation</text>),
            *medians.each_with_index.map do |(c, values), i|
              color = COLORS[i % COLORS.size]
              points = heaps.zip(values).map { |mb, us| [x[mb].round(1), y[us].round(1)] }
              legend_y = top + PLOT[:top] + i * 18
              %(<polyline fill="none" stroke="#{color}" stroke-width="2" points="#{points.map { |p| p.join(',') }.join(' ')}"/>) +
                points.map { |px, py| %(<circle cx="#{px}" cy="#{py}" r="2.5" fill="#{color}"/>) }.join +
                %(<rect x="#{PLOT[:right] + 20}" y="#{legend_y - 9}" width="12" height="12" fill="#{color}"/>) +
                text(PLOT[:right] + 38, legend_y + 1, CGI.escapeHTML(c.name), 'start')
            end,
          ].join("\n")
        end

        # A round step (1, 2 or 5 times a power of ten) that divides 0..MAX into about five intervals.
        def tick_step(max)
          raw = max / 5.0
          magnitude = 10**Math.log10(raw).floor
          [1, 2, 5, 10].map { |m| m * magnitude }.find { |s| s >= raw }
        end

        def text(x, y, content, anchor, size = 12)
          %(<text x="#{x.round(1)}" y="#{y.round(1)}" text-anchor="#{anchor}" font-size="#{size}">#{content}</text>)
        end
      end
    end
  end
end

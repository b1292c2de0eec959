module POSIX
  module Spawn
    # What bin/posix-spawn-benchmark measures and how it reports it. Not loaded by `require 'posix/spawn'`;
    # this file and cases.rb do not load the gem either, so that --cold's fresh JVMs can time its require.
    module Benchmark
      MB = 1024 * 1024 # and MiB: the heap sizes and the captured outputs are both binary megabytes

      # How sure an interval is meant to be that it holds the true median (see ::interval).
      CONFIDENCE = 0.99

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
        sorted.size.odd? ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0
      end

      # [low, high]: a confidence interval for the median of VALUES that assumes nothing of their
      # distribution: the k-th smallest and k-th largest, k as large as keeps the chance that the median lies
      # outside under 1 - CONFIDENCE (binomial: each value falls below the median with chance 1/2). For 10
      # values that is [min, max]; with fewer than 8 even [min, max] is less sure than CONFIDENCE (75% for 3).
      def interval(values)
        sorted = values.sort
        n = sorted.size
        k = 1
        below = 1 # outcomes, of 2**n, with fewer than k values under the median
        while k < n / 2 && 2 * (below + binomial(n, k)) <= (1 - CONFIDENCE) * 2**n
          below += binomial(n, k)
          k += 1
        end
        [sorted[k - 1], sorted[n - k]]
      end

      # What ::interval of N values is, for a report: the confidence it reaches, or just the range.
      def interval_name(n)
        n >= 8 ? "#{(CONFIDENCE * 100).round}% interval" : 'min-max'
      end

      def binomial(n, k)
        (1..k).reduce(1) { |product, i| product * (n - k + i) / i }
      end

      # One case's time over another's, from rounds (or fresh JVMs) in which both ran: the median of the
      # rounds' ratios and its interval. A ratio whose interval holds 1 is level: the run cannot tell the
      # two apart, whatever the median says.
      class Ratio
        attr_reader :value, :low, :high, :n

        # Fewer rounds (or JVMs) than this say nothing of the noise: their ratio gets no verdict.
        FEWEST = 3

        def self.of(ratios)
          new(Benchmark.median(ratios), *Benchmark.interval(ratios), ratios.size)
        end

        # N: how many rounds it comes from.
        def initialize(value, low, high, n)
          @value = value
          @low = low
          @high = high
          @n = n
        end

        def level?
          low <= 1 && high >= 1
        end

        # This ratio over OTHER, the interval as wide as both allow: how a ratio changed between two runs.
        def over(other)
          Ratio.new(value / other.value, low / other.high, high / other.low, [@n, other.n].min)
        end

        # LEVEL, or BELOW or ABOVE, by which side of 1 the whole interval lies.
        def word(below, above, level = 'level')
          if @n < FEWEST then "no verdict (#{@n} sample#{'s' unless @n == 1})"
          elsif level? then level
          elsif value < 1 then below
          else above
          end
        end

        def to_s
          format('%.2f [%.2f-%.2f]', value, low, high)
        end
      end
    end
  end
end

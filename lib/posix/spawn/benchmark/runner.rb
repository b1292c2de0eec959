require 'posix/spawn/benchmark/measure'

module POSIX
  module Spawn
    module Benchmark
      # Seconds per operation of one case, round by round (nil for a round it sat out: Runner), and the
      # operations each round timed.
      class Timing
        attr_reader :rounds, :counts

        def initialize(rounds, counts)
          @rounds = rounds
          @counts = counts
        end

        def ops
          counts.sum
        end

        # The rounds it ran in.
        def taken
          rounds.compact
        end

        def median
          Benchmark.median(taken)
        end

        def interval
          Benchmark.interval(taken)
        end

        # Half the median's interval, as a fraction of the median: the ± of its time.
        def spread
          low, high = interval
          (high - low) / 2 / median
        end

        # The median time with its interval, as a Ratio: to set against another step's (Ratio#over).
        def as_ratio
          Ratio.new(median, *interval, taken.size)
        end

        # This case's time over OTHER's: the ratios of the rounds both ran in (Ratio). Rounds are seconds
        # apart and the cases take turns within each, so load that comes and goes over the run cancels out,
        # which a ratio of the two medians would not do.
        def ratio_to(other)
          Ratio.of(rounds.zip(other.rounds).select(&:all?).map { |mine, theirs| mine / theirs })
        end
      end

      # How a case's warm-up went: whether its rate stopped improving (Runner::AGREE), the seconds it took,
      # and its last window's seconds per operation.
      Warmup = Struct.new(:settled, :seconds, :per_op)

      # The timings measured with the live heap at heap_mb: { case => Timing }.
      Step = Struct.new(:heap_mb, :timings)

      # Warms every case up until its rate is steady, then times the cases in rounds: every case runs once a
      # round (but see #measure), in a new order each round (#order_of), so that noise from the rest of the
      # machine, and what one case leaves behind for the next, falls on all of them alike. A case's batch in
      # a round lasts --time divided by the rounds (at least one operation), sized by the median of its
      # rounds so far; with --count, the count split among the rounds.
      class Runner
        WINDOW = 0.3 # seconds of a warm-up window, at most
        # A case is settled when a window's typical operation (Window) is no more than this faster than the
        # window's before it. Warming up only makes a case faster; a window no faster says the compilers are
        # done with it, and one slower is the machine's noise (on a VM at 2 ms a spawn, windows 0.3 s apart
        # differ by 10-15% either way: asking for agreement both ways left half the spawn cases unsettled).
        AGREE = 0.05

        # warmups: { case => Warmup }; seconds: { warm_up:, timing: } spent so far.
        attr_reader :warmups, :seconds

        # STEPS: how many times #measure will run (heap sizes), for the time left.
        def initialize(cases, settings, progress, steps = 1)
          @cases = cases
          @settings = settings
          @progress = progress
          @steps_left = steps
          # The cases of a kind one after another (#order_of); the drop-in's apart, as only the first after a
          # toggle pays for it (RubyCase).
          @parts = cases.group_by { |c| c.is_a?(DropInCase) ? :drop_in : c.group }.values
          @per_op = {}
          @warmups = {}
          @seconds = { warm_up: 0.0, timing: 0.0 }
        end

        # Warms each case up in turn (and checks it does what it should): windows of operations until one is
        # no faster than the one before (AGREE), or its --warmup seconds are spent. A rate that stopped
        # improving is what says the JIT has settled on this case's code, not a count of operations assumed
        # enough.
        def warm_up
          started = Benchmark.now
          @cases.each_with_index do |c, i|
            per_case = i.zero? ? @settings.warmup : (Benchmark.now - started) / i
            @progress.status("warming up #{i + 1}/#{@cases.size}: #{c.name}", (@cases.size - i) * per_case + measuring_left)
            @warmups[c] = warm_up_case(c)
            @per_op[c] = @warmups[c].per_op
          end
          @seconds[:warm_up] += Benchmark.now - started
        end

        # Returns { case => Timing }; LABEL starts the progress lines. With --time, a case whose one
        # operation takes longer than its share of a round sits out the rounds its time so far is ahead of
        # its share in (but runs in Ratio::FEWEST rounds at least): the budget holds whatever its speed.
        def measure(label)
          started = Benchmark.now
          times = Hash.new { |h, c| h[c] = [] }
          counts = Hash.new { |h, c| h[c] = [] }
          spent = Hash.new(0.0)
          @settings.rounds.times do |round|
            order = order_of(round)
            order.each_with_index do |c, i|
              unless due?(c, round, spent[c], counts[c].count(&:positive?))
                times[c] << nil
                counts[c] << 0
                next
              end
              @progress.status("#{label}round #{round + 1}/#{@settings.rounds}: #{c.name}", measuring_left(round, order.first(i)))
              n = batch(c, round)
              before = Benchmark.now
              times[c] << c.time_per_op(n, @settings.threads)
              spent[c] += Benchmark.now - before
              counts[c] << n
              @per_op[c] = Benchmark.median(times[c].compact) # not one round's, which a stall can make ten times as long
            end
          end
          @steps_left -= 1
          @seconds[:timing] += Benchmark.now - started
          @cases.to_h { |c| [c, Timing.new(times[c], counts[c])] }
        end

        private

        # ROUND's order: the spawn cases, the capture cases and the drop-in's, each kind together, so that
        # the cases compared run close in time, and each shuffled, seeded by the round (every run takes the
        # same orders); which kind comes first turns round by round. A case gets new neighbours each round:
        # rotating one order gave POSIX::Spawn.spawn a 16 MiB capture before it in every round, whose
        # aftermath its batch paid for (level with Process.spawn; 1.07-1.15 ahead so).
        def order_of(round)
          random = Random.new(round)
          @parts.map { |part| part.shuffle(random: random) }.rotate(round).flatten
        end

        # The first operation alone first: it checks the case works and sizes the first window. Then windows
        # until one is no faster than the last, or until the budget has no room for another, however fast the
        # operations became: a window is sized by the last one's mean, so one the JIT is speeding up ends early.
        def warm_up_case(c)
          started = Benchmark.now
          window = [@settings.warmup / 4.0, WINDOW].min
          last = c.warm_up(1)
          previous = nil
          settled = false
          while window.positive? && Benchmark.now - started + window <= @settings.warmup
            last = c.warm_up([(window / last.mean).floor, 1].max)
            settled = !previous.nil? && last.typical >= previous.typical * (1 - AGREE)
            break if settled

            previous = last
          end
          Warmup.new(settled, Benchmark.now - started, last.mean)
        end

        # Whether case C, which has spent SPENT seconds in TAKEN rounds, runs in ROUND: always, unless one
        # of its operations takes longer than its share of a round.
        def due?(c, round, spent, taken)
          @settings.count || @per_op[c] <= slice || spent < (round + 1) * slice ||
            taken + (@settings.rounds - round) <= Ratio::FEWEST
        end

        def batch(c, round)
          return Benchmark.shares(@settings.count, @settings.rounds)[round] if @settings.count

          [(slice / @per_op[c]).round, 1].max
        end

        def slice
          @settings.time / @settings.rounds
        end

        # Seconds the measuring still needs, by the cases' latest times per operation: this step from ROUND
        # on, less the cases DONE in it, and the steps after it.
        def measuring_left(round = 0, done = [])
          per_round = @cases.sum { |c| batch_seconds(c) }
          (@settings.rounds - round) * per_round - done.sum { |c| batch_seconds(c) } +
            (@steps_left - 1) * @settings.rounds * per_round
        end

        def batch_seconds(c)
          per_op = @per_op[c] || (@per_op.empty? ? 1e-3 : @per_op.values.sum / @per_op.size)
          @settings.count ? @settings.count.fdiv(@settings.rounds) * per_op : [slice, Ratio::FEWEST * per_op / @settings.rounds].max
        end
      end
    end
  end
end

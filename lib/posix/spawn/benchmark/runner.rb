module POSIX
  module Spawn
    module Benchmark
      # Seconds per operation of one case, round by round.
      class Timing
        attr_reader :rounds

        def initialize(rounds)
          @rounds = rounds
        end

        def min
          rounds.min
        end

        def median
          Benchmark.median(rounds)
        end

        def max
          rounds.max
        end

        def to_a
          [min, median, max]
        end

        # The median over the rounds of this case's time over OTHER's in the same round. Rounds are seconds
        # apart and the cases take turns within each, so load that comes and goes over a run of minutes
        # cancels out, which a ratio of the two medians would not do.
        def ratio_to(other)
          Benchmark.median(rounds.zip(other.rounds).map { |mine, theirs| mine / theirs })
        end
      end

      # The timings measured with the live heap at heap_mb: { case => Timing }.
      Step = Struct.new(:heap_mb, :timings)

      # Times the cases in rounds. Every case runs once per round and each round starts with a different
      # case, so that noise from the rest of the machine falls on all of them alike and the median over
      # the rounds is fair to each.
      class Runner
        def initialize(cases, settings, progress)
          @cases = cases
          @settings = settings
          @progress = progress
        end

        # Runs every case before anything is timed, so that JRuby's and the JVM's compilers have seen the
        # code, and checks that each does what it should.
        def warm_up
          @progress.say("warming up: #{@settings.warmup} operations per case")
          @cases.each do |c|
            @progress.status("warming up: #{c.name}")
            c.warm_up(@settings.warmup)
          end
        end

        # Returns { case => Timing }; LABEL starts the progress lines.
        def measure(label)
          times = Hash.new { |h, c| h[c] = [] }
          rounds = Benchmark.shares(@settings.count, @settings.rounds)
          rounds.each_with_index do |operations, round|
            @cases.rotate(round).each do |c|
              @progress.status("#{label}round #{round + 1}/#{rounds.size}: #{c.name}")
              times[c] << c.time_per_op(operations, @settings.threads)
            end
          end
          times.transform_values { |t| Timing.new(t) }
        end
      end

      # Progress on stderr: on a terminal one line rewritten as each case runs, elsewhere (a log) only the
      # milestones.
      class Progress
        def initialize(io)
          @io = io
          @terminal = io.tty?
        end

        def status(text)
          @io.print "\r\e[K#{text}" if @terminal
        end

        def say(text)
          @io.print "\r\e[K" if @terminal
          @io.puts text
        end

        def done
          @io.print "\r\e[K" if @terminal
        end
      end
    end
  end
end

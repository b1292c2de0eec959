require 'posix/spawn/benchmark/round_trip'
require 'posix/spawn/benchmark/cold'

module POSIX
  module Spawn
    module Benchmark
      # The interactive section: round trips with a live child (RoundTrip) in worker processes of their own,
      # JRuby started as this one was (Cold.launcher) with its own IO and with the drop-in, and MRI when the
      # `ruby` on PATH is MRI. Workers, not this JVM: process CPU is counted per process, and this one's
      # heap and compiler threads would be in it.
      class Interactive
        # Its measurement lasts this many times --time (12 s by default); its warm-up, for each JRuby worker
        # and kind, this many times --warmup (MRI's a tenth of it).
        TIME_SHARE = 8
        WARMUP_SHARE = 2
        BASELINE = 'drop-in'

        # The finished Run; why MRI is not in it (nil when it is); the section's seconds, workers' start included.
        attr_reader :run, :mri_note, :seconds

        def initialize(settings, progress)
          @settings = settings
          @progress = progress
        end

        def measure
          begun = Benchmark.now
          @progress.status('interactive: starting the round-trip workers')
          workers = [mri, RoundTrip::Worker.new("JRuby's own", jruby),
                     RoundTrip::Worker.new(BASELINE, jruby('-rposix/spawn/kernel'))].compact.map(&:ready)
          workers = drop_non_mri(workers)
          @run = RoundTrip::Run.new(workers)
          @progress.status('interactive: warming up the round trips')
          @run.warm_up(@settings.warmup * WARMUP_SHARE)
          seconds = @settings.time * TIME_SHARE
          started = Benchmark.now
          @run.measure(@settings.rounds, **(@settings.count ? { trips: @settings.count } : { seconds: seconds })) do |round|
            left = seconds - (Benchmark.now - started) unless @settings.count
            @progress.status("interactive: round #{round + 1}/#{@settings.rounds}", left)
          end
          @run.close
          @seconds = Benchmark.now - begun
          self
        end

        def baseline
          @run.workers.find { |w| w.name == BASELINE }
        end

        private

        def jruby(*flags)
          [*Cold.launcher, "-I#{Cold::LIB}", *flags]
        end

        def mri
          ruby = Benchmark.which('ruby')
          return RoundTrip::Worker.new('MRI', [ruby]) if ruby

          @mri_note = 'MRI left out: no `ruby` on PATH'
          nil
        end

        # A `ruby` on PATH that is another JRuby is not the reference.
        def drop_non_mri(workers)
          other = workers.find { |w| w.name == 'MRI' && !w.description.start_with?('ruby ') }
          return workers unless other

          other.close
          @mri_note = "MRI left out: the `ruby` on PATH is #{other.description}"
          workers - [other]
        end
      end
    end
  end
end

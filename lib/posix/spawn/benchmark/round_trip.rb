require 'posix/spawn/benchmark/measure'

module POSIX
  module Spawn
    module Benchmark
      # One exchange with a live child, as interactive programs make thousands of: the benchmark's interactive
      # section and tools/round-trip. Long-lived workers (round_trip_worker.rb), one per runtime, take turns
      # a batch at a time, so load falls on all alike; per trip, the worker's process CPU (all threads) and
      # the wall time. Plain Ruby: tools/round-trip runs it on MRI, off the JVMs' CPUs.
      module RoundTrip
        WORKER = File.expand_path('round_trip_worker.rb', __dir__)
        KINDS = {
          'pipe' => "IO.popen('cat', 'r+'): write a line, IO.select, readpartial",
          'pty' => 'PTY.spawn of cat, raw without echo: write a byte, IO.select, readpartial',
        }.freeze
        PERCENTILES = [0.5, 0.9, 0.99].freeze

        # A worker process, spoken to a line at a time. COMMAND runs a Ruby (WORKER is added to it).
        class Worker
          attr_reader :name, :description

          def initialize(name, command, env = {})
            @name = name
            @io = IO.popen(env, [*command, WORKER], 'r+')
          end

          # Waits for the worker's first line (what it runs on): workers started together start in parallel.
          def ready
            @description = @io.gets&.chomp or raise "round trip: the #{@name} worker did not start"
            self
          end

          # N round trips of KIND: [process CPU ns, [wall ns of each trip]].
          def run(kind, n)
            @io.puts "run #{kind} #{n}"
            answer = @io.gets or raise "round trip: the #{@name} worker died"
            cpu, *walls = answer.split.map { |v| Integer(v) }
            [cpu, walls]
          end

          def close
            @io.close
          end
        end

        # One worker's trips of one kind, batch by batch (a batch a round).
        class Trips
          def initialize
            @batches = [] # [cpu ns, [wall ns]]
          end

          def add(cpu, walls)
            @batches << [cpu, walls]
          end

          def count
            @batches.sum { |_, walls| walls.size }
          end

          # Seconds of process CPU a trip, over the run.
          def cpu
            @batches.sum(&:first) / 1e9 / count
          end

          # Seconds of wall time: the trip at quantile P of all the run's trips.
          def wall(p)
            RoundTrip.quantile(@batches.flat_map(&:last).sort, p) / 1e9
          end

          # Round by round, the CPU a trip (:cpu) or the wall p90 (:p90) over OTHER's: the rounds' ratios
          # (Ratio), so that load that comes and goes between rounds cancels out.
          def ratio_to(other, metric)
            Ratio.of(per_batch(metric).zip(other.per_batch(metric)).map { |mine, theirs| mine / theirs })
          end

          protected

          def per_batch(metric)
            @batches.map do |cpu, walls|
              metric == :cpu ? cpu.fdiv(walls.size) : RoundTrip.quantile(walls.sort, 0.9).to_f
            end
          end
        end

        def self.quantile(sorted, p)
          sorted[((sorted.size - 1) * p).round]
        end

        # The workers' trips of each kind: warmed up, then measured in rounds, a batch of each worker and kind
        # a round in a new order each (seeded by the round).
        class Run
          WARMUP_BATCH = 500 # trips at most: a batch is sized by the trips before it, so the budget holds while JRuby still interprets

          attr_reader :workers, :rounds, :seconds

          def initialize(workers, kinds = KINDS.keys)
            @workers = workers
            @kinds = kinds
            @trips = Hash.new { |h, key| h[key] = Trips.new }
            @per_trip = {} # mean wall seconds, to size the batches
          end

          # SECONDS of warm-up for each worker and kind (a tenth for MRI, whose code needs no compiler).
          def warm_up(seconds)
            @workers.product(@kinds).each do |w, kind|
              budget = w.description.start_with?('jruby') ? seconds : seconds / 10
              started = Benchmark.now
              n = 0
              batch = 10
              loop do
                n += w.run(kind, batch).last.size
                spent = Benchmark.now - started
                break if spent >= budget

                batch = ((budget - spent) / (spent / n)).ceil.clamp(1, WARMUP_BATCH)
              end
              @per_trip[[w, kind]] = (Benchmark.now - started) / n
            end
          end

          # ROUNDS rounds, each worker and kind taking its share of SECONDS in each, or TRIPS trips in all
          # (shared out among the rounds). Yields the round before it runs, for progress.
          def measure(rounds, seconds: nil, trips: nil)
            started = Benchmark.now
            pairs = @workers.product(@kinds)
            rounds.times do |round|
              yield round if block_given?
              pairs.shuffle(random: Random.new(round)).each do |w, kind|
                n = trips ? Benchmark.shares(trips, rounds)[round] : [(seconds / rounds / pairs.size / @per_trip[[w, kind]]).round, 1].max
                @trips[[w, kind]].add(*w.run(kind, n))
              end
            end
            @rounds = rounds
            @seconds = Benchmark.now - started
            self
          end

          def close
            @workers.each(&:close)
          end

          # { kind => { worker => Trips } }
          def results
            @kinds.to_h { |kind| [kind, @workers.to_h { |w| [w, @trips[[w, kind]]] }] }
          end

          # Per kind and worker: its trips, CPU a trip and wall percentiles in µs, and its CPU and p90 over
          # BASELINE's (a Worker) in the same rounds (Ratio; nil for BASELINE's own).
          def rows(baseline)
            results.flat_map do |kind, by_worker|
              by_worker.map do |w, t|
                ratios = %i[cpu p90].to_h { |m| [:"#{m}_ratio", (t.ratio_to(by_worker[baseline], m) unless w == baseline)] }
                { kind: kind, worker: w.name, trips: t.count, cpu_us: t.cpu * 1e6,
                  **PERCENTILES.to_h { |p| [:"p#{(p * 100).round}_us", t.wall(p) * 1e6] }, **ratios }
              end
            end
          end

          # The rows as a table, a heading for each kind.
          def table(baseline)
            width = @workers.map { |w| w.name.size }.max
            lines = [format("  %-#{width}s %8s %12s %9s %9s %9s   %-27s %s", '', 'trips', 'CPU µs/trip', 'p50 µs', 'p90 µs', 'p99 µs',
                            'CPU ratio [interval]', 'p90 ratio [interval]')]
            rows(baseline).chunk { |r| r[:kind] }.each do |kind, rows|
              lines << "#{KINDS.fetch(kind)} (ratio to #{baseline.name})"
              rows.each do |r|
                ratios = r.values_at(:cpu_ratio, :p90_ratio).map { |ratio| ratio ? "#{ratio} #{ratio.word('faster', 'slower')}" : '1.00' }
                lines << format("  %-#{width}s %8d %12.1f %9.1f %9.1f %9.1f   %-27s %s", *r.values_at(:worker, :trips, :cpu_us, :p50_us, :p90_us, :p99_us),
                                *ratios).rstrip
              end
            end
            lines
          end
        end
      end
    end
  end
end

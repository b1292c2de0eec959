require 'spec_helper'
require 'json'
require 'open3'
require 'posix/spawn/benchmark'

# Runs the tool with tiny budgets and counts so that it keeps working; how fast things are is for the tool
# to report, not for a test to assert.
RSpec.describe 'bin/posix-spawn-benchmark', ci_leg: 'jruby-9.4' do
  root = File.expand_path('..', __dir__)
  bench = POSIX::Spawn::Benchmark
  spawn_cases = ['POSIX::Spawn.spawn', 'POSIX::Spawn.spawn chdir: Dir.tmpdir', 'POSIX::Spawn.spawn umask: 0o077',
                 'POSIX::Spawn.spawn close_others: false', 'Process.spawn', 'Kernel#system', 'ProcessBuilder start + waitFor',
                 'SubSpawn.spawn_compat'] # JRuby 9.4 and 10 bundle SubSpawn
  capture_cases = ['POSIX::Spawn::Child 1 MiB', 'POSIX::Spawn::Child 16 MiB', 'Open3.capture3 1 MiB',
                   'ProcessBuilder + drain threads 1 MiB', 'backtick 16 MiB builtin', 'IO.popen(...).read 1 MiB drop-in']
  ratio = /\d+\.\d\d \[\d+\.\d\d-\d+\.\d\d\]/
  verdict = /level|faster|slower/
  warmed = /(settled|UNSETTLED) \d+\.\d s/
  have_cc = bench.which('cc') || bench.which('gcc')

  define_method(:benchmark) do |*args, env: {}|
    command = [*JRubyLauncher.command, '--dev', '-I', File.join(root, 'lib'), File.join(root, 'bin', 'posix-spawn-benchmark')]
    Open3.capture3(env, *command, *args)
  end

  define_method(:row) do |name, rest|
    /^  #{Regexp.escape(name)} +#{rest}$/
  end

  # The Warmup of a lone case whose operation sleeps for DURATION[seconds since its first], given WARMUP s.
  define_method(:warm_up_alone) do |warmup, &duration|
    started = nil
    c = bench::RubyCase.new('POSIX::Spawn.spawn', :spawn) { sleep(duration.(bench.now - (started ||= bench.now))) }
    settings = bench::Settings.new(time: 0.1, warmup: warmup, rounds: 3, threads: 1, mem_mb: 10, graph: false, format: 'table')
    runner = bench::Runner.new([c], settings, bench::Progress.new(StringIO.new))
    runner.warm_up
    runner.warmups[c]
  end

  it 'gives every case a time budget and reports its operations, spread, ratio and warm-up, then the summary' do
    out, err, status = benchmark('-t', '0.2', '-w', '0.1', '--rounds', '3', '-m', '10', '--only', 'spawn,capture,interactive') # handles: below
    expect(status).to be_success, err
    expect(out).to include('posix-spawn-benchmark: warm. Each case warmed up until its median operation in a window was no faster',
                           'then timed for 0.2 s in 3 rounds, the cases taking turns in a new order each; 1 thread')
    expect(out).to match(row('POSIX::Spawn.spawn', /\d+ +\d+\.\d +\d+\.\d +1\.00 +#{warmed}/))
    (spawn_cases.drop(1) + capture_cases.drop(1)).each do |name|
      expect(out).to match(row(name, /\d+ +\d+\.\d +\d+\.\d +#{ratio} #{verdict} +#{warmed}/))
    end
    if have_cc
      expect(out).to match(row('C posix_spawnp("true")', /\d+ .* #{ratio} .*/)).and match(row("C posix_spawn(\"#{bench.which('true')}\")", /\d+ .*/))
      expect(out).to match(row('C posix_spawnp("true") inside this JVM', /\d+ .* #{ratio} .*/))
    end
    expect(out).to include('fspawn (fork+exec) is not measured: the JVM cannot fork')
    summary = out.lines.drop_while { |l| !l.start_with?('summary: warm, ') }
    expect(summary.first).to match(/^summary: warm, \d+ MB live heap, (all \d+ cases settled|\d+ of \d+ cases NOT settled); /)
      .and include("ratio = the other's time over the gem's (drop-in's) in the same rounds [min-max], level when it holds 1")
    expect(summary.drop(1).map { |l| l[/^  (\S+( \S+)*?)  /, 1] }).to eq(['spawn + wait', ':chdir', 'capture 1 MiB', 'drop-in, 1 MiB',
                                                                          'pipe round trip', 'PTY round trip'])
    expect(summary.join).to match(/^  spawn \+ wait +#{"C posix_spawnp #{ratio} (level|gem faster|gem slower); " if have_cc}JRuby's Process.spawn #{ratio}/)
                        .and match(/^  drop-in, 1 MiB +JRuby's Open3.capture3 #{ratio} (level|drop-in faster|drop-in slower); backtick #{ratio}/)
    # The interactive section: MRI (ruby is on PATH here), JRuby's own IO and the drop-in, in worker processes.
    expect(out).to include('interactive: a round trip with a live child, in worker processes of their own (no live heap), 3 rounds')
                   .and match(/^MRI: ruby \d/)
    %W[IO.popen('cat',\ 'r+'):\ write PTY.spawn\ of\ cat].each { |kind| expect(out).to match(/^#{Regexp.escape(kind)}.* \(ratio to drop-in\)$/) }
    trip = /\d+ +\d+\.\d +\d+\.\d +\d+\.\d +\d+\.\d/
    expect(out.scan(row('MRI', /#{trip} +#{ratio} #{verdict} +#{ratio} #{verdict}/)).size).to eq(2)
    expect(out.scan(row("JRuby's own", /#{trip} +#{ratio} #{verdict} +#{ratio} #{verdict}/)).size).to eq(2)
    expect(out.scan(row('drop-in', /#{trip} +1\.00 +1\.00/)).size).to eq(2)
    expect(summary.join).to match(/^  pipe round trip +MRI CPU #{ratio} (level|drop-in faster|drop-in slower); MRI p90 #{ratio} .*; JRuby's own CPU #{ratio} .*; JRuby's own p90 #{ratio}/)
                        .and match(/^  PTY round trip +MRI CPU #{ratio}/)
    expect(err).to be_empty # not a terminal: no progress lines
  end

  it 'with --only interactive, times the round trips alone, a count of trips per worker and kind, and leaves MRI out when no ruby is on PATH' do
    Dir.mktmpdir do |bin|
      %w[cat sh stty].each { |program| File.symlink(bench.which(program), File.join(bin, program)) } # what the workers' children need
      out, err, status = benchmark('--only', 'interactive', '-n', '12', '--rounds', '3', '-w', '0.05', '--format', 'json', env: { 'PATH' => bin })
      expect(status).to be_success, err
      report = JSON.parse(out)
      expect(report['results']).to eq([])
      section = report['interactive']
      expect(section).to include('rounds' => 3, 'mri_note' => 'MRI left out: no `ruby` on PATH')
      expect(section['workers'].keys).to eq(["JRuby's own", 'drop-in'])
      expect(section['workers'].values).to all(start_with('jruby '))
      results = section['results']
      expect(results.map { |r| [r['kind'], r['worker']] }).to eq([%w[pipe JRuby's\ own], %w[pipe drop-in], %w[pty JRuby's\ own], %w[pty drop-in]])
      results.each do |r|
        expect(r['trips']).to eq(12)
        expect(r['cpu_us']).to be > 0
        expect(r.values_at('p50_us', 'p90_us', 'p99_us')).to eq(r.values_at('p50_us', 'p90_us', 'p99_us').sort)
      end
      expect(results.select { |r| r['worker'] == 'drop-in' }.map { |r| r.values_at('cpu_ratio', 'p90_ratio') }).to all(eq([nil, nil]))
      expect(results.find { |r| r['worker'] == "JRuby's own" }['cpu_ratio']).to include('value' => a_value > 0, 'low' => a_value > 0, 'high' => a_value > 0)
      expect(report['summary']).to match([start_with('summary: warm, the interactive section only;'),
                                          match(/^  pipe round trip +JRuby's own CPU #{ratio} .*; JRuby's own p90 #{ratio} /),
                                          match(/^  PTY round trip +JRuby's own CPU #{ratio} /)])
    end
  end

  it 'with --only handles, keeps --count children alive a way and reports their start cost and the KILL-to-news latency' do
    out, err, status = benchmark('--only', 'handles', '-n', '20', '--format', 'json')
    expect(status).to be_success, err
    report = JSON.parse(out)
    ways = ['POSIX::Spawn.spawn + Process.wait', 'Process.spawn + Process.detach', 'POSIX::Spawn.start + on_exit']
    expect(report['handles'].map { |r| r.values_at('name', 'children') }).to eq(ways.map { |w| [w, 20] })
    report['handles'].each do |r|
      expect(r.values_at('start_us', 'cpu_us', 'p50_us')).to all(be > 0)
      expect(r['p99_us']).to be >= r['p50_us']
    end
    expect(report['summary']).to match([start_with('summary: warm, the handles section only;'),
                                        match(/^  handles +20 alive: start \+ on_exit \d+ µs CPU a child, \d+\.\d\dx spawn's; KILL to on_exit p50 \d+ µs/)])
    table, = benchmark('--only', 'handles', '-t', '0.03') # children in proportion to --time: 20
    expect(table).to match(/^handles: 20 children of `sleep 600` started from one thread and kept alive/)
      .and match(/^POSIX::Spawn.start \+ on_exit +\d+ +\d+ +\d+ +\d+$/)
  end

  it "gives each round trip's CPU and wall percentiles over all its trips, and its ratios to the drop-in's round by round, in a table and in CSV" do
    # Workers that answer at once: each round's batch costs the same, the MRI one a fifth of the drop-in's CPU.
    fake = lambda do |name, cpu_per_trip, walls|
      worker = Struct.new(:name, :description).new(name, "#{name} 1.0")
      worker.define_singleton_method(:run) { |_kind, n| [cpu_per_trip * n, walls.cycle.first(n)] }
      worker.define_singleton_method(:close) {}
      worker
    end
    workers = [fake.('MRI', 2_000, [1_000] * 9 + [5_000]), fake.('drop-in', 10_000, [2_000] * 9 + [8_000])]
    run = bench::RoundTrip::Run.new(workers).measure(4, trips: 40)
    rows = run.rows(workers.last)
    expect(rows.map { |r| r.values_at(:kind, :worker, :trips) }).to eq([['pipe', 'MRI', 40], ['pipe', 'drop-in', 40], ['pty', 'MRI', 40], ['pty', 'drop-in', 40]])
    expect(rows.first).to include(cpu_us: be_within(1e-9).of(2.0), p50_us: 1.0, p90_us: 1.0, p99_us: 5.0)
    expect(rows.first[:cpu_ratio]).to have_attributes(value: 0.2, low: 0.2, high: 0.2, n: 4)
    expect(rows.first[:p90_ratio]).to have_attributes(value: 0.5, n: 4)
    expect(rows[1]).to include(cpu_ratio: nil, p90_ratio: nil)
    expect(run.table(workers.last)).to include(match(/^  MRI +40 +2\.0 +1\.0 +1\.0 +5\.0 +0\.20 \[0\.20-0\.20\] faster +0\.50 \[0\.50-0\.50\] faster$/),
                                               match(/^  drop-in +40 +10\.0 +2\.0 +2\.0 +8\.0 +1\.00 +1\.00$/))

    interactive = bench::Interactive.new(nil, nil)
    interactive.instance_variable_set(:@run, run)
    settings = bench::Settings.new(count: 40, warmup: 0, rounds: 4, threads: 1, mem_mb: 10, graph: false, format: 'csv', only: [:interactive])
    runner = Struct.new(:warmups, :seconds).new({}, { warm_up: 0.0, timing: 0.0 })
    csv = bench::Report.new(settings, [], runner, [], interactive).csv.lines
    expect(csv.first).to eq("heap_mb,group,case,ops,median_us,spread_pct,settled,warmup_s,ratio,ratio_low,ratio_high,verdict,cpu_us,p90_us,p99_us,cpu_ratio,p90_ratio\n")
    expect(csv[1]).to eq(",interactive,pipe MRI,40,1.0,,,,,,,,2.0,1.0,5.0,0.2,0.5\n")
    expect(csv.size).to eq(5)
  end

  it 'in JSON, each case says how many operations it timed, their spread and whether its warm-up settled, within its budgets' do
    Dir.mktmpdir do |bin|
      %w[true head].each { |program| File.symlink(bench.which(program), File.join(bin, program)) }
      out, err, status = benchmark('-t', '0.3', '-w', '0.2', '-m', '10', '--only', 'spawn', '--format', 'json', env: { 'PATH' => bin, 'CC' => nil })
      expect(status).to be_success, err
      report = JSON.parse(out)
      expect(report['settings']).to include('count' => nil, 'time' => 0.3, 'warmup' => 0.2, 'rounds' => 30, 'format' => 'json')
      expect(report['unavailable']).to include('case' => 'C posix_spawn loop', 'group' => 'spawn',
                                               'reason' => 'skipped: no C compiler found (set CC to use one)')
      results = report['results']
      expect(results.map { |r| r['case'] }).to include(*spawn_cases)
      expect(results.map { |r| r['group'] }.uniq).to eq(['spawn'])
      results.each do |r|
        expect(r['ops']).to be >= 3 # one a round at least, in three rounds at least
        expect(r).to include('median_us' => a_value > 0, 'spread_pct' => a_value >= 0, 'settled' => be(true).or(be(false)))
        # The budget's (0.2 s), the first operation, and the one window begun before the budget ran out.
        expect(r['warmup_s']).to be < 0.2 + 2
      end
      expect(results.find { |r| r['case'] == 'POSIX::Spawn.spawn' }).to include('ratio' => 1.0, 'verdict' => nil)
      expect(results.find { |r| r['case'] == 'Process.spawn' }).to include('verdict' => match(/\A(level|faster|slower)\z/))
      # 12 cases of at most 0.2 + 0.3 s: five and a half seconds, whatever a case's operation costs (a batch
      # is sized by its time), with room for a loaded machine.
      expect(report['seconds']['warm_up'] + report['seconds']['timing']).to be < 20
      expect(report['summary'].first).to start_with('summary: warm')
      expect(report['summary'][1]).to match(/^  spawn \+ wait +JRuby's Process.spawn #{ratio}/)
      expect(report['note']).to start_with('fspawn (fork+exec) is not measured')
    end
  end

  it 'with -n, times that many operations of each case, shared out among the rounds' do
    out, err, status = benchmark('-n', '6', '--rounds', '3', '-w', '0.1', '-m', '10', '--only', 'spawn', '--format', 'csv')
    expect(status).to be_success, err
    rows = out.lines.map(&:chomp)
    expect(rows.first).to eq('heap_mb,group,case,ops,median_us,spread_pct,settled,warmup_s,ratio,ratio_low,ratio_high,verdict,cpu_us,p90_us,p99_us,cpu_ratio,p90_ratio')
    expect(rows.drop(1).map { |r| r.split(',')[3] }.uniq).to eq(['6'])
    expect(rows).to include(match(/\A\d+,spawn,POSIX::Spawn.spawn,6,[\d.]+,[\d.]+,(true|false),[\d.]+,1.0,1.0,1.0,,,,,,\z/))
    expect(rows.grep(/,interactive,/)).to be_empty # --only spawn
  end

  it 'prints level for two cases of the same cost, and faster or slower only when every round agrees' do
    # The summary's own pair, doing the same thing: one sleep each (sleep returns 0, which is true).
    same = ['POSIX::Spawn.spawn', 'Process.spawn'].map { |name| bench::RubyCase.new(name, :spawn) { sleep 0.002 } }
    settings = bench::Settings.new(time: 0.4, warmup: 0.1, rounds: 10, threads: 1, mem_mb: 10, graph: false, format: 'table')
    runner = bench::Runner.new(same, settings, bench::Progress.new(StringIO.new))
    runner.warm_up
    report = bench::Report.new(settings, same, runner, [bench::Step.new(10, runner.measure(''))]).table
    expect(report).to match(row('Process.spawn', /\d+ +\d+\.\d +\d+\.\d +#{ratio} level +#{warmed}/))
    expect(report).to match(/^  spawn \+ wait +JRuby's Process.spawn #{ratio} level$/)

    interval = ->(timings) { bench::Report.new(settings, same, runner, [bench::Step.new(10, same.zip(timings).to_h)]).table }
    apart = interval.([bench::Timing.new([1.0, 1.2, 0.9], [1] * 3), bench::Timing.new([1.1, 1.1, 1.3], [1] * 3)])
    expect(apart).to match(row('Process.spawn', /.* #{ratio} level .*/)) # 1.10, 0.92, 1.44: the rounds disagree
    ahead = interval.([bench::Timing.new([1.0, 1.2, 0.9], [1] * 3), bench::Timing.new([1.1, 1.3, 1.0], [1] * 3)])
    expect(ahead).to match(row('Process.spawn', /.* 1\.10 \[1\.08-1\.11\] slower .*/))
    expect(ahead).to match(/^  spawn \+ wait +JRuby's Process.spawn 1\.10 \[1\.08-1\.11\] gem faster$/)
  end

  it 'times the cases in a new order each round, each kind together: no case has the same one before it in every round' do
    batches = [] # [round, case], from the progress line each batch starts with
    progress = Object.new
    progress.define_singleton_method(:status) { |text, _left| batches << text.match(/round (\d+)\/\d+: (\w+)\z/).captures }
    cases = %w[a b c d e].map { |name| bench::RubyCase.new(name, :spawn) { true } } +
            %w[x y z].map { |name| bench::RubyCase.new(name, :capture) { true } }
    settings = bench::Settings.new(count: 10, warmup: 0, rounds: 10, threads: 1, mem_mb: 10, graph: false, format: 'table')
    bench::Runner.new(cases, settings, progress).measure('')
    rounds = batches.chunk_while { |a, b| a[0] == b[0] }.map { |round| round.map(&:last) }
    expect(rounds.size).to eq(10)
    expect(rounds.map(&:sort)).to all(eq(%w[a b c d e x y z]))
    # each kind together, so that the cases compared run close in time
    expect(rounds.map { |order| order.chunk_while { |a, b| (a < 'x') == (b < 'x') }.count }).to all(eq(2))
    before = rounds.flat_map { |order| order.each_cons(2).to_a }.group_by(&:last).transform_values { |pairs| pairs.map(&:first).uniq }
    expect(before.keys.sort).to eq(%w[a b c d e x y z])
    expect(before.values).to all(have_attributes(size: be > 1))
  end

  it 'warms a case that never settles for its whole warm-up budget, however fast it became, and says so' do
    speeding = warm_up_alone(0.8) { |t| 0.02 * 0.5**(t / 0.1) } # twice as fast every 0.1 s: no two windows agree
    # windows of 0.2 s planned, each ending early: four of them took about 0.4 s
    expect(speeding).to have_attributes(settled: false, seconds: be_between(0.6, 1.0))
  end

  it 'counts a case settled once a window is no faster than the one before, even when it is slower (noise, not warm-up)' do
    slowing = warm_up_alone(2.0) { |t| 0.002 * 1.2**(t / 0.1) } # a fifth slower every 0.1 s
    # the first operation, then two windows of 0.3 s planned (each runs long): warm-up ends at the second
    expect(slowing).to have_attributes(settled: true, seconds: be < 1.5)
  end

  it 'keeps a case slower than its share of a round within its budget: it sits out rounds, but runs in three' do
    fast = bench::RubyCase.new('POSIX::Spawn.spawn', :spawn) { sleep 0.002 }
    slow = bench::RubyCase.new('Process.spawn', :spawn) { sleep 0.1 } # a round's share is 0.04 s
    settings = bench::Settings.new(time: 0.4, warmup: 0.1, rounds: 10, threads: 1, mem_mb: 10, graph: false, format: 'table')
    runner = bench::Runner.new([fast, slow], settings, bench::Progress.new(StringIO.new))
    runner.warm_up
    timings = runner.measure('')
    expect(timings[fast].counts).to all(be >= 1)
    expect(timings[slow].counts).to all(be_between(0, 1))
    expect(timings[slow].ops).to be_between(3, 5) # 0.4 s of 0.1 s operations, and the last may start just before it runs out
    expect(timings[slow].ratio_to(timings[fast]).n).to eq(timings[slow].ops)
  end

  it 'with --cold, times fresh JVMs doing their first operations, the gem\'s require apart', :long do # 13 s of fresh JVMs: spec:long (CI's time, on a VM where a fork+exec costs 5 ms)
    out, err, status = benchmark('--cold', '--jvms', '1', '-n', '2', '--only', 'spawn', '--format', 'json')
    expect(status).to be_success, err
    report = JSON.parse(out)
    results = report['results'].to_h { |r| [r['case'], r] }
    expect(results.keys).to eq(['POSIX::Spawn.spawn', 'POSIX::Spawn.spawn chdir: Dir.tmpdir', 'Process.spawn', 'Process.spawn chdir: Dir.tmpdir'])
    results.each_value do |r|
      expect(r['runs'].size).to eq(1)
      expect(r['runs'][0]['op_ms'].size).to eq(2)
      expect(r['runs'][0]['op_ms']).to all(be > 0)
    end
    expect(results['POSIX::Spawn.spawn']).to include('needs' => 'posix/spawn')
    expect(results['POSIX::Spawn.spawn']['runs'][0]).to include('require_ms' => be > 0, 'first_require_ms' => nil)
    expect(results['Process.spawn']['runs'][0]).to include('require_ms' => 0, 'first_require_ms' => be > 0)
    expect(report['summary'][0]).to start_with('summary: cold, 1 fresh JVM a case, each timing its first 2 operations')
    expect(report['summary'][1]).to match(/^  require +'posix\/spawn' \d+ ms \[\d+-\d+\] over 2 JVMs; a one-line file's \d+ ms \[\d+-\d+\] over 2 JVMs \(any first require\)/)
    expect(report['summary'][2]).to match(/^  spawn \+ wait +JRuby's Process.spawn #{ratio} no verdict \(1 sample\) \(with the require #{ratio} no verdict/)
  end

  it 'with --cold, starts each fresh JVM with the java and the JVM options this one was started with' do
    skip 'started by the jruby launcher, not by bin/dev (JRUBY_JAR)' unless ENV['JRUBY_JAR']
    options = -> { java.lang.management.ManagementFactory.getRuntimeMXBean.getInputArguments.to_a }
    script = 'puts ENV_JAVA["java.home"], java.lang.management.ManagementFactory.getRuntimeMXBean.getInputArguments.to_a'
    out, err, status = Open3.capture3(*bench::Cold.launcher, '--disable-gems', '-e', script)
    expect(status).to be_success, err
    expect(out.lines(chomp: true)).to eq([ENV_JAVA['java.home'], *options.call])
    expect(options.call).not_to be_empty # bin/dev gives this JVM some (its class data archive), so the check checks something
  end

  it 'with --cold, starts fresh JVMs as this one started where there is no jruby launcher: java -jar jruby-complete.jar, java -cp', :long do # fresh JVMs: spec:long
    jar = JRubyLauncher.jar or skip 'needs jruby-complete.jar'
    # The command a fresh JVM would get, printed rather than run (the --cold example above runs one).
    script = "require 'posix/spawn/benchmark/cold'; print POSIX::Spawn::Benchmark::Cold.launcher.join(' ')"
    { ['-jar', jar] => "-jar #{jar}", ['-cp', jar, 'org.jruby.Main'] => "-cp #{jar} org.jruby.Main" }.each do |how, started|
      out, err, status = Open3.capture3({ 'JRUBY_JAR' => nil }, JRubyLauncher.java, *how, '-I', File.join(root, 'lib'), '-e', script)
      expect(status).to be_success, err
      expect(out).to match(%r{\A/\S+/bin/java }).and end_with(" #{started}")
    end
  end

  it 'with --cold, requires the feature in each fresh JVM before anything else, as a script\'s first line' do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'probe.rb'), "warn \"before the feature: \#{$LOADED_FEATURES.grep(/json|benchmark/).inspect}\"\n")
      child = File.join(root, 'lib', 'posix', 'spawn', 'benchmark', 'cold_child.rb')
      _out, err, status = Open3.capture3(*JRubyLauncher.command, '--dev', '-I', File.join(root, 'lib'), '-I', dir, child,
                                         'POSIX::Spawn.spawn', '1', 'probe')
      expect(err).to include('before the feature: []')
      expect(err).to include('cold_child: POSIX::Spawn.spawn needs "posix/spawn", not "probe"') # the child checks what it was given
      expect(status).not_to be_success
    end
  end

  it 'with -g, prints the median at ten heap sizes, the heap line of the summary, and writes an SVG chart with a line per case', :long do # ten heap sizes: spec:long
    Dir.mktmpdir do |dir|
      chart = File.join(dir, 'chart.svg')
      out, err, status = benchmark('-n', '3', '-w', '0.05', '-m', '10', '-g', '--threads', '2', '--only', 'spawn', '--chart', chart)
      expect(status).to be_success, err
      expect(out).to match(%r{^median µs per operation, by live heap \(MB\)\n +(\d+ +){10}\d+/\d+ MB +net of drift$})
      spawn_cases.each { |name| expect(out).to match(/^  #{Regexp.escape(name)}( +\d+){10} +\d+\.\d\d +(\d+\.\d\d|-)$/) }
      expect(out).to match(/^  heap \d+-\d+ MB +time at \d+ MB over \d+ MB \((net of drift|as measured)\): POSIX::Spawn.spawn #{ratio} (flat|grows|shrinks); Process.spawn/)
      expect(err).to eq("chart written to #{chart}\n")
      svg = File.read(chart)
      expect(svg).to start_with('<svg xmlns="http://www.w3.org/2000/svg"').and end_with("</svg>\n")
      expect(svg.scan('<polyline').size).to be >= spawn_cases.size
      expect(svg.scan(/<polyline [^>]*points="([^"]*)"/).map { |(points)| points.split.size }.uniq).to eq([10])
    end
  end

  it 'raises, naming the program, when a spawn of the C loop fails, in its own process or inside the JVM' do
    skip 'no C compiler here' unless have_cc
    missing = '/nonexistent/posix-spawn-no-such-program'
    own = bench::CReference.new(bench::CReference.compile, 'C loop', :full_path, missing)
    expect { own.time_per_op(2, 1) }.to raise_error(RuntimeError, /\AC loop: spawn_loop: #{missing} failed \(/)
    library = bench::CReference.compile(library: true)
    inside = bench::CReference::InProcess.new(library, 'C loop inside', :full_path, missing)
    expect { inside.time_per_op(2, 2) }.to raise_error(RuntimeError, "C loop inside: spawning #{missing} failed")
    # The JVM goes on, and so does the library: a failure is not left behind for the next run.
    expect(bench::CReference::InProcess.new(library, 'C loop inside', :search_path, 'true').time_per_op(2, 2)).to be > 0
  end

  it "reports SubSpawn's row as skipped, saying why, where `require 'subspawn'` fails" do
    allow(bench::Cases).to receive(:require).with('subspawn').and_raise(LoadError, 'cannot load such file -- subspawn')
    expect(bench::Cases.subspawn).to eq(bench::Unavailable.new('SubSpawn.spawn_compat', :spawn,
                                                               "skipped: require 'subspawn' failed (LoadError: cannot load such file -- subspawn)"))
  end

  it 'refuses an --only group it does not know' do
    _out, err, status = benchmark('--only', 'spawn,forks')
    expect(status).not_to be_success
    expect(err).to include('invalid argument: --only forks (groups: spawn, capture, interactive, handles)')
  end

  it 'writes CSV, quoting the names that need it' do
    gem_spawn = bench::RubyCase.new('POSIX::Spawn.spawn', :spawn) { true }
    c_loop = bench::RubyCase.new('C posix_spawnp("true")', :spawn) { true }
    timings = { gem_spawn => bench::Timing.new([0.003, 0.001, 0.002], [1, 3, 2]), c_loop => bench::Timing.new([0.0005] * 3, [4] * 3) }
    runner = Struct.new(:warmups, :seconds).new({ gem_spawn => bench::Warmup.new(true, 0.5, 0.002), c_loop => bench::Warmup.new(false, 1.2, 0.0005) }, {})
    settings = bench::Settings.new(count: nil, time: 1.5, warmup: 1.2, rounds: 3, threads: 1, mem_mb: 10, graph: false, format: 'csv')
    expect(bench::Report.new(settings, [gem_spawn, c_loop], runner, [bench::Step.new(12.3, timings)]).csv).to eq(<<~CSV)
      heap_mb,group,case,ops,median_us,spread_pct,settled,warmup_s,ratio,ratio_low,ratio_high,verdict,cpu_us,p90_us,p99_us,cpu_ratio,p90_ratio
      12,spawn,POSIX::Spawn.spawn,6,2000.0,50.0,true,0.5,1.0,1.0,1.0,,,,,,
      12,spawn,"C posix_spawnp(""true"")",12,500.0,0.0,false,1.2,0.25,0.167,0.5,faster,,,,,
    CSV
  end

  it 'says how to get a heap big enough for -m' do
    expect { bench::Heap.new.ensure_room_for(100_000) }.to raise_error(SystemExit) do |e|
      expect(e.message).to match(/-m 100000 needs a JVM heap of 133333 MB, this one has \d+ MB: run it with JRUBY_OPTS=-J-Xmx131g/)
    end
  end
end

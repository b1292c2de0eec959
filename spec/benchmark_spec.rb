require 'spec_helper'
require 'json'
require 'open3'
require 'posix/spawn/benchmark'

# Runs the tool with tiny counts so that it keeps working; how fast things are is for the tool to report,
# not for a test to assert.
RSpec.describe 'bin/posix-spawn-benchmark' do
  root = File.expand_path('..', __dir__)
  spawn_cases = ['POSIX::Spawn.spawn', 'POSIX::Spawn.spawn chdir: Dir.tmpdir', 'POSIX::Spawn.spawn umask: 0o077',
                 'POSIX::Spawn.spawn close_others: false', 'Process.spawn', 'Kernel#system', 'ProcessBuilder start + waitFor']
  capture_cases = ['Open3.capture3 1 MiB', 'ProcessBuilder + drain threads 1 MiB']
  child_cases = ['POSIX::Spawn::Child 1 MiB', 'POSIX::Spawn::Child 16 MiB']
  number = /\d+\.\d/

  define_method(:benchmark) do |*args, env: {}|
    command = [*JRubyLauncher.command, '--dev', '-I', File.join(root, 'lib'), File.join(root, 'bin', 'posix-spawn-benchmark')]
    Open3.capture3(env, *command, *args)
  end

  it 'prints min, median, max and ratio of every case, the C loop both ways and inside the JVM when cc is here' do
    out, err, status = benchmark('-n', '2', '-m', '10')
    expect(status).to be_success, err
    expect(out).to match(/^posix-spawn-benchmark: 2 operations per case in 2 rounds on 1 thread, after 2 to warm up$/)
    expect(out).to match(/^  POSIX::Spawn\.spawn +#{number} +#{number} +#{number} +1\.00$/)
    (spawn_cases + capture_cases).each { |name| expect(out).to match(/^  #{Regexp.escape(name)} +#{number} +#{number} +#{number} /) }
    child_cases.each { |name| expect(out).to match(/^  #{Regexp.escape(name)} +#{number}/) }
    if POSIX::Spawn::Benchmark.which('cc') || POSIX::Spawn::Benchmark.which('gcc')
      expect(out).to match(/^  C posix_spawnp\("true"\) +#{number}/).and match(%r{^  C posix_spawn\("/\S+/true"\) +#{number}})
      expect(out).to match(/^  C posix_spawnp\("true"\) inside this JVM +#{number} +#{number} +#{number} /)
    end
    expect(out).to include('fspawn (fork+exec) is not measured: the JVM cannot fork')
    expect(err).to include('warming up: 2 operations per case', 'step 1/1: growing the live heap to 10 MB')
  end

  # The spawn cases only (as the README's chart): the capture cases go through the same table and chart
  # code, and measuring their 16 MiB rows at ten heap sizes would take most of this file's time.
  it 'with -g, prints the median at ten heap sizes and writes an SVG chart with a line per case' do
    Dir.mktmpdir do |dir|
      chart = File.join(dir, 'chart.svg')
      out, err, status = benchmark('-n', '2', '-m', '10', '-g', '--threads', '2', '--only', 'spawn', '--chart', chart)
      expect(status).to be_success, err
      expect(out).to match(%r{^median µs per operation, by live heap \(MB\)\n +(\d+ +){10}\d+/\d+ MB +net of drift$})
      spawn_cases.each { |name| expect(out).to match(/^  #{Regexp.escape(name)}( +\d+){10} +\d+\.\d\d +(\d+\.\d\d|-)$/) }
      expect(err).to include('step 10/10', "chart written to #{chart}")
      svg = File.read(chart)
      expect(svg).to start_with('<svg xmlns="http://www.w3.org/2000/svg"').and end_with("</svg>\n")
      expect(svg.scan('<polyline').size).to be >= spawn_cases.size
      expect(svg.scan(/<polyline [^>]*points="([^"]*)"/).map { |(points)| points.split.size }.uniq).to eq([10])
    end
  end

  it 'writes JSON, measures only the groups --only names, and skips the C loop cleanly where there is no C compiler' do
    Dir.mktmpdir do |bin|
      %w[true head].each { |program| File.symlink(POSIX::Spawn::Benchmark.which(program), File.join(bin, program)) }
      out, err, status = benchmark('-n', '2', '-m', '10', '--only', 'spawn', '--format', 'json', env: { 'PATH' => bin, 'CC' => nil })
      expect(status).to be_success, err
      report = JSON.parse(out)
      expect(report['settings']).to include('count' => 2, 'rounds' => 2, 'threads' => 1, 'format' => 'json')
      expect(report['unavailable']).to include('case' => 'C posix_spawn loop', 'group' => 'spawn',
                                               'reason' => 'skipped: no C compiler found (set CC to use one)')
      expect(report['results'].map { |r| r['group'] }.uniq).to eq(['spawn'])
      expect(report['results'].map { |r| r['case'] }).to include(*spawn_cases)
      expect(report['results'].find { |r| r['case'] == 'POSIX::Spawn.spawn' }).to include('ratio' => 1.0)
      expect(report['note']).to start_with('fspawn (fork+exec) is not measured')
    end
  end

  it 'raises, naming the program, when a spawn of the C loop fails, in its own process or inside the JVM' do
    bench = POSIX::Spawn::Benchmark
    skip 'no C compiler here' unless bench.which('cc') || bench.which('gcc')
    missing = '/nonexistent/posix-spawn-no-such-program'
    own = bench::CReference.new(bench::CReference.compile, 'C loop', :full_path, missing)
    expect { own.time_per_op(2, 1) }.to raise_error(RuntimeError, /\AC loop: spawn_loop: #{missing} failed \(/)
    library = bench::CReference.compile(library: true)
    inside = bench::CReference::InProcess.new(library, 'C loop inside', :full_path, missing)
    expect { inside.time_per_op(2, 2) }.to raise_error(RuntimeError, "C loop inside: spawning #{missing} failed")
    # The JVM goes on, and so does the library: a failure is not left behind for the next run.
    expect(bench::CReference::InProcess.new(library, 'C loop inside', :search_path, 'true').time_per_op(2, 2)).to be > 0
  end

  it 'refuses an --only group it does not know' do
    _out, err, status = benchmark('--only', 'spawn,forks')
    expect(status).not_to be_success
    expect(err).to include('invalid argument: --only forks (groups: spawn, capture)')
  end

  it 'writes CSV, quoting the names that need it' do
    bench = POSIX::Spawn::Benchmark
    gem_spawn = bench::RubyCase.new('POSIX::Spawn.spawn', :spawn) { true }
    c_loop = bench::RubyCase.new('C posix_spawnp("true")', :spawn) { true }
    step = bench::Step.new(12.3, gem_spawn => bench::Timing.new([0.003, 0.001, 0.002]), c_loop => bench::Timing.new([0.0005] * 3))
    settings = bench::Settings.new(count: 3, rounds: 3, threads: 1, warmup: 3, mem_mb: 10, graph: false, format: 'csv')
    expect(bench::Report.new(settings, [gem_spawn, c_loop], [step]).csv).to eq(<<~CSV)
      heap_mb,group,case,min_us,median_us,max_us,ratio
      12,spawn,POSIX::Spawn.spawn,1000.0,2000.0,3000.0,1.0
      12,spawn,"C posix_spawnp(""true"")",500.0,500.0,500.0,0.25
    CSV
  end

  it 'says how to get a heap big enough for -m' do
    expect { POSIX::Spawn::Benchmark::Heap.new.ensure_room_for(100_000) }.to raise_error(SystemExit) do |e|
      expect(e.message).to match(/-m 100000 needs a JVM heap of 133333 MB, this one has \d+ MB: run it with JRUBY_OPTS=-J-Xmx131g/)
    end
  end
end

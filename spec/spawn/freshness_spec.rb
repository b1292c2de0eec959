require 'spec_helper'

# What the gem keeps from one spawn to the next to go faster (ENV's NAME=VALUE list and its native copy, the
# attributes and file actions of a plain spawn) must never make a spawn see an old state: every change to
# ENV, made by any thread before the spawn, is in the child's environment, and the PATH search sees a
# program installed or removed at once, as MRI does. The children here are spawned plainly (no redirect,
# no env hash: the route that reuses what it kept) and write what they see into a file.
RSpec.describe 'POSIX::Spawn.spawn between changes' do
  around do |example|
    Dir.mktmpdir('posix-spawn-fresh') do |dir|
      @dir = dir
      saved = ENV.to_h
      begin
        example.run
      ensure
        ENV.replace(saved)
      end
    end
  end

  # The environment a plainly spawned child was given, in its order: [[name, value]...] (the envp exactly
  # as exec received it).
  def plain_environ
    plain_report(:environ).split("\0").map { |entry| entry.split('=', 2) }
  end

  # ENV's entries as bytes, to compare with what a child reports (ENV's Strings carry the locale's encoding).
  def env_bytes(entries = ENV.to_a)
    entries.map { |pair| pair.map(&:b) }
  end

  # The descriptors a plainly spawned child was given.
  def plain_fds
    ChildReport.fds(plain_report(:fds))
  end

  # ChildReport's REPORT of a child spawned plainly, with nothing but its arguments.
  def plain_report(report)
    file = File.join(@dir, "out-#{rand(1 << 30)}")
    Process.wait(POSIX::Spawn.spawn(*ChildReport.plain_command(report, file)))
    expect($?).to be_success
    File.binread(file)
  end

  def plain_env
    plain_environ.to_h
  end

  # Runs `sh -c SCRIPT` plainly and returns what it wrote to the file "$1".
  def child_says(script)
    file = File.join(@dir, "out-#{rand(1 << 30)}")
    Process.wait(POSIX::Spawn.spawn('/bin/sh', '-c', script, 'sh', file))
    expect($?).to be_success
    File.binread(file)
  end

  it 'sees every change to ENV since the last spawn: added, changed (to the same length), deleted, reordered, cleared' do
    expect(plain_env).not_to have_key('FRESH_A')
    ENV['FRESH_A'] = 'one'
    expect(plain_env['FRESH_A']).to eq('one')
    ENV['FRESH_A'] = 'two'
    expect(plain_env['FRESH_A']).to eq('two')
    ENV['FRESH_B'] = 'b'
    expect(plain_env.values_at('FRESH_A', 'FRESH_B')).to eq(%w[two b])
    ENV.delete('FRESH_A')
    expect(plain_env).not_to have_key('FRESH_A')
    expect(plain_environ).to eq(env_bytes)
    entries = ENV.to_a
    ENV.clear
    entries.reverse_each { |name, value| ENV[name] = value } # the same entries, in the other order
    expect(plain_environ).to eq(env_bytes(entries.reverse))
    ENV.clear
    expect(plain_environ).to eq([])
  end

  it 'sees a change to ENV made by another thread before the spawn' do
    changed = Queue.new
    spawned = Queue.new
    changer = Thread.new do
      30.times do |i|
        ENV['FRESH_THREAD'] = "value-#{i}"
        changed << i
        spawned.pop
      end
    end
    30.times do |i|
      expect(changed.pop).to eq(i)
      expect(plain_env['FRESH_THREAD']).to eq("value-#{i}")
      spawned << true
    end
    changer.join
  end

  it 'gives a plain spawn ENV again after spawns with an env hash or unsetenv_others' do
    ENV['FRESH_PLAIN'] = 'from-ENV'
    expect(plain_env['FRESH_PLAIN']).to eq('from-ENV')
    expect(child_env({ 'FRESH_PLAIN' => 'from-hash' })['FRESH_PLAIN']).to eq('from-hash')
    expect(plain_env['FRESH_PLAIN']).to eq('from-ENV')
    Process.wait(POSIX::Spawn.spawn('/usr/bin/env', unsetenv_others: true, out: File::NULL))
    expect(plain_env['FRESH_PLAIN']).to eq('from-ENV')
  end

  it 'gives each thread spawning at once the environment ENV had' do
    ENV['FRESH_SHARED'] = 'same'
    envs = Array.new(2) { Thread.new { Array.new(20) { plain_env['FRESH_SHARED'] } } }.flat_map(&:value)
    expect(envs.uniq).to eq(['same'])
  end

  it 'gives every child a whole environment while another thread keeps changing ENV' do
    ENV['FRESH_TOGGLE'] = 'a'
    base = env_bytes.reject { |name, _| name == 'FRESH_TOGGLE' }
    toggler = Thread.new do
      until Thread.current[:stop]
        ENV['FRESH_TOGGLE'] = 'a' * rand(1..64) # a new length each time: a freed or half-replaced copy would show
        Thread.pass
      end
    end
    environs = Array.new(2) { Thread.new { Array.new(25) { plain_environ } } }.flat_map(&:value)
    toggler[:stop] = true
    toggler.join
    environs.each do |environ|
      expect(environ.reject { |name, _| name == 'FRESH_TOGGLE' }).to eq(base)
      expect(environ.assoc('FRESH_TOGGLE')&.last).to match(/\Aa{1,64}\z/)
    end
  end

  it 'gives a plain spawn no process group, session or redirect of an earlier spawn, and those spawns their own' do
    expect(child_says('ps -o pgid= -p $$ > "$1"').strip.to_i).to eq(Process.getpgrp)
    pid = POSIX::Spawn.spawn('/bin/sh', '-c', 'ps -o pgid= -p $$ > "$1"', 'sh', File.join(@dir, 'group'), pgroup: true)
    Process.wait(pid)
    expect(File.read(File.join(@dir, 'group')).strip.to_i).to eq(pid)
    Process.wait(POSIX::Spawn.spawn('echo', 'redirected', out: File.join(@dir, 'out'), 5 => :close))
    expect(File.read(File.join(@dir, 'out'))).to eq("redirected\n")
    expect(child_says('ps -o pgid= -p $$ > "$1"').strip.to_i).to eq(Process.getpgrp)
    expect(plain_fds).to eq([0, 1, 2])
  end

  it 'hands a plain spawn the descriptors marked inheritable at that spawn, not those of an earlier one' do
    expect(plain_fds).to eq([0, 1, 2])
    reader, writer = IO.pipe
    writer.close_on_exec = false
    expect(plain_fds).to include(writer.fileno)
    writer.close_on_exec = true
    expect(plain_fds).not_to include(writer.fileno)
  ensure
    [reader, writer].compact.each(&:close)
  end

  describe 'the PATH search' do
    before do
      @early = File.join(@dir, 'early')
      @late = File.join(@dir, 'late')
      Dir.mkdir(@early)
      Dir.mkdir(@late)
      ENV['PATH'] = "#{@early}:#{@late}:#{ENV['PATH']}"
    end

    def install(dir, says)
      path = File.join(dir, 'fresh-prog')
      File.write(path, "#!/bin/sh\necho #{says} > \"$1\"\n")
      File.chmod(0o755, path)
      path
    end

    def run_prog
      file = File.join(@dir, "prog-#{rand(1 << 30)}")
      Process.wait(POSIX::Spawn.spawn('fresh-prog', file))
      File.read(file).strip
    end

    it "looks the program up on ENV['PATH'] as it is at the spawn, changed since the last one" do
      install(@early, 'early')
      install(@late, 'late')
      expect(run_prog).to eq('early')
      ENV['PATH'] = ENV['PATH'].sub("#{@early}:", '')
      expect(run_prog).to eq('late')
      ENV['PATH'] = "#{@early}:#{ENV['PATH']}"
      expect(run_prog).to eq('early')
    end

    it 'finds a program installed in an earlier PATH directory at once, and misses it once removed' do
      install(@late, 'late')
      expect(run_prog).to eq('late')
      early = install(@early, 'early')
      expect(run_prog).to eq('early')
      File.chmod(0o644, early) # no longer executable: skipped, as MRI skips it
      expect(run_prog).to eq('late')
      File.chmod(0o755, early)
      expect(run_prog).to eq('early')
      File.delete(early)
      expect(run_prog).to eq('late')
      File.delete(File.join(@late, 'fresh-prog'))
      expect { POSIX::Spawn.spawn('fresh-prog') }.to raise_error(Errno::ENOENT, /fresh-prog/)
      Dir.mkdir(early) # a directory of that name is no program
      install(@late, 'late again')
      expect(run_prog).to eq('late again')
    end
  end
end

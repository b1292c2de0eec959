# :umask, :pgroup, :setsid, :rlimit_* and the child's signal state. Part of the 'spawn behaviour' run on every route.
RSpec.shared_examples 'attribute behaviour' do
  it 'applies :umask to the child only: the JVM keeps its own' do
    before = File.umask
    expect(child_status(umask: 0o027)['Umask']).to eq('0027')
    expect(child_status['Umask']).to eq(format('%04o', before))
    expect(File.umask).to eq(before)
  end

  it 'starts the child with no signal blocked and none ignored, whatever the JVM does' do
    status = child_status
    expect([status['SigBlk'], status['SigIgn']]).to eq(%w[0000000000000000 0000000000000000])
    expect(child_status(umask: 0o22, rlimit_core: 0).values_at('SigBlk', 'SigIgn')).to eq(%w[0000000000000000 0000000000000000])
  end

  it 'so a pipeline whose reader exits early ends at once (SIGPIPE at its default)' do
    expect(child_output('yes | head -1')).to eq("y\n")
  end

  it 'puts the child in a new process group with pgroup: true or 0, and joins one with a pgid' do
    own = Process.getpgrp
    expect(child_pgid).to eq(own)
    leader = POSIX::Spawn.spawn('sleep', '5', pgroup: true)
    begin
      expect(Process.getpgid(leader)).to eq(leader)
      expect(child_pgid(pgroup: leader)).to eq(leader)
      expect(child_pgid(pgroup: 0)).not_to eq(own)
    ensure
      OwnProcesses.kill(:KILL, leader)
      Process.wait(leader)
    end
  end

  it 'starts the child in a new session with setsid: true: its session id and group id are its pid' do
    ids = ->(pid) { ProcessResources.stat(pid).values_at(:pgrp, :session) }
    [{}, { umask: 0o22 }, { rlimit_core: 0 }].each do |more|
      pid = POSIX::Spawn.spawn('sleep', '5', setsid: true, **more)
      begin
        expect(ids.call(pid)).to eq([pid, pid]), "with #{more.inspect}"
      ensure
        OwnProcesses.kill(:KILL, pid)
        Process.wait(pid)
      end
    end
    plain = POSIX::Spawn.spawn('sleep', '5', setsid: false)
    begin
      expect(ids.call(plain)).to eq(ids.call(Process.pid))
    ensure
      OwnProcesses.kill(:KILL, plain)
      Process.wait(plain)
    end
  end

  it 'sets rlimits in the child only, from Integer or [soft, hard]' do
    ours = Process.getrlimit(:NOFILE)
    expect(child_limits(rlimit_nofile: [64, 128])['Max open files']).to eq(%w[64 128])
    expect(child_limits(rlimit_core: 0)['Max core file size']).to eq(%w[0 0])
    expect(child_limits(rlimit_cpu: Process::RLIM_INFINITY)['Max cpu time']).to eq(%w[unlimited unlimited])
    expect(Process.getrlimit(:NOFILE)).to eq(ours)
  end

  it 'keeps argv0, env and cwd exact when rlimits are set' do
    expect(child_argv(['cat', 'held'], rlimit_nofile: 100)).to eq(['held', '/proc/self/cmdline'])
    expect(child_cwd({ 'X' => '1' }, chdir: '/etc', rlimit_core: 0)).to eq('/etc')
  end

  it 'raises setrlimit errors in the parent, as MRI does' do
    expect { POSIX::Spawn.spawn('true', rlimit_nofile: [10, 5]) }.to raise_error(Errno::EINVAL, 'Invalid argument - setrlimit')
  end
end

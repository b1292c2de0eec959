# :umask, :pgroup, :setsid, :rlimit_* and the child's signal state. Part of the 'spawn behaviour' run on every route.
RSpec.shared_examples 'attribute behaviour' do
  it 'applies :umask to the child only: the JVM keeps its own' do
    skip_if_refused(umask: 0o027)
    before = File.umask
    expect(child_status(umask: 0o027)['Umask']).to eq('0027')
    expect(child_status['Umask']).to eq(format('%04o', before))
    expect(File.umask).to eq(before)
  end

  { 'posix_spawn' => {}, 'the FS thread and the rlimit gate' => { umask: 0o22, rlimit_core: 0 } }.each do |route, more|
    it "starts the child (through #{route}) with no signal blocked, and ignoring only what the JVM was started ignoring" do
      skip_if_refused(**more)
      expect(child_status(**more).values_at('SigBlk', 'SigIgn')).to eq(['0000000000000000', inherited_ignored])
    end
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

  { 'posix_spawn' => {}, 'the FS thread' => { umask: 0o22 }, 'the rlimit gate' => { rlimit_core: 0 } }.each do |route, more|
    it "starts the child (through #{route}) in a new session with setsid: true: its session id and group id are its pid" do
      skip_if_refused(setsid: true, **more)
      ids = ->(pid) { ProcessResources.stat(pid).values_at(:pgrp, :session) }
      [[true, ->(pid) { [pid, pid] }], [false, ->(_) { ids.call(Process.pid) }]].each do |setsid, expected|
        pid = POSIX::Spawn.spawn('sleep', '5', setsid: setsid, **more)
        begin
          expect(ids.call(pid)).to eq(expected.call(pid)), "setsid: #{setsid}"
        ensure
          OwnProcesses.kill(:KILL, pid)
          Process.wait(pid)
        end
      end
    end
  end

  it 'sets rlimits in the child only, from Integer or [soft, hard]' do
    skip_if_refused(rlimit_core: 0)
    ours = Process.getrlimit(:NOFILE)
    expect(child_limits(rlimit_nofile: [64, 128])['NOFILE']).to eq([64, 128])
    expect(child_limits(rlimit_core: 0)['CORE']).to eq([0, 0])
    expect(child_limits(rlimit_cpu: Process::RLIM_INFINITY)['CPU']).to eq([Process::RLIM_INFINITY] * 2)
    expect(Process.getrlimit(:NOFILE)).to eq(ours)
  end

  it 'keeps argv0, env and cwd exact when rlimits are set' do
    skip_if_refused(rlimit_core: 0)
    expect(child_argv('held', rlimit_nofile: 100)).to eq(['held', *ChildReport.command(:argv).drop(1)])
    expect(child_cwd({ 'X' => '1' }, chdir: '/etc', rlimit_core: 0)).to eq(File.realpath('/etc'))
  end

  it 'raises setrlimit errors in the parent, as MRI does' do
    skip_if_refused(rlimit_core: 0)
    expect { POSIX::Spawn.spawn('true', rlimit_nofile: [10, 5]) }.to raise_error(Errno::EINVAL, 'Invalid argument - setrlimit')
  end
end

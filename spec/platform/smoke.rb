require 'spec_helper'

# A smoke subset of the suite for a platform this machine can only emulate: `bin/dev aarch64-smoke` runs it
# on Linux aarch64 under qemu-user (Debian's arm64 OpenJDK). The gem loads, spawns with every option, runs a
# Child, applies :umask and :chdir. Not part of `rake spec` (the file is not a *_spec.rb).
#
# Under qemu-user (POSIX_SPAWN_QEMU not empty) one known limit of the emulator is skipped, by name: qemu
# turns posix_spawn's vfork-style clone (CLONE_VM | CLONE_VFORK) into a fork, so an error in the child after
# the clone (an exec that fails) is written to memory the parent no longer shares, and posix_spawn reports
# success. The same makes the :rlimit_* gate unusable (a child held at it after posix_spawn returned would wait
# for ever): the gem finds it out with one spawn of "" and refuses the option, which is what is expected there.
RSpec.describe 'smoke' do
  include ChildReport

  def skip_under_qemu(limit)
    emulator = ENV.fetch('POSIX_SPAWN_QEMU', '')
    skip "#{emulator}: #{limit}" unless emulator.empty?
  end

  it 'loads on the CPU it was asked to run on' do
    expect(RbConfig::CONFIG['host_cpu']).to eq(ENV.fetch('POSIX_SPAWN_EXPECT_CPU', RbConfig::CONFIG['host_cpu']))
    Process.wait(POSIX::Spawn.spawn('true'))
    expect($?.success?).to be(true)
  end

  it 'spawns with argv, argv0, env and unsetenv_others' do
    expect(child_argv('kitty')).to eq(['kitty', *ChildReport.command(:argv).drop(1)])
    env = child_env({ 'SMOKE' => 'yes' }, unsetenv_others: true)
    expect(env).to eq('SMOKE' => 'yes')
  end

  it 'applies :chdir and :umask' do
    Dir.mktmpdir do |dir|
      expect(child_cwd(chdir: dir)).to eq(File.realpath(dir))
    end
    expect(child_status(umask: 0o027)['Umask']).to eq('0027')
  end

  it 'starts a new process group and a new session' do
    expect(child_pgid(pgroup: true)).not_to eq(Process.getpgrp)
    expect(child_ids(setsid: true).last).not_to eq(child_ids.last)
  end

  it 'redirects to and from files, merges stderr and closes the rest' do
    Dir.mktmpdir do |dir|
      input = File.join(dir, 'in')
      File.write(input, "from a file\n")
      log = File.join(dir, 'log')
      Process.wait(POSIX::Spawn.spawn('sh', '-c', 'cat; echo err >&2', in: input, out: log, err: %i[child out]))
      expect(File.read(log)).to eq("from a file\nerr\n")
    end
    expect(child_fds).to eq([0, 1, 2])
    r, w = IO.pipe
    expect(child_fds(5 => w)).to eq([0, 1, 2, 5])
  ensure
    r&.close
    w&.close
  end

  it 'resets the signal mask and the dispositions but the ignored ones' do
    status = child_status
    expect(status['SigBlk']).to match(/\A0+\z/)
    expect(status['SigIgn']).to eq(inherited_ignored)
  end

  it 'raises Errno::ENOENT for a program that is not there' do
    expect { POSIX::Spawn.spawn('posix-spawn-smoke-no-such-program') }.to raise_error(Errno::ENOENT)
  end

  it 'raises the exec error of a program that cannot run' do
    skip_under_qemu('CLONE_VFORK becomes fork, so an exec error in the child no longer reaches posix_spawn')
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'not-executable')
      File.write(path, "#!/bin/sh\n")
      File.chmod(0o644, path)
      expect { POSIX::Spawn.spawn(path) }.to raise_error(Errno::EACCES)
    end
  end

  it 'applies :rlimit_*, or under qemu-user refuses it, saying why, and starts nothing' do
    if ENV.fetch('POSIX_SPAWN_QEMU', '').empty?
      expect(child_output('sh', '-c', 'ulimit -n', rlimit_nofile: 64).chomp).to eq('64')
    else
      expect do
        expect { POSIX::Spawn.spawn('sh', '-c', 'ulimit -n', rlimit_nofile: 64) }
          .to raise_error(NotImplementedError, /rlimit_\* needs a posix_spawn that returns only once its child has exec'd/)
      end.not_to leak(:children)
      Process.wait(POSIX::Spawn.spawn('true'))
      expect($?.success?).to be(true)
    end
  end

  it 'runs a Child: input, output, status, timeout' do
    child = POSIX::Spawn::Child.new('sh', '-c', 'cat; printf err >&2; exit 3', input: 'in')
    expect([child.out, child.err, child.status.exitstatus]).to eq(['in', 'err', 3])
    expect { POSIX::Spawn::Child.new('sleep', '10', timeout: 0.5) }.to raise_error(POSIX::Spawn::TimeoutExceeded)
  end

  it 'runs system and `' do
    expect(POSIX::Spawn.system('true')).to be(true)
    expect(POSIX::Spawn.`('echo hi')).to eq("hi\n")
    expect($?.success?).to be(true)
  end
end

require 'spec_helper'

# A child that cannot be started (its program, its :chdir, a redirect source, a limit) leaves $? as MRI
# 3.1 does: a status with exitstatus 127, MRI's forked child's rb_exec_fail exit. MRI's status carries that
# child's pid; posix_spawn never leaves a child behind, so ours carries pid 0, as JRuby's own Kernel#system.
RSpec.describe 'a child that cannot be started' do
  def expect_exec_failure_status
    expect($?).to be_a(Process::Status)
    expect([$?.exitstatus, $?.pid, $?.success?]).to eq([127, 0, false])
  end

  # $? of a child that ran, which the failure must replace
  def set_status
    Process.wait(Process.spawn('true'))
    $?.pid
  end

  before { set_status }

  it 'system returns nil and sets $? to exit 127, for each step that fails' do
    [['no-such-program-here'], ['true', { chdir: '/no/such/dir' }], ['/etc/passwd'], ['true', { out: 250 }],
     ['true', { rlimit_nofile: [1, 2**62] }]].each do |args|
      set_status
      expect(POSIX::Spawn.system(*args)).to be_nil, args.inspect
      expect_exec_failure_status
    end
  end

  it 'system with exception: true raises the Errno and sets $? to exit 127' do
    expect { POSIX::Spawn.system('no-such-program-here', exception: true) }
      .to raise_error(Errno::ENOENT, 'No such file or directory - no-such-program-here')
    expect_exec_failure_status
  end

  it 'system raises for a redirect file it cannot open, and clears $?, as MRI (the parent opens it)' do
    expect { POSIX::Spawn.system('true', out: '/no/such/dir/file') }
      .to raise_error(Errno::ENOENT, 'No such file or directory - /no/such/dir/file')
    expect($?).to be_nil
  end

  it 'system leaves $? alone when its arguments are bad (MRI reads them before it clears $?)' do
    pid = set_status
    expect { POSIX::Spawn.system('true', bogus: 1) }.to raise_error(ArgumentError)
    expect([$?.exitstatus, $?.pid]).to eq([0, pid])
  end

  it 'spawn, `, popen4 and Child raise the Errno and set $? to exit 127' do
    expect { POSIX::Spawn.spawn('no-such-program-here') }.to raise_error(Errno::ENOENT)
    expect_exec_failure_status
    set_status
    expect { POSIX::Spawn.`('no-such-program-here') }.to raise_error(Errno::ENOENT)
    expect_exec_failure_status
    set_status
    expect { POSIX::Spawn.popen4('no-such-program-here') }.to raise_error(Errno::ENOENT)
    expect_exec_failure_status
    set_status
    expect { POSIX::Spawn::Child.new('no-such-program-here') }.to raise_error(Errno::ENOENT)
    expect_exec_failure_status
  end

  it 'the mixin does the same' do
    mixer = Class.new { include POSIX::Spawn }.new
    expect(mixer.send(:system, 'no-such-program-here')).to be_nil
    expect_exec_failure_status
    set_status
    expect { mixer.send(:spawn, 'no-such-program-here') }.to raise_error(Errno::ENOENT)
    expect_exec_failure_status
  end

  it 'Native.last_status_set sets and clears this thread\'s $? only' do
    expect(POSIX::Spawn::Native.last_status_set(3 << 8, 42)).to be($?)
    expect([$?.exitstatus, $?.pid]).to eq([3, 42])
    expect(Thread.new { $? }.value).to be_nil
    expect(POSIX::Spawn::Native.last_status_set(nil, nil)).to be_nil
    expect($?).to be_nil
  end
end

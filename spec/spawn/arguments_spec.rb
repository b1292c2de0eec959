require 'spec_helper'

# Bad arguments raise in the parent what MRI 3.x's Process.spawn raises (class and message, recorded
# from MRI), and leave nothing behind. The full malformed-call matrix is spec/hardening.
RSpec.describe 'POSIX::Spawn.spawn arguments' do
  CASES = [
    # [arguments, MRI's exception class, MRI's message]
    [[], ArgumentError, 'wrong number of arguments (given 0, expected 1+)'],
    [[[]], ArgumentError, 'wrong first argument'],
    [[['true']], ArgumentError, 'wrong first argument'],
    [[nil], TypeError, 'no implicit conversion of nil into String'],
    [['true', 1], TypeError, 'no implicit conversion of Integer into String'],
    [["tr\0ue"], ArgumentError, 'string contains null byte'],
    [[{ 'A=B' => 'x' }, 'true'], ArgumentError, 'environment name contains a equal : A=B'],
    [[{ 'A' => "x\0" }, 'true'], ArgumentError, 'string contains null byte'],
    [[{ 1 => 'x' }, 'true'], TypeError, 'no implicit conversion of Integer into String'],
    [['true', { foo: 1 }], ArgumentError, 'wrong exec option symbol: foo'],
    [['true', { rlimit_foo: 1 }], ArgumentError, 'wrong exec option symbol: rlimit_foo'],
    [['true', { new_pgroup: true }], ArgumentError, 'wrong exec option symbol: new_pgroup'],
    [['true', { exception: true }], ArgumentError, 'exception option is not allowed'],
    [['true', { 'foo' => 1 }], ArgumentError, 'wrong exec option'],
    [['true', { pgroup: -1 }], ArgumentError, 'negative process group ID : -1'],
    [['true', { pgroup: 'x' }], TypeError, 'no implicit conversion of String into Integer'],
    [['true', { umask: 'x' }], TypeError, 'no implicit conversion of String into Integer'],
    [['true', { chdir: 1 }], TypeError, 'no implicit conversion of Integer into String'],
    [['true', { close_others: 1 }], ArgumentError, 'expected true or false as close_others: 1'],
    [['true', { setsid: 1 }], ArgumentError, 'expected true or false as setsid: 1'],
    [['true', { setsid: true, pgroup: true }], ArgumentError, /setsid and pgroup options are exclusive/],
    [['true', { rlimit_core: [1, 2, 3] }], ArgumentError, 'wrong exec rlimit option'],
    [['true', { rlimit_core: :INFINITY }], TypeError, 'no implicit conversion of Symbol into Integer'],
    [['true', { out: :foo }], ArgumentError, 'wrong exec redirect symbol: foo'],
    [['true', { out: Object.new }], ArgumentError, 'wrong exec redirect action'],
    [['true', { -1 => 1 }], ArgumentError, 'negative file descriptor'],
    [['true', { out: [:child, :foo] }], ArgumentError, 'wrong exec redirect'],
    [['true', { 1 => ['/tmp/x', 'q'] }], ArgumentError, 'invalid access mode q'],
    [['true', { 0 => ['/tmp/x', 'r', 'x'] }], TypeError, 'no implicit conversion of String into Integer'],
    [['no-such-program-here'], Errno::ENOENT, 'No such file or directory - no-such-program-here'],
    [['no-such-program-here arg'], Errno::ENOENT, 'No such file or directory - no-such-program-here'],
    [[''], Errno::ENOENT, 'No such file or directory - '],
    [['/etc/passwd'], Errno::EACCES, 'Permission denied - /etc/passwd'],
    [['/etc'], Errno::EACCES, 'Permission denied - /etc'],
  ].freeze

  CASES.each do |args, error, message|
    it "raises #{error} for spawn(#{args.inspect[1..-2]})" do
      before = ProcessResources.open_descriptors
      expect { POSIX::Spawn.spawn(*args) }.to raise_error(error, message)
      # Only what it opened: a descriptor an earlier example left to the garbage collector may close meanwhile.
      expect(ProcessResources.settled_descriptor_changes(before)[:opened]).to eq({})
    end
  end

  it 'raises IOError for a closed IO, as MRI does' do
    reader, writer = IO.pipe
    reader.close
    expect { POSIX::Spawn.spawn('true', out: reader) }.to raise_error(IOError, 'closed stream')
  ensure
    writer.close
  end

  it 'raises NotImplementedError for :uid and :gid, which posix_spawn cannot do' do
    expect { POSIX::Spawn.spawn('true', uid: 0) }.to raise_error(NotImplementedError, /uid option/)
  end

  it 'raises NotImplementedError for :setsid where posix_spawn has no POSIX_SPAWN_SETSID, naming it' do
    POSIX::Spawn::Native.pretend_missing('POSIX_SPAWN_SETSID', true)
    expect { POSIX::Spawn.spawn('true', setsid: true) }.to raise_error(NotImplementedError, /setsid option needs POSIX_SPAWN_SETSID/)
    Process.wait(POSIX::Spawn.spawn('true', setsid: false))
  ensure
    POSIX::Spawn::Native.pretend_missing('POSIX_SPAWN_SETSID', false)
  end

  it 'leaves no zombie after a failed spawn, on any route' do
    before = zombie_children
    expect { POSIX::Spawn.spawn('true', chdir: '/nonexistent-dir') }.to raise_error(Errno::ENOENT)
    expect { POSIX::Spawn.spawn('true', chdir: '/nonexistent-dir', umask: 0o22) }.to raise_error(Errno::ENOENT)
    expect { POSIX::Spawn.spawn('true', rlimit_nofile: [10, 5]) }.to raise_error(Errno::EINVAL)
    expect { POSIX::Spawn.spawn('/etc/passwd', rlimit_core: 0) }.to raise_error(Errno::EACCES)
    expect(zombie_children).to eq(before)
  end
end

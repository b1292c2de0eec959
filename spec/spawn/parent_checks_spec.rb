require 'spec_helper'

# What MRI 3.1 checks about descriptors before its child runs, and reports as the spawn's error: a
# descriptor to close, or to copy from, that is not open (Errno::EBADF, naming close or dup2: MRI's child
# fails there and exits 127, so system returns nil), and a duplex IO given as a redirect (ArgumentError).
RSpec.describe 'descriptor checks before spawning' do
  def unused_fd
    open = ProcessResources.descriptors
    (200..1000).find { |fd| !open.key?(fd) }
  end

  it 'raises Errno::EBADF "close" for a descriptor to close that is not open, and starts nothing' do
    fd = unused_fd
    expect { expect { POSIX::Spawn.spawn('true', fd => :close) }.to raise_error(Errno::EBADF, 'Bad file descriptor - close') }
      .not_to(change { ProcessResources.children })
    expect { POSIX::Spawn.spawn('true', [fd] => :close) }.to raise_error(Errno::EBADF, 'Bad file descriptor - close')
  end

  it 'raises Errno::EBADF "dup2" for a redirect source that is not open, before "close", as MRI orders them' do
    fd = unused_fd
    expect { POSIX::Spawn.spawn('true', out: fd) }.to raise_error(Errno::EBADF, 'Bad file descriptor - dup2')
    expect { POSIX::Spawn.spawn('true', 1 => fd, fd + 1 => :close) }.to raise_error(Errno::EBADF, 'Bad file descriptor - dup2')
  end

  it 'closes a descriptor that is open, and system returns nil with $? exit 127 for one that is not' do
    File.open(File::NULL) do |f|
      f.close_on_exec = false
      expect(child_fds(close_others: false)).to include(f.fileno)
      expect(child_fds(f.fileno => :close, close_others: false)).not_to include(f.fileno)
    end
    expect(POSIX::Spawn.system('true', unused_fd => :close)).to be_nil
    expect($?.exitstatus).to eq(127)
  end

  it 'raises ArgumentError "duplex IO redirection" for a duplex IO as a redirect target, key or [:child] source' do
    duplex = IO.popen(['cat'], 'r+')
    expect { POSIX::Spawn.spawn('true', out: duplex) }.to raise_error(ArgumentError, 'duplex IO redirection')
    expect { POSIX::Spawn.spawn('true', in: duplex) }.to raise_error(ArgumentError, 'duplex IO redirection')
    expect { POSIX::Spawn.spawn('true', duplex => 1) }.to raise_error(ArgumentError, 'duplex IO redirection')
    expect { POSIX::Spawn.spawn('true', out: [:child, duplex]) }.to raise_error(ArgumentError, 'duplex IO redirection')
    expect { POSIX::Spawn::Child.new('true', out: duplex) }.to raise_error(ArgumentError, 'duplex IO redirection')
  ensure
    duplex&.close
  end
end

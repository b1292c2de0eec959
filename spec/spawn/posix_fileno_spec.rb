require 'spec_helper'

# IO#posix_fileno, the MRI posix-spawn gem's public method: the descriptor the operating system knows.
RSpec.describe 'IO#posix_fileno' do
  it 'is the real descriptor: the one a child reaches through spawn' do
    reader, writer = IO.pipe
    pid = POSIX::Spawn.spawn('sh', '-c', 'echo through >&9', 9 => writer.posix_fileno)
    writer.close
    Process.wait(pid)
    expect(reader.read).to eq("through\n")
    reader.close
  end

  it 'is 0, 1 and 2 for the standard streams, and the descriptor the process has open on a file' do
    expect([STDIN, STDOUT, STDERR].map(&:posix_fileno)).to eq([0, 1, 2])
    File.open(__FILE__) do |f|
      expect(ProcessResources.descriptors_of(__FILE__)).to include(f.posix_fileno)
    end
  end

  it 'raises IOError for a closed IO, ArgumentError for a JRuby IO without a real descriptor' do
    reader, writer = IO.pipe
    [reader, writer].each(&:close)
    expect { reader.posix_fileno }.to raise_error(IOError, 'closed stream')
    expect { java.io.ByteArrayOutputStream.new.to_io.posix_fileno }
      .to raise_error(ArgumentError, /\AIO #<IO:fd \d+> has no operating-system file descriptor/)
  end

  it 'is public, as in the MRI gem' do
    expect(IO.public_method_defined?(:posix_fileno)).to be(true)
  end
end

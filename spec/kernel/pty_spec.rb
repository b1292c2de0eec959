require 'spec_helper'
require_relative 'drop_in_context'
require_relative '../pty/terminal_reading'

# MRI 3.1's results for each (checked with /usr/bin/ruby): PTY.spawn's block form returns nil, closes
# neither IO, reaps an exited child and leaves a running one; no command runs $SHELL.
RSpec.describe 'PTY under the drop-in' do
  include_context 'drop-in installed'

  def cleanup(reader, writer, pid)
    [reader, writer].each { |io| io.close unless io.closed? }
    Process.kill(:KILL, pid)
    Process.wait(pid)
  rescue Errno::ESRCH, Errno::ECHILD
    nil
  end

  it 'PTY.spawn and PTY.getpty give the child the slave as its controlling terminal' do
    %i[spawn getpty].each do |name|
      reader, writer, pid = PTY.public_send(name, 'tty')
      expect(reader).to be_a(POSIX::Spawn::PtyMaster)
      expect(read_to_hangup(reader)).to eq("#{reader.path}\r\n")
      expect(Process.wait2(pid)[1].success?).to be(true)
      cleanup(reader, writer, pid)
    end
  end

  it "the block form returns nil, closes neither IO, reaps a child that has exited" do
    ios = nil
    result = PTY.spawn('sh', '-c', 'exit 5') do |reader, writer, pid|
      ios = [reader, writer, pid]
      read_to_hangup(reader)
      ProcessResources.wait_until_gone(pid) # exited, not yet reaped
    end
    expect(result).to be_nil
    expect(ios[0, 2].map(&:closed?)).to eq([false, false])
    expect(ProcessResources.stat(ios[2])).to be_nil # reaped
    ios[0, 2].each(&:close)
  end

  it 'the block form leaves a child still running as it is, as MRI does' do
    reader = writer = pid = nil
    PTY.spawn('sleep', '30') { |r, w, p| reader, writer, pid = r, w, p }
    expect(ProcessResources.stat(pid)[:state]).not_to eq('Z')
  ensure
    cleanup(reader, writer, pid)
  end

  it "with no command runs the user's shell ($SHELL)" do
    shell = ENV['SHELL']
    ENV['SHELL'] = '/usr/bin/tty'
    reader, writer, pid = PTY.spawn
    expect(read_to_hangup(reader)).to eq("#{reader.path}\r\n")
    cleanup(reader, writer, pid)
  ensure
    ENV['SHELL'] = shell
  end

  it 'takes no :winsize, as MRI does not' do
    expect { PTY.spawn('true', winsize: [1, 2]) }.to raise_error(ArgumentError, 'wrong exec option symbol: winsize')
  end

  it 'PTY.open gives [master, slave], closing both after a block' do
    master, slave = PTY.open
    expect([master.inspect, slave.path]).to eq(["#<IO:masterpty:#{slave.path}>", slave.path])
    [master, slave].each(&:close)
    ios = nil
    expect(PTY.open { |*pair| ios = pair; :value }).to eq(:value)
    expect(ios.map(&:closed?)).to eq([true, true])
  end

  it "uninstall puts JRuby's PTY methods back" do
    POSIX::Spawn::Kernel.uninstall
    jruby = %i[spawn getpty open].map { |n| PTY.singleton_class.instance_method(n).source_location&.first }
    POSIX::Spawn::Kernel.install
    ours = %i[spawn getpty open].map { |n| PTY.singleton_class.instance_method(n).source_location&.first }
    expect(ours.uniq).to eq([File.expand_path('../../lib/posix/spawn/kernel/pty.rb', __dir__)])
    expect(jruby).not_to include(ours.first)
  end
end

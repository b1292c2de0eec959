require 'spec_helper'
require_relative 'terminal_reading'

RSpec.describe 'POSIX::Spawn.pty_check' do
  # The ChildExited that pty_check(pid, true) raises once the child has exited or stopped.
  def child_exited(pid)
    loop do
      POSIX::Spawn.pty_check(pid, true)
      sleep 0.01
    end
  rescue POSIX::Spawn::ChildExited => e
    e
  end

  it 'is nil while the child runs, then its status ($? too), then nil once reaped' do
    reader, writer, pid = POSIX::Spawn.pty_spawn('sh', '-c', 'read x; exit 3')
    expect(POSIX::Spawn.pty_check(pid)).to be_nil
    writer.puts 'go'
    status = nil
    status = POSIX::Spawn.pty_check(pid) until status || (sleep(0.01) && false)
    expect([status.pid, status.exitstatus, $?]).to eq([pid, 3, status])
    expect(POSIX::Spawn.pty_check(pid)).to be_nil
  ensure
    [reader, writer].each { |io| io&.close }
  end

  it 'raises ChildExited carrying the status with raise = true, as PTY.check does' do
    reader, writer, pid = POSIX::Spawn.pty_spawn('sh', '-c', 'exit 4')
    error = child_exited(pid)
    expect(error.message).to eq("pty - exited: #{pid}")
    expect(error.status.exitstatus).to eq(4)
    expect(error).to be_a(RuntimeError)
  ensure
    [reader, writer].each { |io| io&.close }
  end

  it "reports a stopped child as MRI does ('stopped'), which stays this process's to reap" do
    reader, writer, pid = POSIX::Spawn.pty_spawn('sleep', '30')
    OwnProcesses.kill(:STOP, pid)
    error = child_exited(pid)
    expect(error.message).to eq("pty - stopped: #{pid}")
    expect(error.status.stopped?).to be(true)
  ensure
    OwnProcesses.kill(:KILL, pid)
    Process.wait(pid)
    [reader, writer].each { |io| io&.close }
  end
end

require 'spec_helper'
require 'timeout'

# Children start with no signal blocked or ignored, whatever the JVM blocks or ignores, and their deaths
# by signal are reported as such.
RSpec.describe 'signals and children' do
  it 'reports a child killed by a signal as signaled?, with that termsig' do
    pid = POSIX::Spawn.spawn('sleep', '30')
    Process.kill(:TERM, pid)
    Process.wait(pid)
    expect($?).to be_signaled
    expect($?.termsig).to eq(Signal.list.fetch('TERM'))
  end

  it 'reports a child that kills itself: system returns false, $? names the signal' do
    expect(POSIX::Spawn.system('sh', '-c', 'kill -USR1 $$')).to be(false)
    expect($?.termsig).to eq(Signal.list.fetch('USR1'))
  end

  { 'posix_spawn' => {}, 'the FS thread' => { umask: 0o022 }, 'the rlimit gate' => { rlimit_core: 0 } }.each do |route, options|
    it "starts the child (through #{route}) with an empty signal mask and no ignored signal" do
      pid = POSIX::Spawn.spawn('sleep', '30', options)
      # Until it execs, /proc shows the spawning copy; sleep's own status has the name "sleep".
      Timeout.timeout(30) { sleep 0.01 until File.read("/proc/#{pid}/status")[/^Name:\s+(\S+)/, 1] == 'sleep' }
      expect(ProcessResources.signal_sets(pid)).to eq(blocked: 0, ignored: 0)
    ensure
      if pid
        Process.kill(:KILL, pid)
        Process.wait(pid)
      end
    end
  end

  it "ends `yes | head -1` at once: yes dies of SIGPIPE, as it would from a terminal" do
    output = Timeout.timeout(60) { POSIX::Spawn.`(%q(bash -c 'yes | head -1; echo ${PIPESTATUS[0]}')) }
    expect(output).to eq("y\n#{128 + Signal.list.fetch('PIPE')}\n")
  end
end

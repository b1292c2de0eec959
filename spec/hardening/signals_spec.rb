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

  # The pids of running processes whose command line is exactly `words` (a zombie's is empty).
  def running_with_command_line(words)
    Dir.glob('/proc/[0-9]*/cmdline').filter_map do |path|
      Integer(path[%r{\A/proc/(\d+)/}, 1]) if File.binread(path).split("\0") == words
    rescue SystemCallError # exited meanwhile
      nil
    end
  end

  # Ctrl-C reaches JRuby alone (a :pgroup_kill child has a group of its own, which the terminal does not
  # signal), while Child runs a shell with two background sleeps: no grandchild may outlive JRuby, with
  # INT trapped to raise Interrupt (Child#exec! kills the group) or not (the JVM exits, its shutdown hook
  # kills the group). The sleeps carry a unique duration to be found by.
  { 'INT trapped to raise Interrupt' => "main = Thread.current\ntrap('INT') { main.raise(Interrupt) }\n",
    'no trap: the JVM exits' => '' }.each do |handling, trap_script|
    it "leaves no grandchild of a :pgroup_kill Child behind when Ctrl-C stops JRuby (#{handling})" do
      sleep_command = ['sleep', format('300.%06d', rand(1_000_000))]
      script = trap_script + <<~RUBY
        require 'posix/spawn'
        POSIX::Spawn::Child.new('sh', '-c', '#{sleep_command.join(' ')} & #{sleep_command.join(' ')} & wait', pgroup_kill: true)
      RUBY
      # POSIX::Spawn.spawn gives JRuby default signal actions (a shell may have set SIGINT to ignored).
      jruby = POSIX::Spawn.spawn(*JRubyLauncher.command, '-I', File.expand_path('../../lib', __dir__), '-e', script,
                                 out: File::NULL, err: File::NULL)
      Timeout.timeout(60) { sleep 0.05 until running_with_command_line(sleep_command).size == 2 }
      Process.kill(:INT, jruby)
      Timeout.timeout(30) { Process.wait(jruby) }
      jruby = nil
      # Killed before JRuby exited, but dying (and being reaped by init) takes a moment.
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
      sleep 0.05 until running_with_command_line(sleep_command).empty? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      survivors = running_with_command_line(sleep_command)
      expect(survivors).to be_empty, "#{survivors.size} of the sleeps (#{survivors.join(', ')}) outlived JRuby"
    ensure
      if jruby
        Process.kill(:KILL, jruby)
        Process.wait(jruby)
      end
      running_with_command_line(sleep_command).each do |pid|
        Process.kill(:KILL, pid)
      rescue Errno::ESRCH # died meanwhile
        nil
      end
    end
  end

  it "ends `yes | head -1` at once: yes dies of SIGPIPE, as it would from a terminal" do
    output = Timeout.timeout(60) { POSIX::Spawn.`(%q(bash -c 'yes | head -1; echo ${PIPESTATUS[0]}')) }
    expect(output).to eq("y\n#{128 + Signal.list.fetch('PIPE')}\n")
  end
end

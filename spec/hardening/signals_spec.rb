require 'spec_helper'
require 'timeout'

# Children start with no signal blocked or ignored, whatever the JVM blocks or ignores, and their deaths
# by signal are reported as such.
RSpec.describe 'signals and children' do
  it 'reports a child killed by a signal as signaled?, with that termsig' do
    pid = POSIX::Spawn.spawn('sleep', '30')
    OwnProcesses.kill(:TERM, pid)
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
      Timeout.timeout(30) { sleep 0.01 until ProcessResources.program_name(pid) == 'sleep' }
      expect(ProcessResources.signal_sets(pid)).to eq(blocked: 0, ignored: 0)
    ensure
      if pid
        OwnProcesses.kill(:KILL, pid)
        Process.wait(pid)
      end
    end
  end

  # Ctrl-C to a JRuby running two Childs: a plain `sleep` on one thread and, on another, a :pgroup_kill
  # Child running a shell with two background sleeps (Ctrl-C reaches JRuby alone: the :pgroup_kill child
  # has a group of its own, which the terminal does not signal). With INT trapped to raise Interrupt in
  # both threads, each Child#exec! kills its child (the group) and reaps it; untrapped, the JVM exits with
  # 130 and its shutdown hook kills both. Either way no child and no grandchild outlives JRuby. The
  # sleeps carry a unique duration to be found by.
  def ctrl_c_script(sleep_command, trapped)
    <<~RUBY
      require 'posix/spawn'
      children = { plain: POSIX::Spawn::Child.build('sleep', '300'),
                   group: POSIX::Spawn::Child.build('sh', '-c', '#{sleep_command.join(' ')} & #{sleep_command.join(' ')} & wait', pgroup_kill: true) }
      threads = children.transform_values do |child|
        Thread.new do
          child.exec!
          'finished'
        rescue Interrupt
          "interrupted, child \#{child.status.termsig}"
        end
      end
      #{trapped ? "trap('INT') { threads.each_value { |t| t.raise(Interrupt) } }" : ''}
      sleep 0.01 until children.values.all?(&:pid)
      puts children.values.map(&:pid).join(' ')
      $stdout.flush
      threads.each { |name, thread| puts "\#{name}: \#{thread.value}" }
    RUBY
  end

  { 'INT trapped to raise Interrupt' => true, 'no trap: the JVM exits with 130' => false }.each do |handling, trapped|
    it "stops both Childs, a :pgroup_kill one with its grandchildren, when Ctrl-C stops JRuby (#{handling})" do
      sleep_command = ['sleep', format('300.%06d', rand(1_000_000))]
      reader, writer = IO.pipe
      # POSIX::Spawn.spawn gives JRuby default signal actions (a shell may have set SIGINT to ignored).
      jruby = POSIX::Spawn.spawn(*JRubyLauncher.command, '-I', File.expand_path('../../lib', __dir__), '-e',
                                 ctrl_c_script(sleep_command, trapped), out: writer, err: File::NULL)
      writer.close
      # Generous bounds, for a JRuby starting on a loaded machine: they only keep a hang from lasting.
      children = Timeout.timeout(300) { reader.gets }.split.map { |pid| Integer(pid) }
      Timeout.timeout(300) { sleep 0.05 until ProcessResources.running_with_command_line(sleep_command).size == 2 }
      OwnProcesses.kill(:INT, jruby)
      printed = Timeout.timeout(120) { reader.read }
      Timeout.timeout(120) { Process.wait(jruby) }
      jruby = nil
      if trapped
        expect($?).to be_success
        expect(printed).to eq(%w[plain group].map { |name| "#{name}: interrupted, child #{Signal.list['TERM']}\n" }.join)
      else
        expect($?.exitstatus).to eq(130)
      end
      # Killed before JRuby exited, but dying (and being reaped by init) takes a moment.
      expect(children.reject { |pid| ProcessResources.wait_until_gone(pid) }).to be_empty
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
      sleep 0.05 until ProcessResources.running_with_command_line(sleep_command).empty? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      survivors = ProcessResources.running_with_command_line(sleep_command)
      expect(survivors).to be_empty, "#{survivors.size} of the sleeps (#{survivors.join(', ')}) outlived JRuby"
    ensure
      reader&.close
      # The sleeps first: descendants while JRuby lives, then in the group of the :pgroup_kill Child's shell.
      ProcessResources.running_with_command_line(sleep_command).each { |pid| OwnProcesses.kill(:KILL, pid, in_group: children&.last) }
      if jruby
        OwnProcesses.kill(:KILL, jruby)
        Process.wait(jruby)
      end
    end
  end

  it "ends `yes | head -1` at once: yes dies of SIGPIPE, as it would from a terminal" do
    output = Timeout.timeout(60) { POSIX::Spawn.`(%q(bash -c 'yes | head -1; echo ${PIPESTATUS[0]}')) }
    expect(output).to eq("y\n#{128 + Signal.list.fetch('PIPE')}\n")
  end
end

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
    it "starts the child (through #{route}) with an empty signal mask, ignoring only what the JVM was started ignoring" do
      pid = POSIX::Spawn.spawn('sleep', '30', options)
      # Until it execs, /proc shows the spawning copy; sleep's own status has the name "sleep".
      Timeout.timeout(30) { sleep 0.01 until ProcessResources.program_name(pid) == 'sleep' }
      expect(ProcessResources.signal_sets(pid)).to eq(blocked: 0, ignored: inherited_ignored.hex)
    ensure
      if pid
        OwnProcesses.kill(:KILL, pid)
        Process.wait(pid)
      end
    end
  end

  # What each route's child is given, printed as "route ignored-set" lines by the Ruby that runs it: MRI or, with
  # the drop-in, JRuby (Child where the gem is there). Every route's child reads its own /proc status.
  SIGIGN_SCRIPT = <<~'RUBY'.freeze
    require 'open3'
    require 'pty'
    report = 'grep SigIgn /proc/self/status'
    ignored = ->(text) { text[/SigIgn:\s*(\h+)/, 1].hex }
    read = lambda do |**options|
      r, w = IO.pipe
      pid = Process.spawn(report, out: w, **options)
      w.close
      Process.wait(pid)
      r.read
    end
    routes = {
      'self' => -> { File.read('/proc/self/status') },
      'spawn' => -> { read.call },
      'spawn, the FS thread' => -> { read.call(umask: 0o022) },
      'spawn, the rlimit gate' => -> { read.call(rlimit_core: 0) },
      'system' => -> { Tempfile.create { |f| system(report, out: f.path); File.read(f.path) } },
      'backtick' => -> { `#{report}` },
      'popen' => -> { IO.popen(report, &:read) },
      'capture2' => -> { Open3.capture2(report).first },
      'pty' => -> { PTY.spawn(report) { |master, _, pid| return master.gets.tap { Process.wait(pid) } } }
    }
    routes['Child'] = -> { POSIX::Spawn::Child.new(report).out } if defined?(POSIX::Spawn::Child)
    require 'tempfile'
    routes.each { |route, run| puts "#{route} #{ignored.call(run.call)}" }
  RUBY

  describe 'under a parent that ignores SIGHUP, SIGINT, SIGQUIT, SIGUSR1 and SIGPIPE (nohup, a background job)', if: File.directory?('/proc/self') do
    def bits(*names) = names.sum { |name| 1 << (Signal.list.fetch(name) - 1) }

    def run_ignoring(ruby)
      IO.popen(['env', '--ignore-signal=HUP,INT,QUIT,USR1,PIPE', *ruby, '-e', SIGIGN_SCRIPT], err: File::NULL, &:read)
        .lines.to_h { |line| line.chomp.reverse.split(' ', 2).map(&:reverse).reverse }.transform_values(&:to_i)
    end

    before do
      skip 'needs env --ignore-signal (coreutils 8.31+)' unless system('env', '--ignore-signal=HUP', 'true', err: File::NULL)
    end

    let(:routes) { ['spawn', 'spawn, the FS thread', 'spawn, the rlimit gate', 'system', 'backtick', 'popen', 'capture2', 'pty', 'Child'] }

    it 'gives every child what MRI\'s gets: those signals still ignored, but SIGPIPE, reset as MRI resets it' do
      lib = File.expand_path('../../lib', __dir__)
      jruby = run_ignoring([*JRubyLauncher.command, '-I', lib, '-rposix/spawn/kernel', '-rposix/spawn'])
      # The JVM takes SIGQUIT (thread dumps) and SIGPIPE for itself as it starts, ignored or not: what it kept
      # (of the standard signals: JRuby's own IO.popen, which started it, leaves glibc's signal 32 ignored).
      expect(jruby.delete('self') & 0x7fff_ffff).to eq(bits('HUP', 'INT', 'USR1'))
      expect(jruby).to eq(routes.to_h { |route| [route, bits('HUP', 'INT', 'USR1')] })
      skip 'MRI (/usr/bin/ruby), the oracle, is not installed' unless File.executable?('/usr/bin/ruby')
      mri = run_ignoring(['/usr/bin/ruby']).transform_values { |set| set & 0x7fff_ffff } # JRuby's IO.popen's 32 and 33 as above
      expect(mri.delete('self')).to eq(bits('HUP', 'INT', 'QUIT', 'USR1', 'PIPE'))
      # MRI keeps SIGQUIT ignored too: the JVM replaced its ignore before any Ruby ran, and keeps no record of it.
      expect(mri).to eq((routes - ['Child']).to_h { |route| [route, bits('HUP', 'INT', 'QUIT', 'USR1')] })
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
      # A JRuby started with SIGINT ignored (this one's, by a shell running it in the background) can never trap
      # it: the JVM leaves an ignored SIGINT alone. env puts it back to its default.
      int_ignored = ProcessResources.signal_sets(Process.pid)[:ignored][Signal.list.fetch('INT') - 1] == 1
      jruby = POSIX::Spawn.spawn(*(int_ignored ? %w[env --default-signal=INT] : []), *JRubyLauncher.command, '-I', File.expand_path('../../lib', __dir__), '-e',
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

require 'spec_helper'
require 'json'
require 'fileutils'

# When the system says no (descriptor table full, process limit reached, program gone, directory not a
# directory, path not writable), the spawn raises in the parent, leaves nothing behind, and the next one
# works. The table and process limits are set in a JRuby of its own, so this one keeps its limits.

# The scripts run in a JRuby of their own, with the gem and spec/support on its load path.
module FaultScripts
  LOAD_PATH = ['-I', File.expand_path('../../lib', __dir__), '-I', File.expand_path('../support', __dir__)].freeze

  # Fills the descriptor table but for `free` descriptors: the fillers, to close.
  FILL = <<~'RUBY'.freeze
    def fill(free)
      fillers = []
      loop { fillers << File.open('/dev/null') }
    rescue Errno::EMFILE
      fillers.pop(free).each(&:close)
      fillers
    end

    # The block's value, or "Class: message" of what it raised, with `free` descriptors free meanwhile.
    def with_free(free)
      fillers = fill(free)
      yield
    rescue StandardError => e
      "#{e.class}: #{e.message}"
    ensure
      fillers&.each(&:close)
    end
  RUBY

  # Tries each spawn with the descriptor table full and with 1 to 5 descriptors free (so that popen4's
  # second or third pipe is the one that fails), then with room again.
  FULL_TABLE = (FILL + <<~'RUBY').freeze
    require 'posix/spawn'
    require 'json'
    require 'process_resources'
    def attempt
      result = yield
      pid, *pipes = result
      pipes.each(&:close)
      Process.wait(pid) if pid.is_a?(Integer)
      'started'
    rescue StandardError => e
      "#{e.class}: #{e.message}"
    end
    attempts = {
      plain: -> { POSIX::Spawn.spawn('true') },
      redirect_to_file: -> { POSIX::Spawn.spawn('true', out: '/dev/null') },
      umask: -> { POSIX::Spawn.spawn('true', umask: 0o22) },
      popen4: -> { POSIX::Spawn.popen4('true') },
      backtick: -> { POSIX::Spawn.`('true') },
      system: -> { POSIX::Spawn.system('true') }
    }
    rlimit = -> { POSIX::Spawn.spawn('true', rlimit_core: 0) }
    attempts.each_value { |a| attempt(&a) } # load every class while there is room
    attempt(&rlimit)
    before = ProcessResources.snapshot(:descriptors, :children)
    Process.setrlimit(:NOFILE, before[:descriptors].keys.max + 32)
    # the table filled anew right before each attempt: a descriptor the JVM closes meanwhile (CI saw one free
    # for redirect_to_file with the table filled once for all) must not give the attempt room
    outcomes = (0..5).map do |free|
      attempts.merge(rlimit: rlimit).transform_values { |a| with_free(free) { attempt(&a) } }
    end
    outcomes << attempts.merge(rlimit: rlimit).transform_values { |a| attempt(&a) }
    puts JSON.generate('full' => outcomes.first, 'partly_free' => outcomes[1..-2], 'room' => outcomes.last,
                       'changes' => ProcessResources.settled_changes(before))
  RUBY

  # Starts the first handle, and with it the reaper, with the descriptor table full: the reaper's wake-up
  # pipe cannot be made. It must fail before the child exists (a child nobody waits for would be left).
  FIRST_REAPER = (FILL + <<~'RUBY').freeze
    require 'posix/spawn'
    require 'json'
    require 'process_resources'
    Process.wait(POSIX::Spawn.spawn('true')) # a plain spawn's classes loaded; the reaper not started yet
    require 'posix/spawn/handle' # loaded on first use, which needs a descriptor: here, while there is room
    before = ProcessResources.snapshot(:descriptors, :children)
    Process.setrlimit(:NOFILE, before[:descriptors].keys.max + 32)
    fillers = fill(0)
    full = begin
      POSIX::Spawn.start('sleep', '30').terminate
      'started'
    rescue Exception => e # rubocop:disable Lint/RescueException -- a Java exception is no StandardError
      "#{e.class}: #{e.message}"
    end
    fillers.each(&:close)
    changes = ProcessResources.settled_changes(before)
    status = POSIX::Spawn.start('true').wait
    puts JSON.generate('full' => full, 'changes' => changes, 'then' => status.success?)
  RUBY

  # The first :umask spawn of this JVM (the FS thread starts then) with the table full, then with room:
  # the full table is that call's Errno::EMFILE, not a :umask and :rlimit_* refused for the JVM's life.
  FIRST_UMASK = (FILL + <<~'RUBY').freeze
    require 'posix/spawn'
    require 'json'
    require 'process_resources'
    def attempt(**options)
      Process.wait(POSIX::Spawn.spawn('true', **options))
      'started'
    rescue StandardError, NotImplementedError => e
      "#{e.class}: #{e.message}"
    end
    Process.wait(POSIX::Spawn.spawn('true')) # a plain spawn's classes loaded; the FS thread not started yet
    before = ProcessResources.snapshot(:descriptors, :children)
    Process.setrlimit(:NOFILE, before[:descriptors].keys.max + 32)
    fillers = fill(0)
    full = attempt(umask: 0o22)
    fillers.each(&:close)
    puts JSON.generate('full' => full, 'umask' => attempt(umask: 0o22), 'rlimit' => attempt(rlimit_core: 0),
                       'changes' => ProcessResources.settled_changes(before))
  RUBY

  # The drop-in's Kernel#` with 0 to 5 descriptors free: whichever step fails, its child is reaped.
  DROP_IN_BACKTICK = (FILL + <<~'RUBY').freeze
    require 'posix/spawn/kernel'
    require 'json'
    require 'process_resources'
    `true` # its classes loaded while there is room
    before = ProcessResources.snapshot(:descriptors, :children)
    Process.setrlimit(:NOFILE, before[:descriptors].keys.max + 32)
    outcomes = (0..5).map do |free|
      with_free(free) { `echo hi` == "hi\n" ? 'started' : 'wrong output' }
    end
    puts JSON.generate('outcomes' => outcomes, 'changes' => ProcessResources.settled_changes(before))
  RUBY

  # Handle#communicate with 0 to 5 descriptors free (its copies of the three pipes, then its wake-up
  # pipe): a failure closes what it made and leaves the handle's IOs, so a later call gets every byte.
  COMMUNICATE_FULL = (FILL + <<~'RUBY').freeze
    require 'posix/spawn'
    require 'json'
    require 'process_resources'
    POSIX::Spawn.start('cat', in: :pipe, out: :pipe, err: :pipe).communicate('warm') # classes, the reaper
    ProcessResources.open_path_watch('sh', '-c', ':')
    before = ProcessResources.snapshot(:descriptors, :children)
    Process.setrlimit(:NOFILE, before[:descriptors].keys.max + 32)
    outcomes = (0..5).map do |free|
      handle = POSIX::Spawn.start('sh', '-c', 'cat; printf err >&2', in: :pipe, out: :pipe, err: :pipe)
      full = with_free(free) { handle.communicate("in #{free}") }
      output = full.is_a?(Array) ? full : handle.communicate("in #{free}", timeout: 10)
      { 'full' => full.is_a?(Array) ? 'communicated' : full, 'output' => output, 'status' => handle.status.exitstatus }
    end
    puts JSON.generate('outcomes' => outcomes, 'changes' => ProcessResources.settled_changes(before))
  RUBY

  # pty_spawn's block form with 0 to 7 descriptors free, reading output that comes late (the read waits).
  PTY_FULL = (FILL + <<~'RUBY').freeze
    require 'posix/spawn'
    require 'json'
    require 'process_resources'
    run = -> { POSIX::Spawn.pty_spawn('sh', '-c', 'sleep 0.2; printf hi') { |reader, _, _| reader.read } }
    run.call # classes loaded
    ProcessResources.open_path_watch('sh', '-c', ':')
    before = ProcessResources.snapshot(:descriptors, :children)
    Process.setrlimit(:NOFILE, before[:descriptors].keys.max + 32)
    outcomes = (0..7).map do |free|
      with_free(free) { run.call }
    end
    puts JSON.generate('outcomes' => outcomes, 'then' => run.call, 'changes' => ProcessResources.settled_changes(before))
  RUBY

  # The module's backtick with 2 to 5 descriptors free: on JRuby 10, IO#read of its pipe with 4 free
  # opened a selector (a pipe pair) that JRuby keeps for the JVM's life, the pair the full table's check saw
  # in loaded runs (issue #28). The gem's poll loop reads it instead.
  BACKTICK_FEW_FREE = (FILL + <<~'RUBY').freeze
    require 'posix/spawn'
    require 'json'
    require 'process_resources'
    POSIX::Spawn.`('true') # classes loaded
    ProcessResources.open_path_watch('sh', '-c', ':')
    before = ProcessResources.snapshot(:descriptors, :children)
    Process.setrlimit(:NOFILE, before[:descriptors].keys.max + 32)
    outcomes = [2, 3, 4, 5].product(['true', 'echo hi']).flat_map { |pair| [pair] * 2 }.map do |free, command|
      with_free(free) { POSIX::Spawn.`(command) }
    end
    puts JSON.generate('outcomes' => outcomes, 'changes' => ProcessResources.settled_changes(before))
  RUBY

  # A non-root user's RLIMIT_NPROC counts its threads, so the limit is set to what the JVM already runs.
  PROCESS_LIMIT = <<~'RUBY'.freeze
    require 'posix/spawn'
    require 'json'
    require 'process_resources'
    Process.wait(POSIX::Spawn.spawn('true', umask: 0o22)) # the FS thread exists before the limit
    before = ProcessResources.snapshot(:descriptors, :children)
    tasks = Dir.children('/proc/self/task').size
    Process.setrlimit(:NPROC, tasks, Process.getrlimit(:NPROC).last)
    limited = begin
      Process.wait(POSIX::Spawn.spawn('true'))
      'started'
    rescue StandardError => e
      "#{e.class}: #{e.message}"
    end
    Process.setrlimit(:NPROC, Process.getrlimit(:NPROC).last)
    Process.wait(POSIX::Spawn.spawn('true'))
    puts JSON.generate('limited' => limited, 'then' => $?.success?, 'changes' => ProcessResources.settled_changes(before))
  RUBY
end

RSpec.describe 'faults' do
  # Runs `script` in another JRuby (prefixed by `wrapper`, e.g. setpriv) and returns its last line as JSON.
  def in_jruby(script, wrapper: [], env: {})
    output = IO.popen(env, [*wrapper, *JRubyLauncher.command, *FaultScripts::LOAD_PATH, '-e', script], err: %i[child out], &:read)
    raise "the JRuby failed (#{$?.inspect}):\n#{output}" unless $?.success?

    JSON.parse(output.lines.last)
  end

  # BEFORE: a ProcessResources.snapshot of descriptors and children. Only what appeared counts: a descriptor
  # closed meanwhile is an earlier example's IO collected as garbage (seen on a loaded machine), not a leak.
  def expect_nothing_left(before)
    expect(ProcessResources.settled_changes(before, new_only: true)).to eq({})
    expect(POSIX::Spawn.system('true')).to be(true)
  end

  it "raises Errno::EMFILE naming the call when the reaper cannot start, with no child started, and starts once there is room" do
    report = in_jruby(FaultScripts::FIRST_REAPER)
    expect(report['full']).to eq('Errno::EMFILE: Too many open files - pipe2')
    expect(report['changes']).to eq({})
    expect(report['then']).to be(true)
  end

  it 'raises Errno::EMFILE naming /proc/thread-self/children from a first :umask spawn with the table full, then :umask and :rlimit_* work' do
    report = in_jruby(FaultScripts::FIRST_UMASK)
    expect(report['full']).to eq('Errno::EMFILE: Too many open files - /proc/thread-self/children')
    expect(report.values_at('umask', 'rlimit')).to all(eq('started'))
    # the one descriptor left is the FS thread's own children list, open for the JVM's life
    expect(report['changes'].keys).to eq(['descriptors'])
    expect(report['changes']['descriptors']['opened'].values).to match([%r{\A/proc/\d+/task/\d+/children\z}])
    expect(report['changes']['descriptors'].keys).to eq(['opened'])
  end

  it "reaps the drop-in backtick's child whichever step fails with Errno::EMFILE (no zombie left)" do
    report = in_jruby(FaultScripts::DROP_IN_BACKTICK)
    expect(report['outcomes'].reject { |o| o == 'started' || o.start_with?('Errno::EMFILE: ') }).to be_empty
    expect(report['changes']).to eq({})
  end

  describe 'a full descriptor table (RLIMIT_NOFILE lowered in a JRuby of its own)' do
    before(:context) { @report = in_jruby(FaultScripts::FULL_TABLE) }

    it 'raises Errno::EMFILE from every spawn that needs a descriptor, naming what it opened' do
      expect(@report['full']).to include(
        'redirect_to_file' => 'Errno::EMFILE: Too many open files - /dev/null',
        'popen4' => 'Errno::EMFILE: Too many open files - pipe2',
        'backtick' => 'Errno::EMFILE: Too many open files - pipe2'
      )
      expect(@report['full']['rlimit']).to start_with('Errno::EMFILE: Too many open files')
    end

    it 'still starts the spawns that need no descriptor in the parent' do
      expect(@report['full'].values_at('plain', 'umask', 'system')).to all(eq('started'))
    end

    it 'raises nothing but Errno::EMFILE with a few descriptors free (rlimit spawns too: nothing stays held at the gate)' do
      outcomes = @report['partly_free'].flat_map(&:values)
      expect(outcomes.reject { |o| o == 'started' || o.start_with?('Errno::EMFILE: ') }).to be_empty
    end

    it 'leaves nothing half-open: the same descriptors, no child, and every spawn works again' do
      expect(@report['changes']).to eq({})
      expect(@report['room'].values).to all(eq('started'))
    end
  end

  it 'Handle#communicate with the table full: Errno::EMFILE, its copies closed, and the next call gets every byte' do
    report = in_jruby(FaultScripts::COMMUNICATE_FULL)
    expect(report['outcomes'].map { |o| o['full'] }.reject { |o| o == 'communicated' || o.start_with?('Errno::EMFILE: ') }).to be_empty
    expect(report['outcomes'].first['full']).to start_with('Errno::EMFILE: ')
    expect(report['outcomes'].map { |o| [o['output'], o['status']] }).to eq((0..5).map { |free| [["in #{free}", 'err'], 0] })
    expect(report['changes']).to eq({})
  end

  it 'pty_spawn with the table full: Errno::EMFILE or its output, and nothing left open (its reads wait in poll, not IO.select)' do
    report = in_jruby(FaultScripts::PTY_FULL)
    expect(report['outcomes'].reject { |o| o == 'hi' || o.start_with?('Errno::EMFILE: ') }).to be_empty
    expect(report['then']).to eq('hi')
    expect(report['changes']).to eq({})
  end

  it "backtick with a few descriptors free: its output or Errno::EMFILE, and nothing of JRuby's left open (no selector)" do
    report = in_jruby(FaultScripts::BACKTICK_FEW_FREE)
    expect(report['outcomes'].reject { |o| ['', "hi\n"].include?(o) || o.start_with?('Errno::EMFILE: ') }).to be_empty
    expect(report['changes']).to eq({})
  end

  setpriv = %w[/usr/bin/setpriv /bin/setpriv].find { |p| File.executable?(p) }
  as_own_user = if Process.uid != 0 then 'needs root to run a JRuby as another user'
                elsif !setpriv then 'needs setpriv (util-linux)'
                else false
                end
  it 'raises Errno::EAGAIN at the process limit (a JRuby run as a user of its own), then spawns again', skip: as_own_user do
    # RLIMIT_NPROC counts every task of the real uid: a uid nothing else on the machine has (not nobody, which
    # CI's other leg ran this as at the same time), one per run. It cannot read root's Maven repository:
    # give it a copy of the JRuby jar.
    Dir.mktmpdir('posix-spawn-nproc') do |home|
      File.chmod(0o755, home)
      launcher = JRubyLauncher.command.map do |word|
        next word unless word.end_with?('.jar')

        FileUtils.cp(word, home)
        File.join(home, File.basename(word))
      end
      uid = 2_000_000_000 + Process.pid
      wrapper = [setpriv, "--reuid=#{uid}", "--regid=#{uid}", '--clear-groups']
      output = IO.popen({ 'HOME' => home }, [*wrapper, *launcher, *FaultScripts::LOAD_PATH, '-e', FaultScripts::PROCESS_LIMIT],
                        err: %i[child out], chdir: home, &:read)
      expect($?).to be_success, output
      report = JSON.parse(output.lines.last)
      expect(report['limited']).to eq('Errno::EAGAIN: Resource temporarily unavailable - true')
      expect(report['then']).to be(true)
      expect(report['changes']).to eq({})
    end
  end

  describe 'in this JRuby' do
    around do |example|
      Dir.mktmpdir('posix-spawn-faults') { |dir| @dir = dir; example.run }
    end

    # The lookup (in the parent) and the exec race with a thread that keeps removing and restoring the
    # program; whichever wins, the spawn either starts it or raises ENOENT naming it.
    it 'raises Errno::ENOENT naming a program that disappears between lookup and exec' do
      # A binary, linked into place whole: a #! script could vanish after exec, before its shell opens it.
      source = File.join(@dir, 'true-binary')
      FileUtils.cp(File.realpath('/bin/true'), source)
      program = File.join(@dir, 'vanishing')
      before = ProcessResources.snapshot(:descriptors, :children)
      flipping = true
      flipper = Thread.new do
        while flipping
          File.link(source, program)
          File.unlink(program)
        end
      end
      outcomes = Array.new(300) do
        Process.wait(POSIX::Spawn.spawn({ 'PATH' => @dir }, 'vanishing'))
        $?.success? ? :ran : :"exit #{$?.exitstatus}"
      rescue Errno::ENOENT => e
        e.message == 'No such file or directory - vanishing' ? :enoent : e.message
      end
      flipping = false
      flipper.join
      expect(outcomes.uniq - %i[ran enoent]).to be_empty
      expect(outcomes).to include(:enoent)
      expect_nothing_left(before)
    end

    it 'raises Errno::ENOTDIR naming a :chdir that is a file' do
      file = File.join(@dir, 'plain-file')
      File.write(file, '')
      before = ProcessResources.snapshot(:descriptors, :children)
      expect { POSIX::Spawn.spawn('true', chdir: file) }.to raise_error(Errno::ENOTDIR, "Not a directory - #{file}")
      expect_nothing_left(before)
    end

    unwritable = '/sys/kernel/notes' # read-only for root too: sysfs has no write for it
    it 'raises Errno::EACCES naming a redirect path that cannot be written',
       skip: (File.exist?(unwritable) ? false : "no #{unwritable} on this system") do
      before = ProcessResources.snapshot(:descriptors, :children)
      expect { POSIX::Spawn.spawn('true', out: unwritable) }.to raise_error(Errno::EACCES, "Permission denied - #{unwritable}")
      expect_nothing_left(before)
    end
  end
end

require 'json'
require 'tmpdir'
require 'stringio'
require_relative 'process_resources'
require_relative 'own_processes'

# A mixed spawn load for the leak suite (spec/hardening/leaks_spec.rb): every way a spawn can succeed or
# fail, each ending as it should (child reaped, error rescued). Run as a script in a JRuby of its own,
# so that its heap is fixed and touched up front and its RSS moves only with native memory:
#
#   jruby -I lib spec/support/spawn_load.rb SPAWNS
#
# prints one JSON object: the children it had before, what changed from before to after (descriptors,
# children, threads: ProcessResources.settled_changes) and RSS at checkpoints.
module SpawnLoad
  # Each operation spawns once (or tries to) and cleans up after itself as a careful caller would.
  OPERATIONS = {
    success: ->(_) { Process.wait(POSIX::Spawn.spawn('true')) },
    missing_program: ->(_) { expect_error(Errno::ENOENT) { POSIX::Spawn.spawn('no-such-program-posix-spawn') } },
    missing_chdir: ->(_) { expect_error(Errno::ENOENT) { POSIX::Spawn.spawn('true', chdir: '/no/such/directory') } },
    chdir_to_file: ->(_) { expect_error(Errno::ENOTDIR) { POSIX::Spawn.spawn('true', chdir: '/etc/hostname') } },
    redirect_to_file: ->(dir) { Process.wait(POSIX::Spawn.spawn('echo', 'x', out: File.join(dir, 'out'), err: [:child, :out])) },
    redirect_to_directory: ->(dir) { expect_error(Errno::EISDIR) { POSIX::Spawn.spawn('true', out: dir) } },
    redirect_from_unopened_fd: ->(_) { expect_error(Errno::EBADF) { POSIX::Spawn.spawn('true', out: 1000) } },
    umask: ->(_) { Process.wait(POSIX::Spawn.spawn('true', umask: 0o077)) },
    rlimit: ->(_) { Process.wait(POSIX::Spawn.spawn('true', rlimit_core: 0)) },
    killed: lambda do |_|
      pid = POSIX::Spawn.spawn('sleep', '30')
      OwnProcesses.kill(:KILL, pid)
      Process.wait(pid)
    end,
    system_failing: ->(_) { POSIX::Spawn.system('false') },
    system_missing: ->(_) { POSIX::Spawn.system('no-such-program-posix-spawn') },
    backtick: ->(_) { POSIX::Spawn.`('echo hello') },
    popen4: ->(_) { POSIX::Spawn.popen4('cat') { |_, stdin, stdout| stdin.write('x'); stdin.close; stdout.read } },
    child_input: lambda do |_|
      output = POSIX::Spawn::Child.new('cat', input: 'x' * 100_000).out
      raise "cat gave back #{output.size} bytes of 100000" unless output.size == 100_000
    end,
    child_timeout: ->(_) { expect_error(POSIX::Spawn::TimeoutExceeded) { POSIX::Spawn::Child.new('sleep', '5', timeout: 0.01) } },
    child_max: ->(_) { expect_error(POSIX::Spawn::MaximumOutputExceeded) { POSIX::Spawn::Child.new('yes', max: 1000) } },
    child_aborted: lambda do |_|
      expect_error(POSIX::Spawn::Aborted) { POSIX::Spawn::Child.new('yes', streams: { stdout: ->(_) { true } }) }
    end,
    child_interrupted: lambda do |_|
      child = POSIX::Spawn::Child.build('sleep', '5')
      runner = Thread.new { child.exec! }
      runner.report_on_exception = false
      sleep 0.001 until child.pid || !runner.alive? # raised once the child runs, not before it starts
      runner.raise(Interrupted)
      expect_error(Interrupted) { runner.join }
    end,
    handle_wait_timed_out: lambda do |_|
      handle = POSIX::Spawn.start('sleep', '30')
      raise 'a wait of 0.01 s gave a status' if handle.wait(timeout: 0.01)

      handle.terminate(grace: 1)
    end,
    handle_communicate_timed_out: lambda do |_|
      handle = POSIX::Spawn.start('sh', '-c', 'echo x; exec sleep 30', in: :pipe, out: :pipe, err: :pipe)
      IO.select([handle.stdout]) # "x" is in the pipe (not read) before the timeout and the kill, however slow sh starts
      expect_error(POSIX::Spawn::TimeoutExceeded) { handle.communicate('input', timeout: 0.01) }
      handle.terminate(grace: 1)
      out, = handle.communicate # Python's pattern: after the kill, collect what is left (and close the pipes)
      raise "communicate after the timeout gave #{out.inspect}" unless out == "x\n"
    end,
    handle_terminated: lambda do |_|
      handle = POSIX::Spawn.start('sh', '-c', 'trap "" TERM; echo ready; exec sleep 30', out: :pipe)
      handle.stdout.gets # the trap is set
      handle.stdout.close
      status = handle.terminate(grace: 0.01)
      raise "terminate gave #{status.inspect}" unless status.termsig == Signal.list['KILL']
    end,
    handle_signalled_after_exit: lambda do |_|
      handle = POSIX::Spawn.start('true')
      handle.wait
      raise 'a signal after the end was delivered' if handle.signal(:TERM)
    end,
    handle_callback_raising: lambda do |_|
      handle = POSIX::Spawn.start('cat', in: :pipe)
      ran = Queue.new
      handle.on_exit { raise IOError, 'a callback raising' }
      handle.on_exit { |status| ran << status }
      reports = capture_stderr do
        handle.stdin.close
        ran.pop
      end
      raise "the raising callback went unreported: #{reports.inspect}" unless reports.include?('a callback raising (IOError)')
    end
  }.freeze

  # What child_interrupted raises in the thread running the Child.
  class Interrupted < StandardError; end

  module_function

  # What the block's time wrote to $stderr (the reaper reports a raising callback there).
  def capture_stderr
    saved = $stderr
    $stderr = StringIO.new
    yield
    $stderr.string
  ensure
    $stderr = saved
  end

  def expect_error(error)
    yield
  rescue error
    nil
  else
    raise "expected #{error}"
  end

  # Runs `spawns` operations, cycling through OPERATIONS; yields after each one.
  def run(spawns, dir)
    operations = OPERATIONS.values
    spawns.times do |i|
      operations[i % operations.size].call(dir)
      yield i + 1 if block_given?
    end
  end

  def collect_garbage
    3.times do
      java.lang.System.gc
      sleep 0.05
    end
  end


  # Warms up (JIT, class loading, the FS thread, the rlimit gate), then measures `spawns` spawns with
  # `checkpoints` RSS readings after garbage collection.
  def measure(spawns, checkpoints: 10)
    Dir.mktmpdir('posix-spawn-load') do |dir|
      run([spawns / 4, 1000].max, dir)
      collect_garbage
      before = ProcessResources.snapshot
      rss = [[0, ProcessResources.rss_kib]]
      every = spawns / checkpoints
      run(spawns, dir) do |done|
        next unless (done % every).zero?

        collect_garbage
        rss << [done, ProcessResources.rss_kib]
      end
      collect_garbage
      { 'spawns' => spawns, 'children_before' => before[:children], 'changes' => ProcessResources.settled_changes(before),
        'rss_kib_at' => rss }
    end
  end
end

if $PROGRAM_NAME == __FILE__
  require 'posix/spawn'
  puts JSON.generate(SpawnLoad.measure(Integer(ARGV.fetch(0))))
end

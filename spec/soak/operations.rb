require 'ffi'
require 'posix/spawn'
require 'posix/spawn/kernel' # the drop-in: IO.popen and backtick below are the gem's

# The soak's operations: each starts one child (or fails to) by one of the gem's ways and checks all
# it can observe against what the child was told to do: every byte of output (the child echoes the
# operation's payload), the exit status or signal, the exception. Each cleans up after itself as a
# careful caller would, also when it fails. An operation returns its outcome (:ok, :timeout,
# :interrupted, :killed, :enoent) or raises Soak::Loss; Errno::EMFILE goes up to the runner, which takes
# it only during an EMFILE moment.
module Soak
  # Something that went wrong: a byte, a status or an exception other than the one expected.
  class Loss < StandardError; end

  # What an interrupting thread raises in the thread it interrupts.
  class Interrupt < StandardError; end

  # One operation's inputs, all derived from the seed and its index: a payload to echo (hex, so that it
  # passes through argv, a shell and a terminal unchanged), an input to feed (binary, sometimes 256 KiB),
  # an exit code.
  Op = Struct.new(:index, :payload, :input, :code) do
    def self.make(seed, index)
      random = Random.new(seed * 1_000_003 + index)
      payload = "#{index}:#{random.bytes(random.rand(4..96)).unpack1('H*')}"
      input = (index % 97).zero? ? random.bytes(1024) * 256 : random.bytes(random.rand(1..4096))
      new(index, payload, input, random.rand(4))
    end
  end

  module Operations
    # Operation => weight in the mix.
    MIX = { spawn_wait: 3, system: 2, child: 3, handle: 2, popen: 2, popen4: 1, backtick: 1, pty: 1, killed: 1,
            child_timeout: 1, handle_timeout: 1, interrupt: 1, missing: 1 }.freeze

    ECHO = 'printf %s "$1"; exit "$2"'                    # sh ECHO sh PAYLOAD CODE
    ECHO_BOTH = 'cat; printf %s "$1" >&2; exit "$2"'      # stdin to stdout, then PAYLOAD to stderr
    ECHO_THEN_SLEEP = 'printf %s "$1"; exec sleep 30'
    MISSING = 'posix-spawn-soak-no-such-program'

    module_function

    # spawn + Process.wait, output through a pipe; some with :umask or :rlimit_core (the FS thread, the
    # rlimit gate).
    def spawn_wait(op, ledger)
      reader, writer = IO.pipe
      options = { out: writer }
      options[:umask] = 0o022 if op.index % 16 == 5
      options[:rlimit_core] = 0 if op.index % 16 == 9
      pid = POSIX::Spawn.spawn('sh', '-c', ECHO, 'sh', op.payload, op.code.to_s, options)
      writer.close
      ledger.output(:stdout, op.payload, reader.read)
      Process.wait(pid)
      pid = nil
      ledger.status($?, exit: op.code)
      :ok
    ensure
      [reader, writer].each { |io| io.close if io && !io.closed? }
      Process.wait(pid) if pid
    end

    def system(op, ledger)
      reader, writer = IO.pipe
      result = POSIX::Spawn.system('sh', '-c', ECHO, 'sh', op.payload, op.code.to_s, out: writer)
      writer.close
      ledger.output(:stdout, op.payload, reader.read)
      ledger.status($?, exit: op.code)
      ledger.expect('system returned', op.code.zero?, result)
      :ok
    ensure
      [reader, writer].each { |io| io.close if io && !io.closed? }
    end

    # Child with input: cat; cat then a payload on stderr and an exit code; a payload, then killed by a
    # signal the child sends itself.
    def child(op, ledger)
      case op.index % 3
      when 0
        child = POSIX::Spawn::Child.new('cat', input: op.input)
        ledger.output(:stdout, op.input, child.out)
        ledger.output(:stderr, '', child.err)
        ledger.status(child.status, exit: 0)
      when 1
        child = POSIX::Spawn::Child.new('sh', '-c', ECHO_BOTH, 'sh', op.payload, op.code.to_s, input: op.input)
        ledger.output(:stdout, op.input, child.out)
        ledger.output(:stderr, op.payload, child.err)
        ledger.status(child.status, exit: op.code)
      else
        child = POSIX::Spawn::Child.new('sh', '-c', 'printf %s "$1"; kill -KILL $$', 'sh', op.payload)
        ledger.output(:stdout, op.payload, child.out)
        ledger.status(child.status, termsig: 'KILL')
      end
      ledger.status($?, same_as: child.status)
      :ok
    end

    # POSIX::Spawn.start with three pipes, then communicate.
    def handle(op, ledger)
      handle = POSIX::Spawn.start('sh', '-c', ECHO_BOTH, 'sh', op.payload, op.code.to_s, in: :pipe, out: :pipe, err: :pipe)
      out, err = handle.communicate(op.input)
      ledger.output(:stdout, op.input, out)
      ledger.output(:stderr, op.payload, err)
      ledger.status(handle.status, exit: op.code)
      ledger.status($?, same_as: handle.status)
      :ok
    ensure
      finish(handle)
    end

    # The drop-in's IO.popen, "r+": the payload in, through cat, back out.
    def popen(op, ledger)
      out = IO.popen(['sh', '-c', 'cat; exit "$1"', 'sh', op.code.to_s], 'r+') do |io|
        io.write(op.payload)
        io.close_write
        io.read
      end
      ledger.output(:stdout, op.payload, out)
      ledger.status($?, exit: op.code)
      :ok
    end

    def popen4(op, ledger)
      out = err = nil
      status = POSIX::Spawn.popen4('sh', '-c', ECHO_BOTH, 'sh', op.payload, op.code.to_s) do |_pid, stdin, stdout, stderr|
        stdin.write(op.payload.reverse)
        stdin.close
        out = stdout.read
        err = stderr.read
      end
      ledger.output(:stdout, op.payload.reverse, out)
      ledger.output(:stderr, op.payload, err)
      ledger.status(status, exit: op.code)
      :ok
    end

    # The drop-in's Kernel#` (through sh; the payload is hex).
    def backtick(op, ledger)
      ledger.output(:stdout, op.payload, `printf %s #{op.payload}; exit #{op.code}`)
      ledger.status($?, exit: op.code)
      :ok
    end

    # pty_spawn's block form: read to the hang-up, then closed and waited for ($?).
    def pty(op, ledger)
      out = POSIX::Spawn.pty_spawn('sh', '-c', ECHO, 'sh', op.payload, op.code.to_s) { |reader, _writer, _pid| reader.read }
      ledger.output(:terminal, op.payload, out)
      ledger.status($?, exit: op.code)
      :ok
    end

    # A spawned child killed by this process: its own child, not yet waited for, so the pid is no other's.
    def killed(op, ledger)
      signal = op.index.even? ? 'KILL' : 'TERM'
      pid = POSIX::Spawn.spawn('sleep', '30')
      Process.kill(signal, pid)
      Process.wait(pid)
      pid = nil
      ledger.status($?, termsig: signal)
      :killed
    ensure
      if pid # the kill or the wait failed: the child is still this operation's
        Process.kill('KILL', pid)
        Process.wait(pid)
      end
    end

    # Child's :timeout (half of them with :pgroup_kill): TERM, reaped, nothing captured.
    def child_timeout(op, ledger)
      child = POSIX::Spawn::Child.build('sleep', '30', timeout: 0.02, pgroup_kill: op.index.odd?)
      ledger.raises(POSIX::Spawn::TimeoutExceeded) { child.exec! }
      ledger.output(:stdout, '', child.out)
      ledger.status(child.status, termsig: 'TERM')
      :timeout
    end

    # A Handle whose communicate and wait time out, then killed (signal) or terminated; the second
    # communicate gives what the child wrote before the timeout.
    def handle_timeout(op, ledger)
      handle = POSIX::Spawn.start('sh', '-c', ECHO_THEN_SLEEP, 'sh', op.payload, in: :pipe, out: :pipe, err: :pipe)
      readable(handle.stdout) # the payload is in the pipe before the timeout
      ledger.raises(POSIX::Spawn::TimeoutExceeded) { handle.communicate('unread', timeout: 0.01) }
      ledger.expect('a 0.01 s wait on a sleeping child', nil, handle.wait(timeout: 0.01))
      if op.index.even?
        ledger.expect('signal(:KILL) to a running child', true, handle.signal(:KILL))
        ledger.status(handle.wait(timeout: 10), termsig: 'KILL')
      else
        ledger.status(handle.terminate(grace: 1), termsig: 'TERM')
      end
      out, err = handle.communicate
      ledger.output(:stdout, op.payload, out)
      ledger.output(:stderr, '', err)
      :timeout
    ensure
      finish(handle)
    end

    # Thread#raise into a thread blocked in Child#exec!, Handle#wait or Handle#communicate.
    def interrupt(op, ledger)
      case op.index % 3
      when 0
        child = POSIX::Spawn::Child.build('sleep', '30')
        interrupted(ledger, -> { child.pid }) { child.exec! }
        ledger.output(:stdout, '', child.out)
        ledger.status(child.status, termsig: 'TERM') # Child's rule: TERM (then KILL), reaped
      when 1
        handle = POSIX::Spawn.start('sleep', '30')
        interrupted(ledger) { handle.wait }
        ledger.expect('the child alive after its waiter was interrupted', true, handle.alive?)
        ledger.status(handle.terminate(grace: 1), termsig: 'TERM')
      else
        handle = POSIX::Spawn.start('sh', '-c', ECHO_THEN_SLEEP, 'sh', op.payload, in: :pipe, out: :pipe, err: :pipe)
        readable(handle.stdout)
        interrupted(ledger) { handle.communicate }
        ledger.expect('the child alive after its communicate was interrupted', true, handle.alive?)
        ledger.status(handle.terminate(grace: 1), termsig: 'TERM')
        out, = handle.communicate # as after a timeout: what the child wrote, nothing lost
        ledger.output(:stdout, op.payload, out)
      end
      :interrupted
    ensure
      finish(handle)
    end

    # A program that is not there: spawn and Child raise ENOENT naming it.
    def missing(op, ledger)
      error = ledger.raises(Errno::ENOENT) { op.index.even? ? POSIX::Spawn.spawn(MISSING) : POSIX::Spawn::Child.new(MISSING) }
      ledger.expect('the ENOENT message', "No such file or directory - #{MISSING}", error.message)
      :enoent
    end

    # Runs the block on a thread of its own, waits until it blocks (once started? says it has started
    # the child), raises Soak::Interrupt in it and expects that to end it.
    def interrupted(ledger, started = -> { true })
      thread = Thread.new do
        Thread.current.report_on_exception = false # what it raises is joined below
        yield
        :returned
      end
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 10
      until started.call && thread.status == 'sleep'
        raise Loss, "the thread to interrupt ended first: #{thread.value.inspect}" unless thread.alive?
        raise Loss, 'the thread to interrupt did not block within 10 s' if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

        sleep 0.0005
      end
      thread.raise(Interrupt, 'soak interrupt')
      ledger.raises(Interrupt) { thread.join }
    ensure
      thread&.join rescue nil # rubocop:disable Style/RescueModifier
    end

    # Waits until io has bytes to read, with poll(2). JRuby's IO.select takes a Java selector (an epoll and
    # an eventfd) from a pool that grows with the number of threads selecting at once and never shrinks:
    # the descriptor check would see those.
    def readable(io)
      pollfd = FFI::MemoryPointer.new(:int, 2) # struct pollfd { int fd; short events, revents; }
      pollfd.put_int(0, io.posix_fileno)
      pollfd.put_short(4, POLLIN)
      ready = LibC.poll(pollfd, 1, 10_000)
      raise Loss, "poll on the child's stdout gave #{ready} (errno #{FFI.errno})" unless ready == 1
    end

    POLLIN = 1

    module LibC
      extend FFI::Library
      ffi_lib FFI::Library::LIBC
      attach_function :poll, %i[pointer ulong int], :int
    end

    # A handle's child ended and its pipes closed, however the operation went.
    def finish(handle)
      return unless handle

      handle.terminate(grace: 1) if handle.alive?
      [handle.stdin, handle.stdout, handle.stderr].each { |io| io.close if io && !io.closed? }
    end
  end
end

require 'posix/spawn'
require 'posix/spawn/arguments'
require 'posix/spawn/errors'
require 'posix/spawn/options'
JRuby::Util.load_ext('org.posixspawn.jruby.HandleLibrary') # Handle's core, before the class is reopened below

module POSIX
  module Spawn
    # Start a child and get a Handle on it: the middle ground between a bare pid (spawn) and a command run
    # to completion (Child). Takes every argument and option of spawn, plus:
    #
    #   in: :pipe, out: :pipe, err: :pipe  The handle's stdin, stdout, stderr are the parent's ends of a
    #                                      new pipe (binary IOs, close-on-exec); nil where not piped.
    #   kill_on_exit: true                 When the JVM exits, the child gets TERM, then KILL a second later.
    #
    # The child belongs to the gem's reaper (one thread per JVM): do not wait for it yourself; use
    # Handle#wait. Process.wait(handle.pid) while it runs waits through the handle and returns its status;
    # once the handle has seen it end, it raises Errno::ECHILD as for any reaped child.
    #
    #   handle = POSIX::Spawn.start('sort', in: :pipe, out: :pipe)
    #   out, _err = handle.communicate("b\na\n")   # => "a\nb\n"
    #   handle.status                              # => #<Process::Status: pid 4242 exit 0>
    def start(*args)
      options = Arguments.options(args)
      # Nothing piped: the arguments go to the engine as they came (as spawn's do), only kill_on_exit taken
      # out; the pipe path's Ruby below cost a start a third more than the spawn under it (issue #47).
      unless options&.value?(:pipe)
        return Native.start_handle(false, *args) unless options&.key?(:kill_on_exit)

        args, kill_on_exit = Arguments.extract(args, :kill_on_exit)
        return Native.start_handle(Options.boolean(:kill_on_exit, kill_on_exit), *args)
      end

      args, options = Arguments.split(args)
      kill_on_exit = Options.boolean(:kill_on_exit, options.delete(:kill_on_exit))
      pipes = {}
      begin
        %i[in out err].each do |name|
          next unless options[name] == :pipe

          reader, writer = Native.pipe(IO)
          pipes[name] = name == :in ? [writer, reader] : [reader, writer]
          options[name] = pipes[name][1]
        end
        handle = Native.start_handle(kill_on_exit, *args, *([options] unless options.empty?))
      rescue Exception
        pipes.each_value { |ends| ends.each { |io| io.close unless io.closed? } }
        raise
      ensure
        pipes.each_value { |(_, child_end)| child_end.close unless child_end.closed? }
      end
      handle.__parent_ends(pipes.transform_values(&:first))
      handle
    end

    # A child started with POSIX::Spawn.start, owned by the gem's reaper thread, which reaps it as soon as
    # it ends (one thread for every handle in the JVM: a pidfd each on Linux 5.3+, otherwise waitpid(WNOHANG)
    # every 10 ms). Signals go through the pidfd, so a pid that has been reused is never signalled.
    #
    #   handle = POSIX::Spawn.start('server', '--port', '8080', kill_on_exit: true)
    #   handle.on_exit { |status| warn "server ended: #{status.inspect}" }   # runs on the reaper thread
    #   handle.alive?                     # => true
    #   handle.wait(timeout: 5)           # => nil: still running after 5 seconds
    #   handle.terminate(grace: 2)        # TERM, KILL if still running 2 s later; => the Process::Status
    #   handle.signal(:HUP)               # => false: it has ended
    class Handle
      # The parent's end of the child's stdin (an IO to write), or nil when it was not piped.
      attr_reader :stdin
      # The parent's end of the child's stdout (an IO to read, binary), or nil.
      attr_reader :stdout
      # The parent's end of the child's stderr (an IO to read, binary), or nil.
      attr_reader :stderr

      # Waits for the child to end and returns its Process::Status (also in $?, in this thread), or nil if
      # `timeout` seconds pass first. Any number of threads may wait at once; Thread#raise, Thread#kill and
      # Timeout.timeout interrupt a wait. Raises Errno::ECHILD if a wait for any child (Process.wait with no
      # pid) took it.
      def wait(timeout: nil)
        __wait(Options.number(:timeout, timeout, 'seconds'))
      end

      # Sends the signal (a name such as :TERM or 'SIGTERM', or a number) to the child. Returns true when
      # it was sent, false when the child has already ended. Through the pidfd where there is one, so a
      # reused pid never gets it.
      def signal(sig)
        __signal(signal_number(sig), false)
      end

      # TERM, then KILL when the child is still running `grace` seconds later; to its whole process group
      # when it was started with `pgroup: true`. Waits for the end and returns the Process::Status.
      def terminate(grace: 1.0)
        grace = Options.number(:grace, grace, 'seconds') or raise TypeError, 'grace option must be a number of seconds, not nil'
        __signal(Signal.list.fetch('TERM'), true)
        wait(timeout: grace) || (__signal(Signal.list.fetch('KILL'), true) && false) || wait
      end

      # Calls the block with the Process::Status once the child has ended, always on the reaper thread, also
      # when it has already ended (then soon after this returns). Each block runs once, in the order given.
      # An exception from a block never reaches the caller: it is reported on $stderr, naming the handle, as
      # Thread#report_on_exception reports, and stops nothing. A block should not block (it holds up the
      # reaping of every other child meanwhile). Returns the handle.
      alias on_exit __on_exit # the Java method itself: a Ruby method passing &block on costs a Proc a call

      # Writes input (a String, or nil) to the child's stdin and closes it, reads stdout and stderr to their
      # end, then waits for the child: returns [out, err], binary Strings (nil for a stream not piped), the
      # status in #status and $?. One thread and one poll(2) loop do all three (Child's), so nothing can
      # deadlock, however much flows each way. The pipes are the loop's from the first call: stdin, stdout
      # and stderr are closed IOs after it.
      #
      # When `timeout` seconds pass first, raises TimeoutExceeded and leaves the child running (Python's
      # contract): call communicate again to go on where it stopped (nothing read is lost; input is not
      # given again), or terminate it. The same after an interrupt (Thread#raise, Timeout.timeout) and
      # after a timeout in the wait for the exit: the next call gives every byte and the status.
      #
      # With `wait_delay` seconds, once the child has ended the pipes are read for at most that long more,
      # then closed: a background process holding them open does not hold up communicate.
      def communicate(input = nil, timeout: nil, wait_delay: nil)
        input = String.try_convert(input) || raise(TypeError, "input must be a String, not #{input.class}") unless input.nil?
        raise ArgumentError, 'communicate needs a handle started with in:, out: or err: :pipe' unless @stdin || @stdout || @stderr
        raise ArgumentError, 'input given, but stdin is not piped' if input && !@stdin && !@communicated

        seconds = Options.number(:timeout, timeout, 'seconds')
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds if seconds
        @communicated = true
        delay = Options.number(:wait_delay, wait_delay, 'seconds')
        output = __communicate(@stdin, @stdout, @stderr, input, seconds, delay)
        raise TimeoutExceeded, "ran longer than #{timeout} seconds: pid #{pid}" if output == :timeout

        left = [deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC), 0].max if deadline
        wait(timeout: left) or raise TimeoutExceeded, "ran longer than #{timeout} seconds: pid #{pid}"
        __communicated # until here a raise leaves the output for the next call
        output
      end

      def inspect
        state = status ? status.inspect.sub(/\A#<Process::Status: pid \d+ /, '').chomp('>') : (alive? ? 'running' : 'ended')
        "#<#{self.class} pid #{pid} #{state}>"
      end

      # How this Ruby's messages open a quote: MRI 3.4 changed `x' to 'x'.
      OPEN_QUOTE = RUBY_VERSION >= '3.4' ? "'" : '`'
      private_constant :OPEN_QUOTE

      # Internal, for POSIX::Spawn.start, which made the pipes: the parent's ends, {in:, out:, err:} (each
      # optional), become #stdin, #stdout and #stderr. Public as the Java side's __wait and __signal are.
      def __parent_ends(ends)
        @stdin, @stdout, @stderr = ends.values_at(:in, :out, :err)
        [@stdin, @stdout, @stderr].compact.each(&:binmode)
        @stdin.sync = true if @stdin
      end

      private

      # Process.kill's reading of a signal: a number, or a name with or without SIG, as a Symbol or String.
      def signal_number(sig)
        case sig
        when Integer
          raise ArgumentError, "invalid signal number (#{sig})" if sig.negative?

          sig
        when Symbol, String
          name = sig.to_s
          Signal.list[name.delete_prefix('SIG')] or raise ArgumentError, "unsupported signal #{OPEN_QUOTE}SIG#{name.delete_prefix('SIG')}'"
        else
          raise ArgumentError, "bad signal type #{sig.class}"
        end
      end
    end

    # Process.wait and its kin, for a pid a Handle owns, wait through the handle: the reaper reaps the
    # child, and the program's wait returns what the handle saw (or Errno::ECHILD once it has ended),
    # never racing the reaper for it. A wait for any child or a group's (no pid, 0, -pgid; waitall) takes
    # only children no Handle owns, as if those were not this process's: Native.wait_target names the one
    # ready (waitid with WNOWAIT, which reaps nothing) and Process's own method reaps that pid.
    module HandleAwareWait
      %i[wait waitpid].each do |name|
        define_method(name) do |pid = -1, flags = 0|
          handle = Native.handle_of(pid) or return HandleAwareWait.unowned(pid, flags) { |target| super(target, flags) }
          pid if HandleAwareWait.status_of(handle, flags)
        end
      end

      %i[wait2 waitpid2].each do |name|
        define_method(name) do |pid = -1, flags = 0|
          handle = Native.handle_of(pid) or return HandleAwareWait.unowned(pid, flags) { |target| super(target, flags) }
          status = HandleAwareWait.status_of(handle, flags)
          [pid, status] if status
        end
      end

      # MRI's waitall: every child's [pid, status] until none is left (here: none but Handles').
      def waitall
        statuses = []
        loop { statuses << wait2(-1) }
      rescue Errno::ECHILD
        statuses
      end

      def detach(pid)
        handle = Native.handle_of(pid) or return super
        waiter = Thread.new { handle.wait }
        waiter.define_singleton_method(:pid) { pid }
        waiter
      end

      def self.status_of(handle, flags)
        handle.wait(timeout: (flags & Process::WNOHANG).zero? ? nil : 0)
      end

      # Yields the pid for Process's own wait: pid itself, or the child Native.wait_target found ready for a
      # wait on any child or a group's; nil when WNOHANG finds none. A found child another thread's wait took
      # first (ECHILD) is looked for again. ECHILD leaves $? as it was, as MRI's does (JRuby's wait with a
      # pid given clears it).
      def self.unowned(pid, flags)
        kept = $?
        loop do
          target = Native.wait_target(pid, flags) or return nil
          begin
            return yield(target)
          rescue Errno::ECHILD
            raise if target == pid
          end
        end
      rescue Errno::ECHILD
        Native.last_status_set(kept&.to_i, kept&.pid)
        raise
      end
    end
    Process.singleton_class.prepend(HandleAwareWait)
  end
end

require 'posix/spawn'
require 'posix/spawn/arguments'
require 'posix/spawn/errors'
require 'posix/spawn/options'

module POSIX
  module Spawn
    # POSIX::Spawn::Child runs a command to completion, writes its standard input from a String and
    # captures its standard output and error as Strings: the MRI posix-spawn gem's class, run by one
    # Java thread that multiplexes the three pipes with poll(2), so no amount of data in either
    # direction can deadlock, and no Ruby IO.select (slow on JRuby) is involved.
    #
    # Create and run a process to completion:
    #
    #   >> child = POSIX::Spawn::Child.new('git', '--help')
    #
    # Retrieve stdout or stderr output:
    #
    #   >> child.out
    #   => "usage: git [--version] [--exec-path[=GIT_EXEC_PATH]]\n ..."
    #   >> child.err
    #   => ""
    #
    # Check process exit status information:
    #
    #   >> child.status
    #   => #<Process::Status: pid 80718 exit 0>
    #
    # To write data on the new process's stdin immediately after spawning:
    #
    #   >> child = POSIX::Spawn::Child.new('bc', input: '40 + 2')
    #   >> child.out
    #   => "42\n"
    #
    # To access output from the process even if an exception was raised:
    #
    #   >> child = POSIX::Spawn::Child.build('git', 'log', max: 1000)
    #   >> begin
    #   ?>   child.exec!
    #   ?> rescue POSIX::Spawn::MaximumOutputExceeded
    #   ?>   # just so you know
    #   ?> end
    #   >> child.out
    #   => "... first 1000 bytes of log output ..."
    #
    # To handle output as it comes instead of capturing it, give a callable per stream; a true result
    # stops the command (Aborted):
    #
    #   >> lines = 0
    #   >> child = POSIX::Spawn::Child.new('git', 'log', streams: {
    #   ?>   stdout: ->(chunk) { lines += chunk.count("\n"); lines >= 100 }
    #   ?> })
    #   POSIX::Spawn::Aborted: a streams callable asked to stop: git log
    #
    # Differences from the MRI gem, on purpose:
    # - A child that outlives :timeout or :max (or an interrupted #exec!) gets TERM, then KILL when it is
    #   still running a second later, and is always reaped; the MRI gem waits forever for a child that
    #   ignores TERM. With :pgroup_kill the whole group gets KILL after the TERM and the grace period.
    # - :timeout also covers the wait for the exit after the child has closed its output.
    # - After MaximumOutputExceeded, out and err hold exactly :max bytes together.
    # - Thread#raise, Thread#kill, Timeout.timeout and Ctrl-C stop a running #exec! at once; the child
    #   is killed and reaped as above, and out, err, status and runtime are still set.
    # - :max counts streamed output too (the MRI gem counts only what it captures), and the chunks handed
    #   to :streams callables stop at exactly :max bytes.
    class Child
      include POSIX::Spawn

      # Spawn a new process, write all input and read all output, and wait for the program to exit.
      # Takes every argument and option of POSIX::Spawn.spawn:
      #
      #   new([env], command, [argv1, ...], [options])
      #
      # The following options are supported in addition to the spawn options:
      #
      #   :input   => str      Write str to the new process's standard input, then close it. Without
      #                        :input the standard input is closed at once.
      #   :timeout => secs     Maximum number of seconds (Float) to allow the process to run, from
      #                        spawn to exit, before aborting with a TimeoutExceeded exception.
      #   :max     => total    Maximum number of bytes of output (stdout and stderr together) to allow
      #                        the process to generate before aborting with a MaximumOutputExceeded
      #                        exception.
      #   :pgroup_kill => bool Start the process in a process group of its own and signal the whole
      #                        group (true), or only the process (false, default), on timeout, :max or
      #                        interrupt. Implies :pgroup => true.
      #   :streams => { stdout: callable, stderr: callable }
      #                        Call the stream's callable with each chunk of its output (a binary String)
      #                        as it is read, instead of capturing it (out or err stays empty). A true
      #                        result stops the process as on a timeout and raises Aborted; an exception
      #                        raised by the callable stops it too, and goes on up.
      #   :wait_delay => secs  Once the process itself has exited, read what is left for at most secs
      #                        more, then close the pipes and return with what was captured: a background
      #                        process that inherited stdout (`sleep 600 &`) no longer makes Child wait
      #                        for it (Go's Cmd.WaitDelay). Default nil: read to the end, as the MRI gem.
      #
      # A :timeout or :max that is not positive means no limit, as in the MRI gem. A fractional :max
      # counts whole bytes (10.5 allows 10).
      #
      # Raises TypeError or ArgumentError naming the option, before anything is spawned, when :input is
      # not a String, :timeout or :max is not a real number (or is NaN), :pgroup_kill is not true,
      # false or nil, or :streams is not a Hash of :stdout and :stderr to callables (or nil); the MRI gem
      # fails on these only after spawning, with errors that do not name the option, and takes any
      # truthy :pgroup_kill as true.
      #
      # Returns a new Child instance whose underlying process has already executed to completion. The
      # out, err, and status attributes are immediately available.
      # Raises what POSIX::Spawn.spawn raises, TimeoutExceeded, MaximumOutputExceeded, or Aborted.
      def initialize(*args)
        args, options = Arguments.split(args)
        if options.empty? # spawn arguments alone: every option of Child's at its default (nil), nothing to check
          @spawn_args = args
          return exec!
        end

        @input = input_option(options.delete(:input))
        @timeout = Options.number(:timeout, options.delete(:timeout), 'seconds')
        @max = bytes_option(options.delete(:max))
        @pgroup_kill = Options.boolean(:pgroup_kill, options.delete(:pgroup_kill))
        @stdout_stream, @stderr_stream = streams_option(options.delete(:streams))
        @wait_delay = Options.number(:wait_delay, options.delete(:wait_delay), 'seconds')
        noexec = options.delete(:noexec)
        options.delete(:chdir) if options.key?(:chdir) && options[:chdir].nil?
        @spawn_args = options.empty? ? args : args + [options]
        exec! unless noexec
      end

      # Set up a new process to spawn, but do not actually spawn it.
      #
      # Invoke this just like the normal constructor to set up a process to be run. Call `exec!` to
      # actually run the child process, send the input, read the output, and wait for completion. Use
      # this alternative way of constructing a POSIX::Spawn::Child if you want to read any partial
      # output from the child process even after an exception.
      #
      #   child = POSIX::Spawn::Child.build(... arguments ...)
      #   child.exec!
      #
      # The arguments are the same as the regular constructor.
      #
      # Returns a new Child instance but does not run the underlying process.
      def self.build(*args)
        args, options = Arguments.split(args)
        new(*args, { noexec: true }.merge(options))
      end

      # All data written to the child process's stdout stream as a binary (ASCII-8BIT) String.
      attr_reader :out

      # All data written to the child process's stderr stream as a binary (ASCII-8BIT) String.
      attr_reader :err

      # A Process::Status object with information on how the child exited.
      attr_reader :status

      # Total command execution time (wall-clock seconds, Float).
      attr_reader :runtime

      # The pid of the spawned child process. This is unlikely to be a valid current pid since
      # Child#exec! doesn't return until the process finishes and is reaped.
      attr_reader :pid

      # Determine if the process did exit with a zero exit status.
      def success?
        @status && @status.success?
      end

      # Execute command, write input, and read output. This is called immediately when a new instance
      # of this object is created, or can be called explicitly when creating the Child via `build`.
      #
      # Sets out, err, status ($? too), runtime and pid on every way out, exceptions included.
      # Returns the Process::Status.
      # Raises what POSIX::Spawn.spawn raises, TimeoutExceeded, MaximumOutputExceeded, Aborted, or what
      # a :streams callable raises.
      def exec!
        outcome = Native.capture(@spawn_args, input: @input, timeout: @timeout, max: @max, pgroup_kill: @pgroup_kill,
                                              stdout: @stdout_stream, stderr: @stderr_stream,
                                              wait_delay: @wait_delay) { |result| keep(result) }
        case outcome
        when :timeout then raise TimeoutExceeded, "ran longer than #{@timeout} seconds: #{command_line(@spawn_args)}"
        when :max then raise MaximumOutputExceeded, "wrote more than #{@max} bytes: #{command_line(@spawn_args)}"
        when :aborted then raise Aborted, "a streams callable asked to stop: #{command_line(@spawn_args)}"
        end
        @status
      end

      private

      # What Native.capture reports: the pid once the child has started, then (on every way out, exceptions
      # and interrupts included) its output, status and run time.
      def keep(result)
        @pid = result[:pid]
        @out, @err, @status, @runtime = result.values_at(:out, :err, :status, :runtime) if result.key?(:status)
      end

      # The largest :max the capture takes (Java's long); no output comes anywhere near it.
      LARGEST_MAX = 2**63 - 1
      private_constant :LARGEST_MAX

      # :input as a String (or an object that converts to one implicitly), nil for none.
      def input_option(input)
        return if input.nil?

        String.try_convert(input) or raise TypeError, "input option must be a String, not #{input.class}"
      end

      # :max as whole bytes (a fraction allows the whole bytes below it); infinity, or more than
      # LARGEST_MAX, is no limit.
      def bytes_option(value)
        max = Options.number(:max, value, 'bytes')
        max.floor unless max.nil? || max.infinite? || max > LARGEST_MAX
      end

      # :streams as [stdout callable, stderr callable], nil for a stream that is captured. As in the MRI
      # gem, a nil or false callable captures that stream.
      def streams_option(streams)
        return [nil, nil] if streams.nil?
        raise TypeError, "streams option must be a Hash of :stdout and :stderr to callables, not #{streams.class}" unless streams.respond_to?(:to_hash)

        streams = streams.to_hash
        unknown = streams.keys - %i[stdout stderr]
        raise ArgumentError, "streams option takes :stdout and :stderr, not #{unknown.first.inspect}" unless unknown.empty?

        %i[stdout stderr].map do |name|
          callable = streams[name] or next
          raise TypeError, "streams option's #{name.inspect} must respond to call, not #{callable.class}" unless callable.respond_to?(:call)

          callable
        end
      end
    end
  end
end

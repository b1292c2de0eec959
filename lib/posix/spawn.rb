unless RUBY_ENGINE == 'jruby'
  raise LoadError, "posix-spawn-jruby runs only on JRuby, not #{RUBY_ENGINE} #{RUBY_VERSION}; " \
                   "on MRI use the posix-spawn gem (gem install posix-spawn)"
end

require 'posix/spawn/version'
require 'posix/spawn/arguments'
require 'posix_spawn_jruby.jar'
JRuby::Util.load_ext('org.posixspawn.jruby.PosixSpawnLibrary')

module POSIX
  # Fast, thread-safe process spawning for JRuby: Process.spawn's whole interface, executed with
  # posix_spawn(3). The JVM cannot fork; this never needs to, and never changes anything process-wide
  # (cwd, umask, environment, signal mask) to start a child.
  #
  # Use the module functions, or mix the module in to replace Kernel's:
  #
  #   require 'posix/spawn'
  #
  #   pid = POSIX::Spawn.spawn('echo', 'hello world')
  #   Process.wait(pid)
  #
  #   POSIX::Spawn.spawn({ 'LANG' => 'C' }, 'make', chdir: 'build', umask: 0o022, out: 'build.log', err: [:child, :out])
  #
  #   POSIX::Spawn.system('git', 'fetch')                  # => true, false or nil, $? set
  #   POSIX::Spawn.`('git rev-parse HEAD')                 # => "1c2d...\n", $? set
  #   pid, stdin, stdout, stderr = POSIX::Spawn.popen4('grep', 'x')
  #
  #   class YourGitWrapper
  #     include POSIX::Spawn                              # spawn, system, ` and popen4 use posix_spawn
  #   end
  #
  # For running a command to completion and capturing its output, see POSIX::Spawn::Child.
  #
  # The module functions, and the file (under lib/) each is defined in:
  #
  #   spawn      a child, Process.spawn's arguments (detach: true too)   posix/spawn.rb
  #   pspawn     spawn, by the MRI gem's other name                      posix/spawn.rb
  #   fspawn     raises NotImplementedError: the JVM cannot fork         posix/spawn.rb
  #   system     Kernel#system                                           posix/spawn.rb
  #   `          Kernel#`                                                posix/spawn.rb
  #   popen4     a child with pipes on its stdin, stdout and stderr      posix/spawn.rb
  #   start      a child and a Handle on it                              posix/spawn/handle.rb
  #   open_pty   a new pseudo-terminal (PTY.open)                        posix/spawn/pty.rb
  #   pty_spawn  a command on a new pseudo-terminal (PTY.spawn)          posix/spawn/pty.rb
  #   pty_check  PTY.check                                               posix/spawn/pty.rb
  #
  # Descriptors: by default the child gets fds 0, 1, 2, the ones redirected, and those of Ruby IOs the
  # program set `close_on_exec = false`, as in MRI, where nothing else is inheritable. The JVM's own
  # descriptors (jars, sockets, selectors) are not close-on-exec, and do not reach it either way.
  # `close_others: true` closes the marked IOs too; `close_others: false` lets every inheritable descriptor
  # through, the JVM's included.
  #
  # Differences from MRI's Process.spawn, on purpose:
  # - :uid and :gid raise NotImplementedError: posix_spawn cannot change credentials.
  module Spawn
    extend self

    # Spawn a child process with posix_spawn(3); the arguments are exactly Process.spawn's.
    #
    #   spawn([env,] command... [,options])
    #
    # env     - Hash of environment changes: a String value sets, nil unsets.
    # command - One String (run by /bin/sh -c only when it holds shell meta characters, otherwise
    #           split on spaces and run directly), or the program and its arguments as separate
    #           Strings (never a shell); the program may be [path, argv0].
    # options - Process.spawn's options: redirections (`:in`, `:out`, `:err`, Integer or IO keys, or
    #           arrays of them, to an IO, Integer, :in/:out/:err, :close, path, [path, mode, perm] or
    #           [:child, fd]), :chdir, :umask, :pgroup, :unsetenv_others, :close_others, :rlimit_*.
    #
    # Returns the new child's pid: use Process.wait, wait2, waitpid, detach, kill as usual.
    # Raises ArgumentError or TypeError for bad arguments, Errno::* naming the program (or the :chdir
    # directory, or the redirect path) when the child cannot start.
    #
    # With `detach: true` the child is nobody's to wait for: the gem's reaper thread reaps it as soon as it
    # ends (no zombie, no thread of its own, unlike Process.detach).
    def spawn(*args)
      rest, detach = Arguments.extract(args, :detach)
      return Native.spawn(*args) unless rest

      Options.boolean(:detach, detach) ? Native.spawn_detached(*rest) : Native.spawn(*rest)
    end

    # Same as #spawn: the name the MRI posix-spawn gem uses for its posix_spawn backend.
    def pspawn(*args)
      Native.spawn(*args)
    end

    # The MRI posix-spawn gem's fork+exec backend, which the JVM cannot provide.
    #
    # Raises NotImplementedError always.
    def fspawn(*_args)
      raise NotImplementedError, 'fspawn needs fork(2), which the JVM cannot do safely; use spawn (posix_spawn) instead'
    end

    # Kernel#system with posix_spawn: run the command and wait for it.
    #
    # Returns true when it exits zero, false when it exits non-zero or is killed, nil when it could
    # not be started; $? holds the Process::Status. With `exception: true` raises instead of
    # returning false or nil, as Kernel#system does.
    def system(*args)
      pid, exception, command = Native.system_spawn(*args)
      return nil unless pid

      Native.waitpid(pid)
      return true if $?.success?
      raise RuntimeError, "Command failed with #{failure_description($?)}: #{command}" if exception

      false
    end

    # Kernel#` with posix_spawn: run the command (a shell command line, as Kernel#` does) and
    # return its standard output, in Encoding.default_external and not transcoded (as MRI). $? holds the
    # Process::Status. A command that cannot start raises Errno::* with $? exit 127, as MRI's does.
    def `(cmd)
      cmd = '' + cmd # Kernel#`'s StringValue: TypeError unless a String (or to_str); an Array is no command line
      reader, writer = Native.pipe(IO)
      Native.enlarge_pipe(reader)
      begin
        pid = spawn(cmd, out: writer) # one that cannot start sets $? to exit 127
        writer.close
        # the gem's poll loop: JRuby 10's first read that waits opens a selector it keeps (a pipe pair).
        # Read as bytes and tagged, never transcoded: the pipe's internal encoding (default_internal) is not MRI's rule here
        output = Native.read_all(reader).force_encoding(Encoding.default_external)
      rescue SystemCallError
        Native.waitpid(pid) if pid # a failed read (EMFILE) reaps the child: no zombie behind the exception
        raise
      ensure # an interrupt leaves the child running, as MRI's backtick does
        writer.close unless writer.closed?
        reader.close
      end
      Native.waitpid(pid)
      output
    end

    # Spawn a child with pipes on its stdin, stdout and stderr.
    #
    #   popen4([env,] command... [,options])
    #
    # Returns [pid, stdin, stdout, stderr]: the three are the parent's ends, real IO objects.
    # With a block, yields them, closes the pipes and waits for the child afterwards, returning $?.
    def popen4(*args)
      args, options = Arguments.split(args)
      pipes = []
      begin
        3.times { pipes << Native.pipe(IO) } # any of them may fail (EMFILE): those made are closed below
        (child_in, stdin), (stdout, child_out), (stderr, child_err) = pipes
        pid = spawn(*args, options.merge(in: child_in, out: child_out, err: child_err))
      rescue Exception
        pipes.flatten.each { |io| io.close unless io.closed? }
        raise
      ensure
        [child_in, child_out, child_err].compact.each { |io| io.close unless io.closed? }
      end
      parent_ends = [stdin, stdout, stderr]
      stdin.sync = true
      return [pid, *parent_ends] unless block_given?

      begin
        yield pid, *parent_ends
      ensure
        parent_ends.each { |io| io.close unless io.closed? }
        Native.waitpid(pid)
      end
      $?
    end

    private

    # How system's RuntimeError tells the status (MRI: pst_message_status, as Process::Status#inspect does).
    def failure_description(status)
      text = if status.signaled?
               name = signal_name(status.termsig)
               name ? "SIG#{name} (signal #{status.termsig})" : "signal #{status.termsig}"
             else
               "exit #{status.exitstatus}"
             end
      status.coredump? ? "#{text} (core dumped)" : text
    end

    # Signal.signame, or nil for a number Ruby has no name for (MRI's signame gives nil; JRuby's raises).
    def signal_name(number)
      Signal.signame(number)
    rescue ArgumentError
      nil
    end

    # The command's words, joined, as Child's errors name it.
    def command_line(args)
      words, = Arguments.split(args)
      _env, words = Arguments.split_env(words)
      words = [words.first.first, *words.drop(1)] if words.first.is_a?(Array)
      words.join(' ')
    end
  end
end

require 'posix/spawn/io' # at once: it records the IOs the program makes inheritable from the require on

module POSIX
  module Spawn
    # The rest of the gem loads on first use, so that the require costs only what a spawn needs
    # (doc/performance-history.md, "Cold"): each constant from its file, and the module functions of
    # handle.rb and pty.rb through OnFirstUse.
    DEFERRED = { Child: 'child', Handle: 'handle', HandleAwareWait: 'handle', PtyMaster: 'pty_master', PtySlave: 'pty',
                 PtyArguments: 'pty', Options: 'options', MaximumOutputExceeded: 'errors', TimeoutExceeded: 'errors',
                 Aborted: 'errors', ChildExited: 'errors' }.transform_values { |file| "posix/spawn/#{file}" }.freeze
    private_constant :DEFERRED
    DEFERRED.each { |name, file| autoload name, file }

    # A constant whose autoload failed (its file could not be opened: the descriptor table was full) is
    # taken from its file on its next use: JRuby forgets the autoload once it has raised.
    def self.const_missing(name)
      file = DEFERRED[name]
      file && OnFirstUse.load(file) ? const_get(name) : super
    end

    # Stand-ins for the module functions defined in files loaded on first use: each loads its file, whose
    # definition in Spawn itself then comes before this module's, and calls that.
    module OnFirstUse
      { start: 'handle', open_pty: 'pty', pty_spawn: 'pty', pty_check: 'pty' }.each do |name, file|
        define_method(name) do |*args, &block|
          OnFirstUse.load("posix/spawn/#{file}")
          __send__(name, *args, &block)
        end
      end

      # Requires FILE; when it cannot be opened, raises why (Errno::EMFILE, as the call itself would have
      # when out of descriptors) rather than LoadError.
      def self.load(file)
        require file
      rescue LoadError
        File.open(File.expand_path("../#{file}.rb", __dir__)).close
        raise
      end
    end
    include OnFirstUse
    private_constant :OnFirstUse
  end
end

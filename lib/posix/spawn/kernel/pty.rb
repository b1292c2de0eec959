require 'posix/spawn/arguments'
require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # PTY.spawn, PTY.getpty and PTY.open on POSIX::Spawn.pty_spawn and open_pty, keeping MRI's rules: the
      # block form of spawn closes neither IO, reaps the child only if it has already exited (else leaves it
      # running), and returns nil; no command runs the user's shell; spawn takes no :winsize (MRI's does not).
      # The IOs are PtyMaster's, whose reads after the child's exit give Errno::EIO as MRI's do.
      module PtyMethods
        # MRI: pty_getpty
        def spawn(*args)
          raise ArgumentError, 'wrong exec option symbol: winsize' if Arguments.options(args)&.key?(:winsize)

          args = [PtyMethods.user_shell] if args.empty?
          result = POSIX::Spawn.pty_spawn(*args)
          return result unless block_given?

          begin
            yield result
          ensure
            PtyMethods.reap_if_exited(result[2])
          end
          nil
        end

        # MRI: pty_open
        def open(&block)
          POSIX::Spawn.open_pty(&block)
        end

        # MRI: pty_getpty's shell: $SHELL, else the user's login shell, else /bin/sh. (Etc only then: the
        # drop-in's require loads no more than it replaces.)
        def self.user_shell
          return ENV['SHELL'] if ENV['SHELL']

          require 'etc'
          Etc.getpwuid(Process.uid)&.shell || '/bin/sh'
        rescue ArgumentError
          '/bin/sh'
        end

        # MRI: pty_detach_process (a waitpid with WNOHANG; a child still running is left as it is).
        def self.reap_if_exited(pid)
          Process.waitpid(pid, Process::WNOHANG)
        rescue Errno::ECHILD
          nil
        end
      end

      # Loaded by OnRequire once the program has loaded JRuby's PTY.
      %i[spawn getpty].each { |name| replace(::PTY.singleton_class, name, PtyMethods.instance_method(:spawn)) }
      replace(::PTY.singleton_class, :open, PtyMethods.instance_method(:open))
    end
  end
end

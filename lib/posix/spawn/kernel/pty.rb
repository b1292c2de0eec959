require 'etc'
require 'posix/spawn/arguments'
require 'posix/spawn/kernel'
require 'posix/spawn/pty'

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

        # MRI: pty_getpty's shell: $SHELL, else the user's login shell, else /bin/sh.
        def self.user_shell
          ENV['SHELL'] || Etc.getpwuid(Process.uid)&.shell || '/bin/sh'
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

      # JRuby's PTY is not loaded by the drop-in: `require 'pty'` takes JRuby about 0.65 s (FFI and
      # libfixposix), and as in MRI, PTY exists once the program requires it. Its methods are replaced then,
      # by Kernel#require's replacement below, at once when it is already loaded, or by a later ::install when
      # it was loaded while the drop-in was uninstalled.
      module PtyOnRequire
        @replaced = false

        # Replaces PTY's methods, once, if JRuby's PTY is loaded.
        def self.replace_pty
          return if @replaced || !defined?(::PTY)

          @replaced = true
          Kernel.replace(::PTY.singleton_class, :spawn, PtyMethods.instance_method(:spawn))
          Kernel.replace(::PTY.singleton_class, :getpty, PtyMethods.instance_method(:spawn))
          Kernel.replace(::PTY.singleton_class, :open, PtyMethods.instance_method(:open))
        end

        # JRuby's pty loads libfixposix, whose loader sets LIBFIXPOSIX_PATH in ENV (read once, as it loads):
        # ENV is put back, so that the drop-in changes nothing a child sees.
        def require(feature)
          return ORIGINAL_REQUIRE.bind_call(self, feature) unless feature == 'pty'

          environment = ENV.to_h
          begin
            ORIGINAL_REQUIRE.bind_call(self, feature)
          ensure
            ENV.replace(environment) unless ENV.to_h == environment
            PtyOnRequire.replace_pty
          end
        end
      end

      before_install { PtyOnRequire.replace_pty }
      PtyOnRequire.const_set(:ORIGINAL_REQUIRE, replace(::Kernel, :require, PtyOnRequire.instance_method(:require)))
    end
  end
end

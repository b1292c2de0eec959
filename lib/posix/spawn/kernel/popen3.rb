require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # JRuby's own IO.popen3 and IO.popen4 (MRI has neither) on the engine, with Process.spawn's
      # arguments and rules (JRuby's take no shell syntax, and ignore an env Hash).
      module Popen3Methods
        # IO.popen3([env,] cmd... [, opts]) -> [stdin, stdout, stderr, wait_thread], as Open3.popen3
        # (JRuby's shape); with a block, yields them and returns its value.
        def popen3(*cmd, &block)
          require 'open3' # here, not with the drop-in: its require loads only what it replaces
          Open3.popen3(*cmd, &block)
        end

        # IO.popen4([env,] cmd... [, opts]) -> [pid, stdin, stdout, stderr]; with a block, yields them,
        # then closes the pipes and waits for the child ($? set), and returns the block's value.
        def popen4(*cmd)
          pid, *pipes = POSIX::Spawn.popen4(*cmd)
          return [pid, *pipes] unless block_given?

          begin
            yield pid, *pipes
          ensure
            pipes.each { |io| io.close unless io.closed? }
            POSIX::Spawn::Native.waitpid(pid)
          end
        end
      end

      %i[popen3 popen4].each do |name|
        replace(::IO.singleton_class, name, Popen3Methods.instance_method(name)) if ::IO.respond_to?(name)
      end
    end
  end
end

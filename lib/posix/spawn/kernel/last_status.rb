require 'jruby'

module POSIX
  module Spawn
    module Kernel
      # Sets the calling thread's $? (Ruby code cannot assign it), for the two cases where no waitpid
      # does: a command that could not start (MRI's forked child exits 127), and restoring the caller's
      # $? around Open3's captures, which MRI waits for on a thread of their own.
      module LastStatus
        # MRI's $? for a command that could not start: exit 127 (MRI's has the pid of the child it forked).
        NOT_STARTED = 127 << 8

        module_function

        def set(status)
          JRuby.runtime.current_context.last_exit_status = status
        end

        def set_not_started
          set(org.jruby.RubyProcess::RubyStatus.newProcessStatus(JRuby.runtime, NOT_STARTED, 0))
        end
      end
    end
  end
end

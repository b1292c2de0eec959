# The exception classes of the gem's own (a bad argument or a failed start raises Ruby's ArgumentError,
# TypeError or Errno::*, as MRI does).
module POSIX
  module Spawn
    # Raised by Child when stdout and stderr together exceed the :max option. Child#out and Child#err
    # then hold exactly the first :max bytes.
    class MaximumOutputExceeded < StandardError
    end

    # Raised by Child when the command runs longer than the :timeout option, and by Handle#communicate
    # when its timeout passes first.
    class TimeoutExceeded < StandardError
    end

    # Raised by Child when a callable of the :streams option returns a true value.
    class Aborted < StandardError
    end

    # Raised by pty_check(pid, true) when the child has changed state (MRI's PTY::ChildExited).
    class ChildExited < RuntimeError
      # The child's Process::Status.
      attr_reader :status

      def initialize(message, status)
        super(message)
        @status = status
      end
    end
  end
end

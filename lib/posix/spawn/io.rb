require 'posix/spawn'

module POSIX
  module Spawn
    # What every IO tells the gem, prepended to IO at the require.
    module IOHooks
      # Records the program's choice for spawning: an IO set `close_on_exec = false` is inherited by a child
      # spawned without :close_others, as in MRI, where nothing else is inheritable (doc/spawning.md,
      # "close_others"). Only choices made after `require 'posix/spawn'` are known.
      def close_on_exec=(flag)
        result = super
        Native.mark_inheritable(self, !flag)
        result
      end

      # IO#dup and IO#clone of the gem's pipe ends (Handle's, the drop-in's): JRuby's copy is an IO over a dup
      # of the descriptor whose reads would take the shared open file's O_NONBLOCK (EAGAIN) for an end of
      # file; Native.adopt_copy gives it the gem's channel, whose reads wait as MRI's do. MRI: rb_io_init_copy
      def initialize_copy(orig)
        super
        Native.adopt_copy(self, orig)
        self
      end
    end
  end
end

class IO
  prepend POSIX::Spawn::IOHooks

  # The operating system's file descriptor of this IO: the MRI posix-spawn gem's method, which code written
  # for it calls to name descriptors in spawn options. On JRuby #fileno can be a number of JRuby's own (for
  # a channel whose descriptor it cannot see); this is always the real one.
  #
  # Raises IOError when the IO is closed, ArgumentError when JRuby has no real descriptor for it.
  def posix_fileno
    POSIX::Spawn::Native.posix_fileno(self)
  end
end

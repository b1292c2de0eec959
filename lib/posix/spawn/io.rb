require 'posix/spawn'

module POSIX
  module Spawn
    # Records the program's choice for spawning: an IO set `close_on_exec = false` is inherited by a child
    # spawned without :close_others, as in MRI, where nothing else is inheritable (doc/spawning.md, "close_others").
    # Only choices made after `require 'posix/spawn'` are known.
    module InheritableIO
      def close_on_exec=(flag)
        result = super
        Native.mark_inheritable(self, !flag)
        result
      end
    end
  end
end

class IO
  prepend POSIX::Spawn::InheritableIO

  # The operating system's file descriptor of this IO: the MRI posix-spawn gem's method, which code written
  # for it calls to name descriptors in spawn options. On JRuby #fileno can be a number of JRuby's own (for
  # a channel whose descriptor it cannot see); this is always the real one.
  #
  # Raises IOError when the IO is closed, ArgumentError when JRuby has no real descriptor for it.
  def posix_fileno
    POSIX::Spawn::Native.posix_fileno(self)
  end
end

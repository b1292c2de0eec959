require 'posix/spawn'

class IO
  # The operating system's file descriptor of this IO: the MRI posix-spawn gem's method, which code written
  # for it calls to name descriptors in spawn options. On JRuby #fileno can be a number of JRuby's own (for
  # a channel whose descriptor it cannot see); this is always the real one.
  #
  # Raises IOError when the IO is closed, ArgumentError when JRuby has no real descriptor for it.
  def posix_fileno
    POSIX::Spawn::Native.posix_fileno(self)
  end
end

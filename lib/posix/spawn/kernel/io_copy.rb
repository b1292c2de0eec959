require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # IO#dup and IO#clone of the engine's pipe ends: JRuby's copy is an IO of its own over a dup of the
      # descriptor, whose reads would take the shared open file's O_NONBLOCK (EAGAIN) for an end of file;
      # Native.adopt_copy gives it the engine's channel instead, whose reads wait as MRI's do.
      module CopyMethods
        # MRI: rb_io_init_copy
        def initialize_copy(orig)
          CopyMethods::ORIGINAL.bind_call(self, orig)
          POSIX::Spawn::Native.adopt_copy(self, orig)
          self
        end
      end

      CopyMethods::ORIGINAL = replace(::IO, :initialize_copy, CopyMethods.instance_method(:initialize_copy))
    end
  end
end

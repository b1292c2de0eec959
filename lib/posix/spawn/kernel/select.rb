require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # IO.select and Kernel#select: one poll(2) when every IO given is one poll(2) can answer alone (a real
      # descriptor, open, no read data buffered, not a socket: the gem's own pipes and terminals, and most
      # others), JRuby's own select for anything else (Native.io_select says which). JRuby's selects each
      # call on jnr-enxio's or the JDK's selector, which costs an exchange with a child several times MRI's.
      module SelectMethods
        # MRI: rb_f_select
        def select(reads, writes = nil, errors = nil, timeout = nil)
          ready = POSIX::Spawn::Native.io_select(reads, writes, errors, timeout)
          return ready unless ready == false

          SelectMethods::ORIGINAL.bind_call(::IO, reads, writes, errors, timeout)
        end
      end

      SelectMethods::ORIGINAL = replace(::IO.singleton_class, :select, SelectMethods.instance_method(:select))
      [::Kernel, ::Kernel.singleton_class].each { |target| replace(target, :select, SelectMethods.instance_method(:select)) }
    end
  end
end

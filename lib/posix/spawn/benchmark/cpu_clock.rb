require 'ffi'

module POSIX
  module Spawn
    module Benchmark
      # This process's CPU (all threads) in seconds, from libc's clock: JRuby has no
      # CLOCK_PROCESS_CPUTIME_ID, and the JVM's own process CPU counts 10 ms ticks.
      module CpuClock
        extend FFI::Library
        ffi_lib FFI::Library::LIBC
        attach_function :clock_gettime, %i[int pointer], :int

        PROCESS_CPUTIME = 2 # CLOCK_PROCESS_CPUTIME_ID: Linux and FreeBSD 15 (the platforms measured here)
        TIMESPEC = FFI::MemoryPointer.new(:long, 2)

        def self.seconds
          clock_gettime(PROCESS_CPUTIME, TIMESPEC)
          TIMESPEC.get_long(0) + TIMESPEC.get_long(8) / 1e9
        end
      end
    end
  end
end

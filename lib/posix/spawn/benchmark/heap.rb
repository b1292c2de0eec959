require 'java'

module POSIX
  module Spawn
    module Benchmark
      # The parent's memory: grown with retained Ruby strings, many small objects as a real application's
      # heap holds, until the JVM's live heap (used heap right after a full GC) reaches a target.
      class Heap
        STRING_BYTES = 4096

        def initialize
          @retained = []
        end

        # Aborts, saying how to get a bigger heap, when MB of live heap would leave the JVM too little
        # room to run the benchmark (a third more than the live heap).
        def ensure_room_for(mb)
          max_mb = java.lang.Runtime.getRuntime.maxMemory / MB
          return if mb * 4 / 3 <= max_mb

          needed = "-Xmx#{(mb * 4 / 3 / 1024.0).ceil}g"
          abort "posix-spawn-benchmark: -m #{mb} needs a JVM heap of #{mb * 4 / 3} MB, this one has #{max_mb} MB: " \
                "run it with JRUBY_OPTS=-J#{needed} (jruby) or JRUBY_JAVA_OPTS=#{needed} (bin/dev)"
        end

        # MB of live heap: the heap in use right after a full collection.
        def live_mb
          java.lang.System.gc
          java.lang.management.ManagementFactory.getMemoryMXBean.getHeapMemoryUsage.getUsed.to_f / MB
        end

        # Retains strings until the live heap is within 1% of MB (or 1 MB), and returns its size then. Each
        # pass fills only nine tenths of what is missing, because every string costs a little more than its
        # bytes; a heap already bigger is left as it is.
        def grow_to(mb)
          while (missing = mb - (live = live_mb)) > [mb / 100.0, 1].max
            @retained << Array.new((missing * 0.9 * MB / STRING_BYTES).ceil) { 'x' * STRING_BYTES }
          end
          live
        end
      end
    end
  end
end

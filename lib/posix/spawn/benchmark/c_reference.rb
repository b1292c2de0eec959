require 'rbconfig'
require 'tmpdir'
require 'fileutils'
require 'posix/spawn/benchmark/measure'

module POSIX
  module Spawn
    module Benchmark
      # The full path of PROGRAM on PATH, as `command -v` prints it, or nil.
      def self.which(program)
        ENV.fetch('PATH', '').split(File::PATH_SEPARATOR).map { |dir| File.join(dir, program) }
           .find { |path| File.file?(path) && File.executable?(path) }
      end

      # The floor to compare against: spawn_loop.c, compiled at run time (the gem ships no binary) and run
      # as a subprocess that times its own spawns, so neither compiling nor starting it is counted.
      class CReference
        SOURCE = File.expand_path('spawn_loop.c', __dir__)

        # Why there is no C reference on this machine.
        class NotCompiled < StandardError; end

        # Compiles spawn_loop.c into a temporary directory removed at exit, and returns the binary's path
        # (with library: true, the shared library's, for InProcess). Raises NotCompiled when there is no C
        # compiler or it fails.
        def self.compile(library: false)
          compiler = [ENV['CC'], 'cc', 'gcc', 'clang'].compact.find { |cc| Benchmark.which(cc) }
          raise NotCompiled, 'no C compiler found (set CC to use one)' unless compiler

          dir = Dir.mktmpdir('posix-spawn-benchmark')
          at_exit { FileUtils.rm_rf(dir) }
          output = File.join(dir, library ? 'spawn_loop.so' : 'spawn_loop')
          flags = library ? %w[-shared -fPIC -DSPAWN_LOOP_LIBRARY] : []
          log = IO.popen([compiler, '-O2', '-pthread', *flags, '-o', output, SOURCE, err: [:child, :out]], &:read)
          raise NotCompiled, "#{compiler} could not compile #{File.basename(SOURCE)}: #{log.strip}" unless $?.success?

          output
        end

        attr_reader :name, :group

        # mode - :search_path for posix_spawnp(program), :full_path for posix_spawn(program).
        def initialize(binary, name, mode, program)
          @binary = binary
          @name = name
          @group = :spawn
          @mode = mode == :search_path ? 'p' : 'f'
          @program = program
        end

        def full_path?
          @mode == 'f'
        end

        # A Window: the loop reports only its mean.
        def warm_up(count)
          per_op = time_per_op(count, 1)
          Window.new(per_op, per_op)
        end

        # Seconds per spawn, as spawn_loop measured them.
        def time_per_op(count, threads)
          output = IO.popen([@binary, count.to_s, threads.to_s, @mode, @program], err: %i[child out], &:read)
          raise "#{@name}: #{output.strip} (#{$?.inspect})" unless $?.success?

          Float(output) / 1e6
        end

        # The same loop run inside this JVM, the library called through FFI: what this process (its heap,
        # threads, descriptors, signal handlers) costs a spawn, whatever the code making it.
        class InProcess < CReference
          def initialize(library, name, mode, program)
            super
            require 'ffi'
            @loop = Module.new do
              extend FFI::Library
              ffi_lib library
              attach_function :spawn_loop, %i[long long int string], :double, blocking: true
            end
          end

          def time_per_op(count, threads)
            per_spawn = @loop.spawn_loop(count, threads, @mode == 'p' ? 1 : 0, @program)
            raise "#{@name}: spawning #{@program} failed" if per_spawn.negative?

            per_spawn / 1e6
          end
        end
      end
    end
  end
end

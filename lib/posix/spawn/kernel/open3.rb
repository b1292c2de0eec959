require 'posix/spawn/arguments'
require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # Open3.capture3, capture2 and capture2e on the engine's one-thread poll(2) loop instead of Open3's
      # thread per stream: capture3 on Child's (Native.capture), capture2 and capture2e on a Handle's
      # communicate (the same loop over pipes chosen here: Child's always pipes stderr on its own, and
      # these two inherit it or merge it into stdout). Open3's other methods (popen3, popen2, popen2e,
      # pipeline*) keep Open3's own code, which runs on the replaced Kernel#spawn, with real
      # Process::Waiter threads, on the engine's pipes (Open3Pipes).
      module Open3Capture
        module_function

        # Open3.capture3([env,] cmd... [, opts]) -> [stdout, stderr, Process::Status]. A command that runs
        # past an interrupt (Thread#raise, Timeout) gets TERM, then KILL (Child's rule).
        def capture3(original, receiver, cmd)
          capture(original, receiver, cmd) do |spawn_args, input, run|
            POSIX::Spawn::Native.capture(spawn_args, input: input) { |report| run.update(report) }
            run.values_at(:out, :err, :status)
          end
        end

        # Open3.capture2([env,] cmd... [, opts]) -> [stdout, Process::Status]; stderr is the caller's
        # (merge: false), or goes into stdout as in Open3.popen2e (merge: true). The command's :in and
        # :out options give way to the pipes, as Open3's; with merge, an :out option is MRI's
        # "fd 1 specified twice" and an :err option its "fd 2 specified twice". Interrupted (Thread#raise,
        # Timeout), it closes the pipes and waits for the command to end before the exception goes on,
        # as Open3's popen_run does.
        def capture2(original, receiver, cmd, merge:)
          capture(original, receiver, cmd) do |spawn_args, input, run|
            spawn_args, options = Arguments.split_open3(spawn_args)
            raise ArgumentError, 'fd 1 specified twice' if merge && options.key?(:out) # MRI: [:out, :err] and :out
            options = options.merge(in: :pipe, out: :pipe)
            options[[:err]] = [:child, :out] if merge # a key of its own, so a given :err is "fd 2 specified twice"
            handle = POSIX::Spawn.start(*spawn_args, options)
            run[:pid] = handle.pid
            begin
              out, = handle.communicate(input)
            ensure
              handle.__communicated # an interrupted communicate keeps its pipes for a next call: none comes
              [handle.stdin, handle.stdout].each { |io| io.close unless io.closed? }
              handle.wait
            end
            [out, handle.status]
          end
        end

        # Open3's argument rules around a run: opts are spawn's plus :stdin_data (written, then stdin
        # closed; an IO-like one is streamed by Open3's own code) and :binmode. The block gets spawn's
        # arguments, the input String and a Hash to note the :pid in once the command has started, and
        # returns [output..., status]. The caller's $? is left as it was (MRI waits on a thread of its
        # own), except that a command that cannot start sets it to exit 127 (MRI's spawn does). Output is
        # in Encoding.default_external, transcoded to default_internal when that is set, or binary with
        # :binmode, as Open3's reads give.
        def capture(original, receiver, cmd)
          spawn_args, options = Arguments.split_open3(cmd)
          stdin_data = options.delete(:stdin_data) || ''
          binmode = options.delete(:binmode)
          return original.bind_call(receiver, *cmd) if stdin_data.respond_to?(:readpartial)

          spawn_args += [options] unless options.empty?
          callers = $?
          run = {}
          begin
            *outputs, status = yield(spawn_args, String(stdin_data), run)
          ensure
            # The engine sets $? (exit 127 when the command cannot start, as MRI's spawn); Open3 sets it only then.
            POSIX::Spawn::Native.last_status_set(callers&.to_i, callers&.pid) if run[:pid]
          end
          [*outputs.map { |bytes| text(bytes, binmode) }, status]
        end

        # What Open3's IO#read gives for these bytes.
        def text(bytes, binmode)
          return bytes if binmode

          external = Encoding.default_external
          bytes.force_encoding(external)
          internal = Encoding.default_internal
          return bytes if internal.nil? || internal == external || external == Encoding::BINARY

          bytes.encode(internal)
        end
      end

      # The method-table entries: Open3.capture3/capture2/capture2e and their module_function twins
      # (Open3's private instance methods).
      module Open3Methods
        def capture3(*cmd)
          Open3Capture.capture3(Open3Capture::ORIGINALS[:capture3], self, cmd)
        end

        def capture2(*cmd)
          Open3Capture.capture2(Open3Capture::ORIGINALS[:capture2], self, cmd, merge: false)
        end

        def capture2e(*cmd)
          Open3Capture.capture2(Open3Capture::ORIGINALS[:capture2e], self, cmd, merge: true)
        end
      end

      # Loaded by OnRequire once the program has loaded Open3 (at once without the --add-opens: kernel.rb).
      Open3Capture::ORIGINALS = %i[capture3 capture2 capture2e].to_h do |name|
        replace(::Open3.singleton_class, name, Open3Methods.instance_method(name))
        [name, replace(::Open3, name, Open3Methods.instance_method(name))]
      end.freeze

      # Open3's popen and pipeline methods keep Open3's code, which makes its pipes with IO.pipe and hands
      # them to spawn. While one of these methods runs (up to the block it yields to), IO.pipe makes the
      # engine's pipes (Native.pipe) instead: their filenos are real also in a JRuby started without its
      # --add-opens (JRuby's are made up there, which spawn refuses), and IO.select answers them with one
      # poll(2) (kernel/select.rb; JRuby's pipes take its selector). Everywhere else IO.pipe stays JRuby's.
      module Open3Pipes
        METHODS = %i[popen3 popen2 popen2e pipeline_rw pipeline_r pipeline_w pipeline_start pipeline].freeze
        KEY = :__posix_spawn_open3_pipes

        module_function

        # Runs Open3's `original` on the receiver with IO.pipe making engine pipes in this fiber until the
        # block is called (the block's own IO.pipe calls get JRuby's again).
        def run(original, receiver, args, block)
          outer = Thread.current[KEY]
          Thread.current[KEY] = true
          inner = block && proc { |*yielded| Thread.current[KEY] = outer; block.call(*yielded) }
          original.bind_call(receiver, *args, &inner)
        ensure
          Thread.current[KEY] = outer
        end
      end

      # The method-table entries: IO.pipe, and Open3's popen and pipeline methods with their module_function twins.
      module Open3PipeMethods
        def pipe(*args, &block)
          return Open3Pipes::ORIGINAL_PIPE.bind_call(self, *args, &block) unless Thread.current[Open3Pipes::KEY] && args.empty? && !block

          POSIX::Spawn::Native.pipe(self)
        end

        Open3Pipes::METHODS.each do |name|
          define_method(name) { |*args, &block| Open3Pipes.run(Open3Pipes::ORIGINALS[name], self, args, block) }
        end
      end

      Open3Pipes::ORIGINAL_PIPE = replace(::IO.singleton_class, :pipe, Open3PipeMethods.instance_method(:pipe))
      Open3Pipes::ORIGINALS = Open3Pipes::METHODS.to_h do |name|
        replace(::Open3.singleton_class, name, Open3PipeMethods.instance_method(name))
        [name, replace(::Open3, name, Open3PipeMethods.instance_method(name))]
      end.freeze
    end
  end
end

require 'open3'
require 'posix/spawn/kernel'
require 'posix/spawn/child'

module POSIX
  module Spawn
    module Kernel
      # Open3.capture3 on Child's capture loop (one thread, poll(2)) instead of Open3's thread per
      # stream. Open3's other methods (popen3, popen2, popen2e, pipeline*, capture2, capture2e) keep
      # Open3's own code, which runs on the replaced Kernel#spawn, with real Process::Waiter threads.
      module Open3Capture
        module_function

        # Open3.capture3([env,] cmd... [, opts]) -> [stdout, stderr, Process::Status], as Open3's: opts
        # are spawn's plus :stdin_data and :binmode; the caller's $? is left as it was (MRI waits on a
        # thread of its own), except that a command that cannot start sets it to exit 127 (MRI's spawn
        # does). Output is in Encoding.default_external, transcoded to default_internal when that is
        # set, or binary with :binmode, as Open3's reads give.
        def capture3(original, receiver, cmd)
          spawn_args = cmd.dup
          options = Hash === spawn_args.last ? spawn_args.pop.dup : {} # Open3's own test
          stdin_data = options.delete(:stdin_data) || ''
          binmode = options.delete(:binmode)
          # An IO-like stdin_data is streamed by Open3 (IO.copy_stream): its code does that.
          return original.bind_call(receiver, *cmd) if stdin_data.respond_to?(:readpartial)

          spawn_args << options unless options.empty?
          callers = $?
          result = {}
          begin
            POSIX::Spawn::Native.capture(spawn_args, input: String(stdin_data)) { |report| result.update(report) }
          ensure
            # Child sets $? (exit 127 when the command cannot start, as MRI's spawn); Open3 sets it only then.
            POSIX::Spawn::Native.last_status_set(callers&.to_i, callers&.pid) if result[:status]
          end
          [text(result[:out], binmode), text(result[:err], binmode), result[:status]]
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

      # The method-table entries: Open3.capture3 and its module_function twin, Open3#capture3.
      module Open3Methods
        def capture3(*cmd)
          Open3Capture.capture3(Open3Capture::CAPTURE3, self, cmd)
        end
      end

      Open3Capture::CAPTURE3 = replace(::Open3, :capture3, Open3Methods.instance_method(:capture3))
      replace(::Open3.singleton_class, :capture3, Open3Methods.instance_method(:capture3))
    end
  end
end

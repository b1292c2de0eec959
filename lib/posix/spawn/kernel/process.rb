require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # Kernel#spawn, #system and #` (and %x) on the engine; each is copied into every method-table entry
      # that JRuby's has (Kernel's private method, its module_function copy, Process.spawn and
      # Process#spawn: JRuby's Kernel#spawn calls RubyProcess in Java, so each entry is replaced on its own).
      module ProcessMethods
        # Process.spawn's whole interface (MRI's errors and messages).
        def spawn(*args)
          POSIX::Spawn::Native.spawn(*args)
        end

        # Kernel#system: true, false, or nil when the command cannot start; $? set; exception: true raises.
        def system(*args)
          POSIX::Spawn.system(*args)
        end

        # Kernel#`: the command's stdout, in Encoding.default_external and not transcoded (as MRI); $? set.
        # A command that cannot start raises Errno::* with $? exit 127, as MRI's does.
        def `(command)
          command = '' + command # MRI's StringValue: TypeError unless a String (or to_str)
          reader, writer = POSIX::Spawn::Native.pipe(IO)
          POSIX::Spawn::Native.enlarge_pipe(reader)
          begin
            pid = POSIX::Spawn::Native.spawn(command, out: writer) # one that cannot start sets $? to exit 127
            writer.close
            output = POSIX::Spawn::Native.read_all(reader)
          rescue SystemCallError
            POSIX::Spawn::Native.waitpid(pid) if pid # a failed read (EMFILE) reaps the child: no zombie behind the exception
            raise
          ensure # an interrupt leaves the child running, as MRI's backtick does
            writer.close unless writer.closed?
            reader.close
          end
          POSIX::Spawn::Native.waitpid(pid)
          output.force_encoding(Encoding.default_external)
        end
      end

      [::Kernel, ::Kernel.singleton_class].each do |target|
        %i[spawn system `].each { |name| replace(target, name, ProcessMethods.instance_method(name)) }
      end
      [::Process, ::Process.singleton_class].each do |target|
        replace(target, :spawn, ProcessMethods.instance_method(:spawn)) if target.method_defined?(:spawn) || target.private_method_defined?(:spawn)
      end
    end
  end
end

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
          POSIX::Spawn.`(command)
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

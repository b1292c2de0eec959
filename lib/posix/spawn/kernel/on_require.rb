require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # PTY and Open3 are not loaded by the drop-in: as in MRI, each exists once the program requires it
      # (JRuby's pty takes about 0.65 s to load, open3 70 ms), and their methods are replaced then, by the
      # file that replaces them: after any require that left the module loaded, or by ::install when it was
      # loaded while the drop-in was uninstalled (or before it was required).
      module OnRequire
        # Module => [the file that replaces its methods, the methods it may replace]: a module is loaded once
        # it has them all (open3.rb requires open3/version.rb, which defines Open3, before any method).
        # Frozen, and replaced whole under the lock: every require, in every thread, reads it without the lock
        # (0.4 µs more for a require of a loaded feature, measured: 5.8 -> 6.2 µs).
        @pending = { PTY: ['posix/spawn/kernel/pty', %i[spawn getpty open]],
                     Open3: ['posix/spawn/kernel/open3', %i[capture3 capture2 capture2e popen3 popen2 popen2e pipeline_rw
                                                            pipeline_r pipeline_w pipeline_start pipeline]] }.freeze
        @lock = Mutex.new

        # Loads the file of each module now loaded, once.
        def self.catch_up
          return if @pending.none? { |name, (_, methods)| loaded?(name, methods) }

          ready = @lock.synchronize do
            now = @pending.select { |name, (_, methods)| loaded?(name, methods) }
            @pending = @pending.reject { |name, _| now.key?(name) }.freeze
            now
          end
          ready.each_value { |file, _| require file }
        end

        # (A constant still to be autoloaded is not: asking for it here would load it before the program does.)
        def self.loaded?(name, methods)
          Object.const_defined?(name, false) && !Object.autoload?(name) &&
            methods.all? { |m| Object.const_get(name).respond_to?(m) }
        end

        # JRuby's pty loads libfixposix, whose loader sets LIBFIXPOSIX_PATH in ENV (read once, as it loads):
        # ENV is put back, so that the drop-in changes nothing a child sees.
        def require(feature)
          environment = ENV.to_h if feature == 'pty'
          ORIGINAL_REQUIRE.bind_call(self, feature)
        ensure
          ENV.replace(environment) if environment && ENV.to_h != environment
          OnRequire.catch_up
        end
      end

      before_install { OnRequire.catch_up }
      OnRequire.const_set(:ORIGINAL_REQUIRE, replace(::Kernel, :require, OnRequire.instance_method(:require)))
    end
  end
end

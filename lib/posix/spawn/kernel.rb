require 'posix/spawn'

module POSIX
  module Spawn
    # The drop-in: JRuby's own process API (Kernel#spawn, #system, #`, #open("|cmd"), Process.spawn,
    # IO.popen and the IO pipe forms, Open3's captures) run on this gem's engine, so code that never
    # names POSIX::Spawn gets it:
    #
    #   require 'posix/spawn/kernel'            # installs it (or JRUBY_OPTS=-rposix/spawn/kernel)
    #   POSIX::Spawn::Kernel.installed?         # => true
    #   POSIX::Spawn::Kernel.uninstall          # JRuby's own methods back, exactly
    #
    # It replaces method-table entries in the owner modules themselves (Kernel's private instance
    # methods and their module_function copies on Kernel's singleton, IO's singleton methods...), so
    # `method(:system).owner` stays Kernel, calls take no extra frame, and alias chains that other gems
    # add later still wrap it. Other features register their replacements with ::replace (PTY does).
    module Kernel
      # One method-table entry: `name` in `target` (a module or a singleton class) becomes
      # `implementation` (an UnboundMethod of a module) while installed; `original` is what it replaced
      # (JRuby's, or another gem's wrapper). `installed`: the method as put in target, which aliases of it equal.
      Replacement = Struct.new(:target, :name, :implementation, :original, :installed)

      @replacements = []
      @before_install = []
      @installed = false
      @lock = Mutex.new

      class << self
        # Registers `implementation` (an UnboundMethod defined in a module) to replace method `name` of
        # `target` (a module, or a singleton class for module functions and class methods). Installed at
        # once when the drop-in is installed, else with the rest by ::install.
        #
        #   POSIX::Spawn::Kernel.replace(PTY.singleton_class, :spawn, MyPTY.instance_method(:spawn))
        #
        # Returns JRuby's method that is replaced (an UnboundMethod), for a replacement that hands some
        # calls on to it. Raises ArgumentError when `target` has no method `name` to replace.
        def replace(target, name, implementation)
          @lock.synchronize do
            visibility_of(target, name) or raise ArgumentError, "#{target} has no method #{name} to replace"
            replacement = Replacement.new(target, name, implementation, own_method(target, name))
            @replacements << replacement
            take(replacement) if @installed
            replacement.original
          end
        end

        # Registers a block ::install calls first, which may ::replace: for a feature loaded later (PTY),
        # perhaps while the drop-in was uninstalled.
        def before_install(&block)
          @lock.synchronize { @before_install << block }
        end

        # Puts every registered replacement in place; harmless when already installed. Where the engine
        # cannot run (not Linux, or IOs without real descriptors) it warns once and installs nothing.
        #
        # Returns true when installed, false when this platform cannot have it.
        def install
          @lock.synchronize { @before_install.dup }.each(&:call)
          @lock.synchronize do
            return true if @installed
            return false unless supported?

            @replacements.each { |r| take(r) }
            @installed = true
          end
        end

        # Puts JRuby's own methods back: the same owners, visibility and arity as before ::install. A wrapper
        # another gem put on one meanwhile (Zeitwerk's and Bootsnap's alias the method, then redefine it)
        # stays, and the alias it calls through gets JRuby's method back instead of the drop-in's.
        #
        # Returns nil.
        def uninstall
          @lock.synchronize do
            @replacements.reverse_each { |r| give_back(r) } if @installed
            @installed = false
          end
          nil
        end

        # Whether the replacements are in place.
        def installed?
          @installed
        end

        # Whether JRuby's own IO.pipe gives IOs over real descriptors (not without the --add-opens): asked
        # once a JVM, by the drop-in's require, and kept for kernel/open3.rb.
        def real_pipe_filenos?
          @real_pipe_filenos = probe_pipe_filenos if @real_pipe_filenos.nil?
          @real_pipe_filenos
        end

        private

        def probe_pipe_filenos
          reader, writer = IO.pipe
          POSIX::Spawn::Native.posix_fileno(reader)
          true
        rescue ArgumentError # RealDescriptors: a number of JRuby's own
          false
        ensure
          [reader, writer].each { |io| io&.close }
        end

        # Puts the implementation where the original is: in the method's own entry, or, where a wrapper took
        # that while the drop-in was out, in the aliases of the original it calls through, so that the wrapper
        # wraps the drop-in.
        def take(replacement)
          names = [replacement.name]
          unless holds?(replacement, replacement.name, replacement.original)
            names = own_methods(replacement.target).select { |name| holds?(replacement, name, replacement.original) }
          end
          names.each { |name| put(replacement.target, name, replacement.implementation) }
          replacement.installed = names.empty? ? nil : own_method(replacement.target, names.first)
        end

        # Puts the original back into every entry that holds the implementation: the method's own, or the
        # alias a wrapper installed since calls through.
        def give_back(replacement)
          return unless replacement.installed

          own_methods(replacement.target).each do |name|
            put(replacement.target, name, replacement.original) if holds?(replacement, name, replacement.installed)
          end
        end

        def holds?(replacement, name, method)
          own_method(replacement.target, name) == method
        end

        # The method in target's own table (a module prepended to target comes first in instance_method's
        # lookup: its method calls this one through super), or nil.
        def own_method(target, name)
          method = target.instance_method(name)
          method = method.super_method while method && method.owner != target
          method
        rescue NameError # undefined since
          nil
        end

        def own_methods(target)
          target.instance_methods(false) + target.private_instance_methods(false) + target.protected_instance_methods(false)
        end

        # Defines the method in the target's own body (module_eval), with the visibility the entry has (as a
        # class body sets it).
        def put(target, name, method)
          visibility = visibility_of(target, name)
          target.module_eval do
            define_method(name, method)
            case visibility
            when :private then private(name)
            when :protected then protected(name)
            else public(name)
            end
          end
        end

        def visibility_of(target, name)
          if target.public_method_defined?(name) then :public
          elsif target.private_method_defined?(name) then :private
          elsif target.protected_method_defined?(name) then :protected
          end
        end

        # The engine needs Linux. A JRuby started without its --add-opens (java -cp, an embedding) is no
        # obstacle: the engine's own pipes have real descriptors there too (Native.pipe), and Open3's get
        # them while it runs (kernel/open3.rb).
        def supported?
          return true if RbConfig::CONFIG['host_os'].include?('linux')

          unless @warned
            @warned = true
            warn "posix-spawn-jruby: the drop-in is not installed: it needs Linux, not #{RbConfig::CONFIG['host_os']}; " \
                 "JRuby's own process methods stay in place"
          end
          false
        end
      end
    end
  end
end

require 'rbconfig'
require 'posix/spawn/kernel/process'
require 'posix/spawn/kernel/popen'
require 'posix/spawn/kernel/popen3'
require 'posix/spawn/kernel/pipe_open'
require 'posix/spawn/kernel/select'
require 'posix/spawn/kernel/on_require'
# Without JRuby's --add-opens, Open3's own pipes must be the engine's before its first call (kernel/open3.rb):
# there Open3 comes with the drop-in, and ::install replaces it.
require 'open3' unless POSIX::Spawn::Kernel.real_pipe_filenos?

POSIX::Spawn::Kernel.install

require 'posix/spawn/kernel'
require 'posix/spawn/kernel/popen'

module POSIX
  module Spawn
    module Kernel
      # The pipe forms that JRuby runs without IO.popen: Kernel#open("|cmd") and IO.read, readlines,
      # foreach, write, binread, binwrite("|cmd") (MRI: io.c's check_pipe_command, only on IO itself,
      # not File). They run on Popen; every other call goes to JRuby's own method unchanged.
      module PipeOpen
        # The warnings Ruby 3.3+ gives (JRuby 10 gives them too) when Warning[:deprecated] is on.
        OPEN_DEPRECATED = "Calling Kernel#open with a leading '|' is deprecated and will be removed in Ruby 4.0; use IO.popen instead".freeze
        IO_DEPRECATED = "IO process creation with a leading '|' is deprecated and will be removed in Ruby 4.0; use IO.popen instead".freeze
        WARNS = (RUBY_VERSION.split('.').map(&:to_i) <=> [3, 3]) >= 0

        module_function

        # The command after a leading "|", or nil when `path` is no pipe command.
        def command(path)
          text = String.try_convert(path)
          text[1..] if text&.start_with?('|')
        end

        # popen on `command` with the rest of a File-style call: [mode [, perm]] [, opts]; perm means
        # nothing to a pipe (MRI ignores it too).
        def popen(command, args, block, message)
          (at = caller_locations(2, 1).first) && Warning.warn("#{at.path}:#{at.lineno}: warning: #{message}\n", category: :deprecated) if WARNS && Warning[:deprecated]
          args = args.dup
          options = args.last.respond_to?(:to_hash) ? args.pop.to_hash : {}
          Popen.open(::IO, [command, *args.first(1), options], block)
        end

        # [positional args, options Hash] of an IO.read-style call.
        def split(args)
          args.last.respond_to?(:to_hash) ? [args[0...-1], args.last.to_hash] : [args, {}]
        end
      end

      # The method-table entries; each hands anything but a pipe command to JRuby's method.
      module PipeOpenMethods
        # Kernel#open (and Kernel.open): open("|cmd" [, mode [, perm]] [, opts]) [{ |io| ... }]
        def open(*args, &block)
          command = PipeOpen.command(args.first) unless args.first.respond_to?(:to_open)
          return PipeOpen::KERNEL_OPEN.bind_call(self, *args, &block) unless command

          PipeOpen.popen(command, args.drop(1), block, PipeOpen::OPEN_DEPRECATED)
        end

        # IO.read("|cmd" [, length [, offset]] [, opts]): an offset raises Errno::ESPIPE, as MRI's seek on the pipe does.
        def read(*args, &block)
          command = PipeOpen.command(args.first) if equal?(::IO)
          return PipeOpen::IO_METHODS[:read].bind_call(self, *args, &block) unless command

          (length, offset), options = PipeOpen.split(args.drop(1))
          PipeOpen.popen(command, [options], lambda { |io|
            raise Errno::ESPIPE if offset # MRI's lseek on the pipe; JRuby's IO#seek says EPIPE
            io.read(length)
          }, PipeOpen::IO_DEPRECATED)
        end

        # IO.binread("|cmd" [, length [, offset]]): read in binary mode.
        def binread(*args, &block)
          command = PipeOpen.command(args.first) if equal?(::IO)
          return PipeOpen::IO_METHODS[:binread].bind_call(self, *args, &block) unless command

          length, offset = args.drop(1)
          PipeOpen.popen(command, ['rb'], lambda { |io|
            raise Errno::ESPIPE if offset # MRI's lseek on the pipe; JRuby's IO#seek says EPIPE
            io.read(length)
          }, PipeOpen::IO_DEPRECATED)
        end

        # IO.readlines("|cmd" [, sep] [, limit] [, chomp: bool] [, opts])
        def readlines(*args, &block)
          command = PipeOpen.command(args.first) if equal?(::IO)
          return PipeOpen::IO_METHODS[:readlines].bind_call(self, *args, &block) unless command

          line_args, options = PipeOpen.split(args.drop(1))
          chomp = options.key?(:chomp) ? { chomp: options[:chomp] } : {}
          PipeOpen.popen(command, [options.reject { |k, _| k == :chomp }], ->(io) { io.readlines(*line_args, **chomp) }, PipeOpen::IO_DEPRECATED)
        end

        # IO.foreach("|cmd" [, sep] [, limit] [, chomp: bool] [, opts]) { |line| ... }; an Enumerator without a block.
        def foreach(*args, &block)
          command = PipeOpen.command(args.first) if equal?(::IO)
          return PipeOpen::IO_METHODS[:foreach].bind_call(self, *args, &block) unless command
          return enum_for(:foreach, *args) unless block

          line_args, options = PipeOpen.split(args.drop(1))
          chomp = options.key?(:chomp) ? { chomp: options[:chomp] } : {}
          PipeOpen.popen(command, [options.reject { |k, _| k == :chomp }], ->(io) { io.each_line(*line_args, **chomp, &block) }, PipeOpen::IO_DEPRECATED)
          nil
        end

        # IO.write("|cmd", string [, offset] [, opts]) -> bytes written.
        def write(*args, &block)
          command = PipeOpen.command(args.first) if equal?(::IO)
          return PipeOpen::IO_METHODS[:write].bind_call(self, *args, &block) unless command

          (string, offset), options = PipeOpen.split(args.drop(1))
          mode = options.key?(:mode) || options.key?(:flags) ? options : options.merge(mode: 'w')
          PipeOpen.popen(command, [mode], lambda { |io|
            raise Errno::ESPIPE if offset # MRI's lseek on the pipe; JRuby's IO#seek says EPIPE
            io.write(string)
          }, PipeOpen::IO_DEPRECATED)
        end

        # IO.binwrite("|cmd", string [, offset]) -> bytes written, in binary mode.
        def binwrite(*args, &block)
          command = PipeOpen.command(args.first) if equal?(::IO)
          return PipeOpen::IO_METHODS[:binwrite].bind_call(self, *args, &block) unless command

          string, offset = args.drop(1)
          PipeOpen.popen(command, ['wb'], lambda { |io|
            raise Errno::ESPIPE if offset # MRI's lseek on the pipe; JRuby's IO#seek says EPIPE
            io.write(string)
          }, PipeOpen::IO_DEPRECATED)
        end
      end

      # Kernel.open's own JRuby method is the same as Kernel#open's, bound to Kernel.
      PipeOpen::KERNEL_OPEN = replace(::Kernel, :open, PipeOpenMethods.instance_method(:open))
      replace(::Kernel.singleton_class, :open, PipeOpenMethods.instance_method(:open))
      PipeOpen::IO_METHODS = %i[read binread readlines foreach write binwrite].to_h do |name|
        [name, replace(::IO.singleton_class, name, PipeOpenMethods.instance_method(name))]
      end.freeze
    end
  end
end

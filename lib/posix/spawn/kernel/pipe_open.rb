require 'posix/spawn/arguments'
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

        # Ruby 3.3+'s deprecation warning, naming the caller `depth` frames above the method that calls this.
        def deprecated(message, depth)
          (at = caller_locations(depth + 1, 1).first) && Warning.warn("#{at.path}:#{at.lineno}: warning: #{message}\n", category: :deprecated) if WARNS && Warning[:deprecated]
        end

        # popen on `command` with the rest of a File-style call: [mode [, perm]] [, opts]; perm means
        # nothing to a pipe (MRI ignores it too).
        def popen(command, args, block)
          args, options = Arguments.split_keywords(args)
          Popen.open(::IO, [command, *args.first(1), options], block)
        end

        # The keywords of IO.read, readlines, foreach, write: only the IO's (MRI's open_key_args opens the pipe
        # with no spawn options: :chdir, redirects and the rest are ignored there, as unknown keys are).
        def io_keywords(options)
          options.select { |key, _| Popen::IO_OPTIONS.include?(key) }
        end

        # IO.NAME(*args, **options, &block) called on `receiver`: on a pipe when IO itself is given "|cmd"
        # (pipe_NAME below gets the command and the other arguments, the options last), else JRuby's, the
        # keywords still keywords (File.read(path, encoding: 'UTF-8'); a positional Hash there is a length,
        # a TypeError, as in MRI).
        def io_call(name, receiver, args, options, block)
          command = command(args.first) if receiver.equal?(::IO)
          return IO_METHODS[name].bind_call(receiver, *args, **options, &block) unless command

          deprecated(IO_DEPRECATED, 2) unless name == :foreach && !block # io_call, the method's block, its caller; an Enumerator warns when run
          args = args.drop(1) # a positional Hash stays positional: a length, limit or offset (TypeError), as in MRI 3
          case name
          when :read then pipe_read(command, args, options)
          when :binread then pipe_binread(command, args)
          when :readlines then pipe_readlines(command, args, options)
          when :foreach then pipe_foreach(command, args, options, block)
          when :write then pipe_write(command, args, options)
          when :binwrite then pipe_binwrite(command, args)
          end
        end

        # The pipe forms' arguments: the keywords, if any, as the last one (a File-style options Hash).
        def with_options(args, options)
          options.empty? ? args : [*args, options]
        end

        # The popen block for an IO method's `offset`: MRI seeks the pipe first, which fails (once the offset
        # converts to an Integer: NUM2OFFT's TypeError first).
        def at_offset(offset, &action)
          lambda do |io|
            if offset
              Integer.try_convert(offset) or raise TypeError, "no implicit conversion of #{offset.class} into Integer"
              raise Errno::ESPIPE # MRI's lseek on the pipe; JRuby's IO#seek says EPIPE
            end
            action.call(io)
          end
        end

        # The pipe forms: what each IO method does with "|cmd".

        # IO.read("|cmd" [, length [, offset]] [, opts]): an offset raises Errno::ESPIPE, as MRI's seek on the pipe does.
        def pipe_read(command, (length, offset), options)
          popen(command, [io_keywords(options)], at_offset(offset) { |io| io.read(length) })
        end

        # IO.binread("|cmd" [, length [, offset]]): read in binary mode.
        def pipe_binread(command, (length, offset))
          popen(command, ['rb'], at_offset(offset) { |io| io.read(length) })
        end

        # IO.readlines("|cmd" [, sep] [, limit] [, chomp: bool] [, opts])
        def pipe_readlines(command, args, options)
          lines(command, args, options) { |io, line_args, chomp| io.readlines(*line_args, chomp: chomp) }
        end

        # IO.foreach("|cmd" [, sep] [, limit] [, chomp: bool] [, opts]) { |line| ... }; an Enumerator without a block.
        def pipe_foreach(command, args, options, block)
          return ::IO.enum_for(:foreach, "|#{command}", *args, **options) unless block

          lines(command, args, options) { |io, line_args, chomp| io.each_line(*line_args, chomp: chomp, &block) }
          nil
        end

        # IO.write("|cmd", string [, offset] [, opts]) -> bytes written.
        def pipe_write(command, (string, offset), options)
          options = io_keywords(options)
          mode = options.key?(:mode) || options.key?(:flags) ? options : options.merge(mode: 'w')
          popen(command, [mode], at_offset(offset) { |io| io.write(string) })
        end

        # IO.binwrite("|cmd", string [, offset]) -> bytes written, in binary mode.
        def pipe_binwrite(command, (string, offset))
          popen(command, ['wb'], at_offset(offset) { |io| io.write(string) })
        end

        # readlines and foreach: the line arguments and :chomp apart from popen's options. :chomp is always
        # passed, so that a positional Hash among the line arguments stays one (MRI's TypeError).
        def lines(command, line_args, options)
          chomp = options.fetch(:chomp, false)
          popen(command, [io_keywords(options)], ->(io) { yield(io, line_args, chomp) })
        end
      end

      # The method-table entries; each hands anything but a pipe command to JRuby's method.
      module PipeOpenMethods
        # Kernel#open (and Kernel.open): open("|cmd" [, mode [, perm]] [, opts]) [{ |io| ... }]
        def open(*args, **options, &block)
          command = PipeOpen.command(args.first) unless args.first.respond_to?(:to_open)
          return PipeOpen::KERNEL_OPEN.bind_call(self, *args, **options, &block) unless command

          PipeOpen.deprecated(PipeOpen::OPEN_DEPRECATED, 1)
          PipeOpen.popen(command, PipeOpen.with_options(args.drop(1), options), block)
        end

        %i[read binread readlines foreach write binwrite].each do |name|
          define_method(name) { |*args, **options, &block| PipeOpen.io_call(name, self, args, options, block) }
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

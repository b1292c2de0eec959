require 'posix/spawn/arguments'
require 'posix/spawn/kernel'

module POSIX
  module Spawn
    module Kernel
      # IO.popen on the engine (MRI: io.c's rb_io_s_popen and pipe_open). The IO is a real JRuby IO over
      # a pipe (Native.pipe: real descriptors in every JRuby; an instance of the receiver, as in MRI), so
      # Thread#raise, Thread#kill and Timeout reach a read, write or close blocked on it; it is extended
      # with PopenIO for #pid and for reaping the child when it is closed. "r+" ties the write end to it
      # as JRuby's (and MRI's) duplex IOs are tied.
      module Popen
        # Keys of popen's option Hash that configure the IO (MRI: rb_io_extract_modeenc); :mode and
        # :flags give the access mode. Spawn's options (redirects, :chdir...) go to the spawn; MRI
        # ignores any other key, and so does this.
        IO_OPTIONS = %i[mode flags external_encoding internal_encoding encoding textmode binmode autoclose
                        invalid undef replace newline universal_newline crlf_newline cr_newline xml fallback].freeze
        SPAWN_OPTIONS = %i[in out err chdir umask pgroup setsid unsetenv_others close_others uid gid].freeze
        # The :rlimit_* keys MRI knows (process.c's rlimit_resource_name2int) that this platform has.
        RLIMIT_OPTIONS = %w[AS CORE CPU DATA FSIZE KQUEUES MEMLOCK MSGQUEUE NICE NOFILE NPROC NPTS RSS RTPRIO RTTIME SBSIZE
                            SIGPENDING STACK SWAP].select { |name| ::Process.const_defined?("RLIMIT_#{name}") }
                                                  .map { |name| :"rlimit_#{name.downcase}" }.freeze
        # MRI's Fixnum range on 64 bits: a larger Integer key is a Bignum there, which no spawn option is.
        FIXNUM = (-2**62...2**62).freeze
        # What IO.popen(cmd) alone means: mode "r", no options. The common call takes the shortest way:
        # Native.popen_read starts it in one call (each Ruby step right after a spawn costs µs on JRuby).
        READ = 'r'.freeze
        NO_OPTIONS = {}.freeze

        # The methods a popen IO gets: the child's pid, and the wait when the IO is closed.
        module PopenIO
          # The child's pid (MRI's IO#pid).
          def pid
            raise IOError, 'closed stream' if closed? # MRI: rb_io_pid's GetOpenFile

            @__posix_spawn_pid
          end

          # IO#read. Reading to the end without transcoding (the common case) is Native.read_all's: Child's
          # poll loop reads the pipe into one growing array that becomes the String, where JRuby's own
          # read-to-end goes through its buffer and grows the String by copies.
          def read(length = nil, outbuf = nil)
            return super unless length.nil?

            data = POSIX::Spawn::Native.read_all(self, true) or return super # bytes already buffered, or transcoding: JRuby's read
            outbuf ? outbuf.replace(data) : data
          end

          # Closes the IO (both ends of a duplex one), then waits for the child and sets $? (to nil when
          # the child was already waited for, as MRI does). Nil when already closed.
          def close
            return if closed?

            super
          ensure
            __posix_spawn_reap
          end

          # Closes the read side; once nothing is left open, waits for the child as #close does.
          def close_read
            super
          ensure
            __posix_spawn_reap
          end

          # Closes the write side; once nothing is left open, waits for the child as #close does.
          def close_write
            super
          ensure
            __posix_spawn_reap
          end

          private

          def __posix_spawn_reap
            return unless closed? && @__posix_spawn_pid && !@__posix_spawn_reaped

            @__posix_spawn_reaped = true
            begin
              POSIX::Spawn::Native.waitpid(@__posix_spawn_pid)
            rescue Errno::ECHILD
              POSIX::Spawn::Native.last_status_set(nil, nil)
            rescue Exception # rubocop:disable Lint/RescueException
              @__posix_spawn_reaped = false # interrupted: the next close waits
              raise
            end
          end
        end

        module_function

        # IO.popen([env,] cmd, mode = "r" [, opts]) [{ |io| ... }]
        def open(klass, args, block)
          env, command, mode, options = arguments(args)
          io = start(klass, env, command, mode, options)
          return io unless block

          begin
            block.call(io)
          ensure
            io.close
          end
        end

        # MRI: popen_m's argument handling ([env,] cmd [, mode] [, opts]).
        def arguments(args)
          return [nil, args.first, READ, NO_OPTIONS] if args.size == 1

          args, options = Arguments.split(args)
          env, args = Arguments.split_env(args)
          raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 1..2)" unless (1..2).cover?(args.size)

          command, mode = args
          if options.key?(:mode)
            raise ArgumentError, 'mode specified twice' unless mode.nil?

            mode = options[:mode]
          end
          [env, command, mode.nil? ? READ : integer_mode(mode), options]
        end

        # MRI: rb_io_extract_modeenc's rb_check_to_integer: a mode that converts with to_int is an Integer
        # mode, before a String is asked for.
        def integer_mode(mode)
          return mode if mode.is_a?(String) || mode.is_a?(Integer) || !mode.respond_to?(:to_int)

          converted = mode.to_int
          converted.is_a?(Integer) ? converted : mode
        end

        def start(klass, env, command, mode, options)
          spawn_args, inner_options = command_arguments(command)
          return POSIX::Spawn::Native.popen_read(klass, spawn_args, PopenIO) if mode.equal?(READ) && options.empty? && !env && !inner_options

          io_options, spawn_options = split(options)
          spawn_options = inner_options.merge(spawn_options) if inner_options
          readable, writable = access(mode)
          encoding = encoding_of(mode, io_options)

          parent = nil
          begin
            if writable
              child_in, writer = POSIX::Spawn::Native.pipe(klass)
              spawn_options = with_pipe(spawn_options, 0, child_in)
            end
            if readable
              reader, child_out = POSIX::Spawn::Native.pipe(klass)
              POSIX::Spawn::Native.enlarge_pipe(reader)
              spawn_options = with_pipe(spawn_options, 1, child_out)
            end
            # One that cannot start sets $? to exit 127. popen's own env Hash goes apart: it replaces the
            # command's for the child, but the program is looked up without it, as MRI's (rb_execarg_setenv).
            pid = if env
                    POSIX::Spawn::Native.popen_spawn(env, *spawn_args, spawn_options)
                  else
                    POSIX::Spawn::Native.spawn(*spawn_args, spawn_options)
                  end
            parent = readable ? reader : writer
          rescue SystemCallError => e
            # MRI's popen child reports the step that failed (rb_exec_fail): "chdir", not the directory.
            dir = spawn_options[:chdir]
            raise e unless dir && e.message.end_with?(" - #{dir}")
            raise e.class, 'chdir'
          ensure
            child_out&.close
            child_in&.close
            [reader, writer].each { |io| io&.close } unless parent
          end
          writer.sync = true if writable
          POSIX::Spawn::Native.tie_for_writing(reader, writer, pid) if readable && writable
          apply(parent, encoding) if encoding
          parent.extend(PopenIO)
          parent.instance_variable_set(:@__posix_spawn_pid, pid)
          parent
        end

        # The options with the pipe's end as child fd `fd`, beside the caller's options: one of them that
        # names `fd` too is MRI's "fd N specified twice" (pipe_open adds the pipe with rb_execarg_addopt).
        # Its key, [fd], is one no caller's key replaces: when the caller has an [fd] key of its own, both
        # stay, in a Hash that compares its keys by identity.
        def with_pipe(options, fd, io)
          key = [fd]
          options = options.dup.compare_by_identity if options.key?(key)
          options[key] = io
          options
        end

        # [spawn's arguments, the Array form's own options or nil] for popen's command: a String is a
        # command line (a shell when it has shell syntax, as spawn's); an Array ([env,]
        # program-or-[program, argv0], args... [, opts]) never is.
        def command_arguments(command)
          if (line = String.try_convert(command))
            if line == '-'
              raise NotImplementedError, 'fork() function is unimplemented on JRuby'
            end

            return [[line], nil]
          end
          words = Array.try_convert(command) or raise conversion_error(command)
          inner_env, words, inner_options = Arguments.split_exec(words)
          raise ArgumentError, 'wrong number of arguments (given 0, expected 1+)' if words.empty?

          program = words.first
          words = [[program, program]] if words.size == 1 && String.try_convert(program) # one word: still no shell
          [inner_env ? [inner_env, *words] : words, inner_options] # a nil word stays, for spawn's TypeError
        end

        # Ruby's TypeError for an object that is no String: nil, true and false by name, others by class.
        def conversion_error(object)
          name = [nil, true, false].include?(object) ? object.inspect : object.class
          TypeError.new("no implicit conversion of #{name} into String")
        end

        # [IO options, spawn options]; keys that are neither are dropped, as MRI ignores them.
        def split(options)
          return [{}, {}] if options.empty?

          io_options = {}
          spawn_options = {}
          options.each do |key, value|
            if IO_OPTIONS.include?(key) then io_options[key] = value unless key == :mode
            elsif spawn_option?(key) then spawn_options[key] = value
            end
          end
          [io_options, spawn_options]
        end

        # Whether popen hands `key` to the spawn (MRI: rb_execarg_addopt's keys, which rb_execarg_extract_options
        # takes): a known Symbol, a descriptor (a Fixnum, an IO itself, not a to_io object) or an Array of them.
        def spawn_option?(key)
          case key
          when Symbol then SPAWN_OPTIONS.include?(key) || RLIMIT_OPTIONS.include?(key)
          when Integer then FIXNUM.cover?(key)
          else key.is_a?(::IO) || key.is_a?(Array)
          end
        end

        # [readable, writable] for a mode String ("r", "w", "r+", "rb", "r:enc"...) or Integer (File::RDWR...).
        def access(mode)
          return [true, false] if mode.equal?(READ)

          if mode.is_a?(Integer)
            accmode = mode & (File::RDONLY | File::WRONLY | File::RDWR) # O_ACCMODE; JRuby has no File::ACCMODE
            return [accmode != File::WRONLY, accmode != File::RDONLY]
          end
          text = String.try_convert(mode) or raise conversion_error(mode)
          access = text[/\A[^:]*/]
          raise ArgumentError, "invalid access mode #{access}" unless access.match?(/\A[rwa][bt+]*\z/) && access.count('+') <= 1

          plus = access.include?('+')
          [access.start_with?('r') || plus, !access.start_with?('r') || plus]
        end

        # [binmode, external, internal, conversion options] when the mode or options ask for anything but
        # the defaults, else nil. JRuby's own File.open on the null device checks them (its errors are
        # MRI's) and resolves them.
        def encoding_of(mode, io_options)
          return if io_options.empty? && (mode.equal?(READ) || (mode.is_a?(String) && mode.match?(/\A[rwa]\+?\z/)))

          File.open(File::NULL, mode, **io_options) do |probe|
            conversions = io_options.reject { |key, _| %i[flags external_encoding internal_encoding encoding textmode binmode autoclose].include?(key) }
            [probe.binmode?, probe.external_encoding, probe.internal_encoding, conversions]
          end
        end

        def apply(io, (binmode, external, internal, conversions))
          io.binmode if binmode
          io.set_encoding(external, internal, **conversions) if external || internal || !conversions.empty?
        end
      end

      # The method-table entry: IO.popen (and a subclass's, which returns instances of that subclass).
      module PopenMethods
        def popen(*args, &block)
          POSIX::Spawn::Kernel::Popen.open(self, args, block)
        end
      end

      replace(::IO.singleton_class, :popen, PopenMethods.instance_method(:popen))
    end
  end
end

require 'posix/spawn'

module POSIX
  module Spawn
    # The master side of a pseudo-terminal, as open_pty and pty_spawn return it: a real IO on the master
    # descriptor (close-on-exec; fileno, IO.select, write, close and io/console's winsize, winsize= and raw
    # are JRuby's own), whose reads follow MRI on Linux. When the slave side is hung up (every process on
    # the terminal has exited) the kernel answers a read with EIO: readpartial, gets, each_line, getc and
    # the rest return what was still pending, then raise Errno::EIO, as MRI's do. JRuby's own reads of such
    # a descriptor raise EOFError or an unnamed SystemCallError there, or hang, so they are replaced here.
    #
    # Unlike MRI, #read and #readlines (which read to the end) take that EIO as the end and return what came
    # before it; MRI's raise Errno::EIO and lose it. A line or chunk read may leave the rest of what the
    # kernel handed over in this object's buffer, where JRuby's IO.select does not see it (the drop-in's
    # does, as MRI's: kernel/select.rb); the character and byte readers (getc, getbyte, eof?) take no
    # more than they return, so expect.rb-style loops of IO.select and getc work.
    class PtyMaster < IO
      CHUNK = 16 * 1024

      # JRuby's first IO.select of a descriptor it did not open itself (a jnr-enxio channel, as a master's
      # is) binds enxio's poll and pipe calls, loads its selector and starts the thread it selects on; the
      # first read binds the extension's poll and builds these methods: tens to hundreds of ms that MRI
      # never spends, which would fall between a child's first write and its reader seeing it (the reader
      # got the first writes as one chunk). Paid here once per process, on a throwaway terminal, before the
      # first master is handed out and any child can write to it.
      def self.prepare_reading
        return if @reading_prepared

        @reading_prepared = true
        master_fd, slave_fd, path = Native.pty_open(true)
        master = PtyMaster.new(master_fd, path, 'warm-up')
        slave = IO.new(slave_fd, autoclose: true)
        begin
          slave.syswrite('.')
          master.readpartial(1) # the extension's poll bound
          IO.select([master], nil, nil, 0) # a caller's own select: enxio's selector, its thread, the JDK's selector
        ensure
          master.close
          slave.close
        end
      rescue SystemCallError
        nil # no terminal to spare (the caller has its own): its first select is slower, nothing else
      end

      # Wraps master descriptor fd (closed with this IO); path is the slave's, label what #inspect shows.
      def initialize(fd, path, label)
        PtyMaster.prepare_reading
        super(fd, autoclose: true)
        @pty_path = path
        @pty_label = label
        @pty_buffer = String.new(encoding: Encoding::BINARY)
      end

      # The slave's path ("/dev/pts/3"), as MRI's PTY.spawn IOs give it.
      def path
        @pty_path
      end
      alias to_path path

      def inspect
        "#<#{@pty_label}>"
      end

      # A close-on-exec copy (JRuby's IO#dup is not close-on-exec) with its own empty buffer.
      def dup
        PtyMaster.new(Native.pty_dup(fileno), @pty_path, @pty_label).tap { |copy| copy.sync = sync }
      end

      # One call of the extension, which takes what was read ahead or else polls and reads the master once
      # (waiting only when nothing came): a key-by-key exchange pays no Ruby buffer handling.
      def readpartial(maxlen, outbuf = nil)
        Native.pty_readpartial(self, maxlen, outbuf, @pty_path, true)
      end

      def sysread(maxlen, outbuf = nil)
        raise IOError, 'sysread for buffered IO' unless @pty_buffer.empty?

        Native.pty_readpartial(self, maxlen, outbuf, @pty_path, true)
      end

      def read_nonblock(maxlen, outbuf = nil, exception: true)
        got = Native.pty_readpartial(self, maxlen, outbuf, @pty_path, false)
        raise IO::EAGAINWaitReadable, 'read would block' if exception && got == :wait_readable

        got
      end

      # read -> everything until the slave hangs up (or end of file), as a String in the external encoding.
      # read(length) -> up to length bytes (binary), nil when nothing more will come.
      def read(length = nil, outbuf = nil)
        if length.nil?
          nil while pty_fill(CHUNK, at_hangup: :end)
          text = take(@pty_buffer.bytesize).force_encoding(encoding_for_text)
          text = text.encode(internal_encoding) if internal_encoding
          return outbuf ? outbuf.replace(text) : text # in the text's encoding, as MRI's read(nil, outbuf)
        end
        length = Integer(length)
        raise ArgumentError, "negative length #{length} given" if length.negative?
        return give(String.new(encoding: Encoding::BINARY), outbuf) if length.zero?

        nil while @pty_buffer.bytesize < length && pty_fill(length - @pty_buffer.bytesize, at_hangup: :end)
        return (outbuf&.clear; nil) if @pty_buffer.empty?

        give(take(length), outbuf)
      end

      def gets(*args, chomp: false)
        separator, limit = line_arguments(args)
        line = next_line(separator, limit)
        return $_ = nil if line.nil?

        $_ = internal_encoding ? converted_line(line, separator, chomp) : chomp_line(line, separator, chomp)
      end

      def readline(*args, chomp: false)
        gets(*args, chomp: chomp) || raise(EOFError, 'end of file reached')
      end

      def each_line(*args, chomp: false)
        return enum_for(:each_line, *args, chomp: chomp) unless block_given?

        while (line = gets(*args, chomp: chomp))
          yield line
        end
        self
      end
      alias each each_line

      # Every line until the slave hangs up (see the class comment: MRI raises Errno::EIO instead).
      def readlines(*args, chomp: false)
        lines = []
        loop { lines << (gets(*args, chomp: chomp) || break) }
        lines
      rescue Errno::EIO
        lines
      end

      def getbyte
        return nil unless pty_fill_to(1)

        take(1).getbyte(0)
      end

      def readbyte
        getbyte || raise(EOFError, 'end of file reached')
      end

      def each_byte
        return enum_for(:each_byte) unless block_given?

        while (byte = getbyte)
          yield byte
        end
        self
      end

      # One character in the external encoding, reading no more bytes than it needs.
      def getc
        return nil unless pty_fill_to(1)

        encoding = encoding_for_text
        needed = 1
        loop do
          char = @pty_buffer.byteslice(0, needed).force_encoding(encoding)
          break if char.valid_encoding? || needed >= 4 || !pty_fill_to(needed + 1, hangup_ends: true)

          needed += 1
        end
        char = @pty_buffer.byteslice(0, needed).force_encoding(encoding)
        char = @pty_buffer.byteslice(0, 1).force_encoding(encoding) unless char.valid_encoding?
        char = take(char.bytesize).force_encoding(encoding)
        internal_encoding ? char.encode(internal_encoding) : char
      end

      def readchar
        getc || raise(EOFError, 'end of file reached')
      end

      def each_char
        return enum_for(:each_char) unless block_given?

        while (char = getc)
          yield char
        end
        self
      end

      def ungetc(string)
        string = string.chr if string.is_a?(Integer)
        @pty_buffer.prepend(string.to_str.b)
        nil
      end

      def ungetbyte(byte)
        return ungetc(byte) unless byte.is_a?(Integer)

        @pty_buffer.prepend((byte & 0xff).chr)
        nil
      end

      # Waits for input; true at end of file. At the slave's hang-up raises Errno::EIO, as MRI's does.
      def eof?
        !pty_fill_to(1)
      end
      alias eof eof?

      private

      def encoding_for_text
        external_encoding || Encoding.default_external
      end

      def chomp_line(line, separator, chomp)
        line.chomp!(separator == :paragraph ? "\n\n" : separator) if chomp && separator
        line
      end

      # A line transcoded to the internal encoding, as MRI's read conversion gives it: its chomp takes the
      # separator alone (a "\r" before it stays), and bytes invalid in the external encoding raise.
      def converted_line(line, separator, chomp)
        separator = "\n\n" if separator == :paragraph
        line = line.byteslice(0, line.bytesize - separator.bytesize) if chomp && separator && line.b.end_with?(separator)
        line.encode(internal_encoding)
      end

      def take(bytes)
        @pty_buffer.slice!(0, bytes)
      end

      # string, or outbuf holding its bytes in outbuf's own encoding (as MRI's read(length, outbuf) leaves it).
      def give(string, outbuf)
        return string unless outbuf

        outbuf.replace(string.force_encoding(outbuf.encoding))
      end

      # Appends what the master has (up to max bytes), waiting for it. Returns true when it read, false at
      # end of file. At the slave's hang-up raises Errno::EIO, or with at_hangup: :end returns false.
      def pty_fill(max, at_hangup: :raise)
        loop do
          got = Native.pty_read(fileno, max, @pty_path)
          case got
          when String
            @pty_buffer << got
            return true
          when nil then return false
          end

          # poll(2), not IO.select: JRuby's opens a selector (descriptors of its own), and with the table
          # full leaked a pipe of it
          Native.pty_wait_readable(fileno)
        end
      rescue Errno::EIO
        raise unless at_hangup == :end

        false
      end

      # Fills until the buffer holds bytes bytes, taking from the master no more than that; false when it
      # cannot (end of file; with hangup_ends also the slave's hang-up, which otherwise raises once the
      # buffer is empty).
      def pty_fill_to(bytes, hangup_ends: false)
        while @pty_buffer.bytesize < bytes
          return false unless pty_fill(bytes - @pty_buffer.bytesize,
                                       at_hangup: hangup_ends || !@pty_buffer.empty? ? :end : :raise)
        end
        true
      end

      # gets' arguments: (), (sep), (limit), (sep, limit); sep nil reads everything, "" reads paragraphs.
      def line_arguments(args)
        raise ArgumentError, "wrong number of arguments (given #{args.size}, expected 0..2)" if args.size > 2

        separator = $/
        limit = nil
        if args.size == 2
          separator, limit = args
        elsif args.size == 1
          if args[0].nil? || args[0].respond_to?(:to_str)
            separator = args[0]
          else
            limit = args[0]
          end
        end
        separator = separator.to_str.b if separator
        separator = :paragraph if separator == ''
        limit = Integer(limit) if limit
        limit = nil if limit&.negative?
        [separator, limit]
      end

      # The next line: pending output is returned before the slave's hang-up is raised.
      def next_line(separator, limit)
        return String.new(encoding: encoding_for_text) if limit&.zero?

        skip_newlines if separator == :paragraph
        sep = separator == :paragraph ? "\n\n" : separator
        loop do
          at = sep && @pty_buffer.index(sep)
          length = at && at + sep.bytesize
          length = limit if limit && (length.nil? || length > limit) && @pty_buffer.bytesize >= limit
          return take(length).force_encoding(encoding_for_text) if length

          next if pty_fill(CHUNK, at_hangup: @pty_buffer.empty? ? :raise : :end)
          return nil if @pty_buffer.empty?

          return take(@pty_buffer.bytesize).force_encoding(encoding_for_text)
        end
      end

      def skip_newlines
        loop do
          take(1) while @pty_buffer.start_with?("\n")
          return unless @pty_buffer.empty?
          return unless pty_fill(CHUNK, at_hangup: :end)
        end
      end
    end
  end
end

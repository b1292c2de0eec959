require 'spec_helper'
require_relative 'drop_in_context'
require 'io/wait'
require 'open3'
require 'timeout'

# IO's own methods on the pipes the drop-in hands out (PipeChannel: O_NONBLOCK ends, as MRI 3's): for each
# kind of pipe, one run of STEPS here and one in MRI 3.1 (/usr/bin/ruby, the oracle), each step's result (or
# error class and message) compared with MRI's. MRI has no Handle: its :pipe ends are spawn's IO.pipe ends,
# binary as the Handle's.
RSpec.describe 'IO methods on the drop-in\'s pipes' do
  MRI_RUBY = '/usr/bin/ruby'.freeze

  # Shared by both runs. Each kind makes [reader, writer, names]: reader and writer (the same IO for "r+",
  # nil for what the kind lacks) reach each other through a `cat`, or read a fixed text. Each step gets
  # (r, w) and is skipped ("-") without the end it needs.
  SCRIPT = <<~'RUBY'.freeze
    TEXT = "caf\xC3\xA9\nl2\n".b

    KINDS = {
      'IO.popen "r+"' => -> { io = IO.popen('cat', 'r+'); [io, io] },
      'open("|cat", "r+")' => -> { io = open('|cat', 'r+'); [io, io] },
      'Open3.popen3 stdin and stdout' => -> { i, o, e, _t = Open3.popen3('cat'); e.close; [o, i] },
      'Open3.popen2 stdin and stdout' => -> { i, o, _t = Open3.popen2('cat'); [o, i] },
      "a Handle's :pipe ends" => -> { Ends.handle_pipes },
      'IO.popen "r" of a fixed text' => -> { [IO.popen(['printf', TEXT]), nil] },
      'IO.popen "r:ISO-8859-1:UTF-8"' => -> { [IO.popen(['printf', TEXT], 'r:ISO-8859-1:UTF-8'), nil] },
      'IO.popen "w"' => -> { [nil, IO.popen('cat >/dev/null', 'w')] }
    }.freeze

    # A step's guards (what it needs of the kind), and the Handle's ends: a module, as the steps are made where no method is.
    module Ends
      def self.handle_pipes
        return POSIX::Spawn.start('cat', in: :pipe, out: :pipe).then { |h| [h.stdout, h.stdin] } if defined?(POSIX::Spawn)

        (i_r, i_w), (o_r, o_w) = IO.pipe, IO.pipe
        Process.detach(spawn('cat', in: i_r, out: o_w))
        [i_r, o_w].each(&:close)
        [o_r, i_w].each(&:binmode).tap { i_w.sync = true }
      end

      # The descriptor's own O_NONBLOCK (IO#nonblock? is JRuby's IO mode: doc/drop-in.md, differences).
      def self.o_nonblock?(io) = io && (File.read("/proc/self/fdinfo/#{io.fileno}")[/flags:\s*(\d+)/, 1].to_i(8) & 0o4000 != 0)

      def self.both(r, w) = r && w && yield
      def self.reading(r) = r && yield
      def self.writing(w) = w && yield
    end

    STEPS = [
      ['O_NONBLOCK of both descriptors', ->(r, w) { [Ends.o_nonblock?(r), Ends.o_nonblock?(w)] }],
      ['sync of the writer', ->(_r, w) { Ends.writing(w) { w.sync } }],
      ['encodings', ->(r, w) { [r, w].map { |io| io && [io.external_encoding, io.internal_encoding, io.binmode?] } }],
      ['write, then gets', ->(r, w) { Ends.both(r, w) { [w.write("hello\n"), r.gets] } }],
      ['<<, then readpartial', ->(r, w) { Ends.both(r, w) { w << "a b\n"; r.readpartial(100) } }],
      ['print, puts, flush, read(n)', ->(r, w) { Ends.both(r, w) { w.print('x', 'y'); w.puts('z'); w.flush; r.read(4) } }],
      ['read_nonblock with nothing there', ->(r, w) { Ends.both(r, w) { r.read_nonblock(10) } }],
      ['read_nonblock exception: false', ->(r, w) { Ends.both(r, w) { r.read_nonblock(10, exception: false) } }],
      ['IO::WaitReadable rescued', ->(r, w) { Ends.both(r, w) { begin; r.read_nonblock(1); rescue IO::WaitReadable => e; e.class.ancestors.include?(IO::WaitReadable); end } }],
      ['write_nonblock, then wait_readable', ->(r, w) { Ends.both(r, w) { [w.write_nonblock("q\n"), r.wait_readable(5).equal?(r)] } }],
      ['getc, ungetc, getc, gets', ->(r, w) { Ends.both(r, w) { [r.getc, r.ungetc('Q'), r.getc, r.gets] } }],
      ['wait_writable', ->(r, w) { Ends.both(r, w) { w.wait_writable(5).equal?(w) } }],
      ['write_nonblock exception: false', ->(r, w) { Ends.both(r, w) { w.write_nonblock('', exception: false) } }],
      ['two lines, then each_line to the end', ->(r, w) { Ends.both(r, w) { w.write("l1\nl2\n"); r == w ? w.close_write : w.close; r.each_line.to_a } }],
      ['gets of the text', ->(r, w) { r && !w && r.gets }],
      ['read of the rest', ->(r, w) { r && !w && r.read }],
      ['eof? at the end', ->(r, _w) { Ends.reading(r) { r.eof? } }],
      ['read at the end', ->(r, _w) { Ends.reading(r) { r.read } }],
      ['read(1) at the end', ->(r, _w) { Ends.reading(r) { r.read(1) } }],
      ['readpartial at the end', ->(r, _w) { Ends.reading(r) { r.readpartial(1) } }],
      ['read_nonblock at the end', ->(r, _w) { Ends.reading(r) { r.read_nonblock(1) } }],
      ['read_nonblock exception: false at the end', ->(r, _w) { Ends.reading(r) { r.read_nonblock(1, exception: false) } }],
      ['gets, getc at the end', ->(r, _w) { Ends.reading(r) { [r.gets, r.getc] } }],
      ['binmode, then encodings', ->(r, _w) { Ends.reading(r) { r.binmode; [r.external_encoding, r.internal_encoding, r.binmode?] } }],
      ['write once the writer is closed', ->(r, w) { Ends.writing(w) { w.close unless r == w; w.write('x') } }],
      ['close_read, close_write', ->(r, w) { r == w ? [r.close_read, r.close_write, r.closed?] : '-' }],
      ['read once closed', ->(r, _w) { Ends.reading(r) { r.close unless r.closed?; r.read } }],
      ['gets once closed', ->(r, _w) { Ends.reading(r) { r.gets } }],
      ['write once closed', ->(_r, w) { Ends.writing(w) { w.close unless w.closed?; w.write('x') } }]
    ].freeze

    def show(value)
      case value
      when Array then "[#{value.map { |v| show(v) }.join(', ')}]"
      when Encoding then value.name
      when String then "#{value.inspect}(#{value.encoding})"
      else value.inspect
      end
    end

    # One line a step: "kind TAB step TAB result".
    def transcript(kind)
      r, w = KINDS.fetch(kind).call
      STEPS.map do |label, step|
        result = begin
          value = step.call(r, w)
          value.nil? || value == false ? show(value) : (value == true ? 'true' : show(value))
        rescue StandardError => e
          "#{e.class}: #{e.message}"
        end
        "#{kind}\t#{label}\t#{result}"
      end
    ensure
      [r, w].compact.each { |io| io.close unless io.closed? }
    end
  RUBY
  module_eval(SCRIPT)

  def self.answers
    @answers ||= {}
  end

  # JRuby's own texts, which its IO.pipe gives too, put as MRI words them: its EOFError's, and the EAGAIN
  # of a read_nonblock, which names a JRuby option where MRI says "read would block".
  JRUBY_TEXTS = {
    'EOFError: End of file reached' => 'EOFError: end of file reached',
    'errno backtraces disabled; run with -Xerrno.backtrace=true to enable' => 'read would block'
  }.freeze

  # {[kind, step] => result} of a transcript.
  def self.lines(transcript)
    transcript.to_h { |line| line.split("\t", 3).then { |kind, step, result| [[kind, step], result] } }
  end

  def self.mri_lines
    @mri_lines ||= begin
      out = IO.popen([MRI_RUBY, '-e', "require 'io/wait'; require 'open3'\n#{SCRIPT}\n" \
                                      'KINDS.each_key { |k| puts transcript(k) }'], err: %i[child out], &:read)
      raise "MRI failed: #{out}" unless $?.success?

      lines(out.lines.map(&:chomp))
    end
  end

  # One run each, here and in MRI, after the steps: what a child and the parent see of an end given to the
  # child (MRI clears O_NONBLOCK on the child's 0, 1 and 2 alone: process.c, stdfd_clear_nonblock), a
  # descriptor closed beneath its IO, and a read woken by a close in another thread.
  SCENE_SCRIPT = <<~'RUBY'.freeze
    def scene
      yield.inspect
    rescue StandardError => e
      [e.class, e.message].inspect
    end

    SCENES = {
      'an end given to a child\'s stdout: blocking there and in the parent after' => lambda do
        i, o, t = Open3.popen2('cat')
        r, w = IO.pipe
        system('sh', '-c', 'exec 7>&1; grep flags /proc/self/fdinfo/7 | cut -c8- >&6', out: i, 6 => w) # 7: the stdout's open file
        w.close
        seen = [r.read.strip, Ends.o_nonblock?(i), Ends.o_nonblock?(o)]
        i.close; o.read; t.join
        seen
      end,
      'an end given to a child\'s fd 5: non-blocking there and in the parent' => lambda do
        i, o, t = Open3.popen2('cat')
        r, w = IO.pipe
        system('sh', '-c', 'grep flags /proc/self/fdinfo/5 | cut -c8- >&6', 5 => i, 6 => w)
        w.close
        seen = [r.read.strip, Ends.o_nonblock?(i)]
        i.close; o.read; t.join
        seen
      end,
      'a popen end given to a child\'s stdin' => lambda do
        io = IO.popen(['echo', 'x'])
        r, w = IO.pipe
        system('sh', '-c', 'grep flags /proc/self/fdinfo/0 | cut -c8- >&6', in: io, 6 => w)
        w.close
        seen = [r.read.strip, Ends.o_nonblock?(io)]
        io.close
        seen
      end,
      'IO#dup of an end: reads that wait for the child' => lambda do
        io = IO.popen(['sh', '-c', 'sleep 0.2; echo one; sleep 0.2; echo two'])
        copy = io.dup
        [copy.gets, copy.readpartial(10), copy.read].tap { copy.close; io.close rescue nil } # the copy's close reaped the child
      end,
      'readpartial of a descriptor closed beneath its IO' => lambda do
        io = IO.popen('cat', 'r+')
        IO.for_fd(io.fileno, autoclose: true).close
        scene { io.readpartial(3) }.tap { io.close rescue nil }
      end,
      'read(n) of a descriptor closed beneath its IO' => lambda do
        io = IO.popen('cat', 'r+')
        IO.for_fd(io.fileno, autoclose: true).close
        scene { io.read(3) }.tap { io.close rescue nil }
      end
    }
    %i[read readpartial gets].each do |m|
      SCENES["#{m} woken by a close in another thread"] = lambda do
        io = IO.popen(['sleep', '1']) # no end of file before the close (which waits for it)
        reader = Thread.new { scene { m == :readpartial ? io.readpartial(5) : io.send(m) } }
        sleep 0.3
        io.close
        reader.value
      end
    end
  RUBY
  module_eval(SCENE_SCRIPT)

  def self.mri_scenes
    @mri_scenes ||= begin
      out = IO.popen([MRI_RUBY, '-e', "require 'io/wait'; require 'open3'\n#{SCRIPT}\n#{SCENE_SCRIPT}\n" \
                                      'SCENES.each { |name, run| puts "#{name}\t#{run.call.inspect}" }'], err: %i[child out], &:read)
      raise "MRI failed: #{out}" unless $?.success?

      out.lines.to_h { |line| line.chomp.split("\t", 2) }
    end
  end

  describe 'ends given to children, and errors' do
    include_context 'drop-in installed'

    self::SCENES.each do |name, run|
      it name, skip: (File.executable?(MRI_RUBY) ? false : 'no MRI at /usr/bin/ruby') do
        here = Timeout.timeout(30) { instance_exec(&run) } # a read no close wakes would hang here
        expect(here.inspect).to eq(self.class.parent_groups.last.mri_scenes.fetch(name))
      end
    end
  end

  self::KINDS.each_key do |kind|
    describe kind do
      include_context 'drop-in installed'

      self::STEPS.each do |label, _step|
        it label, skip: (File.executable?(MRI_RUBY) ? false : 'no MRI at /usr/bin/ruby') do
          group = self.class.parent_groups.last
          here = group.answers[kind] ||= group.lines(transcript(kind))
          expect(here.fetch([kind, label]).gsub(Regexp.union(JRUBY_TEXTS.keys), JRUBY_TEXTS)).to eq(group.mri_lines.fetch([kind, label]))
        end
      end
    end
  end
end

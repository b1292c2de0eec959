require 'spec_helper'
require 'io/console'
require_relative 'terminal_reading'

# What the child reports through the terminal shows that the slave is its controlling terminal.
RSpec.describe 'POSIX::Spawn.pty_spawn' do
  # Runs the shell script on a pty; yields reader, writer, pid; kills and reaps what is left after.
  def on_pty(script, reset: [], **options)
    reader, writer, pid = POSIX::Spawn.pty_spawn(*reset, 'sh', '-c', script, **options)
    yield reader, writer, pid
  ensure
    if pid
      begin
        Process.kill(:KILL, pid)
      rescue Errno::ESRCH
        nil
      end
      begin
        Process.wait(pid)
      rescue Errno::ECHILD
        nil
      end
    end
    [reader, writer].each { |io| io.close if io && !io.closed? }
  end

  # The words that run a command with the signals NAMES at their default. A test run in the background
  # (SIGINT ignored) or under nohup (SIGHUP) gives its children those ignored, as MRI does, and the
  # terminal's signal would then end nothing.
  def at_default(*names)
    ignored = names.select { |name| ProcessResources.signal_sets(Process.pid)[:ignored][Signal.list.fetch(name) - 1] == 1 }
    return [] if ignored.empty?

    reset = ['env', "--default-signal=#{ignored.join(',')}"]
    skip "this process ignores SIG#{ignored.join(', SIG')}, which its children inherit, and env cannot reset it here" unless system(*reset, 'true', err: File::NULL)
    reset
  end

  describe 'the controlling terminal' do
    it 'is the slave: tty prints its name, /dev/tty opens, the child leads its session' do
      on_pty('tty; echo opened > /dev/tty && echo sid=$(ps -o sid= -p $$ | tr -d " ") pid=$$') do |reader, _, pid|
        out = read_to_hangup(reader)
        expect(out).to include("#{reader.path}\r\n")
        expect(reader.path).to match(%r{\A/dev/pts/\d+\z})
        expect(out).to include("opened\r\n")
        expect(out).to include("sid=#{pid} pid=#{pid}")
      end
    end

    it 'reports winsize: [rows, cols] to stty size from the start' do
      on_pty('stty size', winsize: [33, 111]) do |reader, _, _|
        expect(read_to_hangup(reader)).to eq("33 111\r\n")
      end
    end

    it 'delivers SIGINT to the foreground sleep when "\x03" is written (the line discipline)' do
      on_pty('echo ready; exec sleep 30', reset: at_default('INT')) do |reader, writer, pid|
        read_until(reader, "ready\r\n")
        writer.write("\x03")
        status = wait_for(pid)
        expect(status&.termsig).to eq(Signal.list['INT'])
      end
    end

    it 'sends the child SIGHUP when the master is closed' do
      on_pty('echo ready; exec sleep 30', reset: at_default('HUP')) do |reader, writer, pid|
        read_until(reader, "ready\r\n")
        reader.close
        writer.close
        expect(wait_for(pid)&.termsig).to eq(Signal.list['HUP'])
      end
    end

    it 'sends SIGWINCH on a resize through io/console, and the child sees the new size' do
      on_pty('trap "echo winch; stty size" WINCH; echo ready; while :; do sleep 0.05; done', winsize: [24, 80]) do |reader, writer, _|
        read_until(reader, "ready\r\n")
        writer.winsize = [40, 120]
        expect(read_until(reader, "40 120\r\n")).to include("winch\r\n")
        expect(reader.winsize).to eq([40, 120])
      end
    end

    it 'works with io/console raw on the master: no echo of what is written' do
      on_pty('stty -echo; echo ready; read line; echo "got $line"') do |reader, writer, _|
        read_until(reader, "ready\r\n")
        writer.raw { writer.write("abc\n") }
        expect(read_until(reader, /got abc/)).not_to include('abc\r\ngot')
      end
    end

    it 'drives an interactive shell: input echoed, prompts, the answer' do
      on_pty('PS1="> " exec sh -i') do |reader, writer, _|
        read_until(reader, '> ')
        writer.write("echo $((6 * 7))\n")
        expect(read_until(reader, /42\r\n> /)).to include("echo $((6 * 7))\r\n")
      end
    end
  end

  describe 'arguments and options' do
    it 'takes env, chdir, umask and redirects, which apply after the terminal' do
      on_pty('echo "$X"; pwd; umask; echo hidden >&2', chdir: '/tmp', umask: 0o027, err: '/dev/null') do |reader, _, _|
        expect(read_to_hangup(reader)).to eq("\r\n/tmp\r\n0027\r\n")
      end
      reader, writer, pid = POSIX::Spawn.pty_spawn({ 'X' => 'from env' }, 'echo $X')
      expect(read_to_hangup(reader)).to eq("from env\r\n")
      Process.wait(pid)
      [reader, writer].each(&:close)
    end

    it "keeps the master's descriptors out of the child, with close_others: false too (close-on-exec)" do
      on_pty('ls /proc/$$/fd') do |reader, _, _|
        expect(read_to_hangup(reader).split).to eq(%w[0 1 2])
      end
      # The shell's own glob and readlink, not `ls -l | grep`: that pipeline's pipe, which the shell closes while
      # ls lists, was seen by ls and then gone ("ls: cannot access '29'", close_others: false leaving 3-28 taken).
      on_pty('cd /proc/$$/fd && readlink 0 1 2 && for fd in *; do case "$(readlink $fd)" in *ptmx*) echo "master $fd";; esac; done; echo end',
             close_others: false) do |reader, _, _|
        expect(read_to_hangup(reader)).to eq("#{reader.path}\r\n" * 3 + "end\r\n")
      end
    end

    it 'dups the master close-on-exec, with reads that still end in Errno::EIO' do
      on_pty('echo ready; read x') do |reader, writer, _|
        copy = reader.dup
        expect([copy.class, copy.close_on_exec?, copy.path]).to eq([POSIX::Spawn::PtyMaster, true, reader.path])
        expect(read_until(copy, "ready\r\n")).to eq("ready\r\n")
        writer.puts 'x'
        expect(read_to_hangup(copy)).to eq("x\r\n")
        copy.close
      end
    end

    it "does not change the caller's options Hash" do
      options = { winsize: [10, 20], chdir: '/' }
      POSIX::Spawn.pty_spawn('true', options) { |*| nil }
      expect(options).to eq(winsize: [10, 20], chdir: '/')
    end
  end

  describe 'with a block' do
    it "closes both IOs and waits ($? set), returning the block's value; no zombie" do
      before = ProcessResources.children
      ios = nil
      value = POSIX::Spawn.pty_spawn('sh', '-c', 'read x; exit 3') do |reader, writer, pid|
        ios = [reader, writer]
        writer.puts 'go'
        expect(read_to_hangup(reader)).to eq("go\r\n") # the echo; the hang-up comes once it has exited
        pid
      end
      expect(ios.map(&:closed?)).to eq([true, true])
      expect($?.pid).to eq(value)
      expect($?.exitstatus).to eq(3)
      expect(ProcessResources.children).to eq(before)
    end

    it 'ends a child still running by hanging up its terminal' do
      POSIX::Spawn.pty_spawn(*at_default('HUP'), 'sleep', '30') { |reader, _, _| read_until(reader, '') }
      expect($?.termsig).to eq(Signal.list['HUP'])
    end
  end

  describe 'reading after the child has exited, as MRI on Linux' do
    def exited(script)
      reader, writer, pid = POSIX::Spawn.pty_spawn('sh', '-c', script)
      Process.wait(pid)
      yield reader
    ensure
      [reader, writer].each { |io| io&.close }
    end

    it 'readpartial returns what is pending, then raises Errno::EIO' do
      exited('printf "a\nb"') do |reader|
        expect(reader.readpartial(100)).to eq("a\r\nb")
        expect { reader.readpartial(100) }.to raise_error(Errno::EIO)
        expect { reader.readpartial(100) }.to raise_error(Errno::EIO)
      end
    end

    it 'gets returns each pending line (the last, unfinished one too), then raises Errno::EIO' do
      exited('printf "a\nbé"') do |reader|
        expect(reader.gets).to eq("a\r\n")
        last = reader.gets
        expect([last, last.encoding]).to eq(['bé', Encoding.default_external])
        expect { reader.gets }.to raise_error(Errno::EIO)
      end
    end

    it 'each_line yields the pending lines, then raises Errno::EIO' do
      exited('printf "a\nb\n"') do |reader|
        lines = []
        expect { reader.each_line { |l| lines << l } }.to raise_error(Errno::EIO)
        expect(lines).to eq(["a\r\n", "b\r\n"])
      end
    end

    it 'read returns all of it (MRI raises Errno::EIO and loses it); read(n) then nil' do
      exited('printf "a\nb"') do |reader|
        expect(reader.read).to eq("a\r\nb")
      end
      exited('printf ab') do |reader|
        expect(reader.read(1)).to eq('a')
        expect(reader.read(5)).to eq('b')
        expect(reader.read(5)).to be_nil
      end
    end

    it 'getc returns each character, then raises Errno::EIO; read_nonblock raises it too' do
      exited('printf ab') do |reader|
        expect([reader.getc, reader.getc]).to eq(%w[a b])
        expect { reader.getc }.to raise_error(Errno::EIO)
        expect { reader.read_nonblock(10) }.to raise_error(Errno::EIO)
      end
    end
  end

  describe 'read_nonblock before there is output' do
    it 'raises IO::EAGAINWaitReadable, or returns :wait_readable with exception: false' do
      on_pty('echo ready; read x') do |reader, _, _|
        read_until(reader, "ready\r\n")
        expect { reader.read_nonblock(10) }.to raise_error(IO::EAGAINWaitReadable)
        expect(reader.read_nonblock(10, exception: false)).to eq(:wait_readable)
      end
    end
  end

  describe 'errors, raised in the parent with nothing left open' do
    def expect_clean(error, message, &call)
      expect { expect(&call).to raise_error(error, message) }.not_to leak(:descriptors, :children)
    end

    it 'names a missing program' do
      expect_clean(Errno::ENOENT, 'No such file or directory - no-such-program-here') do
        POSIX::Spawn.pty_spawn('no-such-program-here')
      end
    end

    it 'names a bad option, a bad winsize, and pgroup (a session leader cannot join a group)' do
      expect_clean(ArgumentError, 'wrong exec option symbol: foo') { POSIX::Spawn.pty_spawn('true', foo: 1) }
      expect_clean(ArgumentError, /winsize must be \[rows, columns\]/) { POSIX::Spawn.pty_spawn('true', winsize: [1]) }
      expect_clean(ArgumentError, /winsize must be/) { POSIX::Spawn.pty_spawn('true', winsize: [-1, 80]) }
      expect_clean(ArgumentError, /pgroup option is not allowed/) { POSIX::Spawn.pty_spawn('true', pgroup: true) }
      expect_clean(ArgumentError, 'wrong number of arguments (given 0, expected 1+)') { POSIX::Spawn.pty_spawn }
    end
  end
end

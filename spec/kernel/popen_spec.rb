require 'spec_helper'
require_relative 'drop_in_context'

# IO.popen with the drop-in; each expectation is what MRI 3.1 (/usr/bin/ruby) gives for the same call.
RSpec.describe 'IO.popen with the drop-in' do
  include_context 'drop-in installed'

  it 'runs a String command with shell rules and reads its stdout; close sets $? (MRI: "hi\n", exit 3)' do
    io = IO.popen('echo hi; exit 3')
    pid = io.pid
    expect(io.read).to eq("hi\n")
    expect(io.close).to be_nil
    expect($?.exitstatus).to eq(3)
    expect($?.pid).to eq(pid)
    expect { io.pid }.to raise_error(IOError, 'closed stream') # MRI: the same, once closed
  end

  it 'returns a plain IO (MRI: io.class is IO) with #pid, over a real pipe descriptor' do
    IO.popen('cat', 'r+') do |io|
      expect(io.class).to eq(IO)
      expect(io.pid).to be_a(Integer)
      expect(File.stat("/dev/fd/#{io.fileno}").ftype).to eq('fifo')
      expect(OwnProcesses.kill(0, io.pid)).to be(true)
    end
  end

  it 'runs an Array command without a shell, even as one word (MRI: Errno::ENOENT "echo hi", $? exit 127)' do
    expect(IO.popen(['echo', 'a b;c'], &:read)).to eq("a b;c\n")
    expect { IO.popen(['echo hi']) }.to raise_error(Errno::ENOENT, 'No such file or directory - echo hi')
    expect($?.exitstatus).to eq(127)
    expect { IO.popen([]) }.to raise_error(ArgumentError, 'wrong number of arguments (given 0, expected 1+)')
  end

  it 'takes env and options in every place MRI does: [env,] cmd, mode, opts and inside the Array' do
    expect(IO.popen({ 'X' => '1' }, 'echo $X', 'r', err: :out, &:read)).to eq("1\n") # JRuby raises ArgumentError
    expect(IO.popen([{ 'Y' => '2' }, 'sh', '-c', 'echo $Y', { chdir: '/' }], &:read)).to eq("2\n")
    expect(IO.popen({ 'Z' => '3' }, [{ 'Y' => '2' }, 'sh', '-c', 'echo $Y$Z'], &:read)).to eq("3\n") # MRI: popen's env replaces the Array's
    expect(IO.popen(%w[pwd], chdir: '/', &:read)).to eq("/\n")
    expect(IO.popen('echo x', File::RDONLY, &:read)).to eq("x\n")
    expect(IO.popen('echo ignored', foo: 1, &:read)).to eq("ignored\n") # MRI ignores keys it does not know
  end

  it 'writes to the child\'s stdin in "w" mode, synced (MRI: sync true)' do
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'out')
      io = IO.popen(['sh', '-c', "cat > #{path}"], 'w')
      expect(io.sync).to be(true)
      io.write("abc\n")
      io.close
      expect($?.success?).to be(true)
      expect(File.read(path)).to eq("abc\n")
      expect { IO.popen('true', 'w', &:read) }.to raise_error(IOError, 'not opened for reading')
    end
  end

  it '"r+" is one duplex IO: close_write closes only the child\'s stdin, close closes both (MRI: "x\n", not closed)' do
    io = IO.popen('cat', 'r+')
    io.puts 'x'
    io.close_write
    expect(io.closed?).to be(false)
    expect(io.read).to eq("x\n")
    expect { io.write('y') }.to raise_error(IOError)
    io.close
    expect(io.closed?).to be(true)
    expect($?.success?).to be(true)
  end

  it 'with a block returns its value, then closes and waits, $? set (MRI: 42, exit 4)' do
    expect(IO.popen('exit 4') { 42 }).to eq(42)
    expect($?.exitstatus).to eq(4)
    io = nil
    IO.popen('true') { |i| io = i }
    expect(io).to be_closed
  end

  it 'sends err: :out to the parent\'s stdout and err: [:child, :out] into the pipe (as MRI; JRuby pipes both)' do
    lib = File.expand_path('../../lib', __dir__)
    script = 'print IO.popen(["sh", "-c", "echo e >&2"], err: :out, &:read).inspect; ' \
             'print IO.popen(["sh", "-c", "echo f >&2"], err: [:child, :out], &:read).inspect'
    out = IO.popen({ 'RUBYOPT' => "-I#{lib} -rposix/spawn/kernel" }, [*JRubyLauncher.command, '-e', script], &:read)
    expect(out).to eq("e\n" + ''.inspect + "f\n".inspect) # MRI: the same ("e" on stdout, then "" and "f\n")
  end

  it 'leaves $? nil when the child was waited for before close (MRI: nil; JRuby sets "signal 127")' do
    io = IO.popen('true')
    Process.wait(io.pid)
    io.close
    expect($?).to be_nil
  end

  it 'raises MRI\'s ArgumentError for unsetenv_others: 1 and close_others: 1, and for a mode given twice' do
    expect { IO.popen('true', unsetenv_others: 1) }.to raise_error(ArgumentError, 'expected true or false as unsetenv_others: 1')
    expect { IO.popen('true', close_others: 1) }.to raise_error(ArgumentError, 'expected true or false as close_others: 1')
    expect { IO.popen('true', 'r', mode: 'r') }.to raise_error(ArgumentError, 'mode specified twice')
    expect { IO.popen(['true'], 'x') }.to raise_error(ArgumentError, 'invalid access mode x')
    expect { IO.popen('true', 'r', 3) }.to raise_error(ArgumentError, 'wrong number of arguments (given 3, expected 1..2)')
  end

  it 'raises NotImplementedError for the fork form "-" in every mode, as JRuby\'s does' do
    %w[r w r+].each do |mode|
      expect { IO.popen('-', mode) }.to raise_error(NotImplementedError, 'fork() function is unimplemented on JRuby')
    end
  end

  it 'applies the IO options: binmode, encodings, "rb", "r:ext:int" (MRI: ASCII-8BIT, ISO-8859-1, UTF-8)' do
    expect(IO.popen('echo a', &:read).encoding).to eq(Encoding.default_external)
    expect(IO.popen('echo a', 'rb', &:read).encoding).to eq(Encoding::BINARY)
    expect(IO.popen('echo a', binmode: true, &:read).encoding).to eq(Encoding::BINARY)
    expect(IO.popen('echo a', encoding: 'ISO-8859-1', &:read).encoding).to eq(Encoding::ISO_8859_1)
    expect(IO.popen('echo a', external_encoding: 'ISO-8859-1', &:external_encoding)).to eq(Encoding::ISO_8859_1)
    expect(IO.popen("printf '\\351'", 'r:ISO-8859-1:UTF-8', &:read)).to eq('é')
    expect { IO.popen('true', external_encoding: 'UTF-16LE') }.to raise_error(ArgumentError, 'ASCII incompatible encoding needs binmode')
  end

  it 'reads to the end as IO#read does: after buffered reads, into an outbuf, a large output, in the IO\'s encoding' do
    expect(IO.popen("printf 'a\\nb'") { |io| [io.gets, io.read] }).to eq(["a\n", 'b']) # MRI: ["a\n", "b"]
    buf = +'old'
    expect(IO.popen('echo x') { |io| io.read(nil, buf).equal?(buf) }).to be(true)
    expect(buf).to eq("x\n")
    big = IO.popen(['head', '-c', (3 << 20).to_s, '/dev/zero'], &:read)
    expect([big.bytesize, big.encoding, big.count("\0")]).to eq([3 << 20, Encoding.default_external, 3 << 20])
    expect(IO.popen('echo x', 'rb', &:read).encoding).to eq(Encoding::BINARY)
    expect(IO.popen('echo abc') { |io| io.read(2) }).to eq('ab')
    expect { IO.popen('cat', 'w', &:read) }.to raise_error(IOError, 'not opened for reading') # MRI: the same
  end

  it 'takes the forms ruby/spec checks: a mode with #to_str, :in in "r" and :out in "w" mode, argv0, close inside the block' do
    mode = Object.new
    def mode.to_str = 'r'
    expect(IO.popen('echo s', mode, &:read)).to eq("s\n")
    Dir.mktmpdir do |dir|
      File.write(input = File.join(dir, 'in'), "content\n")
      expect(IO.popen('cat', 'r', in: input, &:read)).to eq("content\n") # MRI: "content\n"
      IO.popen('cat', 'w', out: (output = File.join(dir, 'out'))) { |io| io.write('w-redirect') }
      expect(File.read(output)).to eq('w-redirect')
    end
    expect(IO.popen([%w[sh argv0], '-c', 'echo $0'], &:read)).to eq("argv0\n")
    expect(IO.popen('echo a') { |io| io.close; :closed_inside }).to eq(:closed_inside)
    expect { IO.popen(nil) }.to raise_error(TypeError, 'no implicit conversion of nil into String')
    expect { IO.popen(:sym) }.to raise_error(TypeError, 'no implicit conversion of Symbol into String')
    # MRI: the same TypeError for a nil word of an Array command (the drop-in dropped it: ArgumentError, no words)
    expect { IO.popen([nil]) }.to raise_error(TypeError, 'no implicit conversion of nil into String')
    expect { IO.popen({ 'A' => '1' }, [nil], 'rb') }.to raise_error(TypeError, 'no implicit conversion of nil into String')
  end

  it 'returns an instance of the subclass it is called on (MRI: SubIO)' do
    subclass = Class.new(IO)
    expect(subclass.popen('true') { |io| io.class }).to eq(subclass)
  end

  # Issue #28: popen applies its separate env Hash after the program was looked up (MRI's rb_execarg_setenv).
  it "looks the program up on the parent's PATH, not on a PATH its separate env Hash sets (MRI 3.1's results)" do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'private-posix-spawn'), "#!/bin/sh\necho private $FOO\n")
      File.chmod(0o755, File.join(dir, 'private-posix-spawn'))
      nowhere = File.join(dir, 'nonexistent')
      # On the parent's PATH: found whatever the Hash's PATH says; the Hash's program is not found.
      expect(IO.popen({ 'PATH' => nowhere }, 'ls /dev/null', &:read)).to eq("/dev/null\n")
      expect(IO.popen({ 'PATH' => nowhere }, ['ls', '/dev/null'], &:read)).to eq("/dev/null\n")
      expect { IO.popen({ 'PATH' => dir }, 'private-posix-spawn') }.to raise_error(Errno::ENOENT, 'No such file or directory - private-posix-spawn')
      expect { IO.popen({ 'PATH' => dir }, ['private-posix-spawn']) }.to raise_error(Errno::ENOENT, 'No such file or directory - private-posix-spawn')
      # The child has the Hash's PATH all the same: a shell finds the program there.
      expect(IO.popen({ 'PATH' => dir }, 'echo $PATH; private-posix-spawn', &:read)).to eq("#{dir}\nprivate\n")
      # The Array form's own env Hash is looked up on, as spawn's; the separate Hash still replaces it for the child.
      expect(IO.popen([{ 'PATH' => dir }, 'private-posix-spawn'], &:read)).to eq("private\n")
      expect(IO.popen({ 'PATH' => nowhere, 'FOO' => 'outer' }, [{ 'PATH' => dir, 'FOO' => 'inner' }, 'private-posix-spawn'], &:read)).to eq("private outer\n")
      expect { IO.popen({ 'PATH' => dir }, [{ 'PATH' => nowhere }, 'ls', '/dev/null']) }.to raise_error(Errno::ENOENT, 'No such file or directory - ls')
    end
  end

  it 'closes every pipe end when the command cannot start, and leaves no child (the common form, popen(cmd), too)' do
    calls = [-> { IO.popen(['nonexistent-posix-spawn-cmd'], 'r+') }, -> { IO.popen(['nonexistent-posix-spawn-cmd']) },
             -> { IO.popen('nonexistent-posix-spawn-cmd') { raise 'the block ran' } }]
    calls.each { |call| expect(&call).to raise_error(Errno::ENOENT) }
    expect do
      calls.each { |call| expect(&call).to raise_error(Errno::ENOENT) }
    end.not_to leak(:descriptors, :children)
    expect($?.exitstatus).to eq(127)
  end

  describe 'interrupts (Thread#raise, Thread#kill, Timeout): reach a blocked read, write or close at once, leaving the child running (as MRI)' do
    def interrupted(io, blocked)
      thread = Thread.new do
        Thread.current.report_on_exception = false
        blocked.call(io)
      end
      sleep 0.3
      yield thread
      expect(OwnProcesses.kill(0, io.pid)).to be(true) # still running
    ensure
      OwnProcesses.kill(:KILL, io.pid)
      Process.wait(io.pid) rescue Errno::ECHILD
      begin
        io.close unless io.closed?
      rescue Errno::EBADF
        # JRuby's own, also for IO.pipe: closing an IO whose write was killed (doc/drop-in.md: differences)
      end
    end

    it 'Thread#raise reaches a read' do
      io = IO.popen('exec sleep 30')
      interrupted(io, :read.to_proc) do |thread|
        thread.raise(RuntimeError, 'stop')
        expect { thread.join(10) }.to raise_error(RuntimeError, 'stop') # the child sleeps 30 s
        expect(ProcessResources.nonblocking?(io.fileno)).to be(true) # the read's poll loop left it as it was: O_NONBLOCK, as MRI's
      end
    end

    it 'Thread#kill reaches a write into a full pipe' do
      io = IO.popen('exec sleep 30', 'w')
      interrupted(io, ->(i) { i.write('x' * (1 << 20)) }) do |thread|
        thread.kill
        expect(thread.join(10)).to eq(thread)
      end
    end

    it 'Timeout.timeout reaches a close waiting for the child' do
      require 'timeout'
      io = IO.popen('exec sleep 30')
      pid = io.pid # the IO is closed after the interrupted close: its #pid raises IOError then, as MRI's
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      expect { Timeout.timeout(0.2) { io.close } }.to raise_error(Timeout::Error)
      expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 10 # the child sleeps 30 s
      expect(OwnProcesses.kill(0, pid)).to be(true) # still running
    ensure
      OwnProcesses.kill(:KILL, pid)
      Process.wait(pid)
    end
  end
end

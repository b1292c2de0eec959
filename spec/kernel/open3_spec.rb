require 'spec_helper'
require_relative 'drop_in_context'
require 'open3' # as a program must: the drop-in does not load it
require 'timeout'

# Open3 with the drop-in; expectations are MRI 3.1's (/usr/bin/ruby) for the same calls.
RSpec.describe 'Open3 with the drop-in' do
  include_context 'drop-in installed'

  it 'capture3 runs on Child\'s capture loop: no thread per stream' do
    threads = []
    tracer = TracePoint.new(:thread_begin) { threads << Thread.current }
    tracer.enable { Open3.capture3('echo x') }
    expect(threads).to eq([])
    expect(Open3.method(:capture3).source_location.first).to end_with('posix/spawn/kernel/open3.rb')
  end

  it 'capture3 returns stdout, stderr, status with stdin_data (MRI: ["out\n", "err\n", exit 3], UTF-8)' do
    out, err, status = Open3.capture3('cat; echo err >&2; exit 3', stdin_data: "out\n")
    expect([out, err, status.exitstatus]).to eq(["out\n", "err\n", 3])
    expect(out.encoding).to eq(Encoding.default_external)
    expect(Open3.capture3('cat', stdin_data: 'abc', binmode: true).first(2).map(&:encoding)).to eq([Encoding::BINARY] * 2)
    expect(Open3.capture3({ 'A' => '1' }, 'echo $A; pwd', chdir: '/').first).to eq("1\n/\n")
    expect(Open3.capture3(%w[sh argv0], '-c', 'echo $0').first).to eq("argv0\n")
  end

  it 'leaves the caller\'s $? alone, except exit 127 when the command cannot start (as MRI)' do
    system('exit 2')
    Open3.capture3('exit 3')
    expect($?.exitstatus).to eq(2)
    expect { Open3.capture3('nonexistent-posix-spawn-cmd') }.to raise_error(Errno::ENOENT, 'No such file or directory - nonexistent-posix-spawn-cmd')
    expect($?.exitstatus).to eq(127)
  end

  it 'rejects Child\'s own options as spawn does (MRI: wrong exec option symbol: timeout)' do
    expect { Open3.capture3('true', timeout: 1) }.to raise_error(ArgumentError, 'wrong exec option symbol: timeout')
  end

  it 'transcodes to Encoding.default_internal as Open3\'s reads do (MRI: "é" in UTF-8 from ISO-8859-1)' do
    lib = File.expand_path('../../lib', __dir__)
    script = %q(%i[capture3 capture2 capture2e].each { |m| o, = Open3.send(m, "printf '\\351'"); print o.encoding, " ", o.bytes.inspect, ";" })
    out = IO.popen({ 'RUBYOPT' => "-I#{lib} -rposix/spawn/kernel -ropen3" }, [*JRubyLauncher.command, '-E', 'ISO-8859-1:UTF-8', '-e', script], &:read)
    expect(out).to end_with('UTF-8 [195, 169];' * 3)
  end

  it 'popen3, popen2e and pipeline keep Open3\'s code on the replaced spawn, with Process::Waiter threads' do
    Open3.popen3('cat') do |i, o, _e, t|
      expect(t.class.name).to eq('Process::Waiter')
      i.write('q')
      i.close
      expect(o.read).to eq('q')
    end
    expect(Open3.popen2e('echo a; echo b >&2') { |_i, o, _t| o.read }).to eq("a\nb\n")
    expect(Open3.pipeline_r('echo p', 'tr p q') { |o, _waiters| o.read }).to eq("q\n")
  end

  describe 'capture2 and capture2e' do
    it 'run on the engine\'s capture loop: no thread per stream' do
      threads = []
      tracer = TracePoint.new(:thread_begin) { threads << Thread.current }
      tracer.enable do
        Open3.capture2('echo x', stdin_data: 'y')
        Open3.capture2e('echo x >&2', stdin_data: 'y')
      end
      expect(threads).to eq([])
      %i[capture2 capture2e].each { |name| expect(Open3.method(name).source_location.first).to end_with('posix/spawn/kernel/open3.rb') }
    end

    it 'capture2 returns stdout and the status; stderr is the caller\'s (MRI: ["in\n", exit 3], the same fd 2)' do
      out, status = Open3.capture2('cat; exit 3', stdin_data: "in\n")
      expect([out, out.encoding, status.class, status.exitstatus]).to eq(["in\n", Encoding.default_external, Process::Status, 3])
      reported = ChildReport.file_id(Open3.capture2(ChildReport.command(:fd, 2).join(' ')).first)
      expect(reported).to eq(File.stat('/dev/fd/2').then { |st| [st.dev, st.ino] })
    end

    it 'capture2e merges stderr into stdout in the order written (MRI: "a\nb\nc\n", exit 4)' do
      out, status = Open3.capture2e('echo a; echo b >&2; cat; exit 4', stdin_data: "c\n")
      expect([out, out.encoding, status.exitstatus]).to eq(["a\nb\nc\n", Encoding.default_external, 4])
      expect(Open3.capture2e([1, 2].map { |fd| ChildReport.command(:fd, fd).join(' ') }.join('; ')).first.lines.uniq.size).to eq(1)
    end

    it 'take spawn\'s arguments and options, :binmode and any stdin_data (MRI: binary; to_s; EPIPE ignored)' do
      expect(Open3.capture2({ 'A' => '1' }, 'echo $A; pwd', chdir: '/').first).to eq("1\n/\n")
      expect(Open3.capture2e(%w[sh argv0], '-c', 'echo $0 >&2').first).to eq("argv0\n")
      expect(Open3.capture2('cat', stdin_data: 'x', binmode: true).first.encoding).to eq(Encoding::BINARY)
      expect(Open3.capture2e('cat', stdin_data: 'x', binmode: true).first.encoding).to eq(Encoding::BINARY)
      expect(Open3.capture2('cat', stdin_data: 12).first).to eq('12')
      expect(Open3.capture2('head -c 1', stdin_data: 'x' * 10_000_000).first).to eq('x')
      expect(Open3.capture2('echo out', out: File::NULL, in: File::NULL).first).to eq("out\n") # Open3's pipes win
      expect(Open3.capture2('echo e >&2', err: [:child, :out]).first).to eq("e\n")
    end

    it 'refuse a second stdout or stderr for capture2e, and Child\'s options, as MRI' do
      expect { Open3.capture2e('true', out: File::NULL) }.to raise_error(ArgumentError, 'fd 1 specified twice')
      expect { Open3.capture2e('true', err: File::NULL) }.to raise_error(ArgumentError, 'fd 2 specified twice')
      expect { Open3.capture2('true', timeout: 1) }.to raise_error(ArgumentError, 'wrong exec option symbol: timeout')
    end

    it 'leave the caller\'s $? alone, except exit 127 when the command cannot start (as MRI)' do
      %i[capture2 capture2e].each do |name|
        system('exit 2')
        Open3.public_send(name, 'exit 3')
        expect($?.exitstatus).to eq(2)
        expect { Open3.public_send(name, 'nonexistent-posix-spawn-cmd') }.to raise_error(Errno::ENOENT, 'No such file or directory - nonexistent-posix-spawn-cmd')
        expect($?.exitstatus).to eq(127)
      end
    end

    it 'interrupted, close the pipes and wait for the command, then raise; $? unchanged (MRI: the same)' do
      system('exit 2')
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      expect { Timeout.timeout(0.2) { Open3.capture2('sleep 1') } }.to raise_error(Timeout::Error)
      expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be >= 0.9
      expect($?.exitstatus).to eq(2)
      expect do
        expect { Timeout.timeout(0.2) { Open3.capture2e('sleep 1') } }.to raise_error(Timeout::Error)
      end.not_to leak
    end
  end
end

# JRuby's own IO.popen3 and IO.popen4 (MRI has neither: no MRI reference) with the drop-in.
RSpec.describe 'IO.popen3 and IO.popen4 (JRuby\'s own) with the drop-in' do
  include_context 'drop-in installed'

  it 'popen3 returns [stdin, stdout, stderr, wait thread] as JRuby\'s, with spawn\'s rules (a shell line, env, options)' do
    i, o, e, t = IO.popen3({ 'A' => '1' }, 'cat; echo $A >&2; pwd', chdir: '/')
    i.write('x')
    i.close
    expect([o.read, e.read, t.value.success?]).to eq(["x/\n", "1\n", true]) # JRuby's: ENOENT "cat;"
    [o, e].each(&:close)
    expect(IO.popen3('echo b') { |_i, out, _e, _t| out.read }).to eq("b\n")
  end

  it 'popen4 returns [pid, stdin, stdout, stderr]; with a block returns its value, closes and waits ($? set)' do
    pid, i, o, e = IO.popen4('echo hi')
    expect(o.read).to eq("hi\n")
    [i, o, e].each(&:close)
    Process.wait(pid)
    expect($?.pid).to eq(pid)
    expect(IO.popen4('exit 3') { |child, *| child.class }).to eq(Integer)
    expect($?.exitstatus).to eq(3)
  end
end

require 'spec_helper'
require_relative 'drop_in_context'

# Kernel#spawn, Kernel.spawn, Process.spawn, Kernel#system and #` with the drop-in; the expected values
# are what MRI 3.1 (/usr/bin/ruby) returns, raises and sets for the same calls.
RSpec.describe 'Kernel#spawn, #system, #` with the drop-in' do
  include_context 'drop-in installed'

  def engine?(target, name)
    !target.instance_method(name).source_location.nil?
  end

  it 'replaces every entry: Kernel#spawn, Kernel.spawn, Process.spawn, #system, #`' do
    expect(engine?(Kernel, :spawn)).to be(true)
    expect(engine?(Kernel.singleton_class, :spawn)).to be(true)
    expect(engine?(Process.singleton_class, :spawn)).to be(true)
    expect(engine?(Kernel, :system)).to be(true)
    expect(engine?(Kernel, :`)).to be(true)
  end

  it 'spawns with :chdir without a shell and with :umask (JRuby runs chdir: through sh -c, and has no :umask)' do
    Dir.mktmpdir do |dir| # a file, not an IO.pipe: spec:embedded runs this where JRuby's pipes cannot be redirected
      out = File.join(dir, 'out')
      pid = Process.spawn('sh', '-c', 'pwd; umask', chdir: '/', umask: 0o027, out: out)
      Process.wait(pid)
      expect(File.read(out)).to eq("/\n0027\n") # MRI: "/\n0027\n"
      expect($?.pid).to eq(pid)
    end
  end

  it 'spawn raises MRI\'s errors: Errno::ENOENT naming the program, ArgumentError for an unknown option' do
    expect { spawn('nonexistent-posix-spawn-cmd') }.to raise_error(Errno::ENOENT, 'No such file or directory - nonexistent-posix-spawn-cmd')
    expect { Kernel.spawn('true', foo: 1) }.to raise_error(ArgumentError, 'wrong exec option symbol: foo')
  end

  it 'system returns true / false / nil and sets $? (MRI: true, false, nil with $? exit 127)' do
    expect(system('true')).to be(true)
    expect($?.exitstatus).to eq(0)
    expect(Kernel.system('exit 3')).to be(false)
    expect($?.exitstatus).to eq(3)
    expect(system('nonexistent-posix-spawn-cmd')).to be_nil
  end

  it 'system exception: true raises MRI\'s errors' do
    expect { system('exit 3', exception: true) }.to raise_error(RuntimeError, 'Command failed with exit 3: exit 3')
    expect { system('nonexistent-posix-spawn-cmd', exception: true) }
      .to raise_error(Errno::ENOENT, 'No such file or directory - nonexistent-posix-spawn-cmd')
  end

  it 'backtick captures stdout in Encoding.default_external, not transcoded, $? set (MRI: "hi\n", UTF-8)' do
    out = `echo hi; exit 3`
    expect(out).to eq("hi\n")
    expect(out.encoding).to eq(Encoding.default_external)
    expect($?.exitstatus).to eq(3)
    expect(%x(printf '\\351')).to eq("\xE9".dup.force_encoding(Encoding.default_external))
  end

  it 'backtick and %x under a default_internal: not transcoded, in default_external (MRI: "h\xC3\xA9", ISO-8859-1; before, nil)' do
    encodings = [Encoding.default_external, Encoding.default_internal]
    Encoding.default_external = 'ISO-8859-1'
    Encoding.default_internal = 'UTF-16LE'
    [`printf 'h\\303\\251'`, %x(printf 'h\\303\\251')].each do |out|
      expect(out.b).to eq("h\xC3\xA9".b)
      expect(out.encoding).to eq(Encoding::ISO_8859_1)
    end
    Encoding.default_external = 'UTF-8'
    expect(`echo hi`).to eq("hi\n") # MRI: "hi\n", UTF-8
    expect(`echo hi`.encoding).to eq(Encoding::UTF_8)
  ensure
    Encoding.default_external, Encoding.default_internal = encodings
  end

  it 'backtick leaves stderr and stdin to the parent\'s (MRI: stderr not captured)' do
    expect(`echo err >&2; echo out 2>/dev/null`).to eq("out\n")
  end

  it 'backtick of a command that cannot start raises Errno::ENOENT and sets $? to exit 127 (as MRI)' do
    system('true')
    expect { `nonexistent-posix-spawn-cmd` }.to raise_error(Errno::ENOENT, 'No such file or directory - nonexistent-posix-spawn-cmd')
    expect($?.exitstatus).to eq(127)
  end

  it 'backtick raises TypeError for a non-String (MRI: no implicit conversion of Array into String)' do
    expect { Kernel.send(:`, ['echo']) }.to raise_error(TypeError, 'no implicit conversion of Array into String')
  end

  # Also where JRuby's own Process.wait cannot be interrupted (an embedded JRuby: rake spec:embedded, issue #27):
  # the drop-in waits on the child's pidfd, or without pidfd_open polls waitpid between Java sleeps.
  it 'lets Thread#raise reach a thread blocked in a backtick or in system at once; the child is left running (as MRI)' do
    Dir.mktmpdir do |dir|
      pid_file = File.join(dir, 'pid')
      command = "echo $$ > #{pid_file}; exec sleep 30"
      calls = [-> { `#{command}` }, -> { system(command) }]
      calls += calls.map { |call| -> { POSIX::Spawn::Native.pretend_missing('pidfd_open', true); call.call } }
      calls.each do |call|
        File.delete(pid_file) if File.exist?(pid_file)
        thread = Thread.new do
          Thread.current.report_on_exception = false
          call.call
        end
        sleep 0.05 until File.size?(pid_file)
        child = Integer(File.read(pid_file))
        sleep 0.2
        thread.raise(RuntimeError, 'interrupted')
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        expect { thread.join(10) }.to raise_error(RuntimeError, 'interrupted')
        expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 10 # the child sleeps 30 s
        expect(OwnProcesses.kill(0, child)).to be(true) # still running
      ensure
        POSIX::Spawn::Native.pretend_missing('pidfd_open', false)
        if child
          OwnProcesses.kill(:KILL, child)
          Process.wait(child)
        end
      end
    end
  end
end

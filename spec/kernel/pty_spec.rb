require 'spec_helper'
require_relative 'drop_in_context'
require_relative '../pty/terminal_reading'
require 'shellwords'
require 'pty'

# MRI 3.1's results for each (checked with /usr/bin/ruby): PTY.spawn's block form returns nil, closes
# neither IO, reaps an exited child and leaves a running one; no command runs $SHELL.
RSpec.describe 'PTY under the drop-in' do
  include_context 'drop-in installed'

  def cleanup(reader, writer, pid)
    [reader, writer].each { |io| io.close unless io.closed? }
    OwnProcesses.kill(:KILL, pid)
    Process.wait(pid)
  rescue Errno::ECHILD
    nil
  end

  it 'PTY.spawn and PTY.getpty give the child the slave as its controlling terminal' do
    %i[spawn getpty].each do |name|
      reader, writer, pid = PTY.public_send(name, 'tty')
      expect(reader).to be_a(POSIX::Spawn::PtyMaster)
      expect(read_to_hangup(reader)).to eq("#{reader.path}\r\n")
      expect(Process.wait2(pid)[1].success?).to be(true)
      cleanup(reader, writer, pid)
    end
  end

  it "the block form returns nil, closes neither IO, reaps a child that has exited" do
    ios = nil
    result = PTY.spawn('sh', '-c', 'exit 5') do |reader, writer, pid|
      ios = [reader, writer, pid]
      read_to_hangup(reader)
      ProcessResources.wait_until_gone(pid) # exited, not yet reaped
    end
    expect(result).to be_nil
    expect(ios[0, 2].map(&:closed?)).to eq([false, false])
    expect(ProcessResources.stat(ios[2])).to be_nil # reaped
    ios[0, 2].each(&:close)
  end

  it 'the block form leaves a child still running as it is, as MRI does' do
    reader = writer = pid = nil
    PTY.spawn('sleep', '30') { |r, w, p| reader, writer, pid = r, w, p }
    expect(ProcessResources.stat(pid)[:state]).not_to eq('Z')
  ensure
    cleanup(reader, writer, pid)
  end

  it "with no command runs the user's shell ($SHELL)" do
    shell = ENV['SHELL']
    ENV['SHELL'] = '/usr/bin/tty'
    reader, writer, pid = PTY.spawn
    expect(read_to_hangup(reader)).to eq("#{reader.path}\r\n")
    cleanup(reader, writer, pid)
  ensure
    ENV['SHELL'] = shell
  end

  it "without $SHELL takes the user's login shell from Etc, which the drop-in loads only then" do
    lib = File.expand_path('../../lib', __dir__)
    script = "require 'posix/spawn/kernel'; require 'pty'; print defined?(Etc).inspect, ' ', " \
             'POSIX::Spawn::Kernel::PtyMethods.user_shell'
    out = IO.popen(ENV.to_h.reject { |name, _| name == 'SHELL' }, [*JRubyLauncher.command, '--disable-gems', '-I', lib, '-e', script],
                   unsetenv_others: true, err: [:child, :out], &:read)
    expect(out).to end_with("nil #{IO.popen(['getent', 'passwd', Process.uid.to_s], &:read).chomp.split(':').last}")
  end

  it 'takes no :winsize, as MRI does not' do
    expect { PTY.spawn('true', winsize: [1, 2]) }.to raise_error(ArgumentError, 'wrong exec option symbol: winsize')
  end

  it 'PTY.open gives [master, slave], closing both after a block' do
    master, slave = PTY.open
    expect([master.inspect, slave.path]).to eq(["#<IO:masterpty:#{slave.path}>", slave.path])
    [master, slave].each(&:close)
    ios = nil
    expect(PTY.open { |pair| ios = pair; :value }).to eq(:value)
    expect(ios.map(&:closed?)).to eq([true, true])
  end

  it "uninstall puts JRuby's PTY methods back" do
    POSIX::Spawn::Kernel.uninstall
    jruby = %i[spawn getpty open].map { |n| PTY.singleton_class.instance_method(n).source_location&.first }
    POSIX::Spawn::Kernel.install
    ours = %i[spawn getpty open].map { |n| PTY.singleton_class.instance_method(n).source_location&.first }
    expect(ours.uniq).to eq([File.expand_path('../../lib/posix/spawn/kernel/pty.rb', __dir__)])
    expect(jruby).not_to include(ours.first)
  end

  # MRI's test/test_pty.rb (ruby/ruby), each test run on the drop-in; `sh`/`echo` stand in for RUBY.
  describe "MRI's test_pty.rb" do
    def spawned(*args)
      PTY.spawn(*args) do |r, w, pid|
        yield r
      ensure
        r.close
        w.close
        Process.wait(pid)
      end
    end

    it('test_spawn_without_block') do
      r, w, pid = PTY.spawn('echo', 'a')
      expect(r.gets).to eq("a\r\n")
    ensure
      [r, w].each { |io| io&.close }
      Process.wait(pid) if pid
    end

    it('test_spawn_with_block, test_commandline, test_argv0') do
      spawned('echo', 'b') { |r| expect(r.gets).to eq("b\r\n") }
      spawned(Shellwords.join(%w[echo foo])) { |r| expect(r.gets).to eq("foo\r\n") }
      spawned(%w[sh argv0], '-c', 'echo $0') { |r| expect(r.gets).to eq("argv0\r\n") }
    end

    it('test_open_without_block, test_open_with_block (kinds, not classes: see doc/pty.md)') do
      master, slave = PTY.open
      expect([master, slave]).to match([a_kind_of(IO), a_kind_of(File)])
      expect([slave.tty?, File.chardev?(slave.path)]).to eq([true, true])
      [master, slave].each(&:close)
      x = Object.new
      pair = nil
      expect(PTY.open { |ret| pair = ret; x }).to be(x)
      expect(pair.map(&:closed?)).to eq([true, true])
    end

    it('test_close_in_block, test_open, test_stat_slave, test_cloexec') do
      expect { PTY.open { |m, s| s.close; m.close } }.not_to raise_error
      PTY.open do |m, s|
        s.puts 'foo'
        expect(m.gets.chomp).to eq('foo')
        m.puts 'bar'
        expect(s.gets.chomp).to eq('bar')
        stat = File.stat(s.path)
        expect([stat.uid, stat.mode & 0o777]).to eq([Process.uid, 0o600])
        expect([m.close_on_exec?, s.close_on_exec?]).to eq([true, true])
      end
      spawned('true') { |r| expect(r.close_on_exec?).to be(true) }
    end

    it('test_close_master (EOFError on the slave), test_close_slave (Errno::EIO on the master, Linux)') do
      PTY.open { |m, s| m.close; expect { s.readpartial(10) }.to raise_error(EOFError) }
      PTY.open { |m, s| s.close; expect { m.readpartial(10) }.to raise_error(Errno::EIO) }
    end

    it('test_getpty_nonexistent') do
      expect { PTY.getpty(File.join(Dir.tmpdir, 'no-such-dir-here', 'no-such-command')) }.to raise_error(Errno::ENOENT)
    end

    it('test_pty_check_default, test_pty_check_raise (JRuby\'s PTY.check on our children)') do
      st1 = st2 = pid = nil
      PTY.spawn('cat') do |r, w, id|
        pid = id
        st1 = PTY.check(pid)
        w.close
        r.close
        sleep 0.1 until (st2 = PTY.check(pid))
      end
      expect([st1, st2.pid]).to eq([nil, pid])
      PTY.spawn('cat') do |r, w, id|
        expect(PTY.check(id, true)).to be_nil
        w.close
        r.close
        error = nil
        sleep 0.05 until (error = begin; PTY.check(id, true); nil; rescue PTY::ChildExited => e; e; end)
        expect(error.status.pid).to eq(id)
      end
    end
  end
end

require 'spec_helper'
require 'io/console'
require_relative 'terminal_reading'

RSpec.describe 'POSIX::Spawn.open_pty' do
  it 'returns [master IO, slave File] as PTY.open does, both close-on-exec and sync' do
    master, slave = POSIX::Spawn.open_pty
    expect(master).to be_a(IO)
    expect(slave).to be_a(File)
    expect(slave.path).to match(%r{\A/dev/pts/\d+\z})
    expect(File.readlink("/proc/self/fd/#{slave.fileno}")).to eq(slave.path)
    expect(File.readlink("/proc/self/fd/#{master.fileno}")).to eq('/dev/ptmx')
    expect(master.inspect).to eq("#<IO:masterpty:#{slave.path}>")
    expect([master, slave].map(&:close_on_exec?)).to eq([true, true])
    expect([master, slave].map(&:sync)).to eq([true, true])
    expect(slave.tty?).to be(true)
  ensure
    [master, slave].each { |io| io&.close }
  end

  it 'passes bytes both ways: the slave echoes what the master writes, the master reads what the slave writes' do
    POSIX::Spawn.open_pty do |master, slave|
      master.write("typed\n")
      expect(slave.gets).to eq("typed\n")
      expect(read_until(master, "typed\r\n")).to eq("typed\r\n")
      slave.write("shown\n")
      expect(read_until(master, "shown\r\n")).to eq("shown\r\n")
    end
  end

  it "closes both after the block and returns the block's value" do
    ios = nil
    expect(POSIX::Spawn.open_pty { |pair| ios = pair; :value }).to eq(:value)
    expect(ios.map(&:closed?)).to eq([true, true])
  end

  it "sets the window size through io/console's winsize= on the master, seen on the slave" do
    POSIX::Spawn.open_pty do |master, slave|
      master.winsize = [50, 132]
      expect(slave.winsize).to eq([50, 132])
    end
  end

  it 'gives the pending output, then Errno::EIO naming the terminal, once the slave is closed' do
    POSIX::Spawn.open_pty do |master, slave|
      slave.write("last\n")
      slave.close
      expect(master.gets).to eq("last\r\n")
      # MRI 3.1: "Input/output error @ io_getpartial - masterpty:/dev/pts/N" (its read function's name too)
      expect { master.gets }.to raise_error(Errno::EIO, "Input/output error - #{slave.path}")
    end
  end

  it "opens the slave with O_NOCTTY: it never becomes the JVM's controlling terminal" do
    # A session leader without a terminal takes the first one it opens without O_NOCTTY; `setsid` makes
    # the JRuby below such a leader.
    script = <<~RUBY
      $LOAD_PATH.unshift #{File.expand_path('../../lib', __dir__).inspect}
      require 'posix/spawn'
      master, slave = POSIX::Spawn.open_pty
      fields = File.read('/proc/self/stat').then { |stat| stat[(stat.rindex(')') + 2)..].split }
      puts [fields[3] == Process.pid.to_s, fields[4]].inspect # session leader?, tty_nr
    RUBY
    out = IO.popen(['setsid', '-w', *JRubyLauncher.command, '-e', script], &:read)
    expect(out).to eq("[true, \"0\"]\n")
  end

  describe 'with no pty to be had' do
    it 'raises Errno::ENOENT naming posix_openpt, with nothing left open (a /dev without ptmx)' do
      skip 'needs root and unshare(1)' unless Process.uid.zero? && system('unshare', '-m', 'true', err: File::NULL)
      # A private mount namespace whose /dev has only what the JVM needs.
      dev = Dir.mktmpdir('dev')
      script = <<~RUBY
        $LOAD_PATH.unshift #{File.expand_path('../../lib', __dir__).inspect}
        require 'posix/spawn'
        calls = [-> { POSIX::Spawn.open_pty }, -> { POSIX::Spawn.pty_spawn('true') }]
        attempt = lambda do |call|
          call.call
        rescue SystemCallError => e
          "\#{e.class}: \#{e.message}"
        end
        calls.each(&attempt) # classes loaded (and the jars JRuby opens for them) before the count
        before = Dir.children('/proc/self/fd').sort
        puts calls.map(&attempt)
        puts Dir.children('/proc/self/fd').sort == before
      RUBY
      shell = "mount -t tmpfs none #{dev} && for f in null zero random urandom; do touch #{dev}/$f && " \
              "mount --bind /dev/$f #{dev}/$f; done && mount --rbind #{dev} /dev && exec \"$@\""
      out = IO.popen(['unshare', '-m', 'sh', '-c', shell, 'sh', *JRubyLauncher.command, '-e', script], err: [:child, :out], &:read)
      expect(out.lines.grep_v(/warning|WARNING/).join).to eq(<<~OUT)
        Errno::ENOENT: No such file or directory - posix_openpt
        Errno::ENOENT: No such file or directory - posix_openpt
        true
      OUT
    ensure
      Dir.rmdir(dev) if dev
    end
  end
end

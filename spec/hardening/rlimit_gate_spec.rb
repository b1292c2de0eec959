require 'spec_helper'
require 'tmpdir'
require 'timeout'
require 'io/wait'

# The rlimit gate (ResourceLimitGate) holds a child between its creation and its exec while its limits are
# set: whatever the program, the limits and the JVM's fate, the spawn returns and no held child is left.
RSpec.describe 'the rlimit gate', if: File.directory?('/proc/self') do
  let(:lib) { File.expand_path('../../lib', __dir__) }

  # Runs `script` in a JRuby of its own with the gem, in a process group of its own, and returns its output;
  # bounded: after `seconds` every member of the group is killed, a child held at the gate (orphaned, holding
  # the output pipe) alike, and the output so far returned.
  def jruby_output(script, seconds = 120)
    IO.popen([*JRubyLauncher.command, '-I', lib, '-rposix/spawn', '-e', script], err: %i[child out], pgroup: true) do |io|
      out = +''
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
      loop do
        left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
        break unless left.positive? && io.wait_readable(left)

        chunk = io.read_nonblock(65_536, exception: false)
        return out if chunk.nil?

        out << chunk if chunk.is_a?(String)
      end
      Dir.children('/proc').grep(/\A\d+\z/).map(&:to_i).each { |pid| OwnProcesses.kill(:KILL, pid, in_group: io.pid) if ProcessResources.stat(pid)&.fetch(:pgrp) == io.pid }
      out
    end
  end

  # The block's value, run while three busy loops (this example's children) widen every race window.
  def beside_busy_cpus
    burners = Array.new(3) { POSIX::Spawn.spawn('sh', '-c', 'while :; do :; done') }
    yield
  ensure
    burners&.each { |pid| OwnProcesses.kill(:KILL, pid) && Process.wait(pid) }
  end

  # The redirects run under the new limits: a chain (child 3 from the parent's pipe at w, child w from a
  # file opened above the limit) is ordered as MRI's run_exec_dup2 orders it, with no copy above the limit
  # (there was one: Errno::EBADF "dup2"). MRI: the pipe gets "pipe\n", the file "file\n", exit 0.
  it 'orders a chain of redirects under rlimit_nofile without a copy above the limit, as MRI does' do
    Dir.mktmpdir do |dir|
      reader, writer = IO.pipe
      w = writer.posix_fileno
      limit = w + 16
      pad = []
      pad << File.open(File::NULL) while pad.empty? || pad.last.posix_fileno < limit + 8
      file = File.join(dir, 'file')
      pid = POSIX::Spawn.spawn('sh', '-c', "echo pipe >/dev/fd/3; echo file >/dev/fd/#{w}", 3 => writer, w => [file, 'w'],
                               rlimit_nofile: limit)
      Process.wait(pid)
      writer.close
      expect([$?.success?, reader.read, File.read(file)]).to eq([true, "pipe\n", "file\n"])
    ensure
      [reader, writer, *pad].compact.each { |io| io.close unless io.closed? }
    end
  end

  it 'runs a script without #! under /bin/sh, as MRI does, and returns (the shell\'s child passes the gate too)' do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'script'), "echo \"ran $0\"\nexit 3\n")
      File.chmod(0o755, File.join(dir, 'script'))
      script = <<~RUBY
        r, w = IO.pipe
        pid = POSIX::Spawn.spawn('./script', rlimit_core: 0, rlimit_nofile: 64, chdir: #{dir.inspect}, out: w)
        w.close
        Process.wait(pid)
        puts "\#{r.read.chomp} \#{$?.exitstatus} \#{`#{ChildReport.command(:limits).join(' ')} 2>/dev/null`.empty?}"
      RUBY
      out = jruby_output(script)
      expect(out).to end_with("ran ./script 3 false\n")
      if File.executable?('/usr/bin/ruby')
        mri = IO.popen(['/usr/bin/ruby', '-e', script.sub('POSIX::Spawn.spawn', 'Process.spawn')], err: %i[child out], &:read)
        expect(out).to end_with(mri)
      end
    end
  end

  # A child passes the gate while any writer has the FIFO open: the caller's open-and-close that releases one
  # child must not overlap another's arrival, be it the shell's child for a script without #! or another
  # thread's gated spawn (seen: the differential test's seed 28 ran a script with RLIMIT_NOFILE 20000), and
  # a child the spawn makes after its first is reaped must still be found (it hung waiting at the gate).
  it 'limits every child, the shell\'s for a script without #! and other threads\' alike (2 x 150 spawns beside busy CPUs)' do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, 'noshebang'), "ulimit -n\n")
      File.chmod(0o755, File.join(dir, 'noshebang'))
      script = <<~RUBY
        seen = Array.new(2) do |t|
          Thread.new do
            Array.new(150) do |i|
              r, w = IO.pipe
              command = i.odd? ? ['./noshebang'] : ['sh', '-c', 'ulimit -n']
              pid = POSIX::Spawn.spawn(*command, rlimit_nofile: 64 + t, chdir: #{dir.inspect}, out: w)
              w.close
              Process.wait(pid)
              r.read.chomp.tap { r.close }
            end.tally
          end
        end.map(&:value)
        p seen
      RUBY
      output = beside_busy_cpus { jruby_output(script, 240) }
      expect(output).to end_with("#{[{ '64' => 150 }, { '65' => 150 }].inspect}\n")
    end
  end

  # exec releases the vfork parent (posix_spawn returns) before the child's close-on-exec descriptors close:
  # for a moment the exec'd child still holds the lifeline's read end. Without close_others, which closes it
  # before exec, the spawn's closing of the lifeline then killed the child (22 of 300 at load 9). Busy CPUs
  # (processes this example starts) widen that moment.
  it 'never kills a child that has exec\'d (close_others: false, 300 spawns beside busy CPUs)' do
    statuses = beside_busy_cpus do
      Array.new(300) do
        POSIX::Spawn.system('true', close_others: false, rlimit_core: 0)
        $?.termsig ? "signal #{$?.termsig}" : "exit #{$?.exitstatus}"
      end
    end
    expect(statuses.tally).to eq('exit 0' => 300)
  end

  # MRI's child sets the limits, then its redirects, then execs: under RLIMIT_NOFILE 3 the dynamic loader of
  # /bin/sh cannot open libc (127); 4 and up run. The gate takes its descriptor before the limits, so the same.
  it 'gives every small :rlimit_nofile what MRI does, 30 times each, with and without a redirect' do
    script = <<~'RUBY'
      spawner = defined?(POSIX::Spawn) ? POSIX::Spawn : Process
      (3..8).each do |n|
        [{}, { err: File::NULL }].each do |redirect|
          outcomes = Array.new(30) do
            Process.wait(spawner.spawn('/bin/sh', '-c', ':', rlimit_nofile: n, **redirect))
            $?.exitstatus
          rescue SystemCallError => e
            e.message
          end
          puts "#{n} #{redirect.keys.inspect} #{outcomes.tally.sort_by(&:to_s).inspect}"
        end
      end
    RUBY
    expected = (3..8).flat_map { |n| [[], [:err]].map { |keys| "#{n} #{keys.inspect} #{[[n == 3 ? 127 : 0, 30]].inspect}" } }
    # Started by the gem, each Ruby has 0, 1 and 2 alone open, whatever this JVM has.
    report = lambda do |ruby|
      r, w = IO.pipe
      pid = POSIX::Spawn.spawn(*ruby, '-e', script, out: w, err: File::NULL)
      w.close
      r.read.lines(chomp: true).tap { Process.wait(pid) }
    ensure
      r&.close
    end
    expect(report.call([*JRubyLauncher.command, '-I', lib, '-rposix/spawn'])).to eq(expected)
    expect(report.call(['/usr/bin/ruby'])).to eq(expected) if File.executable?('/usr/bin/ruby')
  end

  it 'lets no child it holds outlive the JVM: one held when the JVM is killed dies with it' do
    script = <<~'RUBY'
      POSIX::Spawn::Native.hold_at_gate(true)
      Thread.new { POSIX::Spawn.spawn('sleep', '300', rlimit_core: 0) }
      # a thread may end between the glob and the read (the binding thread, the JIT's), and a child may end
      # before its stat is read (the gate's one probe of posix_spawn, a spawn of ""): the one still asleep
      asleep = ->(pid) { (File.read("/proc/#{pid}/stat")[/\) (\S)/, 1] rescue nil) == 'S' }
      held = nil
      until held
        sleep 0.05
        held = Dir.glob('/proc/self/task/*/children').flat_map { |f| (File.read(f) rescue '').split }.find(&asleep)
      end
      puts held
      $stdout.flush
      sleep
    RUBY
    reader, writer = IO.pipe
    # In a group of its own, so that a held child it leaves behind (orphaned) is still the test's to kill.
    group = jruby = POSIX::Spawn.spawn(*JRubyLauncher.command, '-I', lib, '-rposix/spawn', '-e', script, out: writer, err: File::NULL, pgroup: true)
    writer.close
    held = Integer(Timeout.timeout(120) { reader.gets })
    expect(ProcessResources.stat(held)[:state]).to eq('S')
    expect(ProcessResources.program_name(held)).not_to eq('sleep') # held before its exec
    OwnProcesses.kill(:KILL, jruby)
    Process.wait(jruby)
    jruby = nil
    expect(ProcessResources.wait_until_gone(held, 10)).to be(true)
  ensure
    reader&.close
    if jruby
      OwnProcesses.kill(:KILL, jruby)
      Process.wait(jruby)
    end
    OwnProcesses.kill(:KILL, held, in_group: group) if held
  end

  it 'leaves nothing in the temporary directory of a JVM that used it, once that JVM has exited' do
    Dir.mktmpdir do |tmp|
      script = "require 'posix/spawn'; Process.wait(POSIX::Spawn.spawn('true', rlimit_core: 0)); p $?.success?"
      out = IO.popen({ 'TMPDIR' => tmp }, [*JRubyLauncher.command(["-Djava.io.tmpdir=#{tmp}"]), '-I', lib, '-e', script],
                     err: %i[child out], &:read)
      expect(out).to eq("true\n")
      expect(Dir.children(tmp)).to eq([])
    end
  end
end

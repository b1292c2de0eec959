# How a Child waits for, stops and reaps its child, checked on real processes. Included once per set of
# routes (spec/child_spec.rb): Linux's (a pidfd in the capture's poll, pipe2, a buffer grown by mremap) and
# the ones macOS and FreeBSD take (asking waitpid every few milliseconds, as older kernels do; pipe then
# FD_CLOEXEC, as macOS does; a new mapping and a copy), so the fallbacks are held to the same behaviour.
RSpec.shared_examples 'child wait behaviour' do |routes|
  it "runs by #{routes.values.join(', ')}" do
    # Beyond the 32 MiB mapping a finished run leaves for the next, so this one grows its own, byte for byte.
    big = described_class.new('seq', '1', '4500000')
    expect(big.out.bytesize).to be > 32 << 20
    expect(Digest::MD5.hexdigest(big.out)).to eq(described_class.new('sh', '-c', 'seq 1 4500000 | md5sum').out[/\h{32}/])
    expect(POSIX::Spawn::Native.last_buffer_growth).to eq(routes[:buffer_growth])
    expect(POSIX::Spawn::Native.last_reaper_route).to eq(routes[:reaper_route])
    expect(POSIX::Spawn::Native.last_pipes).to eq(routes[:pipes])
  end

  it "gives its child to the gem's one reaper, its only waiter: reaped, no zombie, by the time the run returns" do
    owned = nil
    child = described_class.build('sh', '-c', 'echo started; sleep 0.2; exit 3',
                                  streams: { stdout: ->(_) { owned = POSIX::Spawn::Native.reaper_owned_pids.include?(child.pid); false } })
    child.exec!
    expect(owned).to be(true)
    expect(POSIX::Spawn::Native.reaper_owned_pids).not_to include(child.pid)
    expect(ProcessResources.children).not_to include(child.pid)
    expect([child.status.exitstatus, child.status.pid, $?]).to eq([3, child.pid, child.status])
  end

  it 'ends (TERM, then KILL), reaps and closes everything of a run whose start report raises' do
    # Native.capture's first report (the pid) runs Ruby code: a raise there (or a Thread#raise landing in it)
    # comes before any wait, and the run must still be ended as on an interrupt.
    reports = []
    expect do
      expect do
        POSIX::Spawn::Native.capture(['sh', '-c', 'trap "" TERM; exec sleep 30'], {}) do |report|
          reports << report
          raise 'from the report' unless report.key?(:status)
        end
      end.to raise_error(RuntimeError, 'from the report')
    end.not_to leak(:descriptors, :children)
    # TERM may land before sh has set its trap (the report raises at once): ended by TERM or by KILL
    expect(Signal.list.values_at('TERM', 'KILL')).to include(reports.last[:status].termsig)
    expect(reports.last[:status].pid).to eq(reports.first[:pid])
  end

  describe 'running a command to completion' do
    it 'captures stdout and stderr apart, as binary Strings, with the status and $?' do
      child = described_class.new('sh', '-c', 'printf out; printf err >&2; exit 3')
      expect([child.out, child.err]).to eq(%w[out err])
      expect([child.out.encoding, child.err.encoding]).to eq([Encoding::BINARY] * 2)
      expect(child.status).to be_a(Process::Status)
      expect(child.status.exitstatus).to eq(3)
      expect(child.status.pid).to eq(child.pid)
      expect(child).not_to be_success
      expect($?).to eq(child.status)
      expect(child.runtime).to be_a(Float).and be > 0
    end

    it 'is a success when the command exits zero' do
      expect(described_class.new('true')).to be_success
    end

    it 'waits for the exit of a child that closed its output first, and gives its status' do
      child = described_class.new('sh', '-c', 'exec >&- 2>&-; sleep 0.2; exit 4')
      expect(child.status.exitstatus).to eq(4)
    end

    it 'waits for output written after the child closed stdin and by grandchildren that hold the pipes' do
      expect(described_class.new('sh', '-c', 'exec 0<&-; (sleep 0.2; echo late) &').out).to eq("late\n")
    end
  end

  describe ':timeout' do
    it 'raises TimeoutExceeded, a StandardError, and kills and reaps the child' do
      expect(POSIX::Spawn::TimeoutExceeded.ancestors).to include(StandardError)
      child = described_class.build('sleep', '30', timeout: 0.3)
      expect { child.exec! }.to raise_error(POSIX::Spawn::TimeoutExceeded, /0.3 seconds: sleep 30/)
      expect(child.status.termsig).to eq(Signal.list['TERM'])
      expect(ProcessResources.gone?(child.pid)).to be(true)
      expect($?).to eq(child.status)
    end

    it 'keeps what was captured before the timeout' do
      child = described_class.build('sh', '-c', 'echo before; echo also >&2; exec sleep 30', timeout: 0.5)
      expect { child.exec! }.to raise_error(POSIX::Spawn::TimeoutExceeded)
      expect([child.out, child.err]).to eq(["before\n", "also\n"])
    end

    it 'raises from new too' do
      expect { described_class.new('sleep', '30', timeout: 0.2) }.to raise_error(POSIX::Spawn::TimeoutExceeded)
    end

    it 'kills a child that ignores TERM with KILL after the grace period' do
      child = described_class.build('sh', '-c', 'trap "" TERM; exec sleep 30', timeout: 0.5)
      expect(elapsed { expect { child.exec! }.to raise_error(POSIX::Spawn::TimeoutExceeded) }).to be < 10
      expect(child.status.termsig).to eq(Signal.list['KILL'])
    end

    it 'covers the wait for the exit after the child has closed its output' do
      child = described_class.build('sh', '-c', 'exec >&- 2>&-; exec sleep 30', timeout: 0.5)
      expect(elapsed { expect { child.exec! }.to raise_error(POSIX::Spawn::TimeoutExceeded) }).to be < 10
    end

    it 'lets a command that finishes in time succeed' do
      expect(described_class.new('echo', 'quick', timeout: 10).out).to eq("quick\n")
    end

    it 'means no limit when zero or negative, as in the MRI gem' do
      expect(described_class.new('sleep', '0.1', timeout: 0)).to be_success
    end
  end

  describe ':max' do
    it 'raises MaximumOutputExceeded, a StandardError, keeping exactly the first :max bytes' do
      expect(POSIX::Spawn::MaximumOutputExceeded.ancestors).to include(StandardError)
      child = described_class.build('yes', max: 100_000)
      expect { child.exec! }.to raise_error(POSIX::Spawn::MaximumOutputExceeded, /100000 bytes: yes/)
      expect(child.out).to eq("y\n" * 50_000)
      expect(ProcessResources.gone?(child.pid)).to be(true)
    end

    it 'counts stdout and stderr together' do
      child = described_class.build('sh', '-c', 'printf 12345 >&2; sleep 0.1; printf 67890', max: 8)
      expect { child.exec! }.to raise_error(POSIX::Spawn::MaximumOutputExceeded)
      expect([child.err, child.out]).to eq(%w[12345 678])
    end

    it 'allows output of exactly :max bytes' do
      expect(described_class.new('printf', '12345678', max: 8).out).to eq('12345678')
    end

    it 'counts whole bytes under a fractional :max' do
      child = described_class.build('printf', '12345678', max: 7.9)
      expect { child.exec! }.to raise_error(POSIX::Spawn::MaximumOutputExceeded, /more than 7 bytes/)
      expect(child.out).to eq('1234567')
    end

    # 2**63 - 1 is the largest a long holds: the room left under it must not overflow into a negative
    # read size. Larger ones, and infinity, are no limit.
    [2**63 - 1, 2**70, Float::INFINITY].each do |max|
      it "captures all output under a :max of #{max}" do
        expect(described_class.new('printf', '12345678', max: max).out).to eq('12345678')
      end
    end
  end

  describe ':pgroup_kill' do
    # The shell prints its background sleep's pid, then waits; the timeout then signals the shell.
    # Returns [the sleep's pid, the shell's pid, which leads the sleep's process group].
    def grandchild_of(options)
      child = described_class.build('sh', '-c', 'sleep 30 & echo $!; wait', timeout: 0.5, **options)
      expect { child.exec! }.to raise_error(POSIX::Spawn::TimeoutExceeded)
      [child.out.to_i, child.pid]
    end

    it 'starts the child in its own process group and kills the whole group' do
      grandchild, = grandchild_of(pgroup_kill: true)
      expect(grandchild).to be > 1
      expect(ProcessResources.wait_until_gone(grandchild)).to be(true)
    end

    it 'without it, signals the child alone (the grandchild lives on)' do
      grandchild, leader = grandchild_of(pgroup: true)
      begin
        expect(grandchild).to be > 1
        expect(ProcessResources.gone?(grandchild)).to be(false)
      ensure
        OwnProcesses.kill(:KILL, grandchild, in_group: leader)
      end
    end
  end

  describe 'interrupts' do
    it 'stops at Thread#raise: the child is killed and reaped, partial output kept' do
      child = described_class.build('sh', '-c', 'echo started; exec sleep 30')
      thread = exec_in_thread(child)
      sleep 0.2
      thread.raise(IOError, 'stop')
      expect(elapsed { expect { thread.join }.to raise_error(IOError, 'stop') }).to be < 10
      expect(child.out).to eq("started\n")
      expect(child.status.termsig).to eq(Signal.list['TERM'])
      expect(ProcessResources.gone?(child.pid)).to be(true)
    end

    it 'stops at Thread#kill' do
      child = described_class.build('sleep', '30')
      thread = exec_in_thread(child)
      thread.kill
      expect(elapsed { thread.join }).to be < 10
      expect(ProcessResources.gone?(child.pid)).to be(true)
    end

    it 'stops at Timeout.timeout' do
      child = described_class.build('sleep', '30')
      expect { Timeout.timeout(0.3) { child.exec! } }.to raise_error(Timeout::Error)
      expect(child.status.termsig).to eq(Signal.list['TERM'])
    end

    it 'goes on after Thread#wakeup, which is no interrupt' do
      child = described_class.build('sh', '-c', 'sleep 0.5; echo done')
      thread = exec_in_thread(child)
      thread.wakeup
      thread.join
      expect(child.out).to eq("done\n")
      expect(child).to be_success
    end

  end

  describe 'leaving nothing behind' do
    def leak_check(iterations, &way)
      way.call # first use creates what lives on by design (e.g. Timeout's worker thread)
      expect { iterations.times(&way) }.not_to leak
    end

    def timed_out(*)
      expect { described_class.new('sleep', '30', timeout: 0.01) }.to raise_error(POSIX::Spawn::TimeoutExceeded)
    end

    def over_max(*)
      expect { described_class.new('yes', max: 10) }.to raise_error(POSIX::Spawn::MaximumOutputExceeded)
    end

    def interrupted(*)
      child = described_class.build('sleep', '30')
      thread = exec_in_thread(child)
      thread.raise(IOError)
      expect { thread.join }.to raise_error(IOError)
    end

    def spawn_failed(*)
      expect { described_class.new('no-such-program-here') }.to raise_error(Errno::ENOENT)
    end

    def aborted_by_a_stream(*)
      expect { described_class.new('yes', streams: { stdout: ->(_) { true } }) }.to raise_error(POSIX::Spawn::Aborted)
    end

    def stopped_by_a_stream_raising(*)
      expect { described_class.new('yes', streams: { stderr: nil, stdout: ->(_) { raise IOError } }) }.to raise_error(IOError)
    end

    %i[timed_out over_max interrupted spawn_failed aborted_by_a_stream stopped_by_a_stream_raising].each do |way|
      # Sets, not counts: one leaked descriptor, child or thread shows after a single Child; 20 catch one
      # that leaks now and then, 1,000 (:long) a rare race.
      it "after 20 Childs #{way.to_s.tr('_', ' ')}" do
        leak_check(20) { send(way) }
      end

      it "after 1,000 Childs #{way.to_s.tr('_', ' ')}", :long do
        leak_check(1000) { send(way) }
      end
    end
  end
end

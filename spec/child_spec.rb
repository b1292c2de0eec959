require 'spec_helper'
require 'timeout'
require 'digest'
require_relative 'child/wait_behaviour'

RSpec.describe POSIX::Spawn::Child do
  def elapsed
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    yield
    Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
  end

  # Runs `child.exec!` on another thread and returns that thread once the child has started.
  def exec_in_thread(child)
    thread = Thread.new { child.exec! }
    thread.report_on_exception = false
    Timeout.timeout(10) { sleep 0.01 until child.pid }
    thread
  end

  context 'with what Linux has: a pidfd, pipe2, mremap' do
    include_examples 'child wait behaviour', reaper_route: :pidfd, pipes: :pipe2, buffer_growth: :mremap
  end

  context 'without pidfd_open, pipe2 and mremap (the routes of macOS and FreeBSD)' do
    include_context 'pretend missing', 'pidfd_open', 'pipe2', 'mremap'
    include_examples 'child wait behaviour', reaper_route: :waitpid_poll, pipes: :pipe_then_fd_cloexec, buffer_growth: :mmap_copy
  end

  describe 'running a command to completion' do
    it 'takes every spawn argument form and option: env, argv0, chdir, umask, shell command lines' do
      child = described_class.new({ 'GREETING' => 'hi' }, ['sh', 'renamed'], '-c', 'echo $GREETING $0; pwd; umask',
                        chdir: '/tmp', umask: 0o077)
      expect(child.out).to eq("hi renamed\n/tmp\n0077\n")
      expect(described_class.new('echo a | tr a b').out).to eq("b\n")
    end

    it 'takes setsid: true (the child leads a new session), with pgroup_kill too' do
      [{}, { pgroup_kill: true }].each do |more|
        child = described_class.new(*ChildReport.command(:ids), setsid: true, **more)
        expect(ChildReport.ids(child.out).last).to eq(child.pid), "with #{more.inspect}"
      end
    end

    it 'overrides redirections of 0, 1 and 2 with its own pipes' do
      expect(described_class.new('echo', 'piped', out: '/dev/null').out).to eq("piped\n")
    end

    it 'raises what spawn raises, leaving no descriptor open' do
      expect do
        expect { described_class.new('no-such-program-here') }.to raise_error(Errno::ENOENT, /no-such-program-here/)
        expect { described_class.new('true', chdir: '/no/such/dir') }.to raise_error(Errno::ENOENT, %r{/no/such/dir})
      end.not_to leak(:descriptors)
    end
  end

  describe ':input' do
    it 'feeds every byte value to stdin and captures every byte value from stdout' do
      bytes = (0..255).to_a.pack('C*') * 3
      expect(described_class.new('cat', input: bytes).out).to eq(bytes.b)
    end

    it 'closes stdin at once without :input, so a reader sees end of file' do
      expect(described_class.new('cat').out).to eq('')
      expect(described_class.new('wc', '-c').out.strip).to eq('0')
    end

    it 'is no error when the child exits without reading it (EPIPE is swallowed)' do
      child = described_class.new('true', input: 'x' * (8 << 20))
      expect(child).to be_success
    end

    it 'moves 200 MiB through cat both ways at once without deadlock, byte for byte', :long do
      data = Random.new(42).bytes(1 << 20) * 200
      child = nil
      expect(elapsed { child = described_class.new('cat', input: data) }).to be < 60
      expect(child.out.bytesize).to eq(data.bytesize)
      expect(child.out == data).to be(true)
      expect(child).to be_success
    end

    it 'captures a large stderr and stdout together while feeding stdin' do
      data = 'y' * (4 << 20)
      child = described_class.new('sh', '-c', 'tee /dev/stderr', input: data)
      expect([child.out.bytesize, child.err.bytesize]).to eq([data.bytesize] * 2)
    end
  end

  describe ':streams' do
    def collect(chunks)
      ->(chunk) { chunks << chunk; false }
    end

    it 'hands stdout to its callable chunk by chunk as binary Strings, capturing none of it' do
      chunks = []
      child = described_class.new('sh', '-c', 'seq 1 200000; echo captured >&2', streams: { stdout: collect(chunks) })
      expect(chunks.join).to eq((1..200_000).map { |i| "#{i}\n" }.join)
      expect(chunks.size).to be > 1
      expect(chunks.map(&:encoding).uniq).to eq([Encoding::BINARY])
      expect([child.out, child.err]).to eq(['', "captured\n"])
      expect(child).to be_success
    end

    it 'streams stderr while capturing stdout; a nil callable captures its stream' do
      chunks = []
      child = described_class.new('sh', '-c', 'echo out; echo err >&2', streams: { stdout: nil, stderr: collect(chunks) })
      expect([child.out, child.err, chunks.join]).to eq(["out\n", '', "err\n"])
    end

    it 'streams both outputs of 8 MiB each while feeding as much input, without deadlock, byte for byte' do
      data = Random.new(11).bytes(8 << 20)
      out = []
      err = []
      described_class.new('sh', '-c', 'tee /dev/stderr', input: data, streams: { stdout: collect(out), stderr: collect(err) })
      expect(out.join).to eq(data)
      expect(err.join).to eq(data)
    end

    it 'stops at a true result: Aborted, a StandardError, the child killed and reaped, the other stream captured' do
      expect(POSIX::Spawn::Aborted.ancestors).to include(StandardError)
      child = described_class.build('sh', '-c', 'echo captured >&2; sleep 0.2; echo chunk; exec sleep 30', streams: { stdout: ->(_) { :stop } })
      expect { child.exec! }.to raise_error(POSIX::Spawn::Aborted, 'a streams callable asked to stop: sh -c echo captured >&2; sleep 0.2; echo chunk; exec sleep 30')
      expect([child.out, child.err]).to eq(['', "captured\n"])
      expect(child.status.termsig).to eq(Signal.list['TERM'])
      expect(ProcessResources.gone?(child.pid)).to be(true)
    end

    it 'stops when the callable raises, and lets its exception go on up' do
      child = described_class.build('sh', '-c', 'echo chunk; exec sleep 30', streams: { stdout: ->(_) { raise ArgumentError, 'no more' } })
      expect { child.exec! }.to raise_error(ArgumentError, 'no more')
      expect(child.status.termsig).to eq(Signal.list['TERM'])
      expect(ProcessResources.gone?(child.pid)).to be(true)
    end

    it 'counts the time spent in callables against :timeout' do
      slow = ->(_) { sleep 0.3; false }
      child = described_class.build('sh', '-c', 'while echo tick; do sleep 0.05; done', timeout: 0.5, streams: { stdout: slow })
      expect { Timeout.timeout(10) { child.exec! } }.to raise_error(POSIX::Spawn::TimeoutExceeded)
      expect(ProcessResources.gone?(child.pid)).to be(true)
    end

    it 'lets a callable run a Child of its own' do
      copies = []
      described_class.new('seq', '1', '50000', streams: { stdout: ->(chunk) { copies << described_class.new('cat', input: chunk).out; false } })
      expect(copies.join).to eq((1..50_000).map { |i| "#{i}\n" }.join)
    end

    it 'counts streamed output against :max and hands over exactly :max bytes' do
      chunks = []
      child = described_class.build('yes', max: 100_000, streams: { stdout: collect(chunks) })
      expect { child.exec! }.to raise_error(POSIX::Spawn::MaximumOutputExceeded)
      expect(chunks.join).to eq("y\n" * 50_000)
    end
  end

  describe '.build and #exec!' do
    it 'builds without running, then runs on exec! and returns the status' do
      child = described_class.build('echo', 'later')
      expect([child.pid, child.out, child.status]).to eq([nil, nil, nil])
      expect(child.exec!).to eq(child.status)
      expect(child.out).to eq("later\n")
    end
  end
end

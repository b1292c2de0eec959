require 'spec_helper'

# wait_delay: a background process that inherited the child's stdout (`sleep 600 &`) holds the pipe open
# long after the child itself has exited; with wait_delay the run returns that long after the exit.
RSpec.describe 'POSIX::Spawn::Child wait_delay:' do
  BACKGROUND = ['sh', '-c', 'sleep 600 & echo started $!'].freeze
  # What a loaded machine (two suites on two CPUs) may add to the wait_delay: far below the sleep's 600 s.
  WAIT_DELAY_SLACK = 3

  # Runs the block with the background sleep's pid it returns killed afterwards: the child leads a group
  # of its own (pgroup: true), so the orphaned sleep is still in a group the test made.
  def with_background
    leader = nil
    pid = yield(->(p) { leader = p })
  ensure
    OwnProcesses.kill(:KILL, pid, in_group: leader) if pid&.positive?
  end

  [[:pidfd, false], [:waitpid_poll, true]].each do |route, pretend|
    context "waiting for the exit by #{route}" do
      include_context 'pretend missing', *(%w[pidfd_open] if pretend)

      it 'returns about wait_delay after the exit (not when the background sleep ends), with what was captured, the pipe still held open' do
        POSIX::Spawn::Child.new('true', wait_delay: 0.1) # warm: class loading is not the delay measured
        with_background do |leader|
          child = POSIX::Spawn::Child.new(*BACKGROUND, pgroup: true, wait_delay: 0.5)
          leader.call(child.pid)
          expect(POSIX::Spawn::Native.last_reaper_route).to eq(route)
          expect(child.out).to match(/\Astarted \d+\n\z/)
          expect(child.status).to be_success
          expect(child.runtime).to be < 0.5 + WAIT_DELAY_SLACK
          background = child.out.split.last.to_i
          expect(ProcessResources.gone?(background)).to be(false)
          background
        end
      end

      it 'Handle#communicate returns about wait_delay after the exit too' do
        with_background do |leader|
          handle = POSIX::Spawn.start(*BACKGROUND, out: :pipe, pgroup: true)
          leader.call(handle.pid)
          started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          out, err = handle.communicate(wait_delay: 0.5)
          expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).to be < 0.5 + WAIT_DELAY_SLACK
          expect([out[/\Astarted \d+\n\z/], err, handle.status.success?]).to eq([out, nil, true])
          out.split.last.to_i
        end
      end
    end
  end

  it 'is nil by default (read to the end, as the MRI gem), and rejects what is not a number of seconds' do
    expect(POSIX::Spawn::Child.new('echo', 'x', wait_delay: nil).out).to eq("x\n")
    expect { POSIX::Spawn::Child.new('true', wait_delay: 'soon') }.to raise_error(TypeError, 'wait_delay option must be a number of seconds, not String')
    expect { POSIX::Spawn::Child.new('true', wait_delay: Float::NAN) }.to raise_error(ArgumentError, 'wait_delay option must be a number of seconds, not NaN')
    handle = POSIX::Spawn.start('true', out: :pipe)
    expect { handle.communicate(wait_delay: :x) }.to raise_error(TypeError, 'wait_delay option must be a number of seconds, not Symbol')
    handle.stdout.close
    handle.wait
  end
end

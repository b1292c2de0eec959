require 'spec_helper'

# A supervisor's load (issue #47): thousands of children alive at once through start cost the reaper's two
# threads and a pidfd each in the watch's own descriptor table (none in the process's, which every spawn
# copies), every child is reaped exactly once with its own status, and nothing is left once all have ended.
RSpec.describe 'handles at scale' do
  # The 5,000 in CI's JRuby 10 leg alone (the drop-in's waits beside them), for CI's time; both JRubies otherwise.
  { 5_000 => { ci_leg: 'jruby-10-dropin' }, 20_000 => { long: true } }.each do |count, tags|
    it "reaps #{count} live handles each exactly once, with its status, and leaves no descriptor or thread behind", **tags do
      threads_before = ProcessResources.threads - ProcessResources::REAPER_THREADS
      POSIX::Spawn.start('true').wait # the reaper's threads, epoll and wake-up pipes, from its first use
      before = ProcessResources.snapshot(:descriptors, :children)
      watch_before = ProcessResources.thread_descriptors('posix-spawn-pidfds')
      calls = Hash.new { |h, k| h[k] = [] }
      lock = Mutex.new
      handles = []
      begin
        count.times do
          handle = POSIX::Spawn.start('sleep', '600')
          handle.on_exit { |status| lock.synchronize { calls[status.pid] << status } }
          handles << handle
        end
        expect(handles.count(&:alive?)).to eq(count)
        expect(ProcessResources.threads - threads_before).to eq(ProcessResources::REAPER_THREADS)
        # The table every spawn copies holds no pidfd; the watch's holds one a child, but for those past its
        # descriptor limit (ulimit -n here is 20,000), which the reaper polls instead.
        expect(ProcessResources.descriptors.values.grep(/pidfd/)).to eq([])
        routes = handles.map(&:route).tally
        expect(routes.keys - %i[pidfd waitpid_poll]).to eq([])
        expect(ProcessResources.reaper_pidfds.size).to eq(routes[:pidfd])
        expect(routes.fetch(:pidfd, 0)).to be >= [count, ProcessResources.descriptor_limit - 50].min

        signals = handles.each_with_index.to_h { |h, i| [h.pid, i.even? ? 'TERM' : 'KILL'] }
        # Other waits meanwhile take only their own children, and a handle's pid waits through its handle.
        detached = Process.detach(handles.first.pid)
        others = Array.new(2) do
          Thread.new do
            Array.new(25) { (pid = POSIX::Spawn.spawn('true')) && [Process.wait(pid) == pid, POSIX::Spawn.system('true')] }
          end
        end
        handles.each { |h| h.signal(signals[h.pid]) }
        statuses = handles.map(&:wait)
        expect(others.map(&:value).flatten.uniq).to eq([true])
        expect(detached.value.termsig).to eq(statuses.first.termsig)
        expect(statuses.map { |st| [st.pid, Signal.signame(st.termsig)] }.to_h).to eq(signals)
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
        sleep 0.05 while lock.synchronize { calls.size } < count && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
        sleep 0.2 # a second call for any child would come by now
        lock.synchronize do
          expect(calls.keys.sort).to eq(signals.keys.sort)
          expect(calls.values.map(&:size).uniq).to eq([1])
          expect(calls.transform_values { |(st)| Signal.signame(st.termsig) }).to eq(signals)
        end
        handles.sample(20).each { |h| expect { Process.wait(h.pid) }.to raise_error(Errno::ECHILD) }
      ensure
        handles.each { |h| h.terminate(grace: 0.1) if h.alive? }
      end
      expect(ProcessResources.settled_changes(before, seconds: 5, new_only: true)).to eq({})
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
      sleep 0.01 until ProcessResources.thread_descriptors('posix-spawn-pidfds') == watch_before || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      expect(ProcessResources.thread_descriptors('posix-spawn-pidfds')).to eq(watch_before)
      expect(POSIX::Spawn::Native.reaper_owned_pids).to eq([])
    end
  end
end

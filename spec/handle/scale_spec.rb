require 'spec_helper'

# Many children alive at once through start cost the reaper's one thread and a pidfd each: no thread per
# child (Process.detach's way), and nothing left once every one has been terminated and reaped.
RSpec.describe 'handles at scale' do
  def pidfds
    ProcessResources.descriptors.select { |_, target| target.include?('pidfd') }
  end

  { 200 => {}, 10_000 => { long: true } }.each do |count, tags|
    it "keeps #{count} children alive with one reaper thread and a pidfd each, and reaps every one after terminate", **tags do
      threads_before = ProcessResources.threads - ['posix-spawn-reaper']
      POSIX::Spawn.start('true').wait # the reaper's own thread, epoll and wake-up pipe, from its first use
      before = ProcessResources.snapshot(:descriptors, :children)
      handles = []
      begin
        count.times { handles << POSIX::Spawn.start('sleep', '600') }
        expect(handles.map(&:route).uniq).to eq([:pidfd])
        expect(handles.count(&:alive?)).to eq(count)
        expect(pidfds.size).to be >= count
        expect(ProcessResources.threads - threads_before).to eq(['posix-spawn-reaper'])
        statuses = handles.map { |h| h.terminate(grace: 5) }
        expect(statuses.map(&:termsig).uniq).to eq([Signal.list['TERM']])
      ensure
        handles.each { |h| h.terminate(grace: 0.1) if h.alive? }
      end
      expect(ProcessResources.settled_changes(before, seconds: 5, new_only: true)).to eq({})
      expect(POSIX::Spawn::Native.reaper_owned_pids).to eq([])
    end
  end
end

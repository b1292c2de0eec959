require 'spec_helper'
require_relative 'behaviour'

RSpec.describe POSIX::Spawn::Handle do
  context 'with the reaper waiting on pidfds' do
    include_examples 'handle behaviour', :pidfd
  end

  context 'without pidfd_open (the reaper polling waitpid)' do
    include_context 'pretend missing', 'pidfd_open'
    include_examples 'handle behaviour', :waitpid_poll
  end

  describe 'kill_on_exit' do
    it 'gives the child TERM when a separate JRuby exits, KILL when it ignores TERM, and KILL to its group either way' do
      reader, writer = IO.pipe
      script = <<~RUBY
        require 'posix/spawn'
        polite = POSIX::Spawn.start('sleep', '60', kill_on_exit: true)
        stubborn = POSIX::Spawn.start('sh', '-c', 'trap "" TERM; echo ready; sleep 60', kill_on_exit: true, out: :pipe)
        kept = POSIX::Spawn.start('sleep', '60', pgroup: true) # a group of its own: the test may signal it once orphaned
        # The leader dies of TERM; its group's other member ignores TERM, and outlives it until the KILL.
        group = POSIX::Spawn.start('sh', '-c', '(trap "" TERM; exec sleep 60) & echo $!; exec sleep 61', pgroup: true, kill_on_exit: true, out: :pipe)
        stubborn.stdout.gets
        puts polite.pid, stubborn.pid, kept.pid, group.pid, group.stdout.gets
      RUBY
      jruby = POSIX::Spawn.spawn(*JRubyLauncher.command, '-I', File.expand_path('../../lib', __dir__), '-e', script, out: writer)
      writer.close
      # Not read to the end: the children hold the pipe too (kept until the ensure below).
      polite, stubborn, kept, leader, member = Timeout.timeout(60) { Array.new(5) { reader.gets.to_i } }
      Process.wait(jruby)
      expect($?).to be_success
      expect(ProcessResources.wait_until_gone(polite, 5)).to be(true)
      expect(ProcessResources.wait_until_gone(stubborn, 5)).to be(true)
      expect(ProcessResources.wait_until_gone(leader, 5)).to be(true)
      expect(ProcessResources.wait_until_gone(member, 5)).to be(true)
      expect(ProcessResources.gone?(kept)).to be(false)
    ensure
      reader&.close
      OwnProcesses.kill(:KILL, kept, in_group: kept) if kept&.positive?
      OwnProcesses.kill(:KILL, member, in_group: leader) if member&.positive?
    end
  end

  # The ends are O_NONBLOCK, as MRI's (os/libc/NonBlockingEnds): JRuby's own copy of such an IO took the shared
  # open file's EAGAIN for an end of file (gets nil). MRI, a spawn given IO.pipe's end: ["late\n", ""].
  it 'reads through a dup or clone of a piped end as through the end itself, waiting for the child' do
    handle = POSIX::Spawn.start('sh', '-c', 'sleep 0.2; echo late', out: :pipe)
    copies = [handle.stdout.dup, handle.stdout.clone]
    expect(copies.map { |copy| [copy.gets, copy.read] }).to eq([["late\n", ''], [nil, '']])
  ensure
    copies&.each(&:close)
    handle&.wait
  end
end

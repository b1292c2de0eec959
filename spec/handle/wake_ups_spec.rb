require 'spec_helper'

# The pidfd watch is woken once for a burst of starts (PidfdWatch#add): however the starts of two threads
# fall against its wake-ups, every child is watched and reaped. A lost wake-up leaves the next child unwatched
# until some later start wakes the watch, and the last one of a run for ever: its wait times out.
RSpec.describe 'POSIX::Spawn.start from two threads at once' do
  it 'has every child reaped, in bursts of one to four' do
    lost = Array.new(2) do
      Thread.new do
        unreaped = 0
        1200.times do
          handles = Array.new(rand(1..4)) { POSIX::Spawn.start('true') }
          handles.each { |handle| unreaped += 1 unless handle.wait(timeout: 2) }
          break if unreaped > 0
        end
        unreaped
      end
    end.sum(&:value)
    expect(lost).to eq(0)
  end
end

require 'spec_helper'
require 'json'

# Thousands of spawns mixing every outcome (SpawnLoad::OPERATIONS, Child's timeouts, :max and interrupts
# among them) leave the process exactly as they found it: the same descriptors and threads, no child (so
# no zombie), and no native memory growth beyond noise.
#
# The load runs in a JRuby of its own whose Java heap is fixed and touched up front (-Xms = -Xmx,
# AlwaysPreTouch), so its RSS moves only with native memory (malloc, thread stacks, JIT code) and not
# with the heap. RSS is read after garbage collection at ten checkpoints, after a warm-up that loads
# every class and starts the FS thread and the rlimit gate.
#
# The RSS bound: a leak per spawn of the native block the spawner mallocs (argv, envp, attributes, file
# actions: about 4 KiB here), or of any kernel object behind a descriptor, grows RSS steadily: by
# megabytes per 1,000 spawns, and never back. Noise goes both ways: JIT compilation, malloc arenas and
# GC leave RSS a few MiB up or down at any reading (measured: +-6 MiB over 20,000 spawns, none of it
# lasting). So the growth compared is the lowest reading of the second half minus the lowest of the
# first (a leak lifts every later reading; a spike lifts one), and it must stay under a fixed 16 MiB
# for one-off steps plus 512 KiB per 1,000 spawns: an eighth of the smallest leak that matters, which
# at 20,000 spawns would add at least 40 MiB. The bounded run (1,000) catches only gross leaks (16 KiB
# and more per spawn); the long run is the one that catches a leaked native block.
module LeakLoad
  ONE_OFF_RSS_ALLOWANCE_KIB = 16 * 1024
  STEADY_RSS_ALLOWANCE_KIB_PER_1000 = 512
  HEAP_OPTIONS = '-Xms192m -Xmx192m -XX:+AlwaysPreTouch'.freeze
end

RSpec.describe 'leaks under load' do
  def self.load_report(spawns)
    lib = File.expand_path('../../lib', __dir__)
    script = File.expand_path('../support/spawn_load.rb', __dir__)
    env = { 'JAVA_TOOL_OPTIONS' => LeakLoad::HEAP_OPTIONS }
    output = IO.popen(env, [*JRubyLauncher.command, '-I', lib, script, spawns.to_s], err: %i[child out], &:read)
    raise "the load failed (#{$?.inspect}):\n#{output}" unless $?.success?

    JSON.parse(output.lines.last)
  end

  { 1_000 => {}, 20_000 => { long: true } }.each do |spawns, tags|
    context "#{spawns} spawns mixing #{SpawnLoad::OPERATIONS.keys.join(', ')}", **tags do
      before(:context) { @report = self.class.load_report(spawns) }

      it 'ends with exactly the descriptors it started with' do
        expect(@report['changes']['descriptors']).to be_nil
      end

      it 'ends with no child process: none running, no zombie' do
        expect(@report['children_before']).to be_empty
        expect(@report['changes']['children']).to be_nil
      end

      it 'ends with exactly the threads it started with' do
        expect(@report['changes']['threads']).to be_nil
      end

      it "grows RSS by less than #{LeakLoad::ONE_OFF_RSS_ALLOWANCE_KIB / 1024} MiB + #{LeakLoad::STEADY_RSS_ALLOWANCE_KIB_PER_1000} KiB per 1,000 spawns" do
        readings = @report['rss_kib_at']
        first_half, second_half = readings.partition { |done, _| done <= spawns / 2 }
        growth = second_half.map(&:last).min - first_half.map(&:last).min
        allowed = LeakLoad::ONE_OFF_RSS_ALLOWANCE_KIB + LeakLoad::STEADY_RSS_ALLOWANCE_KIB_PER_1000 * spawns / 1000
        expect(growth).to be < allowed, "RSS (KiB) after n spawns: #{readings.inspect}"
      end
    end
  end
end

require 'spec_helper'
require 'json'

# The C heap (glibc's malloc: every arena) ends where it started after each operation has run many times
# from a pool whose threads are replaced as it runs: no malloc'd byte is left per call or per thread
# (doc/native-memory.md says which native memory exists and who frees it). The RSS checks
# (leaks_spec.rb) cannot see this: a malloc(8) left per call is 32 bytes, 64 KiB after 2,000 calls.
#
# Read in a quiet JRuby of its own (spec/support/native_heap_load.rb: no JIT, serial GC, monitors deflated
# at once), after the heap has settled, between intervals of runs. What the JVM caches for a while (its
# threads come and go) moves the heap by up to 3.5 KiB in one interval of 150 runs, and its smallest growth
# stays under 400 bytes; a leak moves every interval. So the smallest growth of an operation's intervals is
# judged, against 2 KiB: Capture's 8-byte status block, left by about 70 % of Child runs, is 2.7 KiB in the
# bounded run's intervals of 120 runs and 15 KiB in the long run's of 700.
RSpec.describe 'the C heap under load', ci_leg: 'jruby-10-dropin' do
  bound = 2048

  def self.report(runs, warm_up)
    lib = File.expand_path('../../lib', __dir__)
    script = File.expand_path('../support/native_heap_load.rb', __dir__)
    command = [*JRubyLauncher.command(NativeHeapLoad::JVM_OPTIONS), '-I', lib, script, runs.to_s, warm_up.to_s]
    output = IO.popen(command, err: %i[child out], &:read)
    raise "the load failed (#{$?.inspect}):\n#{output}" unless $?.success?

    JSON.parse(output.lines.last)
  end

  # [runs an interval, warm-up runs]. Bounded: about 40 s of CPU a JRuby (9 operations x 460 runs under -Xint).
  { [120, 100] => {}, [700, 300] => { long: true } }.each do |(runs, warm_up), tags|
    context "#{NativeHeapLoad::INTERVALS} intervals of #{runs} runs of each operation", **tags do
      before(:context) do
        @report = self.class.report(runs, warm_up)
        skip "not measured: #{@report['skipped']}" if @report['skipped']
      end

      NativeHeapLoad::OPERATIONS.each_key do |name|
        it "grows by less than #{bound} bytes in some interval with #{name}" do
          growth = @report['growth'].fetch(name.to_s)
          expect(growth.min).to be < bound, "the C heap grew by #{growth.inspect} bytes in the intervals of #{runs} runs"
        end
      end
    end
  end
end

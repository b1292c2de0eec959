# Capture throughput of POSIX::Spawn::Child against what JRuby offers without it, measured in one run:
# Open3.capture3 and java.lang.ProcessBuilder with a drain thread per stream.
#
#   bin/dev jruby -Ilib spec/benchmarks/child_capture.rb [-n RUNS] [-s MiB,MiB,...]
#
# Each case captures `head -c SIZE /dev/zero` into a Ruby String, the cases taking turns; prints the
# median wall time per capture and its ratio to the faster of Open3 and ProcessBuilder (below 1.00:
# Child is faster).
require 'optparse'
require 'open3'
require 'posix/spawn'

runs = 30
warmups = 30
sizes_mib = [1, 16]
OptionParser.new do |o|
  o.on('-n', '--runs N', Integer, "captures per case and size (default #{runs})") { |n| runs = n }
  o.on('-w', '--warmups N', Integer, "untimed captures first, for the JIT (default #{warmups})") { |n| warmups = n }
  o.on('-s', '--sizes LIST', Array, 'output sizes in MiB (default 1,16)') { |l| sizes_mib = l.map(&:to_f) }
end.parse!

def process_builder_capture(*command)
  process = java.lang.ProcessBuilder.new(*command).start
  process.getOutputStream.close
  drains = [process.getInputStream, process.getErrorStream].map { |s| Thread.new { s.readAllBytes } }
  out, err = drains.map { |t| String.from_java_bytes(t.value) }
  process.waitFor
  [out, err]
end

def median(values)
  values.sort[values.size / 2]
end

cases = {
  'POSIX::Spawn::Child' => ->(cmd) { POSIX::Spawn::Child.new(*cmd).out },
  'Open3.capture3' => ->(cmd) { Open3.capture3(*cmd).first },
  'ProcessBuilder+threads' => ->(cmd) { process_builder_capture(*cmd).first },
}

sizes_mib.each do |mib|
  bytes = (mib * 1024 * 1024).to_i
  cmd = ['head', '-c', bytes.to_s, '/dev/zero']
  samples = cases.keys.to_h { |name| [name, []] }
  # Round-robin, in a rotating order, so that load from elsewhere on the machine hits every case alike.
  (warmups + runs).times do |round|
    cases.to_a.rotate(round).each do |name, capture|
      t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      out = capture.call(cmd)
      elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
      raise "#{name} captured #{out.bytesize} bytes, not #{bytes}" unless out.bytesize == bytes
      samples[name] << elapsed if round >= warmups
    end
  end
  times = samples.transform_values { |s| median(s) }
  best_other = times.reject { |name, _| name.start_with?('POSIX') }.values.min
  puts "#{mib} MiB (median of #{runs}, JRuby #{JRUBY_VERSION}, Java #{ENV_JAVA['java.version']}, load #{File.read('/proc/loadavg').split.first}):"
  times.each do |name, t|
    printf "  %-24s %8.1f ms  %5.2fx of the faster alternative\n", name, t * 1e3, t / best_other
  end
end

# One fresh JVM's first operations of one case, for posix-spawn-benchmark --cold (Cold), run as
#
#   jruby -I LIB cold_child.rb CASE COUNT [FEATURE]
#
# Requires FEATURE, the feature of this gem the case needs, before anything else, as a short program's first
# line does (timed: the script's first require, JRuby's parser and load path not yet warmed by another); for
# JRuby's own ways, which need none, a one-line file instead, timed the same way: what any first require
# costs. Then does the case's first COUNT operations, timing each, and prints the times in ms as JSON.
started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
feature = ARGV[2]
require(feature || 'posix/spawn/benchmark/one_line')
required = Process.clock_gettime(Process::CLOCK_MONOTONIC)
require 'json'
require 'posix/spawn/benchmark/cases'

bench = POSIX::Spawn::Benchmark
name, count = ARGV
c = bench::Cases.all([]).find { |candidate| candidate.name == name } or abort "cold_child: no case #{name}"
abort "cold_child: #{name} needs #{c.needs.inspect}, not #{feature.inspect}" unless c.needs == feature
op_ms = Array.new(Integer(count)) do
  before = bench.now
  c.operation.call or abort "cold_child: #{name}: the child did not do what it should"
  (bench.now - before) * 1e3
end
puts JSON.generate(require_ms: (required - started) * 1e3, op_ms: op_ms)

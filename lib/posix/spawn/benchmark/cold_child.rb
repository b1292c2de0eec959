# One fresh JVM's first operations of one case, for posix-spawn-benchmark --cold (Cold), run as
#
#   jruby -I LIB cold_child.rb CASE COUNT
#
# Requires the feature of this gem the case needs (timed; nothing of the gem is loaded before it), does the
# case's first COUNT operations, timing each, and prints the times in ms as JSON.
require 'json'
require 'posix/spawn/benchmark/cases'

bench = POSIX::Spawn::Benchmark
name, count = ARGV
c = bench::Cases.all([]).find { |candidate| candidate.name == name } or abort "cold_child: no case #{name}"
started = bench.now
require c.needs if c.needs
required = bench.now
op_ms = Array.new(Integer(count)) do
  before = bench.now
  c.operation.call or abort "cold_child: #{name}: the child did not do what it should"
  (bench.now - before) * 1e3
end
puts JSON.generate(require_ms: (required - started) * 1e3, op_ms: op_ms)

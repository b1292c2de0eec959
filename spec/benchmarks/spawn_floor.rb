# Where the time of a plain spawn goes: this gem's spawn + wait of `true` against the same posix_spawn
# call made straight through jnr-ffi from this JVM, with argv and envp built once and nothing else (no
# file actions, no attributes, no Ruby), waited for with libc's waitpid and with JRuby's Process.wait;
# and against the C loops of posix-spawn-benchmark. The raw call is the floor for any posix_spawn from a
# JVM, and with Process.wait the floor for any JRuby code that waits as users do; the C loops are the
# floor for posix_spawn at all.
#
#   bin/dev jruby -Ilib spec/benchmarks/spawn_floor.rb [-n SPAWNS] [-r ROUNDS]
#
# Cases take turns round by round; prints each one's median µs per spawn and its ratio to the C
# posix_spawnp loop's in the same rounds.
require 'optparse'
require 'posix/spawn/benchmark'

spawns = 2000
rounds = 10
OptionParser.new do |o|
  o.on('-n', '--spawns N', Integer, "spawns per case (default #{spawns})") { |n| spawns = n }
  o.on('-r', '--rounds N', Integer, "rounds (default #{rounds})") { |n| rounds = n }
end.parse!

# posix_spawn(2) of PROGRAM and waitpid, through jnr-ffi, with everything prepared once.
class RawSpawn
  NATIVE = Java::OrgPosixspawnJrubyOs::Native
  UTF8 = java.nio.charset.StandardCharsets::UTF_8

  def initialize(program)
    @path = c_string(program)
    @argv = pointer_array([@path])
    @envp = pointer_array(ENV.map { |name, value| c_string("#{name}=#{value}") })
    @pid = NATIVE.allocate(8)
    @status = NATIVE.allocate(8)
  end

  # Waits with libc's waitpid, or with JRuby's Process.wait (which also sets $?).
  def call(ruby_wait: false)
    error = NATIVE.libc.posix_spawn(@pid, @path, nil, nil, @argv, @envp)
    raise SystemCallError.new('posix_spawn', error) unless error.zero?

    ruby_wait ? Process.wait(@pid.getInt(0)) : NATIVE.libc.waitpid(@pid.getInt(0), @status, 0)
  end

  private

  # Never freed: this script runs once and exits.
  def c_string(text)
    memory = NATIVE.allocate(text.bytesize + 1)
    memory.putString(0, text, text.bytesize + 1, UTF8)
    memory
  end

  def pointer_array(pointers)
    array = NATIVE.allocate(8 * (pointers.size + 1))
    pointers.each_with_index { |p, i| array.putPointer(8 * i, p) }
    array.putAddress(8 * pointers.size, 0)
    array
  end
end

bench = POSIX::Spawn::Benchmark
true_path = bench.which('true')
raw = RawSpawn.new(true_path)
c_loop = bench::CReference.compile
cases = [
  bench::RubyCase.new('POSIX::Spawn.spawn("true")', :spawn) { Process.wait(POSIX::Spawn.spawn('true')); $?.success? },
  bench::RubyCase.new("POSIX::Spawn.spawn(\"#{true_path}\")", :spawn) { Process.wait(POSIX::Spawn.spawn(true_path)); $?.success? },
  bench::RubyCase.new("raw jnr-ffi posix_spawn(\"#{true_path}\") + waitpid", :spawn) { raw.call },
  bench::RubyCase.new("raw jnr-ffi posix_spawn(\"#{true_path}\") + Process.wait", :spawn) { raw.call(ruby_wait: true) },
  bench::CReference.new(c_loop, 'C posix_spawnp("true")', :search_path, 'true'),
  bench::CReference.new(c_loop, "C posix_spawn(\"#{true_path}\")", :full_path, true_path)
]
cases.each { |c| c.warm_up(300) }
times = Hash.new { |h, c| h[c] = [] }
bench.shares(spawns, rounds).each_with_index do |n, round|
  cases.rotate(round).each { |c| times[c] << c.time_per_op(n, 1) }
end
baseline = times[cases[4]]
puts "median µs per spawn + wait of `true`, #{spawns} per case in #{rounds} rounds; ratio to C posix_spawnp in the same rounds"
cases.each do |c|
  ratio = bench.median(times[c].zip(baseline).map { |mine, theirs| mine / theirs })
  printf("  %-58s %8.1f %6.2f\n", c.name, bench.median(times[c]) * 1e6, ratio)
end

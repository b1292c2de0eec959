# One side of the differential test: runs every call of a calls file (spec/differential/generator.rb) in
# this Ruby, one after the other, and writes what a user could observe of each to a results file, in a
# line format both sides write alike (no JSON or Marshal: MRI and JRuby must not differ in the writer).
#
#   ruby   worker.rb CALLS WORKDIR            MRI: Process.spawn, system, IO.popen, ` themselves
#   jruby -Ilib worker.rb CALLS WORKDIR       JRuby: the gem's module API and the drop-in (installed)
#
# WORKDIR holds bin/reporter (spec/differential/reporter.c, compiled), and gets worker.pgid, the
# reporter's report, a scratch directory a call and `results`. The runner starts this with stdout and
# stderr on WORKDIR/stdout and WORKDIR/stderr (what a child writes to an inherited one is read back from
# there) and stdin on /dev/null.
GEM = RUBY_ENGINE == 'jruby'
require 'posix/spawn/kernel' if GEM
# The drop-in's methods are what the JRuby side's spawn, system, popen and backtick calls exercise.
abort 'the drop-in did not install' if GEM && !POSIX::Spawn::Kernel.installed?
require 'fileutils'

CALLS, WORK = ARGV
WORK_DIR = File.realpath(WORK)
REPORTER = File.join(WORK_DIR, 'bin', 'reporter')
REPORT = File.join(WORK_DIR, 'report')
TIMEOUT = Float(ENV.fetch('DIFFERENTIAL_TIMEOUT', '6'))
File.write(File.join(WORK_DIR, 'worker.pgid'), Process.getpgrp.to_s)
# Programs by name ("reporter") are found on PATH, as a user's are; the runner gave both sides one PATH.
ENV['PATH'] = "#{WORK_DIR}/bin:#{ENV['PATH']}"
ENV['DIFF_INHERITED'] = 'yes'
def fileno(io)
  GEM ? io.posix_fileno : io.fileno
end

# The worker's own IOs sit above the descriptors calls name by number (3..9) and above every small
# rlimit_nofile a call sets, on both sides: a call naming one by number then fails alike.
PAD = []
PAD << File.open(File::NULL) while PAD.empty? || fileno(PAD.last) < 100

# What every call's source can name: the scratch directory's fixtures and the worker's IOs, opened fresh
# for the call (r1: a file to read, w1: a file to write, pw/pr: a pipe the worker reads back, pin: a pipe
# at its end with data in it, inh: a file marked inheritable, closed: a closed IO).
class Call
  attr_reader :ios

  def initialize
    @ios = {}
  end

  def rep; REPORTER; end
  def worker_pgid; Process.getpgrp; end
  def hard_nofile; Process.getrlimit(:NOFILE)[1]; end
  def r1; io(:r1) { File.open('in.txt') }; end
  def w1; io(:w1) { File.open('w1.txt', 'w') }; end
  def pr; pipe; io(:pr); end
  def pw; pipe; io(:pw); end
  def closed; io(:closed) { File.open('in.txt').tap(&:close) }; end

  def pin
    io(:pin) do
      reader, writer = IO.pipe
      writer.write("piped\n")
      writer.close
      reader
    end
  end

  def inh
    io(:inh) { File.open('inh.txt', 'w').tap { |f| f.close_on_exec = false } }
  end

  def pipe
    return if @ios[:pr]
    @ios[:pr], @ios[:pw] = IO.pipe
  end

  def io(name)
    @ios[name] ||= yield
  end

  # An object whose `conversion` (to_hash, to_str...) gives `result`: its class name is in MRI's TypeError.
  class Wrong
    def initialize(conversion, result)
      define_singleton_method(conversion) { result }
      @conversion = conversion
    end

    def inspect
      "#<Wrong #{@conversion}>"
    end
  end

  def wrong(conversion, result = 5)
    Wrong.new(conversion, result)
  end

  # Runs the call under these default encodings (nil: left as it is); #restore puts them back.
  def encodings(external, internal)
    @encodings ||= [Encoding.default_external, Encoding.default_internal]
    Encoding.default_external = external if external
    Encoding.default_internal = internal
  end

  def restore
    Encoding.default_external, Encoding.default_internal = @encodings if @encodings
  end

  def close
    @ios.each_value { |io| io.close unless io.closed? }
  end
end

# A helper process of the worker's own (cp, rm, the listing), waited for; not part of what is compared.
def helper(*command, **options)
  pid = GEM ? POSIX::Spawn.spawn(*command, **options) : Process.spawn(*command, **options)
  Process.wait(pid)
  raise "#{command.inspect} failed: #{$?.inspect}" unless $?.success?
end

# The fixtures every call starts with, copied into its scratch directory. Made by sh, and copied and
# listed by helpers: JRuby cannot name a file whose name is not UTF-8 (d\xFF, \xFF.sh).
FIXTURES = File.join(WORK_DIR, 'fixtures')
helper('/bin/sh', '-ec', <<~SH, 'sh', FIXTURES, REPORTER)
  mkdir -p "$1" && cd "$1"
  printf 'input\\n' > in.txt
  printf 'existing\\n' > exist.txt
  printf 'exec %s noexec\\n' "$2" > noexec.txt && chmod 644 noexec.txt
  printf 'exec %s noshebang "$@"\\n' "$2" > noshebang && chmod 755 noshebang
  printf '#!/bin/sh\\nexec %s shebang "$@"\\n' "$2" > shebang && chmod 755 shebang
  printf '#!/bin/sh\\nexec %s nonutf8 "$@"\\n' "$2" > "$(printf '\\377.sh')" && chmod 755 "$(printf '\\377.sh')"
  mkdir dir "$(printf 'd\\377')"
  printf 'ro\\n' > readonly.txt && chmod 444 readonly.txt
SH

def escape(bytes)
  bytes.to_s.b.gsub(/[^\x20-\x7e]|\\/n) { |c| format('\\x%02X', c.ord) }
end

# A call's pipes, sockets and other inodes become A, B... of their kind in order of appearance, the workdir
# $W: nothing else of a call differs between two correct runs. A kind a counter (a JVM socket the gem
# passes with close_others: false must not rename the pipes after it).
class Normalizer
  def initialize
    @names = Hash.new { |h, kind| h[kind] = {} }
  end

  def call(text)
    text.gsub(WORK_DIR.b, '$W'.b).gsub(/(pipe|socket|anon_inode):\[?([^\]\s]+)\]?/n) do
      names = @names[Regexp.last_match(1)]
      "#{Regexp.last_match(1)}:#{names[Regexp.last_match(2)] ||= ('A'.ord + names.size).chr}"
    end
  end
end

# What a read returned: its bytes and its encoding.
def read_text(string)
  string ? "#{escape(string)} #{string.encoding}" : 'nil'
end

def status_text(status)
  return 'nil' unless status
  return "signal #{status.termsig}" if status.signaled?
  "exit #{status.exitstatus.inspect} success=#{status.success?.inspect}"
end

def run(api, args, flags, out)
  case api
  when 'mod_spawn', 'spawn', 'kernel_spawn'
    pid = if api == 'kernel_spawn' then spawn(*args)
          elsif api == 'mod_spawn' && GEM then POSIX::Spawn.spawn(*args)
          else Process.spawn(*args)
          end
    out << "returned=#{pid.is_a?(Integer) ? 'pid' : pid.inspect}"
    out << "spawn $?=#{status_text($?)}"
    Process.wait(pid)
  when 'mod_system', 'system'
    value = api == 'mod_system' && GEM ? POSIX::Spawn.system(*args) : system(*args)
    out << "returned=#{value.inspect}"
  when 'popen'
    io = IO.popen(*args)
    begin
      if flags.include?('write')
        begin
          io.write("to popen\n")
        rescue Errno::EPIPE
          nil # the child may end before reading, or after: a race on both sides, not an observation
        rescue StandardError => e
          out << "write raised=#{e.class}: #{e.message}"
        end
        io.close_write if flags.include?('read')
      end
      out << "returned=#{read_text(io.read)}" if flags.include?('read')
    ensure
      io.close
    end
  when 'backtick'
    out << "returned=#{read_text(`#{args.first}`)}"
  else
    raise ArgumentError, "no api #{api}"
  end
end

# The worker's children, and theirs: what a hung call leaves to be killed.
def descendants(pid = Process.pid)
  children = Dir.glob('/proc/[0-9]*/stat').filter_map do |stat|
    fields = File.read(stat).sub(/\A.*\) /m, '').split
    File.basename(File.dirname(stat)).to_i if fields[1].to_i == pid
  rescue SystemCallError
    nil
  end
  children + children.flat_map { |child| descendants(child) }
end

def inherited_output(name, from)
  File.open(File.join(WORK_DIR, name), 'rb') { |f| f.seek(from); f.read }
end

# What one call let a user see (all but the files it left: #listings), as lines.
def one(id, api, flags, source)
  scratch = File.join(SCRATCH, id)
  File.delete(REPORT) if File.exist?(REPORT)
  Dir.chdir(scratch)
  call = Call.new
  out = []
  sizes = %w[stdout stderr].map { |f| File.size(File.join(WORK_DIR, f)) }
  # A thread of its own: $? starts nil, and a call that hangs can be given up on.
  thread = Thread.new do
    Thread.current.report_on_exception = false
    begin
      run(api, call.instance_eval(source), flags, out)
    rescue Exception => e # rubocop:disable Lint/RescueException -- what the call raised is the observation
      out << "raised=#{e.class}: #{e.message}"
    end
    out << "$?=#{status_text($?)}"
  end
  unless thread.join(TIMEOUT)
    out << 'HANG'
    descendants.each { |pid| Process.kill(:KILL, pid) rescue nil }
    thread.join(TIMEOUT) or out << 'HANG-after-kill'
  end
  call.restore
  # A worker IO's descriptor number differs between the sides: a child that inherited it sees its name.
  numbers = call.ios.to_h { |name, io| [io.closed? ? -1 : fileno(io), name] }
  call.ios[:pw]&.close
  if (reader = call.ios[:pr]) && !reader.closed?
    out << "pipe=#{escape(reader.read_nonblock(65_536, exception: false).to_s)}"
  end
  Dir.chdir(WORK_DIR)
  reports = File.exist?(REPORT) ? File.binread(REPORT).split(/^report\n/n).reject(&:empty?).sort : []
  out << "children=#{reports.size}"
  reports.each do |report|
    lines = report.lines.map { |l| l.chomp.sub(/\Afd (\d+)=/) { "fd #{numbers[$1.to_i] || $1}=" } }
    # environ's order is JRuby's ENV's (a hash map), not something MRI promises either: sorted.
    head = lines.take_while { |l| !l.start_with?('env=') }
    out.concat(head, lines.grep(/\Aenv=/).sort, lines.drop(head.size).grep_v(/\Aenv=/), ['--'])
  end
  out << "inherited stdout=#{escape(inherited_output('stdout', sizes[0]))}"
  out << "inherited stderr=#{escape(inherited_output('stderr', sizes[1]))}"
  call.close
  normalize = Normalizer.new
  out.map { |line| normalize.call(line.b) }
end

# What each call's scratch directory holds at the end, by call id: one listing for all, by a helper.
def listings
  file = File.join(WORK_DIR, 'listing')
  helper(REPORTER, '--list', SCRATCH, out: file)
  File.binread(file).lines.map(&:chomp).group_by { |l| l[/\Afile (\d+)/n, 1] }.to_h do |id, lines|
    [id, lines.drop(1).map { |l| l.sub("file #{id}/", 'file ').gsub(WORK_DIR.b, '$W'.b) }]
  end
end

calls = File.readlines(CALLS, mode: 'rb').map { |line| line.chomp.split("\t", 4) }
SCRATCH = File.join(WORK_DIR, 'scratch')
# Every call's scratch directory at once: a helper per call would double the time a call takes.
helper('/bin/sh', '-ec', 'f=$1 d=$2; shift 2; mkdir -p "$d"; for id; do cp -a "$f" "$d/$id"; done',
       'sh', FIXTURES, SCRATCH, *calls.map(&:first))
observed = calls.map { |id, api, flags, source| [id, one(id, api, flags.split(','), source.force_encoding('UTF-8'))] }
files = listings
helper('rm', '-rf', SCRATCH) unless ENV['DIFFERENTIAL_KEEP']
File.open(File.join(WORK_DIR, 'results'), 'wb') do |results|
  observed.each { |id, lines| results.write(["call #{id}", *lines, *files.fetch(id, []), ''].join("\n")) }
  results.write("done\n")
end

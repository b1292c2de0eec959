# The differential test against MRI (issue #28): calls generated from a seed (generator.rb) are run by
# /usr/bin/ruby and by the gem on this JRuby (worker.rb, one process a side for all calls, started plain
# and again under a parent that ignores HUP, INT and QUIT), each child a reporter (reporter.c) that
# records what it was given; then each call's observations (and what each worker left in its temporary
# directory) are compared, but for allowed.rb's entries.
#
#   bin/dev spec spec/differential             the fixed seed (differential_spec.rb; part of bin/dev test)
#   bin/dev rake differential [SEED=n] [N=n]   thousands from a random seed, printed; kept in tmp/differential
#
# DIFFERENTIAL_MRI (another MRI), DIFFERENTIAL_NO_PENDING=1 (the pending entries of allowed.rb left out),
# DIFFERENTIAL_KEEP=1 (the workers keep every call's scratch directory).
require 'fileutils'
require 'posix/spawn'
require_relative 'generator'
require_relative 'allowed'
require_relative '../support/jruby_launcher'

module Differential
  MRI = ENV.fetch('DIFFERENTIAL_MRI', '/usr/bin/ruby')
  HERE = __dir__
  LIB = File.expand_path('../../lib', __dir__)
  # The workers' environment, the same on both sides (nothing of the caller's leaks in).
  WORKER_ENV = { 'PATH' => '/usr/local/bin:/usr/bin:/bin', 'HOME' => Dir.home, 'LANG' => 'C.UTF-8', 'DIFF_OUTER' => 'kept' }.freeze
  # The workers' own parent ignores these, as nohup or a shell's background job would: children must keep them ignored.
  IGNORING = ['/bin/sh', '-c', 'trap "" HUP INT QUIT; exec "$@"', 'sh'].freeze

  # The pseudo call that compares what each worker left in its TMPDIR (and the JVM in java.io.tmpdir).
  TMP_CALL = "tmp\tworker\t-\t(what the worker left in its temporary directory)"

  # One differing call: its line, and the lines each side alone wrote.
  Difference = Struct.new(:id, :call, :variant, :mri_only, :gem_only) do
    def to_s
      ["call #{id} (#{variant}) #{call.tr("\t", ' ')}", *mri_only.map { |l| "  mri: #{l}" },
       *gem_only.map { |l| "  gem: #{l}" }].join("\n")
    end
  end

  # Runs COUNT calls from SEED under /usr/bin/ruby and under this JRuby with the gem, once plain and once
  # with HUP/INT/QUIT ignored by the workers' parent, and compares what each call let a user see.
  class Runner
    attr_reader :calls, :differences, :explained, :timings

    def self.mri?
      File.executable?(MRI)
    end

    def self.cc?
      ENV['PATH'].to_s.split(':').any? { |dir| File.executable?(File.join(dir, 'cc')) }
    end

    # `ignored`: how many of the calls (the first ones) also run with the ignored signals (all by default).
    # `per_call_timeout`: seconds before a call counts as hung, above the reporter's 3 s wait for stdin's end.
    def initialize(seed:, count:, dir:, ignored: count, per_call_timeout: 6)
      @seed = seed
      @count = count
      @ignored = ignored
      @dir = dir
      @per_call_timeout = per_call_timeout
      @timings = {}
    end

    def run
      @calls = Generator.new(@seed).calls(@count)
      FileUtils.mkdir_p(@dir)
      reporter = compile
      @differences = []
      @explained = Hash.new(0)
      # All four workers at once: most of a JRuby worker's time is its start.
      batches = { 'plain' => [[], @calls], 'ignored' => [IGNORING, @calls.first(@ignored)] }.map do |variant, (prefix, calls)|
        calls_file = File.join(@dir, "calls-#{variant}")
        File.binwrite(calls_file, calls.map { |c| "#{c}\n" }.join)
        sides = %w[mri gem].to_h do |side|
          work = File.join(@dir, variant, side)
          Differential.remove(work)
          FileUtils.mkdir_p([File.join(work, 'bin'), File.join(work, 'tmp')])
          # The JVM's temporary files where the worker's are, to see what it leaves behind. -X-C: the worker's
          # Ruby interpreted, not compiled: a fifth less CPU for a few hundred calls.
          ruby = side == 'mri' ? [MRI] : [*JRubyLauncher.command(["-Djava.io.tmpdir=#{work}/tmp"]), '-X-C', '-I', LIB]
          FileUtils.cp(reporter, File.join(work, 'bin', 'reporter'))
          [side, start(work, [*prefix, *ruby, File.join(HERE, 'worker.rb'), calls_file, work])]
        end
        [variant, calls, sides]
      end
      wait_all(batches.flat_map { |variant, _, sides| sides.map { |side, worker| ["#{variant} #{side}", *worker] } })
      batches.each do |variant, calls, sides|
        results = sides.to_h { |side, (work, _)| [side, results(variant, side, work).merge('tmp' => leftovers(work))] }
        compare(variant, [*calls, TMP_CALL], results['mri'], results['gem'])
      end
      self
    end

    private

    def compile
      out = File.join(@dir, 'reporter')
      pid = POSIX::Spawn.spawn('cc', '-O', '-o', out, File.join(HERE, 'reporter.c'))
      Process.wait(pid)
      raise "cc reporter.c failed: #{$?.inspect}" unless $?.success?
      out
    end

    # What a worker left in its temporary directory once it ended (names without their random part).
    def leftovers(work)
      Dir.children(File.join(work, 'tmp')).sort.map { |name| "tmp left=#{name.sub(/\d+\z/, '*')}" }
    end

    def start(work, command)
      env = WORKER_ENV.merge('DIFFERENTIAL_TIMEOUT' => @per_call_timeout.to_s, 'TMPDIR' => File.join(work, 'tmp'))
      pid = POSIX::Spawn.spawn(env, *command, unsetenv_others: true, pgroup: true, in: File::NULL,
                               out: File.join(work, 'stdout'), err: File.join(work, 'stderr'))
      [work, pid]
    end

    # Waits for every worker ([name, work, pid]), noting how long each took; one that does not end in time
    # (a call that hangs past the worker's own timeouts) is killed with its process group.
    def wait_all(workers)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      deadline = started + 120 + @count * @per_call_timeout / 5.0
      until workers.empty?
        now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        workers.reject! do |name, _, pid|
          Process.kill(:KILL, -pid) if now > deadline
          next false unless Process.wait(pid, Process::WNOHANG)
          @timings[name] = now - started
        end
        sleep 0.05
      end
    end

    # A worker's results, by call id.
    def results(variant, side, work)
      text = File.exist?(File.join(work, 'results')) ? File.binread(File.join(work, 'results')) : ''
      unless text.end_with?("done\n")
        raise "#{side} worker (#{variant}) did not finish (#{@timings["#{variant} #{side}"].round} s): " \
              "#{File.binread(File.join(work, 'stderr')).byteslice(-3000, 3000)}"
      end
      text.split(/^call /n).drop(1).to_h { |chunk| id, *lines = chunk.lines.map(&:chomp); [id, lines - ['done']] }
    end

    def compare(variant, calls, mri, gem)
      calls.each do |call|
        id = call[/\A[^\t]+/]
        a, b = Allowed.apply(call, mri.fetch(id), gem.fetch(id), @explained)
        next if a == b
        # The same lines in another order (argv, descriptors): shown whole.
        mri_only, gem_only = a - b, b - a
        mri_only, gem_only = a, b if mri_only.empty? && gem_only.empty?
        @differences << Difference.new(id, call, variant, mri_only, gem_only)
      end
    end
  end

  # rm, not FileUtils: JRuby cannot name the fixtures whose names are not UTF-8.
  def self.remove(dir)
    POSIX::Spawn.system('rm', '-rf', dir) or raise "rm -rf #{dir} failed"
  end

  # Differences grouped by kind (the prefixes of the lines that differ), most frequent first.
  def self.summary(differences)
    differences.group_by { |d| kind(d) }.sort_by { |_, ds| -ds.size }.map do |kind, ds|
      "#{ds.size} x #{kind}\n#{ds.first}"
    end.join("\n\n")
  end

  def self.kind(difference)
    prefixes = (difference.mri_only + difference.gem_only).map { |l| l[/\A[^=]*/] }.uniq.sort
    raised = (difference.mri_only + difference.gem_only).grep(/\Araised=/).map { |l| l[/\Araised=[^:]+(::\w+)*/] }
    "#{prefixes.join(' | ')}#{" (#{raised.join(' vs ')})" unless raised.empty?}"
  end
end

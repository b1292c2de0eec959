require 'spec_helper'
require 'fileutils'

# Eight threads spawn at once, each child with its own environment, directory, umask and descriptors;
# every child must report exactly its own, whether it ran by posix_spawn from the calling thread or
# through the FS thread (:umask), which are interleaved.
module ConcurrentSpawns
  SPAWNING_THREADS = 8
  UMASKS = [0o002, 0o007, 0o022, 0o027, 0o033, 0o037, 0o066, 0o077].freeze
  # Prints the child's token, directory, umask and each open descriptor with its target. The glob's own
  # directory handle is closed again by the time it is tested; readlink runs as a child of the shell, so
  # the shell opens nothing more while the list is printed.
  CHILD_REPORT_SCRIPT = <<~'SH'.freeze
    printf '%s\n' "$TOKEN"; pwd; umask
    for f in /proc/$$/fd/*; do [ -e "$f" ] || continue; printf '%s ' "${f##*/}"; readlink "$f"; done
  SH
end

# What both suites share: threads started at once, and the descriptor reading they compare.
module ConcurrentThreads
  # Runs the block in SPAWNING_THREADS threads at once, given the thread's index and a Queue to push
  # failures on; an exception counts as one. Expects no thread still running after ten minutes (generous:
  # a deadlock shows that way) and no failure, naming each.
  def in_threads_at_once
    failures = Queue.new
    threads = Array.new(ConcurrentSpawns::SPAWNING_THREADS) do |index|
      Thread.new do
        yield index, failures
      rescue Exception => e # rubocop:disable Lint/RescueException -- any exception is a failure to report
        failures << "thread #{index}: #{e.class}: #{e.message}"
      end
    end
    hung = threads.reject { |t| t.join(600) }
    expect(hung).to be_empty, "#{hung.size} threads still running: deadlock?"
    failed = Array.new(failures.size) { failures.pop }
    expect(failed).to be_empty, "#{failed.size} failures:\n#{failed.join("\n")}"
  end

  # JRuby keeps a pool of selectors (an eventpoll and an eventfd each) for blocking reads from many
  # threads, grown as contention demands; the gem opens neither kind, so they are left out.
  def descriptors_but_selectors
    ProcessResources.descriptors.reject { |_, target| target.match?(/\Aanon_inode:\[(eventpoll|eventfd)\]\z/) }
  end
end

RSpec.describe 'concurrent spawns' do
  include ConcurrentThreads

  # Spawns one child for thread `index`, round `round`, and returns what it reported and what it should.
  def spawn_and_report(index, round, dir, extra)
    token = "thread-#{index}-round-#{round}-#{rand(2**64)}"
    umask = round.even? ? ConcurrentSpawns::UMASKS[index] : nil
    reader, writer = IO.pipe
    options = { chdir: dir, in: '/dev/null', out: writer, err: [:child, :out], 3 => extra }
    options[:umask] = umask if umask
    pipe = ProcessResources.descriptors.fetch(writer.fileno)
    pid = POSIX::Spawn.spawn({ 'TOKEN' => token }, 'sh', '-c', ConcurrentSpawns::CHILD_REPORT_SCRIPT, options)
    writer.close
    report = reader.read
    Process.wait(pid)
    expected = [token, dir, format('%04o', umask || File.umask),
                "0 /dev/null", "1 #{pipe}", "2 #{pipe}", "3 #{extra.path}"].join("\n") + "\n"
    [report, expected, $?]
  ensure
    reader&.close
    writer&.close unless writer&.closed?
  end

  def run_threads(rounds)
    dirs = Array.new(ConcurrentSpawns::SPAWNING_THREADS) { |i| Dir.mktmpdir("posix-spawn-thread-#{i}-") }
    extras = dirs.map { |dir| File.open(File.join(dir, 'extra'), 'w') }
    in_threads_at_once do |index, failures|
      rounds.times do |round|
        report, expected, status = spawn_and_report(index, round, File.realpath(dirs[index]), extras[index])
        failures << "thread #{index} round #{round}: #{report.inspect}, expected #{expected.inspect}" unless report == expected && status.success?
      end
    end
  ensure
    extras&.each(&:close)
    dirs&.each { |dir| FileUtils.remove_entry(dir) }
  end

  { 50 => {}, 1_000 => { long: true } }.each do |rounds, tags|
    it "#{ConcurrentSpawns::SPAWNING_THREADS} threads x #{rounds} spawns: each child has exactly its own env, cwd, umask and descriptors", **tags do
      # Two descriptors are opened once per JVM, at first use, and kept: the FS thread's /proc children
      # list (first :umask spawn), and the socket the JDK's NIO dup2s over a descriptor closed while a
      # thread may block on it (sun.nio.ch.UnixDispatcher's pre-close socket: opened at startup on Java
      # 17, at the first IO.pipe on Java 25). A run alone (`--tag long`) would otherwise count them.
      run_threads(1)
      before = { descriptors: descriptors_but_selectors, children: ProcessResources.children }
      run_threads(rounds)
      after = -> { { descriptors: descriptors_but_selectors, children: ProcessResources.children } }
      expect(ProcessResources.settled_changes(before, new_only: true, &after)).to eq({}) # a pipe closed meanwhile is an earlier IO collected as garbage
    end
  end
end

# Eight threads start, wait for and terminate handles at once, each ending handles the others started:
# every status is the right one, and the reaper is left holding nothing.
RSpec.describe 'concurrent handles' do
  include ConcurrentThreads

  # Each round: a handle of `exit N` waited for by its starter, one reporting its token on a pipe, and one
  # left running for another thread to terminate (a Queue shared by all); then one taken from that Queue.
  def run_threads(rounds)
    running = Queue.new
    in_threads_at_once do |index, failures|
      rounds.times do |round|
        code = (index * rounds + round) % 256
        status = POSIX::Spawn.start('sh', '-c', "exit #{code}").wait
        failures << "thread #{index} round #{round}: #{status.inspect}, expected exit #{code}" unless status.exitstatus == code
        token = "thread-#{index}-round-#{round}"
        reporter = POSIX::Spawn.start({ 'TOKEN' => token }, 'sh', '-c', 'echo "$TOKEN"', out: :pipe)
        out, = reporter.communicate
        failures << "thread #{index} round #{round}: #{out.inspect}" unless out == "#{token}\n" && reporter.status.success?
        running << POSIX::Spawn.start('sleep', '30')
        other = running.pop
        ended = other.terminate(grace: 5)
        failures << "thread #{index} round #{round}: terminate gave #{ended.inspect}" unless ended.termsig == Signal.list['TERM']
      end
    end
  end

  { 20 => {}, 500 => { long: true } }.each do |rounds, tags|
    it "#{ConcurrentSpawns::SPAWNING_THREADS} threads x #{rounds} rounds of starting, waiting and terminating handles: right statuses, nothing left", **tags do
      run_threads(1) # the reaper's thread and descriptors, JRuby's per-thread selectors
      before = { descriptors: descriptors_but_selectors, children: ProcessResources.children, threads: ProcessResources.threads }
      run_threads(rounds)
      after = -> { { descriptors: descriptors_but_selectors, children: ProcessResources.children, threads: ProcessResources.threads } }
      expect(ProcessResources.settled_changes(before, new_only: true, &after)).to eq({})
      expect(POSIX::Spawn::Native.reaper_owned_pids).to eq([])
    end
  end
end

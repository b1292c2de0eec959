require 'spec_helper'
require 'fileutils'

# Linux keeps the answers of the PATH search (ProgramCache) while nothing the search went through has
# changed (PathWatch: inotify on every directory resolving each probed entry/name, and the mount table).
# Each example spawns a command often enough to be answered from the cache, makes one change, and expects
# the very next spawn to see it, as MRI's search, made afresh every time, sees it.
RSpec.describe 'the PATH search cache', if: RbConfig::CONFIG['host_os'].include?('linux') do
  # ProgramCache caches after 8 searches (once the JVM has made 64: spec_helper's open_path_watch), and after each
  # change after twice as many as the last time (at most 1,024).
  MOST_SEARCHES = 1025

  # Not under /tmp: a change anywhere a search went through (another suite's temporary files in /tmp) makes
  # the answer stale, and the examples need it to stay cached until they change something.
  TMP = File.expand_path('../../tmp', __dir__)

  around do |example|
    FileUtils.mkdir_p(TMP)
    Dir.mktmpdir('posix-spawn-cache', TMP) do |dir|
      @dir = File.realpath(dir)
      saved = ENV['PATH']
      begin
        example.run
      ensure
        ENV['PATH'] = saved
      end
    end
  end

  def dir(*names)
    File.join(@dir, *names).tap { |d| FileUtils.mkdir_p(d) }
  end

  def install(directory, says, name = 'cached-prog')
    path = File.join(directory, name)
    File.write(path, "#!/bin/sh\necho #{says}\n")
    File.chmod(0o755, path)
    path
  end

  # What the program found on PATH says, and how the search was answered.
  def run_prog(name = 'cached-prog')
    r, w = IO.pipe
    pid = POSIX::Spawn.spawn(name, out: w)
    how = POSIX::Spawn::Native.last_program_lookup
    w.close
    said = r.read.strip
    r.close
    Process.wait(pid)
    [said, how]
  end

  # Spawns until the answer comes from the cache (at most MOST_SEARCHES times), expecting the program to say `says`.
  def cached(says, name = 'cached-prog')
    answer = nil
    MOST_SEARCHES.times do
      answer = run_prog(name)
      break if answer.last == :cached
    end
    expect(answer).to eq([says, :cached])
  end

  it 'answers a command spawned again and again from the cache' do
    ENV['PATH'] = "#{dir('late')}:/usr/bin:/bin"
    install(dir('late'), 'late')
    expect(run_prog).to eq(['late', :searched])
    cached('late')
  end

  it 'sees a program installed in an earlier PATH directory, made non-executable, and removed' do
    ENV['PATH'] = "#{dir('early')}:#{dir('late')}:/usr/bin:/bin"
    install(dir('late'), 'late')
    cached('late')
    early = install(dir('early'), 'early')
    expect(run_prog.first).to eq('early')
    cached('early')
    File.chmod(0o644, early)
    expect(run_prog.first).to eq('late')
    cached('late')
    File.chmod(0o755, early)
    expect(run_prog.first).to eq('early')
    cached('early')
    File.delete(early)
    expect(run_prog.first).to eq('late')
    cached('late')
    File.delete(File.join(dir('late'), 'cached-prog'))
    expect { POSIX::Spawn.spawn('cached-prog') }.to raise_error(Errno::ENOENT, /cached-prog/)
  end

  it 'sees an earlier PATH directory that did not exist when the answer was cached' do
    missing = File.join(@dir, 'not', 'yet', 'bin')
    ENV['PATH'] = "#{missing}:#{dir('late')}:/usr/bin:/bin"
    install(dir('late'), 'late')
    cached('late')
    FileUtils.mkdir_p(missing)
    install(missing, 'created')
    expect(run_prog.first).to eq('created')
  end

  it 'sees a parent of an earlier PATH directory renamed away and another put in its place' do
    ENV['PATH'] = "#{dir('a', 'bin')}:#{dir('late')}:/usr/bin:/bin"
    install(dir('late'), 'late')
    cached('late')
    File.rename(File.join(@dir, 'a'), File.join(@dir, 'a.old')) # the old a/bin, still empty, is watched no more
    install(dir('a', 'bin'), 'new a/bin')
    expect(run_prog.first).to eq('new a/bin')
  end

  it 'sees a symbolic link in a PATH entry pointed elsewhere, and through a link to a program' do
    install(dir('one'), 'one')
    install(dir('two'), 'two')
    link = File.join(@dir, 'current')
    File.symlink(dir('one'), link)
    ENV['PATH'] = "#{link}:/usr/bin:/bin"
    cached('one')
    File.rename(File.join(@dir, 'one'), File.join(@dir, 'one.old')) # what the link's target holds is gone
    expect { POSIX::Spawn.spawn('cached-prog') }.to raise_error(Errno::ENOENT)
    File.delete(link)
    File.symlink(dir('two'), link)
    expect(run_prog.first).to eq('two')
    cached('two')
    # A program that is a link: its target's directory is watched too.
    ENV['PATH'] = "#{dir('links')}:#{dir('two')}:/usr/bin:/bin"
    File.symlink(File.join(dir('targets'), 'real-prog'), File.join(dir('links'), 'cached-prog'))
    install(dir('targets'), 'through the link', 'real-prog')
    cached('through the link')
    File.chmod(0o644, File.join(dir('targets'), 'real-prog'))
    expect(run_prog.first).to eq('two')
  end

  it 'sees a change made by another thread, on a thread whose answer is cached' do
    ENV['PATH'] = "#{dir('early')}:#{dir('late')}:/usr/bin:/bin"
    install(dir('late'), 'late')
    asks = Queue.new
    answers = Queue.new
    # Told :warm, spawns until the answer is cached; told :once, spawns once; told nil, ends.
    spawner = Thread.new do
      while (ask = asks.pop)
        answer = run_prog
        tries = 1
        while ask == :warm && answer.last != :cached && tries < MOST_SEARCHES
          answer = run_prog
          tries += 1
        end
        answers << answer
      end
    end
    begin
      5.times do |i|
        asks << :warm
        expect(answers.pop).to eq(['late', :cached])
        early = install(dir('early'), "early #{i}")
        asks << :once
        expect(answers.pop.first).to eq("early #{i}")
        File.delete(early)
        asks << :once
        expect(answers.pop.first).to eq('late')
      end
    ensure
      asks << nil
      spawner.join
    end
  end
end

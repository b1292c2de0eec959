require 'spec_helper'
require_relative 'terminal_reading'

# pty_spawn runs of every kind leave no descriptor, child (zombie or not) or /dev/pts entry behind.
# Compared as sets: which descriptor, which child, which terminal.
RSpec.describe 'POSIX::Spawn.pty_spawn leaks' do
  KINDS = {
    normal_end: lambda do |ctx|
      reader, writer, pid = POSIX::Spawn.pty_spawn('echo', 'done')
      ctx.read_to_hangup(reader)
      Process.wait(pid)
      [reader, writer].each(&:close)
      reader.path
    end,
    killed: lambda do |_ctx|
      reader, writer, pid = POSIX::Spawn.pty_spawn('sleep', '30')
      Process.kill(:KILL, pid)
      Process.wait(pid)
      [reader, writer].each(&:close)
      reader.path
    end,
    master_closed_early: lambda do |_ctx|
      path = nil
      POSIX::Spawn.pty_spawn('sleep', '30') { |reader, _, _| path = reader.path }
      path
    end
  }.freeze

  # IO.select (in read_to_hangup) takes a Java NIO selector, an epoll and an eventfd, from JRuby's pool,
  # which opens more as it sees fit and keeps them; the gem itself never makes either.
  JRUBY_SELECTOR = /\Aanon_inode:\[(eventpoll|eventfd)\]\z/

  def run_all(runs)
    KINDS.each_value { |kind| kind.call(self) } # one of each first, for what JRuby opens once
    before_fds = ProcessResources.open_descriptors
    before_children = ProcessResources.children
    used = []
    runs.times { |i| used << KINDS.values[i % KINDS.size].call(self) }
    finished = Time.now
    opened = ProcessResources.settled_descriptor_changes(before_fds)[:opened]
    expect(opened.reject { |_, target| target.match?(JRUBY_SELECTOR) }).to eq({})
    expect(ProcessResources.children).to eq(before_children)
    # An entry still there is ours unless another process made it anew after the runs ended.
    left = used.uniq.select { |path| File.exist?(path) && File.stat(path).ctime <= finished }
    expect(left).to eq([])
  end

  it '50 runs (normal end, killed, master closed early) leave nothing behind' do
    run_all(50)
  end

  it '1,000 runs leave nothing behind', :long do
    run_all(1_000)
  end
end

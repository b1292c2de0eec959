require 'spec_helper'
require_relative 'drop_in_context'
require 'open3'
require 'pty'
require 'socket'
require 'timeout'

# IO.select under the drop-in (kernel/select.rb): one poll(2) for IOs whose channel is only a descriptor
# (Native.last_select says :poll), JRuby's select otherwise (:jruby). Each scenario runs here and in MRI 3.1
# (/usr/bin/ruby, the oracle), and both must report the same: the result with each IO by its name (the very
# objects given, in the order given), or the error's class and message.
RSpec.describe 'IO.select under the drop-in' do
  include_context 'drop-in installed'

  MRI = '/usr/bin/ruby'.freeze

  # Shared by both runs. cat_pipes: [stdin, stdout] of a `cat`, a Handle's :pipe ends here (MRI has no Handle:
  # a spawn with IO.pipe). report: the block's select as names, every IO named closed afterwards.
  HELPERS = <<~'RUBY'.freeze
    def cat_pipes
      return POSIX::Spawn.start('cat', in: :pipe, out: :pipe).then { |h| [h.stdin, h.stdout] } if defined?(POSIX::Spawn)

      (i_r, i_w), (o_r, o_w) = IO.pipe, IO.pipe
      Process.detach(spawn('cat', in: i_r, out: o_w))
      [i_r, o_w].each(&:close)
      [i_w, o_r]
    end

    def report(names, pids = [])
      result = begin
        yield&.map { |set| set.map { |io| names.key(io) } }
      rescue StandardError, Timeout::Error => e
        [e.class.name, e.message]
      end
      names.each_value { |io| io.close unless io.closed? }
      pids.each { |pid| Process.wait(pid) }
      result.inspect
    end
  RUBY
  module_eval(HELPERS)

  def self.scenario(title, way, code)
    it "#{title} (#{way})", skip: (File.executable?(MRI) ? false : 'no MRI at /usr/bin/ruby') do
      mri = IO.popen([MRI, '-e', "require 'open3'; require 'pty'; require 'socket'; require 'timeout'\n#{HELPERS}\nputs(begin\n#{code}end)"],
                     err: %i[child out], &:read)
      expect($?).to be_success, mri
      here = instance_eval(code)
      expect(POSIX::Spawn::Native.last_select).to eq(way)
      expect(here).to eq(mri.chomp)
    end
  end

  # one poll(2): the gem's pipes and terminals
  scenario 'a popen "r+" IO, ready for writing only', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    report(io: io) { IO.select([io], [io], nil, 0) }
  RUBY
  scenario 'a popen "r+" IO once the child answered, listed twice', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    io.write("hi\n")
    report(io: io) { IO.select([io, io], nil, nil, 5) }
  RUBY
  scenario 'nothing ready within a Float timeout: nil', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    report(io: io) { IO.select([io], nil, nil, 0.05) }
  RUBY
  scenario 'nothing ready with timeout 0: nil at once', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    report(io: io) { IO.select([io], nil, nil, 0) }
  RUBY
  scenario 'no timeout: waits for the child', :poll, <<~'RUBY'
    io = IO.popen(['sh', '-c', 'sleep 0.1; echo late'])
    report(io: io) { IO.select([io]) }
  RUBY
  scenario 'Kernel#select, the end of file of a child that exited', :poll, <<~'RUBY'
    io = IO.popen('true')
    report(io: io) { select([io], nil, nil, 5) }
  RUBY
  scenario "Open3.popen3's streams: stdin writable, stdout readable, stderr not", :poll, <<~'RUBY'
    i, o, e, t = Open3.popen3('cat')
    i.write("x\n")
    IO.select([o], nil, nil, 5)
    report(i: i, o: o, e: e) { IO.select([e, o], [i], nil, 0) }.tap { t.join }
  RUBY
  scenario "a Handle's :pipe ends once the child answered (MRI: spawn's IO.pipe)", :poll, <<~'RUBY'
    i, o = cat_pipes
    i.write("x\n")
    IO.select([o], nil, nil, 5) # the echo is there: both engines then see the same, however fast each is
    report(i: i, o: o) { IO.select([o], [i], nil, 5) }
  RUBY
  scenario 'a PTY master once the child echoed', :poll, <<~'RUBY'
    r, w, pid = PTY.spawn('cat')
    w.write("x\n")
    IO.select([r], nil, nil, 5) # the echo comes from the kernel's queue, a moment after the write
    report({ r: r, w: w }, [pid]) { IO.select([r], [w], nil, 0) }
  RUBY
  scenario 'a PTY master holding the rest of a line it read ahead: ready, as in MRI', :poll, <<~'RUBY'
    r, w, pid = PTY.spawn('sh', '-c', 'printf "a\nb"; exec sleep 10') # nothing more, no hang-up: only "b" is ready
    r.gets
    report({ r: r, w: w }, [pid]) { IO.select([r], nil, nil, 0.5) }
  RUBY

  # an error set whose IOs are also read (tty-command's `IO.select(readers, nil, readers)`): POLLPRI, as select(2)'s exceptfds
  scenario 'a popen "r+" IO in every set, nothing to read yet', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    report(io: io) { IO.select([io], [io], [io], 0) }
  RUBY
  scenario 'a PTY master in the read and error sets once the child wrote', :poll, <<~'RUBY'
    r, w, pid = PTY.spawn('sh', '-c', 'printf x; exec sleep 10')
    IO.select([r], nil, nil, 5)
    report({ r: r, w: w }, [pid]) { IO.select([r], nil, [r], 5) }
  RUBY
  scenario 'a PTY master in the read and error sets once the child exited: readable only', :poll, <<~'RUBY'
    r, w, pid = PTY.spawn('true')
    Process.wait(pid)
    report(r: r, w: w) { IO.select([r], nil, [r], 5) }
  RUBY
  scenario 'a pipe in the read and error sets, nothing ready within the timeout: nil', :poll, <<~'RUBY'
    i, o = cat_pipes
    report(i: i, o: o) { IO.select([o], nil, [o], 0.05) }
  RUBY

  # errors and interrupts on the poll
  scenario 'an IO closed by another thread while selected: IOError', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    Thread.new { sleep 0.2; io.close }
    report(io: io) { IO.select([io], nil, nil, 5) }
  RUBY
  scenario 'a descriptor closed beneath its IO, no wait: Errno::EBADF', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    IO.for_fd(io.fileno, autoclose: true).close
    report({}) { IO.select([io], nil, nil, 0) }.tap { io.close rescue nil } # MRI's close fails on it too
  RUBY
  scenario 'a descriptor closed beneath its IO, with a ready one beside it: Errno::EBADF', :poll, <<~'RUBY'
    ready, io = IO.popen('true'), IO.popen('cat', 'r+')
    IO.for_fd(io.fileno, autoclose: true).close
    report(ready: ready) { IO.select([ready, io], nil, nil, 5) }.tap { io.close rescue nil }
  RUBY
  scenario 'Timeout reaches a select with no timeout', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    report(io: io) { Timeout.timeout(0.2) { IO.select([io]) } }
  RUBY
  scenario 'Thread#raise reaches a select with no timeout', :poll, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    me = Thread.current
    Thread.new { sleep 0.2; me.raise(RuntimeError, 'raised') }
    report(io: io) { IO.select([io]) }
  RUBY

  # JRuby's select
  scenario 'JRuby\'s own IO.pipe', :jruby, <<~'RUBY'
    r, w = IO.pipe
    report(r: r, w: w) { IO.select([r], [w], nil, 0) }
  RUBY
  scenario 'a gem pipe with a JRuby IO.pipe beside it', :jruby, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    r, w = IO.pipe
    w.write('x')
    report(io: io, r: r, w: w) { IO.select([io, r], nil, nil, 5) }
  RUBY
  scenario 'a UNIXSocket', :jruby, <<~'RUBY'
    a, b = UNIXSocket.pair
    a.write('x')
    report(a: a, b: b) { IO.select([a, b], nil, nil, 5) }
  RUBY
  scenario 'a TCPSocket', :jruby, <<~'RUBY'
    server = TCPServer.new('127.0.0.1', 0)
    client = TCPSocket.new('127.0.0.1', server.addr[1])
    peer = server.accept
    peer.write('x')
    report(server: server, client: client, peer: peer) { IO.select([client], nil, nil, 5) }
  RUBY
  scenario 'data buffered after a partial gets: ready at once', :jruby, <<~'RUBY'
    io = IO.popen(['printf', 'a\nb'])
    io.gets
    report(io: io) { IO.select([io], nil, nil, 5) }
  RUBY
  scenario 'a character pushed back with ungetc: ready at once', :jruby, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    io.ungetc('z')
    report(io: io) { IO.select([io], nil, nil, 5) }
  RUBY
  scenario 'a closed IO: IOError', :jruby, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    io.close
    report(io: io) { IO.select([io], nil, nil, 0) }
  RUBY
  scenario 'an error set with an IO not also in the read set', :jruby, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    report(io: io) { IO.select(nil, [io], [io], 0) }
  RUBY
  scenario 'a Rational timeout', :jruby, <<~'RUBY'
    io = IO.popen('cat', 'r+')
    report(io: io) { IO.select([io], nil, nil, 1/20r) }
  RUBY
  scenario 'nothing to select on', :jruby, <<~'RUBY'
    report({}) { IO.select([], nil, nil, 0) }
  RUBY

  it 'leaves no descriptor, child or thread behind' do
    run = lambda do
      io = IO.popen('cat', 'r+')
      io.write("x\n")
      IO.select([io], [io], nil, 5)
      io.readpartial(10)
      begin
        Timeout.timeout(0.05) { IO.select([io]) } # interrupted while it waits
      rescue Timeout::Error
        nil
      end
      io.close
    end
    run.call
    expect { 3.times { run.call } }.not_to leak
  end
end

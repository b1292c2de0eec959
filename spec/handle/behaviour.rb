require 'timeout'

# The Handle's contract, run once per reaper route (spec/handle/handle_spec.rb): `route` is the one the
# reaper must be taking, :pidfd or :waitpid_poll.
RSpec.shared_examples 'handle behaviour' do |route|
  def monotonic
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  def pidfds
    ProcessResources.reaper_pidfds
  end

  after { @handles&.each { |h| h.terminate(grace: 0.1) if h.alive? } }

  def start(*args)
    handle = POSIX::Spawn.start(*args)
    (@handles ||= []) << handle
    handle
  end

  it "gives the child to the reaper by #{route}" do
    handle = start('true')
    expect([handle.route, POSIX::Spawn::Native.last_reaper_route]).to eq([route, route])
    handle.wait
  end

  it 'takes every spawn argument form and option' do
    handle = start({ 'GREETING' => 'hi' }, ['sh', 'renamed'], '-c', 'echo $GREETING $0 $(pwd) >&3',
                   chdir: '/tmp', 3 => [File.join(@dir ||= Dir.mktmpdir, 'out'), 'w'])
    expect(handle.wait).to be_success
    expect(File.read(File.join(@dir, 'out'))).to eq("hi renamed /tmp\n")
  end

  it 'waits: nil when the timeout passes first, then the status, with $? set in the waiting thread only' do
    handle = start('sh', '-c', 'sleep 0.5; exit 7')
    expect([handle.status, handle.alive?]).to eq([nil, true])
    expect(handle.wait(timeout: 0.05)).to be_nil
    expect(handle.wait(timeout: 0)).to be_nil
    system('true') # $? of this thread now: true's
    other = Thread.new { $? }.value
    status = handle.wait(timeout: 30)
    expect([status.pid, status.exitstatus]).to eq([handle.pid, 7])
    expect($?).to equal(status)
    expect(Thread.new { $? }.value).to eq(other)
    expect([handle.status, handle.alive?, handle.wait]).to eq([status, false, status])
  end

  it 'lets any number of threads wait at once, each getting the status' do
    handle = start('sleep', '0.3')
    waiters = Array.new(8) { Thread.new { [handle.wait, $?] } }
    results = waiters.map(&:value)
    expect(results.map(&:first).uniq).to eq([handle.status])
    expect(results.map(&:last).uniq).to eq([handle.status])
  end

  it 'is interrupted by Thread#raise, Thread#kill and Timeout.timeout, leaving the child running' do
    handle = start('sleep', '30')
    waiter = Thread.new { handle.wait }
    waiter.report_on_exception = false
    sleep 0.1 until waiter.status == 'sleep'
    waiter.raise(RuntimeError, 'stop waiting')
    expect { waiter.join(5) }.to raise_error(RuntimeError, 'stop waiting')
    killed = Thread.new { handle.wait }
    sleep 0.1 until killed.status == 'sleep'
    killed.kill
    expect(killed.join(5)).to eq(killed)
    expect { Timeout.timeout(0.1) { handle.wait } }.to raise_error(Timeout::Error)
    expect(handle).to be_alive
  end

  it 'signals by name or number: true while it runs, false once it has ended' do
    handle = start('sleep', '30')
    expect(handle.signal(0)).to be(true)
    expect(handle.signal(:USR1)).to be(true)
    expect(handle.wait.termsig).to eq(Signal.list['USR1'])
    expect(handle.signal('SIGTERM')).to be(false)
    expect(handle.signal(Signal.list['KILL'])).to be(false)
  end

  it 'never signals a process that got the pid after the child ended' do
    skip 'cannot set /proc/sys/kernel/ns_last_pid here' unless File.writable?('/proc/sys/kernel/ns_last_pid')
    handle = start('true')
    handle.wait
    victim = nil
    10.times do # another process may take the pid first: try again
      File.write('/proc/sys/kernel/ns_last_pid', (handle.pid - 1).to_s)
      victim = POSIX::Spawn.spawn('sleep', '30')
      break if victim == handle.pid

      OwnProcesses.kill(:KILL, victim)
      Process.wait(victim)
    end
    skip "pid #{handle.pid} was not reused" unless victim == handle.pid
    begin
      expect(handle.signal(:KILL)).to be(false)
      expect(handle.terminate(grace: 0.1)).to eq(handle.status)
      expect(Process.waitpid(victim, Process::WNOHANG)).to be_nil # still running
    ensure
      OwnProcesses.kill(:KILL, victim)
      Process.wait(victim)
    end
  end

  it 'terminates: TERM, then KILL after the grace period for a child ignoring TERM' do
    handle = start('sh', '-c', 'trap "" TERM; echo ready; sleep 30', out: :pipe)
    expect(handle.stdout.gets).to eq("ready\n")
    started = monotonic
    expect(handle.terminate(grace: 0.3).termsig).to eq(Signal.list['KILL'])
    expect(monotonic - started).to be_between(0.3, 5)
    expect(handle.terminate).to eq(handle.status)
  end

  it 'terminates a process group started with pgroup: true: every member gets the signal' do
    handle = start('sh', '-c', 'sleep 30 & echo $!; sleep 30 & echo $!; wait', pgroup: true, out: :pipe)
    members = [handle.stdout.gets.to_i, handle.stdout.gets.to_i]
    expect(handle.terminate(grace: 5).termsig).to eq(Signal.list['TERM'])
    members.each { |pid| expect(ProcessResources.wait_until_gone(pid)).to be(true) }
  end

  it 'starts a session leader with setsid: true (its sid is its pid), and terminates the session' do
    handle = start('sh', '-c', 'sleep 30 & echo $!; wait', setsid: true, out: :pipe)
    member = handle.stdout.gets.to_i
    [handle.pid, member].each do |pid|
      expect(ProcessResources.stat(pid).values_at(:pgrp, :session)).to eq([handle.pid, handle.pid])
    end
    expect(handle).to be_leads_group
    expect(handle.terminate(grace: 5).termsig).to eq(Signal.list['TERM'])
    expect(ProcessResources.wait_until_gone(member)).to be(true)
  end

  it 'calls on_exit callbacks once each, on the reaper thread, registered from many threads' do
    handle = start('sleep', '0.5')
    calls = Queue.new
    Array.new(8) { |i| Thread.new { 5.times { |j| handle.on_exit { |s| calls << [i, j, s, Thread.current] } } } }.each(&:join)
    handle.wait
    results = Array.new(40) { Timeout.timeout(10) { calls.pop } }
    expect(results.map { |i, j, _, _| [i, j] }.sort).to eq((0...8).to_a.product((0...5).to_a))
    expect(results.map { |_, _, s, _| s }.uniq).to eq([handle.status])
    expect(results.map(&:last).uniq.size).to eq(1)
    expect(results.last.last).not_to eq(Thread.current)
    expect(calls).to be_empty
  end

  # Issue #28: one rule whatever the timing. The block runs on the reaper thread and what it raises is
  # reported on $stderr, never raised here: registered before the end, after it, and with communicate's poll
  # loop (which may reap the child on the caller's thread) in between.
  it 'runs an on_exit block on the reaper thread and reports its exception, whether the child ended before or after' do
    err_reader, err_writer = IO.pipe
    saved = $stderr
    $stderr = err_writer
    ran = Queue.new
    callback = proc { |s| ran << [s, Thread.current]; raise ArgumentError, "callback of #{s.pid} failed" }
    ended = start('true')
    ended.wait
    later = start('sleep', '0.3')
    piped = start('sh', '-c', 'sleep 0.2; echo out', out: :pipe)
    expect { [later, piped, ended].each { |h| h.on_exit(&callback) } }.not_to raise_error
    expect(piped.communicate).to eq(["out\n", nil])
    later.wait
    calls = Array.new(3) { Timeout.timeout(10) { ran.pop } }
    expect(calls.map(&:first)).to contain_exactly(ended.status, later.status, piped.status)
    expect(calls.map(&:last).uniq.size).to eq(1)
    expect(calls.first.last).not_to eq(Thread.current)
    # The reports of all three, each naming its handle.
    report = +''
    Timeout.timeout(10) { report << err_reader.readpartial(4096) until [ended, later, piped].all? { |h| report.include?("callback of #{h.pid} failed (ArgumentError)") } }
    [ended, later, piped].each { |h| expect(report).to include("posix-spawn: the on_exit callback of #{h.inspect} terminated with exception") }
  ensure
    $stderr = saved
    err_writer&.close
    err_reader&.close
  end

  it 'reports an on_exit callback that raises on $stderr, and goes on reaping' do
    err_reader, err_writer = IO.pipe
    saved = $stderr
    $stderr = err_writer
    first = start('sleep', '0.3')
    first.on_exit { raise ArgumentError, 'callback failed' }
    after = Queue.new
    first.on_exit { |s| after << s }
    expect(Timeout.timeout(10) { after.pop }).to eq(first.wait)
    $stderr = saved
    err_writer.close
    expect(err_reader.read).to include("on_exit callback of #{first.inspect} terminated with exception", 'callback failed (ArgumentError)')
    expect(start('true').wait).to be_success
  ensure
    $stderr = saved
    err_reader&.close
  end

  it 'owns the child: Process.wait(pid) gets its status while it runs, Errno::ECHILD once it has ended' do
    handle = start('sh', '-c', 'sleep 0.3; exit 4')
    expect(Process.waitpid(handle.pid, Process::WNOHANG)).to be_nil
    expect(Process.wait(handle.pid)).to eq(handle.pid)
    expect($?.exitstatus).to eq(4)
    expect(handle.status).to eq($?)
    expect { Process.wait(handle.pid) }.to raise_error(Errno::ECHILD)
    other = start('sh', '-c', 'sleep 0.3; exit 5')
    expect(Process.wait2(other.pid).last.exitstatus).to eq(5)
  end

  it 'pipes stdin, stdout and stderr as binary IOs, nil where not piped' do
    handle = start('sh', '-c', 'cat; printf "\377" >&2', in: :pipe, out: :pipe, err: :pipe)
    handle.stdin.write("bytes \xFF in")
    handle.stdin.close
    expect([handle.stdout.read, handle.stderr.read]).to eq(["bytes \xFF in".b, "\xFF".b])
    expect(handle.stdout.read.encoding).to eq(Encoding::BINARY)
    expect(handle.wait).to be_success
    plain = start('true', out: :pipe, err: [:child, :out])
    expect([plain.stdin, plain.stderr]).to eq([nil, nil])
    plain.stdout.close
  end

  it 'communicates large data both ways without deadlock, then waits: [out, err] and the status' do
    input = Random.new(14).bytes(4 << 20)
    handle = start('sh', '-c', 'cat; head -c 3000000 /dev/zero >&2; exit 3', in: :pipe, out: :pipe, err: :pipe)
    out, err = handle.communicate(input)
    expect(out == input).to be(true)
    expect([err.bytesize, err.count("\0"), out.encoding, err.encoding]).to eq([3_000_000, 3_000_000, Encoding::BINARY, Encoding::BINARY])
    expect([handle.status.exitstatus, $?]).to eq([3, handle.status])
    expect([handle.stdin, handle.stdout, handle.stderr].map(&:closed?)).to eq([true, true, true])
  end

  it 'communicate: nil for a stream not piped; TimeoutExceeded leaves the child running, and a second call goes on' do
    handle = start('sh', '-c', 'echo one; sleep 3; echo two', out: :pipe)
    started = monotonic
    expect { handle.communicate(timeout: 0.2) }.to raise_error(POSIX::Spawn::TimeoutExceeded)
    expect(monotonic - started).to be < 2.5 # not the child's 3 s: room for a loaded machine
    expect(handle).to be_alive
    expect(handle.communicate(timeout: 10)).to eq(["one\ntwo\n", nil])
    expect(handle.status).to be_success
    expect { start('true').communicate }.to raise_error(ArgumentError, /communicate needs a handle started with/)
  end

  it 'communicate interrupted (Timeout, Thread#raise) or timed out in its wait: the next call gives every byte and the status, nothing left open' do
    before = ProcessResources.snapshot(:descriptors, :children)
    handle = start('sh', '-c', 'printf one; printf err >&2; sleep 0.5; printf two', out: :pipe, err: :pipe)
    expect { Timeout.timeout(0.2) { handle.communicate } }.to raise_error(Timeout::Error)
    expect(handle.communicate(timeout: 10)).to eq(%w[onetwo err])
    expect([handle.status.success?, $?]).to eq([true, handle.status])
    # the child closes its pipes and runs on: the output is whole when the wait for the exit times out
    waiting = start('sh', '-c', 'printf out; exec >&- 2>&-; sleep 0.5', out: :pipe, err: :pipe)
    expect { waiting.communicate(timeout: 0.2) }.to raise_error(POSIX::Spawn::TimeoutExceeded)
    expect(waiting.communicate(timeout: 10)).to eq(['out', ''])
    expect(waiting.status).to be_success
    expect(ProcessResources.settled_changes(before, new_only: true)).to eq({})
  end

  it 'spawn(detach: true) leaves no zombie and no thread' do
    threads = ProcessResources.threads
    pid = POSIX::Spawn.spawn('true', detach: true)
    expect(ProcessResources.wait_until_gone(pid)).to be(true)
    # gone? takes a zombie for gone; no zombie means reaped, which the polling reaper does within 10 ms.
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 5
    sleep 0.01 while ProcessResources.children.key?(pid) && Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
    expect(ProcessResources.children).not_to have_key(pid)
    expect(ProcessResources.threads - threads - ProcessResources::REAPER_THREADS).to eq([])
    expect { Process.wait(pid) }.to raise_error(Errno::ECHILD)
  end

  it 'leaves no descriptor and no child behind' do
    # The reaper's own descriptors exist from its first use, and JRuby 10 opens a socket of its own the
    # first time pipes are closed.
    warm = start('true', in: :pipe, out: :pipe, err: :pipe)
    warm.wait
    [warm.stdin, warm.stdout, warm.stderr].each(&:close)
    before = ProcessResources.snapshot(:descriptors, :children, :threads)
    watch_before = ProcessResources.thread_descriptors('posix-spawn-pidfds')
    handles = Array.new(5) { start('sleep', '30', in: :pipe, out: :pipe, err: :pipe) }
    handles.each(&:route) # the watch's word on each: its pidfd is open by then
    # The pidfds are the watch's, in a table of its own: none is in the process's, which every spawn copies.
    expect(ProcessResources.descriptors.values.grep(/pidfd/)).to eq([])
    expect(pidfds.reject { |fd, target| watch_before[fd] == target }.size).to eq(route == :pidfd ? 5 : 0)
    handles.each { |h| h.terminate(grace: 0.1) }
    handles.each { |h| [h.stdin, h.stdout, h.stderr].each(&:close) }
    expect(ProcessResources.settled_changes(before, new_only: true)).to eq({})
    deadline = monotonic + 5 # the watch closes a pidfd right after its reap
    sleep 0.01 until ProcessResources.thread_descriptors('posix-spawn-pidfds') == watch_before || monotonic > deadline
    expect(ProcessResources.thread_descriptors('posix-spawn-pidfds')).to eq(watch_before)
  end
end

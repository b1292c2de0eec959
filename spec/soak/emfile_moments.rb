require 'ffi'
require 'posix/spawn'

# EMFILE moments for the soak: a thread that now and then fills this process's descriptor table up to
# its soft limit (descriptors on /dev/null opened with libc's open, unknown to JRuby), holds it full for a
# moment while the other threads go on, then closes them all. While full, a Child must fail with
# Errno::EMFILE and nothing else; once released, the next Child must work. Nothing process-wide changes:
# the limit stays as it is, only descriptors are taken.
class EmfileMoments
  # libc's open(2) and close(2), bypassing JRuby's IO (whose objects would outlive the moment as garbage).
  module LibC
    extend FFI::Library
    ffi_lib FFI::Library::LIBC
    attach_function :open, %i[string int varargs], :int
    attach_function :close, %i[int], :int
  end

  O_CLOEXEC = 0o2000000 # Linux; the descriptors must not reach a child of another thread's spawn

  attr_reader :moments, :refused, :passed_through, :recovered

  # every: seconds between moments; hold: how long the table stays full; on_loss: called with a message
  # when a probe goes wrong.
  def initialize(every:, hold:, on_loss:)
    @every = every
    @hold = hold
    @on_loss = on_loss
    # Odd while a moment is on: an operation that saw the epoch change (or odd) overlapped one.
    @epoch = java.util.concurrent.atomic.AtomicLong.new(0)
    @moments = @refused = @passed_through = @recovered = 0
    @lock = Mutex.new
    @wake = ConditionVariable.new
    @stopping = false
  end

  def epoch
    @epoch.get
  end

  # Whether an operation that read `epoch` when it started overlapped a moment.
  def overlapped?(started)
    started.odd? || @epoch.get != started
  end

  def start
    @thread = Thread.new do
      Thread.current.name = 'soak-emfile'
      moment until stopped?(@every * (0.5 + rand))
    end
    self
  end

  def stop
    @lock.synchronize do
      @stopping = true
      @wake.signal
    end
    @thread.join
  end

  private

  def stopped?(seconds)
    @lock.synchronize do
      @wake.wait(@lock, seconds) unless @stopping
      @stopping
    end
  end

  def moment
    taken = []
    @epoch.incrementAndGet
    @moments += 1
    fill(taken)
    probe_refused
    deadline = now + @hold
    while now < deadline # other threads close descriptors meanwhile: take those too
      sleep 0.005
      fill(taken)
    end
  ensure
    taken.each { |fd| LibC.close(fd) }
    @epoch.incrementAndGet
    probe_recovered
  end

  def fill(taken)
    loop do
      fd = LibC.open('/dev/null', File::RDONLY | O_CLOEXEC)
      next taken << fd if fd >= 0
      return if FFI.errno == Errno::EMFILE::Errno

      raise SystemCallError.new('open /dev/null while filling the descriptor table', FFI.errno)
    end
  end

  # With the table full, a Child cannot get its pipes. Another thread may have closed a descriptor since
  # the fill, so a Child that gets through is no loss, provided it works.
  def probe_refused
    child = POSIX::Spawn::Child.new('cat', input: 'full')
    return @passed_through += 1 if child.out == 'full' && child.status.success?

    @on_loss.call("a Child with the descriptor table full gave #{child.out.inspect}, #{child.status.inspect}")
  rescue Errno::EMFILE
    @refused += 1
  rescue StandardError => e
    @on_loss.call("a Child with the descriptor table full raised #{e.class}: #{e.message}, not Errno::EMFILE")
  end

  def probe_recovered
    child = POSIX::Spawn::Child.new('cat', input: 'released')
    return @recovered += 1 if child.out == 'released' && child.status.success?

    @on_loss.call("the first Child after a moment gave #{child.out.inspect}, #{child.status.inspect}")
  rescue StandardError => e
    @on_loss.call("the first Child after a moment raised #{e.class}: #{e.message}")
  end

  def now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end

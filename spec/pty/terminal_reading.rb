# Reading what a child writes to its terminal, from the master, with a deadline instead of a sleep.
module TerminalReading
  # Reads the master until what came matches pattern (a Regexp or String); returns all of it, or fails
  # after timeout seconds saying what did come. The child's hang-up (Errno::EIO) ends the reading too.
  def read_until(master, pattern, timeout: 10)
    pattern = Regexp.new(Regexp.escape(pattern.b)) if pattern.is_a?(String)
    read_master(master, timeout, "no #{pattern.inspect}") do |got, hung_up|
      raise "the terminal hung up before #{pattern.inspect} came; got #{got.inspect}" if hung_up

      got.match?(pattern)
    end
  end

  # Everything the master gives until the child's hang-up (Errno::EIO), within timeout seconds.
  def read_to_hangup(master, timeout: 10)
    read_master(master, timeout, 'no hang-up') { |_got, hung_up| hung_up }
  end

  # Reads the master into one binary String until the block, given it and whether the terminal has hung
  # up, says done; fails with `missing` and what came when timeout seconds pass first.
  def read_master(master, timeout, missing)
    got = String.new(encoding: Encoding::BINARY)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    until yield(got, false)
      chunk = begin
        master.read_nonblock(65_536, exception: false)
      rescue Errno::EIO
        yield(got, true)
        return got
      end
      if chunk == :wait_readable
        left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
        raise "#{missing} in #{timeout} s; got #{got.inspect}" if left <= 0

        IO.select([master], nil, nil, left)
      else
        got << chunk
      end
    end
    got
  end

  # Waits for pid, at most timeout seconds, and returns its status (nil if it did not end).
  def wait_for(pid, timeout: 10)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    loop do
      return $? if Process.waitpid(pid, Process::WNOHANG)
      return nil if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

      sleep 0.01
    end
  end
end

RSpec.configure { |c| c.include TerminalReading }

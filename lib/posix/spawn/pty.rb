require 'posix/spawn'
require 'posix/spawn/arguments'
require 'posix/spawn/errors'
require 'posix/spawn/pty_master'

module POSIX
  module Spawn
    # A new pseudo-terminal, PTY.open's contract: the master is opened with posix_openpt(O_RDWR |
    # O_NOCTTY | O_CLOEXEC) (grantpt, unlockpt, ptsname_r), the slave with O_NOCTTY (it never becomes the
    # JVM's controlling terminal); both are close-on-exec.
    #
    #   master, slave = POSIX::Spawn.open_pty
    #   POSIX::Spawn.open_pty { |master, slave| ... }   # closes both after the block
    #
    # Returns [master (a PtyMaster), slave (a File)], or with a block the block's value.
    # Raises Errno::* naming the call that failed ("posix_openpt" when there is no pty to be had).
    def open_pty
      master_fd, slave_fd, path = Native.pty_open(true)
      master = slave = nil
      begin
        master = PtyMaster.new(master_fd, path, "IO:masterpty:#{path}")
        master.sync = true
        slave = PtySlave.new(slave_fd, path)
        slave.sync = true
      rescue Exception # rubocop:disable Lint/RescueException
        master ? master.close : Native.pty_close(master_fd)
        slave ? slave.close : Native.pty_close(slave_fd)
        raise
      end
      return [master, slave] unless block_given?

      begin
        yield [master, slave] # one Array, as MRI yields: a block of one parameter gets both
      ensure
        [master, slave].each { |io| io.close unless io.closed? }
      end
    end

    # Runs a command on a new pseudo-terminal, which is its controlling terminal.
    #
    #   reader, writer, pid = POSIX::Spawn.pty_spawn([env,] command... [,options])
    #   POSIX::Spawn.pty_spawn('sh', '-i', winsize: [24, 80]) { |reader, writer, pid| ... }
    #
    # The arguments are spawn's, every option included, plus winsize: [rows, cols], set on the terminal
    # before the child starts. The child leads a new session (POSIX_SPAWN_SETSID, applied before the file
    # actions) and opens the slave as its 0, 1 and 2 without O_NOCTTY, so the slave becomes its controlling
    # terminal: /dev/tty opens, "\x03" written to the master sends its foreground group SIGINT, closing the
    # master sends it SIGHUP. Redirect options apply after that, as in MRI. The master's descriptors are
    # close-on-exec and never reach the child.
    #
    # Returns [reader, writer, pid]: two PtyMaster IOs on the master (writer a close-on-exec dup, sync).
    # With a block, yields them and, after the block, closes both (the terminal hangs up, so a child still
    # on it gets SIGHUP) and waits for the child ($? set); returns the block's value. MRI's PTY.spawn
    # closes neither and only detaches the child.
    # Raises what spawn raises (ArgumentError for pgroup:, which a session leader cannot take), or Errno::*
    # naming the pty call that failed; nothing stays open.
    def pty_spawn(*args)
      args, winsize = PtyArguments.split_winsize(args)
      master_fd, _, path = Native.pty_open(false)
      reader = writer = nil
      begin
        reader = PtyMaster.new(master_fd, path, "File:#{path}")
        writer = PtyMaster.new(Native.pty_dup(master_fd), path, "File:#{path}")
        writer.sync = true
        pid = Native.pty_spawn(master_fd, path, winsize&.first, winsize&.last, args)
      rescue Exception # rubocop:disable Lint/RescueException
        reader ? reader.close : Native.pty_close(master_fd)
        writer&.close
        raise
      end
      return [reader, writer, pid] unless block_given?

      begin
        yield [reader, writer, pid]
      ensure
        [reader, writer].each { |io| io.close unless io.closed? }
        begin
          Native.waitpid(pid)
        rescue Errno::ECHILD
          nil # the block waited for it
        end
      end
    end

    # PTY.check's contract: nil while the child runs (or when it is not this process's child); once it
    # has exited or stopped, its Process::Status ($? too), or with raise_error, ChildExited carrying it.
    def pty_check(pid, raise_error = false)
      got = begin
        Process.waitpid(pid, Process::WNOHANG | Process::WUNTRACED)
      rescue Errno::ECHILD
        nil
      end
      return nil unless got
      return $? unless raise_error

      status = $?
      # MRI: raise_from_check
      state = if status.stopped? then 'stopped'
              elsif (Process.kill(0, pid) rescue false) then 'changed'
              else 'exited'
              end
      raise ChildExited.new("pty - #{state}: #{pid}", status)
    end

    # The slave side as open_pty returns it: a File whose path is the slave's, as MRI's PTY.open gives.
    class PtySlave < File
      attr_reader :path

      # Wraps slave descriptor fd (closed with this File), whose path is `path`.
      def initialize(fd, path)
        super(fd, autoclose: true)
        @path = path
      end

      def to_path
        @path
      end

      def inspect
        "#<File:#{@path}>"
      end
    end

    # Argument helpers for pty_spawn.
    module PtyArguments
      # [spawn's arguments without :winsize, [rows, cols] or nil]; the caller's Hash is not changed.
      def self.split_winsize(args)
        rest, size = Arguments.extract(args, :winsize)
        rest ? [rest, check_winsize(size)] : [args, nil]
      end

      def self.check_winsize(size)
        pair = size.respond_to?(:to_ary) ? size.to_ary : nil
        unless pair&.size == 2 && pair.all? { |n| n.is_a?(Integer) && n.between?(0, 0xffff) }
          raise ArgumentError, "winsize must be [rows, columns], each an Integer from 0 to 65535: #{size.inspect}"
        end

        pair
      end
    end
  end
end

# What a leak check counts: this process's open descriptors, its child processes (zombies included)
# and its threads. Linux (/proc) only.
module ProcessCensus
  module_function

  def snapshot
    { fds: open_fds, children: child_pids, ruby_threads: Thread.list.size,
      java_threads: java.lang.management.ManagementFactory.getThreadMXBean.getThreadCount }
  end

  def open_fds
    Dir.children('/proc/self/fd').size
  end

  # Pids whose parent is this process, read from /proc/PID/stat (field 4 is the parent pid).
  def child_pids
    Dir.glob('/proc/[0-9]*/stat').filter_map do |path|
      stat = File.read(path)
      pid = path[%r{/proc/(\d+)/}, 1].to_i
      pid if stat[(stat.rindex(')') + 2)..].split[1].to_i == Process.pid
    rescue SystemCallError # exited meanwhile: JRuby may report that as ENOENT, ESRCH or an unnamed errno
      nil
    end.sort
  end

  # Whether pid is gone, or a zombie about to be reaped by someone who is not us.
  def gone?(pid)
    stat = File.read("/proc/#{pid}/stat")
    stat[(stat.rindex(')') + 2)] == 'Z'
  rescue Errno::ENOENT, Errno::ESRCH
    true
  end

  # Waits up to `seconds` for pid to be gone; returns whether it is.
  def wait_until_gone(pid, seconds = 5)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    sleep 0.01 until gone?(pid) || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    gone?(pid)
  end
end

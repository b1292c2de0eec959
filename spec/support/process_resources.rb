# What a process holds that a spawn library could leak: descriptors, children (zombies among them) and
# resident memory, read from Linux's /proc.
module ProcessResources
  module_function

  # Where the JVM's container support reads cgroup limits: it opens such a file for a moment now and then,
  # on its own schedule, so a reading may catch it open on either side of a comparison. The gem never
  # opens anything there.
  JVM_CGROUP_READS = %r{\A/sys/fs/cgroup/}

  # This process's open descriptors, but for the JVM's cgroup reads: { fd => what it points at }.
  def open_descriptors
    Dir.children('/proc/self/fd').each_with_object({}) do |name, fds|
      target = File.readlink("/proc/self/fd/#{name}")
      fds[Integer(name)] = target unless target.match?(JVM_CGROUP_READS)
    rescue Errno::ENOENT
      next # the descriptor Dir.children itself used, closed again by now
    end
  end

  # What differs between two open_descriptors readings: { opened: {fd => target}, closed: {fd => target} }.
  def descriptor_changes(before, after)
    { opened: after.reject { |fd, target| before[fd] == target },
      closed: before.reject { |fd, target| after[fd] == target } }
  end

  # descriptor_changes from BEFORE to a fresh reading (the block's, or open_descriptors), read again for up
  # to a second while there are any: a descriptor the JVM holds for a moment is gone by then, a leaked
  # one is not.
  def settled_descriptor_changes(before, &read)
    read ||= method(:open_descriptors)
    changes = nil
    10.times do
      changes = descriptor_changes(before, read.call)
      break if changes.values.all?(&:empty?)

      sleep 0.1
    end
    changes
  end

  # The processes whose parent is this one, as { pid => state } (state "Z" is a zombie).
  def children
    Dir.children('/proc').grep(/\A\d+\z/).each_with_object({}) do |pid, found|
      stat = File.read("/proc/#{pid}/stat")
      # Fields after the parenthesised command name: state, ppid, ...
      state, ppid = stat[(stat.rindex(')') + 2)..].split(' ', 3)
      found[Integer(pid)] = state if Integer(ppid) == Process.pid
    rescue Errno::ENOENT, Errno::ESRCH
      next # exited while we looked
    end
  end

  # The names of the JVM's live threads, sorted: Ruby threads are among them (Ruby-0-Thread-N), and so is
  # any thread the gem starts (posix-spawn-fs). Left out, as they come and go by themselves: the JVM's
  # compiler threads (not listed anyway) and JRuby's JIT pool (Ruby-0-JIT-N, replaced when idle).
  def threads
    java.lang.Thread.getAllStackTraces.keySet.map(&:getName).grep_v(/\ARuby-\d+-JIT-\d+\z/).sort
  end

  # Resident set size in KiB.
  def rss_kib
    File.read('/proc/self/status')[/^VmRSS:\s+(\d+)/, 1].to_i
  end

  # The signal mask and ignored set of a process, as Integers (from /proc/PID/status).
  def signal_sets(pid)
    status = File.read("/proc/#{pid}/status")
    { blocked: status[/^SigBlk:\s+(\h+)/, 1].hex, ignored: status[/^SigIgn:\s+(\h+)/, 1].hex }
  end
end

# What a process holds that a spawn library could leak, and the facts about other processes that tests
# check, all read in this one module. Plain Ruby (no RSpec), so that scripts run in a JRuby of their own
# can `require 'process_resources'` too.
#
#   before = ProcessResources.snapshot   # { descriptors: {fd => target}, children: {pid => state}, threads: [names] }
#   before = ProcessResources.snapshot(:descriptors, :children)   # only those kinds
#   ... spawn ...
#   ProcessResources.settled_changes(before)   # => {} when nothing changed, else exactly what did, e.g.
#     # { descriptors: { opened: { 12 => "pipe:[4242]" } }, children: { started: { 4711 => "Z" } } }
#   ProcessResources.settled_changes(before, new_only: true)   # only what appeared: the leaks
#   ProcessResources.describe_changes(changes) # => "descriptor 12 -> pipe:[4242] opened; child 4711 (Z) started"
#
# In RSpec, `expect { ... }.not_to leak` (spec/support/leak_matcher.rb) does exactly that around a block.
# Each reading is a set (a Hash keyed by fd or pid, or a sorted list of thread names), never a count: the
# JVM opens and closes descriptors of its own at any time, and a count hides a leak that coincides with
# such a close.
#
# Linux reads /proc. Every /proc access of the specs is here; where there is no /proc (macOS, FreeBSD), or
# with PROCESS_RESOURCES=portable (to try that reading on Linux), the same methods read /dev/fd and `ps`
# instead (BSD and procps ps take the same -o keywords used here). A ps started for a reading is left out
# of what it reports.
module ProcessResources
  module_function

  PORTABLE = ENV['PROCESS_RESOURCES'] == 'portable' || !File.directory?('/proc/self/fd')

  # Where the JVM's container support reads cgroup limits: it opens such a file for a moment now and then,
  # on its own schedule, so a reading may catch it open on either side of a comparison. The gem never
  # opens anything there.
  JVM_CGROUP_READS = %r{\A/sys/fs/cgroup/}

  # JVM threads that come and go by themselves: JRuby's JIT pool (Ruby-0-JIT-N, replaced when idle). The
  # JVM's compiler threads are not listed at all.
  JVM_OWN_THREADS = /\ARuby-\d+-JIT-\d+\z/

  # What each kind's change is called: the first name for what AFTER has and BEFORE had not.
  SIDES = { descriptors: %i[opened closed], children: %i[started ended], threads: %i[started ended] }.freeze

  # This process's open descriptors, but for the JVM's cgroup reads: { fd => what it points at } (without
  # /proc: "type device:inode").
  def descriptors
    return portable_descriptors if PORTABLE

    Dir.children('/proc/self/fd').each_with_object({}) do |name, fds|
      target = File.readlink("/proc/self/fd/#{name}")
      fds[Integer(name)] = target unless target.match?(JVM_CGROUP_READS)
    rescue Errno::ENOENT
      next # the descriptor Dir.children itself used, closed again by now
    end
  end

  # The threads the reaper runs: its own, and the watch of the pidfds (Linux, where pidfd_open works).
  REAPER_THREADS = %w[posix-spawn-pidfds posix-spawn-reaper].freeze

  # The descriptors of the thread named name, as descriptors gives them, where it has a table of its own
  # (the reaper's pidfd watch: unshare(CLONE_FILES)); {} when there is no such thread.
  def thread_descriptors(name)
    task = Dir.children('/proc/self/task').find do |tid|
      File.read("/proc/self/task/#{tid}/comm").chomp == name[0, 15] # the kernel keeps 15 bytes of a name
    rescue Errno::ENOENT
      false
    end
    return {} unless task

    dir = "/proc/self/task/#{task}/fd"
    Dir.children(dir).each_with_object({}) do |fd, fds|
      fds[Integer(fd)] = File.readlink("#{dir}/#{fd}")
    rescue Errno::ENOENT
      next
    end
  end

  # The soft limit on descriptor numbers (ulimit -n), which a table of its own has too.
  def descriptor_limit
    Process.getrlimit(:NOFILE).first
  end

  # The pidfds the reaper's watch holds, as { fd => target }.
  def reaper_pidfds
    thread_descriptors('posix-spawn-pidfds').select { |_, target| target.include?('pidfd') }
  end

  # This process's descriptors open on the file at path (the same file: without /proc, the same inode).
  def descriptors_of(path)
    target = PORTABLE ? File.stat(path).then { |st| "#{st.ftype} #{st.dev}:#{st.ino}" } : File.realpath(path)
    descriptors.select { |_, on| on == target }.keys
  end

  # The process's own working directory (JRuby's Dir.pwd is its own, and may be one no kernel knows).
  def working_directory
    return File.readlink('/proc/self/cwd') unless PORTABLE

    buffer = FFI::MemoryPointer.new(:char, 4096)
    libc.getcwd(buffer, buffer.size) or raise SystemCallError.new('getcwd', FFI.errno)
    buffer.read_string
  end

  # libc's getcwd through JRuby's FFI, for working_directory where there is no /proc.
  def libc
    @libc ||= begin
      require 'ffi'
      Module.new do
        extend FFI::Library
        ffi_lib FFI::Library::LIBC
        attach_function :getcwd, %i[pointer size_t], :pointer
      end
    end
  end

  # The processes whose parent is this one, as { pid => state } (state "Z" is a zombie).
  def children
    return ps_table('pid', 'ppid', 'stat').filter_map { |pid, ppid, st| [Integer(pid), st[0]] if Integer(ppid) == Process.pid }.to_h if PORTABLE

    Dir.children('/proc').grep(/\A\d+\z/).each_with_object({}) do |pid, found|
      info = stat(Integer(pid))
      found[Integer(pid)] = info[:state] if info && info[:ppid] == Process.pid
    end
  end

  # Spawns COMMAND until ProgramCache keeps its answer (the JVM's 64th search, WATCH_AFTER), which opens the PATH
  # watch's descriptors (inotify and the mount table) for the JVM's life: run before a leak check's first
  # reading, so that the check sees what the code under test left.
  def open_path_watch(*command)
    65.times { Process.wait(POSIX::Spawn.spawn(*command)) }
  end

  # The names of the JVM's live threads, sorted, but for JVM_OWN_THREADS: Ruby threads are among them
  # (Ruby-0-Thread-N), and so is any thread the gem starts (posix-spawn-fs).
  def threads
    java.lang.Thread.getAllStackTraces.keySet.map(&:getName).grep_v(JVM_OWN_THREADS).sort
  end

  # The readings of KINDS (all three by default) as { descriptors: ..., children: ..., threads: ... }.
  def snapshot(*kinds)
    (kinds.empty? ? SIDES.keys : kinds).to_h { |kind| [kind, public_send(kind)] }
  end

  # What differs from snapshot BEFORE to snapshot AFTER (the kinds BEFORE has), leaving out what did not
  # change: { descriptors: { opened: {fd => target}, closed: {fd => target} }, children: { started:, ended: },
  # threads: { started: [names], ended: [names] } }. A descriptor number reused for another target is
  # both closed (the old target) and opened (the new one). With new_only, only what AFTER has in addition:
  # the leaks (what closes meanwhile may be an earlier example's IO, collected as garbage).
  def changes(before, after, new_only: false)
    before.each_with_object({}) do |(kind, was), found|
      now = after.fetch(kind)
      new_side, gone_side = SIDES.fetch(kind)
      sides = { new_side => minus(now, was) }
      sides[gone_side] = minus(was, now) unless new_only
      sides.reject! { |_, set| set.empty? }
      found[kind] = sides unless sides.empty?
    end
  end

  # changes from BEFORE to a fresh reading of the same kinds (the block's, or snapshot's), read again for up
  # to `seconds` while there are any: what the JVM holds for a moment, or a child being reaped, is gone by
  # then; a leak is not.
  def settled_changes(before, seconds: 1, new_only: false, &read)
    read ||= -> { snapshot(*before.keys) }
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    loop do
      found = changes(before, read.call, new_only: new_only)
      return found if found.empty? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

      sleep 0.05
    end
  end

  # One line naming each change: "descriptor 12 -> pipe:[4242] opened; child 4711 (Z) started; ...".
  def describe_changes(found)
    found.flat_map do |kind, sides|
      sides.flat_map do |side, set|
        case kind
        when :descriptors then set.map { |fd, target| "descriptor #{fd} -> #{target} #{side}" }
        when :children then set.map { |pid, state| "child #{pid} (#{state}) #{side}" }
        else set.map { |name| "thread #{name} #{side}" }
        end
      end
    end.join('; ')
  end

  # What A has and B has not: pairs of a Hash, items of a list (as a multiset: two threads may share a name).
  def minus(a, b)
    return a.reject { |key, value| b[key] == value } if a.is_a?(Hash)

    left = b.tally
    a.reject { |item| (left[item] = left.fetch(item, 0) - 1) >= 0 }
  end

  # /proc/PID/stat's fields after the parenthesised command name, as { state:, ppid:, pgrp:, session: }
  # (Integers but state, "Z" for a zombie), or nil for a process that is gone.
  def stat(pid)
    return portable_stat(pid) if PORTABLE

    text = File.read("/proc/#{pid}/stat")
    state, ppid, pgrp, session = text[(text.rindex(')') + 2)..].split(' ', 5)
    { state: state, ppid: Integer(ppid), pgrp: Integer(pgrp), session: Integer(session) }
  rescue SystemCallError # gone, or going: JRuby may report that as ENOENT, ESRCH or an unnamed errno
    nil
  end

  # Whether pid is gone, or a zombie about to be reaped by someone who is not us.
  def gone?(pid)
    info = stat(pid)
    info.nil? || info[:state] == 'Z'
  end

  # Waits up to `seconds` for pid to be gone; returns whether it is.
  def wait_until_gone(pid, seconds = 5)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    sleep 0.01 until gone?(pid) || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    gone?(pid)
  end

  # The program a process runs now ("sleep"), which changes at its exec.
  def program_name(pid)
    return ps_table('comm', pid: pid).dig(0, 0)&.then { |comm| File.basename(comm) } if PORTABLE

    File.read("/proc/#{pid}/status")[/^Name:\s+(\S+)/, 1]
  rescue SystemCallError
    nil
  end

  # The pids of running processes whose command line is exactly `words` (a zombie's is empty).
  def running_with_command_line(words)
    # ps shows the arguments joined by blanks: enough for the commands the specs look for.
    return ps_table('pid', 'args').filter_map { |pid, *args| Integer(pid) if args == words } if PORTABLE

    Dir.glob('/proc/[0-9]*/cmdline').filter_map do |path|
      Integer(path[%r{\A/proc/(\d+)/}, 1]) if File.binread(path).split("\0") == words
    rescue SystemCallError # exited meanwhile
      nil
    end
  end

  # The parent chain of pid, nearest first, up to (not including) pid 1.
  def ancestors(pid)
    chain = []
    while (info = stat(pid)) && info[:ppid] > 1
      chain << (pid = info[:ppid])
    end
    chain
  end

  # Resident set size in KiB.
  def rss_kib
    return Integer(ps_table('rss', pid: Process.pid).dig(0, 0)) if PORTABLE

    File.read('/proc/self/status')[/^VmRSS:\s+(\d+)/, 1].to_i
  end

  # Whether this process's descriptor fd is in non-blocking mode (O_NONBLOCK, from /proc/self/fdinfo; IO#fcntl
  # where there is no /proc). Octal in fdinfo, as the kernel prints it.
  def nonblocking?(fd)
    flags = PORTABLE ? (require 'fcntl'; IO.for_fd(fd, autoclose: false).fcntl(Fcntl::F_GETFL)) : Integer(File.read("/proc/self/fdinfo/#{fd}")[/^flags:\s+(\d+)/, 1], 8)
    flags & File::NONBLOCK != 0
  end

  # The signal mask and ignored set of a process, as Integers (from /proc/PID/status).
  def signal_sets(pid)
    if PORTABLE
      blocked, ignored = ps_table('sigmask', 'sigignore', pid: pid).fetch(0)
      return { blocked: blocked.hex, ignored: ignored.hex }
    end

    status = File.read("/proc/#{pid}/status")
    { blocked: status[/^SigBlk:\s+(\h+)/, 1].hex, ignored: status[/^SigIgn:\s+(\h+)/, 1].hex }
  end

  # Without /proc: /dev/fd's entries still open after the listing (its own is not), each with the type,
  # device and inode of what it refers to.
  def portable_descriptors
    Dir.children('/dev/fd').each_with_object({}) do |name, fds|
      st = File.stat("/dev/fd/#{name}")
      fds[Integer(name)] = "#{st.ftype} #{st.dev}:#{st.ino}"
    rescue SystemCallError
      next # the listing's own descriptor, closed by now
    end
  end

  def portable_stat(pid)
    row = ps_table('stat', 'ppid', 'pgid', 'sid', pid: pid).first
    return nil unless row

    state, ppid, pgrp, session = row
    { state: state[0], ppid: Integer(ppid), pgrp: Integer(pgrp), session: Integer(session) }
  end

  # `ps -o KEYWORD= ...` for every process (or only pid), as rows of words, without the ps itself.
  def ps_table(*keywords, pid: nil)
    command = ['ps', *keywords.flat_map { |k| ['-o', "#{k}="] }, *(pid ? ['-p', pid.to_s] : ['-A'])]
    rows = IO.popen(command, err: File::NULL) { |io| [io.pid, io.readlines] }
    ps = rows.first
    rows.last.map(&:split).reject { |row| keywords.first == 'pid' && Integer(row.first) == ps }
  end
end

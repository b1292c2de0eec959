require_relative 'process_resources'

# Every signal a test sends goes through OwnProcesses.kill, which sends it only to a process the test
# started: a mistyped or unread pid (0 kills this process's whole group: rspec, rake, bin/dev) raises
# instead of reaching anything else.
#
#   OwnProcesses.kill(:KILL, pid)                       # => true if sent, false if the process is gone
#   OwnProcesses.kill(:KILL, grandchild, in_group: leader)   # an orphan in a group the test made
#   OwnProcesses.kill(:TERM, -leader)                   # a whole group, led by a child of this process
#
# A process is the test's when it descends from this one, or when it is in the process group `in_group`:
# the pid of a child the test started with `pgroup: true` (or :pgroup_kill), which may be gone since,
# its children orphaned. A group id is not reused while the group has members, so a process in it is in
# the group the test made. Refused: anything not an Integer, 0, 1, -1, this process and its ancestors
# (rspec, rake, bin/dev), their groups, and every other process.
module OwnProcesses
  module_function

  def kill(signal, pid, in_group: nil)
    refusal = refusal(pid, in_group)
    raise ArgumentError, "refusing to send #{signal} to #{pid.inspect}: #{refusal}" if refusal
    return false if ProcessResources.gone?(pid.abs)

    Process.kill(signal, pid)
    true
  rescue Errno::ESRCH
    false
  end

  # Why pid may not be signalled, or nil if it may.
  def refusal(pid, in_group = nil)
    return 'not an Integer' unless pid.is_a?(Integer)
    return '0, 1 and -1 mean this process group, init and every process' if pid.abs <= 1

    target = pid.abs
    ours = [Process.pid, *ProcessResources.ancestors(Process.pid)]
    return 'it is this process or one of its ancestors' if ours.include?(target)
    return "it is the group of this process or of one of its ancestors" if pid.negative? && ours.any? { |p| ProcessResources.stat(p)&.fetch(:pgrp) == target }

    info = ProcessResources.stat(target)
    return nil if info.nil? # gone: nothing is sent
    return "#{target} leads no process group" if pid.negative? && info[:pgrp] != target
    return nil if ProcessResources.ancestors(target).include?(Process.pid)
    return nil if in_group.is_a?(Integer) && in_group > 1 && !ours.include?(in_group) && info[:pgrp] == in_group

    "this process did not start it (#{in_group ? "not in group #{in_group}" : 'not a descendant'})"
  end
end

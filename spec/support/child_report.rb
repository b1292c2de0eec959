require 'fileutils'
require 'tmpdir'

# What a real child says about itself. Each helper spawns, through POSIX::Spawn.spawn, a program that
# reports on itself (so nothing, not even a shell, stands between the spawn and the report), passing `env`
# and `options` on, and returns what that child saw. Two routes, chosen once:
#
# - :proc (Linux): `cat`, `readlink` and `ls` read the child's own /proc/self entries.
# - :portable (no /proc: macOS, FreeBSD; CHILD_REPORT=portable forces it on Linux): spec/support/child_report.c,
#   compiled with `cc` ($CC) at first use, asks its own system calls (POSIX ones only). Not `ps` and `env`:
#   BSD ps shows argv vis-encoded, blank-joined, empty words dropped and the command name appended when
#   argv0 differs (freebsd-src bin/ps/fmt.c), and `env`'s lines cannot tell a value's newline from the next
#   entry, so neither reports argv or environ byte for byte. Descriptors come from /dev/fd, which
#   FreeBSD without fdescfs fills with 0-2 only: there child_fds skips its example, saying why.
#
# Reports are the same on both routes (child_report_spec.rb runs each down both and compares); where a
# spec needs the report program itself (its argv), it asks ChildReport.command.
module ChildReport
  ROUTE = ENV['CHILD_REPORT'] == 'portable' || !File.directory?('/proc/self') ? :portable : :proc

  # The command that prints each report on the :proc route; the :portable route runs `helper REPORT`.
  PROC_COMMANDS = {
    argv: %w[cat /proc/self/cmdline], environ: %w[cat /proc/self/environ], cwd: %w[readlink /proc/self/cwd],
    status: %w[cat /proc/self/status], ids: %w[cat /proc/self/stat], fds: %w[ls -l /proc/self/fd],
    limits: %w[cat /proc/self/limits]
  }.freeze

  # /proc/self/limits' row names for the portable report's (setrlimit's) names.
  PROC_LIMIT_NAMES = {
    'Max cpu time' => 'CPU', 'Max file size' => 'FSIZE', 'Max data size' => 'DATA', 'Max stack size' => 'STACK',
    'Max core file size' => 'CORE', 'Max open files' => 'NOFILE', 'Max address space' => 'AS'
  }.freeze

  # What a shell, spawned with nothing but its arguments, writes into "$1" on the :proc route: the shell's
  # own environ (a command it runs gets the shell's exports instead), and the descriptors of an `ls` it
  # runs, which inherits the shell's (dash keeps a close-on-exec copy of stdout of its own).
  PROC_PLAIN_COMMANDS = { environ: 'cat /proc/$$/environ', fds: 'ls -l /proc/self/fd' }.freeze

  # What the helper's fds report exits with where /dev/fd does not list every descriptor.
  DEV_FD_INCOMPLETE = 3

  class << self
    # The route in use: ROUTE, or the one `using` set for its block.
    def route = @route || ROUTE

    # Runs the block with every report taken down `route` (child_report_spec.rb: both routes in one run).
    def using(route)
      saved = @route
      @route = route
      yield
    ensure
      @route = saved
    end

    # The program and arguments that print REPORT on the current route (`fd` takes the number as well).
    def command(report, *arguments)
      if route == :proc
        report == :fd ? ['stat', '-L', '-c', '%d,%i', "/proc/self/fd/#{arguments.fetch(0)}"] : PROC_COMMANDS.fetch(report)
      else
        [helper, report.to_s, *arguments.map(&:to_s)]
      end
    end

    # The command that writes REPORT (:environ or :fds) into FILE with no spawn option at all: a spawn that
    # takes the plain route, which reuses what the previous one kept (spec/spawn/freshness_spec.rb).
    def plain_command(report, file)
      return [helper, '-o', file, report.to_s] if route == :portable

      ['/bin/sh', '-c', "#{PROC_PLAIN_COMMANDS.fetch(report)} > \"$1\"", 'sh', file]
    end

    # The portable report program, compiled once per run into a directory removed at exit (by `announce`,
    # before any example, when the portable route is the run's).
    def helper
      @helper ||= begin
        dir = Dir.mktmpdir('child-report')
        at_exit { FileUtils.rm_rf(dir) }
        program = File.join(File.realpath(dir), 'child-report')
        source = File.join(__dir__, 'child_report.c')
        compiler = ENV.fetch('CC', 'cc')
        compiled = system(compiler, '-o', program, source)
        raise "ChildReport's portable route needs a C compiler: `#{compiler} #{source}` failed" unless compiled

        program
      end
    end

    # The descriptor numbers in the fds report's output, without the one its listing opened.
    def fds(out)
      return out.split.map { |fd| Integer(fd) }.sort if route == :portable

      out.lines.grep(/->/).reject { |l| l =~ %r{-> /proc/\d+/fd$} }.map { |l| Integer(l[/(\d+) ->/, 1]) }.sort
    end

    # [device, inode] from the fd report's output, "DEV,INO" on both routes (no blank: the command may be
    # given as one string).
    def file_id(out) = out.chomp.split(',').map { |n| Integer(n) }

    # [pgid, sid] from the ids report's output.
    def ids(out)
      return out.split.map { |n| Integer(n) } if route == :portable

      out[(out.rindex(')') + 2)..].split.values_at(2, 3).map { |n| Integer(n) } # state, ppid, pgrp, session
    end

    # { "NOFILE" => [soft, hard], ... } from the limits report's output.
    def limits(out)
      rows = if route == :portable
               out.lines.map(&:split).to_h { |name, *values| [name, values] }
             else
               out.lines.drop(1).to_h { |l| [l[0, 26].strip, l[26..].split.first(2)] }
                  .filter_map { |name, values| [PROC_LIMIT_NAMES[name], values] if PROC_LIMIT_NAMES[name] }.to_h
             end
      rows.transform_values { |values| values.map { |v| v == 'unlimited' ? Process::RLIM_INFINITY : Integer(v) } }
    end

    # One line for the start of a run, when a route other than /proc is in use (forced or for want of it).
    def announce
      return if route == :proc

      why = ENV['CHILD_REPORT'] == 'portable' ? 'CHILD_REPORT=portable' : 'no /proc'
      warn "ChildReport: portable route (#{why}): children report through #{helper}"
    end
  end

  # Spawns with stdout on a pipe; returns [stdout, Process::Status].
  def capture(*args, **options)
    reader, writer = IO.pipe
    pid = POSIX::Spawn.spawn(*args, { out: writer }.merge(options))
    writer.close
    out = reader.read
    Process.wait(pid)
    [out, $?]
  ensure
    reader&.close
    writer&.close unless writer&.closed?
  end

  def child_output(*args, **options)
    out, status = capture(*args, **options)
    raise "#{args.inspect} failed: #{status.inspect}" unless status.success?
    out
  end

  # argv as the child's kernel recorded it, the report program run as [program, argv0] when argv0 is given.
  # ChildReport.command(:argv) is what follows argv0.
  def child_argv(argv0 = nil, env = nil, **options)
    program, *arguments = ChildReport.command(:argv)
    child_output(*[env].compact, argv0 ? [program, argv0] : program, *arguments, **options).b.split("\0")
  end

  def child_env(env = nil, **options)
    child_output(*[env].compact, *ChildReport.command(:environ), **options).b.split("\0").to_h { |kv| kv.split('=', 2) }
  end

  def child_cwd(env = nil, **options)
    child_output(*[env].compact, *ChildReport.command(:cwd), **options).chomp
  end

  # The SigIgn a child of this process is given, as child_status reports it: what this process ignores (a shell
  # that ran it in the background ignores SIGINT and SIGQUIT; nohup SIGHUP) but SIGPIPE, as MRI's child, and
  # libc's internal signals 32 and 33, which the gem resets (a JRuby 10 JVM on Java 25 was seen ignoring 32).
  def inherited_ignored
    reset = [Signal.list.fetch('PIPE'), 32, 33].sum { |signal| 1 << (signal - 1) }
    format('%016x', ProcessResources.signal_sets(Process.pid)[:ignored] & ~reset)
  end

  # The child's status as a Hash: "Umask" => "0022", "SigBlk" => "0000000000000000", "SigIgn" => ... (more
  # keys on the /proc route).
  def child_status(**options)
    child_output(*ChildReport.command(:status), **options).lines.to_h { |l| l.chomp.split(/:\s*/, 2) }
  end

  # The child's open descriptors, without the one its listing opens.
  def child_fds(**options)
    out, status = capture(*ChildReport.command(:fds), **options)
    skip 'ChildReport: /dev/fd lists only 0-2 here (FreeBSD without fdescfs: mount -t fdescfs fdesc /dev/fd)' if status.exitstatus == DEV_FD_INCOMPLETE
    raise "child_fds failed: #{status.inspect}" unless status.success?

    ChildReport.fds(out)
  end

  # What the child's descriptor fd refers to (a file, a pipe...), as [device, inode]: compare with File.stat's.
  def child_fd_file(fd, **options) = ChildReport.file_id(child_output(*ChildReport.command(:fd, fd), **options))

  # The child's process group and session, [pgid, sid].
  def child_ids(**options) = ChildReport.ids(child_output(*ChildReport.command(:ids), **options))

  def child_pgid(**options) = child_ids(**options).first

  # Resource limits by setrlimit's name: { "NOFILE" => [soft, hard], ... } as Integers, Process::RLIM_INFINITY
  # for unlimited.
  def child_limits(**options) = ChildReport.limits(child_output(*ChildReport.command(:limits), **options))
end

RSpec.configure do |c|
  c.include ChildReport
  c.before(:suite) { ChildReport.announce }
end

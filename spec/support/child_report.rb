# What a real child says about itself. Each helper spawns, through POSIX::Spawn.spawn, a program that
# reads its own /proc entry (so nothing, not even a shell, stands between the spawn and the report),
# passing `env` and `options` on, and returns what that child saw.
module ChildReport
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

  # argv as the child's kernel recorded it; `program` may be [path, argv0].
  def child_argv(program = 'cat', *leading, **options)
    child_output(*leading, program, '/proc/self/cmdline', **options).split("\0")
  end

  def child_env(env = nil, **options)
    child_output(*[env].compact, 'cat', '/proc/self/environ', **options).b.split("\0").to_h { |kv| kv.split('=', 2) }
  end

  def child_cwd(env = nil, **options)
    child_output(*[env].compact, 'readlink', '/proc/self/cwd', **options).chomp
  end

  # /proc/self/status as a Hash: "Umask" => "0022", "SigBlk" => "0000000000000000", ...
  def child_status(**options)
    child_output('cat', '/proc/self/status', **options).lines.to_h { |l| l.chomp.split(/:\s*/, 2) }
  end

  # The child's open descriptors, without the one `ls` opens to read its own fd directory.
  def child_fds(**options)
    child_output('ls', '-l', '/proc/self/fd', **options).lines.grep(/->/).reject { |l| l =~ %r{-> /proc/\d+/fd$} }
                                                        .map { |l| l[/(\d+) ->/, 1].to_i }.sort
  end

  def child_pgid(**options)
    child_output('cut', '-d', ' ', '-f', '5', '/proc/self/stat', **options).to_i
  end

  # "Max open files" => [soft, hard] as Strings ("unlimited" or a number).
  def child_limits(**options)
    child_output('cat', '/proc/self/limits', **options).lines.drop(1)
                                                       .to_h { |l| [l[0, 26].strip, l[26..].split.first(2)] }
  end
end

RSpec.configure { |c| c.include ChildReport }

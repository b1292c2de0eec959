require 'rbconfig'

# What the behaviour suites need to run on a platform other than Linux (doc/platforms.md): options its
# profile refuses with NotImplementedError (:umask and :rlimit_* on macOS and FreeBSD, setsid: on FreeBSD)
# and checks that name Linux's own routes. An example that needs either skips there, saying why; on Linux
# nothing is refused and nothing skips, so a wrong refusal fails as it should.
module PlatformRefusals
  LINUX = RbConfig::CONFIG['host_os'].include?('linux')

  # Skips the example where this platform refuses to spawn with options, with the gem's own message.
  def skip_if_refused(**options)
    return if LINUX

    Process.wait(POSIX::Spawn.spawn('true', **options))
  rescue NotImplementedError => e
    skip e.message
  end

  # Skips an example that checks Linux's routes (Native.last_route, last_closing...) elsewhere.
  def skip_unless_linux(what)
    skip "#{what}: Linux's routes, and this is #{RbConfig::CONFIG['host_os']}" unless LINUX
  end
end

RSpec.configure { |c| c.include PlatformRefusals }

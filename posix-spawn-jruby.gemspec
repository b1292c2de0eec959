require_relative 'lib/posix/spawn/version'

Gem::Specification.new do |s|
  s.name        = 'posix-spawn-jruby'
  s.version     = POSIX::Spawn::VERSION
  s.platform    = 'java'
  s.summary     = 'Fast, correct, thread-safe process spawning for JRuby, with posix_spawn(3) and never fork'
  s.description = <<~DESC
    Process.spawn's whole option surface (env, redirections, chdir, umask, pgroup, rlimits, close_others)
    executed with posix_spawn(3) through jnr-ffi, the API of the MRI posix-spawn gem (spawn, system,
    popen4, POSIX::Spawn::Child) and a one-thread poll loop that captures output without deadlock.
  DESC
  s.authors     = ['posix-spawn-jruby developers']
  s.homepage    = 'https://github.com/posix-spawn-jruby/posix-spawn-jruby'
  s.license     = 'MIT'
  s.required_ruby_version = '>= 3.1'

  s.files       = Dir['lib/**/*.rb'] + ['lib/posix/spawn/benchmark/spawn_loop.c', 'lib/posix_spawn_jruby.jar', 'bin/posix-spawn-benchmark', 'README.md', 'LICENSE'] + Dir['doc/*.md']
  s.bindir      = 'bin'
  s.executables = ['posix-spawn-benchmark']
  s.require_paths = ['lib']

  s.add_development_dependency 'rspec', '~> 3.12'
end

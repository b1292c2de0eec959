require_relative '../lib/posix/spawn/version'

# The MRI posix-spawn gem's name and last version (0.3.15), for the java platform: on JRuby, Bundler and
# RubyGems pick this variant for every Gemfile that names posix-spawn, directly or through another gem, and
# it brings this engine (posix-spawn-jruby) instead of the MRI gem's C extension, which JRuby cannot build.
# It ships no code of its own: `require 'posix/spawn'` and `require 'posix-spawn'` load posix-spawn-jruby's
# files, so there is one copy of the engine whichever of the two names a Gemfile uses.
Gem::Specification.new do |s|
  s.name        = 'posix-spawn'
  s.version     = '0.3.15'
  s.platform    = 'java'
  s.summary     = 'posix-spawn for JRuby: the posix-spawn-jruby engine under the MRI gem\'s name'
  s.description = 'The java-platform variant of posix-spawn: depends on posix-spawn-jruby, which carries the ' \
                  'API of the MRI gem (spawn, system, `, popen4, POSIX::Spawn::Child) on posix_spawn(3) through jnr-ffi.'
  s.authors     = ['posix-spawn-jruby developers']
  s.homepage    = 'https://github.com/posix-spawn-jruby/posix-spawn-jruby'
  s.license     = 'MIT'
  s.required_ruby_version = '>= 3.1'
  s.files       = []
  s.require_paths = ['lib']

  s.add_dependency 'posix-spawn-jruby', POSIX::Spawn::VERSION
end

# The Java extension: POSIX::Spawn::Native, loaded at its first use (DEFERRED in lib/posix/spawn.rb).
require 'posix_spawn_jruby.jar'
JRuby::Util.load_ext('org.posixspawn.jruby.PosixSpawnLibrary')

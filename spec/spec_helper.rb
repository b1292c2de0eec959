$LOAD_PATH.unshift File.expand_path('../lib', __dir__)
require 'posix/spawn'
# The drop-in is loaded for spec/kernel, and stays installed for the whole suite only with DROPIN=1
# (`rake spec:dropin`), which runs every spec with JRuby's process methods on the engine.
require 'posix/spawn/kernel'
POSIX::Spawn::Kernel.uninstall unless ENV['DROPIN'] == '1'
require 'tmpdir'
require_relative 'support/jruby_launcher'
Dir[File.join(__dir__, 'support', '*.rb')].sort.each { |f| require f }
# The specs read which way each spawn went (Native.last_route, last_closing...): recorded only while tracing is on.
POSIX::Spawn::Native.trace(true)
# The gem opens a few descriptors once per JVM, on first use: the reaper's (epoll and a wake-up pipe, for a
# Child) and, on Linux, the PATH watch's (inotify and the mount table, at the JVM's 64th search). Opened
# here, before any example, so that a leak check (a set of descriptors before and after) sees what the
# example left, whichever examples ran before it.
POSIX::Spawn::Child.new('true')
ProcessResources.open_path_watch('true')

RSpec.configure do |config|
  config.disable_monkey_patching!
  config.order = :defined
  # Big data and 1,000-iteration loops run only when asked: `rake spec:long`, or `--tag long` on the command line
  # (a command-line tag takes precedence over this one).
  config.filter_run_excluding long: true
  config.before(:suite) { warn 'ProcessResources: portable readings (/dev/fd and ps, not /proc)' if ProcessResources::PORTABLE }
end

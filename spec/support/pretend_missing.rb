# The examples run with the engine told that these libc functions are missing (it takes the routes of
# platforms without them, as on macOS and FreeBSD), and with them back afterwards. No names: as it is.
#
#   context 'without pidfd_open' do
#     include_context 'pretend missing', 'pidfd_open'
#     ...
#   end
RSpec.shared_context 'pretend missing' do |*names|
  around do |example|
    names.each { |name| POSIX::Spawn::Native.pretend_missing(name, true) }
    example.run
  ensure
    names.each { |name| POSIX::Spawn::Native.pretend_missing(name, false) }
  end
end

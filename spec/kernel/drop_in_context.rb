# Examples in spec/kernel run with the drop-in installed, and put JRuby's methods back afterwards
# unless the whole suite runs with it (DROPIN=1).
RSpec.shared_context 'drop-in installed' do
  around do |example|
    POSIX::Spawn::Kernel.install
    example.run
  ensure
    POSIX::Spawn::Kernel.uninstall unless ENV['DROPIN'] == '1'
  end
end

$LOAD_PATH.unshift File.expand_path('../lib', __dir__)
require 'posix/spawn'
require 'tmpdir'
require_relative 'support/jruby_launcher'
Dir[File.join(__dir__, 'support', '*.rb')].sort.each { |f| require f }

RSpec.configure do |config|
  config.disable_monkey_patching!
  config.order = :defined
end

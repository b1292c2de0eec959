module POSIX
  module Spawn
    VERSION = '0.1.0'
  end
end

require 'posix/spawn'

require 'spec_helper'

RSpec.describe 'loading the gem' do
  it 'defines POSIX::Spawn::VERSION' do
    expect(POSIX::Spawn::VERSION).to match(/\A\d+\.\d+\.\d+/)
  end

  it "loads the same module through 'posix-spawn'" do
    require 'posix-spawn'
    expect($LOADED_FEATURES.grep(%r{/lib/posix-spawn\.rb\z}).size).to eq(1)
    expect($LOADED_FEATURES.grep(%r{/lib/posix/spawn\.rb\z}).size).to eq(1)
  end

  mri = %w[/usr/bin/ruby /usr/local/bin/ruby].find { |r| File.executable?(r) }
  it 'refuses to load under MRI, naming the gem to use there', skip: (mri ? false : 'no MRI ruby on this machine') do
    lib = File.expand_path('../lib', __dir__)
    out = IO.popen([mri, '-I', lib, '-e', "begin; require 'posix/spawn'; rescue LoadError => e; print e.message; end"], &:read)
    expect(out).to include('runs only on JRuby').and include('gem install posix-spawn')
  end
end

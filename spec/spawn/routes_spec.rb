require 'spec_helper'
require 'fileutils'
require_relative 'behaviour'
require_relative 'redirection_behaviour'
require_relative 'attributes_behaviour'

# One behaviour suite, run down every route the spawner can take: with the libc calls this machine has,
# and with the fallbacks a libc without posix_spawn_file_actions_addchdir_np (glibc < 2.29) or
# posix_spawn_file_actions_addclosefrom_np (glibc < 2.34, musl, macOS) uses.
RSpec.describe 'POSIX::Spawn.spawn' do
  optional_calls = %w[posix_spawn_file_actions_addchdir_np posix_spawn_file_actions_addclosefrom_np].freeze

  def pretend_missing(names)
    names.each { |n| POSIX::Spawn::Native.pretend_missing(n, true) }
    yield
  ensure
    names.each { |n| POSIX::Spawn::Native.pretend_missing(n, false) }
  end

  context 'with the libc calls this machine has' do
    include_examples 'spawn behaviour'
    include_examples 'redirection behaviour'
    include_examples 'attribute behaviour'
  end

  context 'without addchdir_np and addclosefrom_np (fallbacks)' do
    around { |example| pretend_missing(optional_calls) { example.run } }

    include_examples 'spawn behaviour'
    include_examples 'redirection behaviour'
    include_examples 'attribute behaviour'

    it 'closes a descriptor another thread opens between the listing and the spawn' do
      skip_unless_linux('the fallback of glibc < 2.34 and musl')
      listed = lambda do
        r, w = IO.pipe
        pid = POSIX::Spawn.spawn('ls', '-1', '/proc/self/fd', out: w)
        w.close
        r.read.split.tap { r.close; Process.wait(pid) }
      end
      alone = listed.call
      stop = false
      churn = Thread.new { java.io.FileInputStream.new('/dev/null').close until stop } # JVM descriptors: inheritable
      seen = Array.new(300) { listed.call }
      stop = true
      churn.join
      expect(seen.uniq).to eq([alone]) # listed descriptors alone closed: 42 of 300 children got the churn's
    end

    it 'ran down the fallbacks: the FS thread for :chdir, close actions past the listing' do
      skip_unless_linux('the fallbacks of glibc < 2.34 and musl')
      Process.wait(POSIX::Spawn.spawn('true', chdir: '/tmp'))
      expect(POSIX::Spawn::Native.last_route).to eq(:fs_thread)
      expect(POSIX::Spawn::Native.last_closing).to eq(:listed_and_above)
    end
  end

  describe 'which route runs' do
    def route_of(**options)
      Process.wait(POSIX::Spawn.spawn('true', **options))
      POSIX::Spawn::Native.last_route
    end

    it 'spawns from the calling thread when every step is a file action or attribute' do
      skip_unless_linux('route names')
      expect(route_of).to eq(:posix_spawn)
      expect(route_of(chdir: '/tmp', close_others: true, pgroup: true)).to eq(:posix_spawn)
    end

    it 'spawns from the FS thread for :umask and :rlimit_*, and for :chdir without addchdir_np' do
      skip_unless_linux('route names')
      expect(route_of(umask: 0o22)).to eq(:fs_thread)
      expect(route_of(rlimit_core: 0)).to eq(:fs_thread)
      pretend_missing(['posix_spawn_file_actions_addchdir_np']) { expect(route_of(chdir: '/tmp')).to eq(:fs_thread) }
    end

    it 'is recorded only while tracing is on (off, a spawn records nothing)' do
      skip_unless_linux('route names')
      POSIX::Spawn::Native.trace(false)
      expect([route_of, POSIX::Spawn::Native.last_closing]).to eq([nil, nil])
      POSIX::Spawn::Native.trace(true)
      expect([route_of, POSIX::Spawn::Native.last_closing]).to eq(%i[posix_spawn closefrom])
    ensure
      POSIX::Spawn::Native.trace(true)
    end

    it 'closes the other descriptors with addclosefrom_np, else with close actions past the listing of /proc (only the listed ones under :rlimit_*)' do
      skip_unless_linux('route names')
      closing_of = ->(**options) { Process.wait(POSIX::Spawn.spawn('true', **options)); POSIX::Spawn::Native.last_closing }
      expect(closing_of.call).to eq(:closefrom)
      expect(closing_of.call(close_others: false)).to eq(:none)
      pretend_missing(['posix_spawn_file_actions_addclosefrom_np']) do
        expect(closing_of.call).to eq(:listed_and_above)
        expect(closing_of.call(umask: 0o22)).to eq(:listed_and_above) # decided by the caller, carried out on the FS thread
        expect(closing_of.call(rlimit_core: 0)).to eq(:each_listed) # the actions after the gate run under the new limits
      end
    end

    it 'rejects names that are not optional libc calls' do
      expect { POSIX::Spawn::Native.pretend_missing('fork', true) }.to raise_error(ArgumentError, /not an optional call: fork/)
    end
  end
end

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

  # jnr-ffi generates a stub for every function of an interface when it binds it: the first spawn of a JVM
  # binds only the spawn's calls (LibC), the rest (LibCExtra: pipes, reads, mappings, waits) on first use.
  # One fresh JRuby (-verbose:class) does a plain spawn + wait, says so, then captures a child.
  it 'binds only the calls of a spawn for a plain spawn + wait, the rest when a child is captured' do
    script = "require 'posix/spawn'; Process.wait(POSIX::Spawn.spawn('true')); raise unless $?.success?; " \
             "$stdout.syswrite(\"SPAWNED\\n\"); raise unless POSIX::Spawn::Child.new('echo', 'hi').out == \"hi\\n\""
    out = IO.popen([*JRubyLauncher.command(['-verbose:class']), '--dev', '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect($?).to be_success, out.lines.last(5).join
    bound = ->(text) { text.scan(/org\.posixspawn\.jruby\.os\.libc\.(LibC\w*)/).flatten.uniq }
    before, after = out.split("SPAWNED\n", 2)
    expect(bound.(before)).to eq(['LibC'])
    expect(bound.(after)).to eq(['LibCExtra'])
  end

  # The require defines the module and its methods and nothing more, so that a program that loads the gem
  # and spawns nothing pays almost nothing (doc/performance-history.md, "Cold"): the C library is bound,
  # and the gem's threads started, by the first call that needs them. One fresh JRuby (-verbose:class)
  # requires the gem, waits a moment (a thread the require started would be at work by then), names the
  # threads that were not there before the require, then spawns.
  it 'binds no C library and starts no thread until the first spawn' do
    script = <<~'RUBY'
      threads = -> { java.lang.Thread.getAllStackTraces.keySet.to_a }
      before = threads.()
      $stdout.syswrite("REQUIRE\n")
      require 'posix/spawn'
      sleep 0.5
      $stdout.syswrite("NEW THREADS #{(threads.() - before).map(&:name).sort.inspect}\n")
      Process.wait(POSIX::Spawn.spawn('true'))
    RUBY
    out = IO.popen([*JRubyLauncher.command(['-verbose:class']), '--dev', '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect($?).to be_success, out.lines.last(5).join
    loading, new_threads, spawning = out.match(/^REQUIRE\n(.*)^NEW THREADS (.*?)\n(.*)/m).captures
    binding = /org\.posixspawn\.jruby\.os\.libc\.(LibC|LibCExtra|Native)\b|org\.posixspawn\.\S*\$jnr\$ffi\$/
    expect(new_threads).to eq('[]')
    expect(loading).not_to match(binding)
    expect(spawning).to match(/org\.posixspawn\.jruby\.os\.libc\.LibC\$jnr\$ffi\$/)
  end
  # What loads on first use needs a descriptor to open its file: a program out of them meets the reason, as
  # the call would have raised it (a constant's autoload: LoadError naming it), and the call works once
  # descriptors are free again (JRuby forgets an autoload that failed: the module loads the file itself).
  it 'raises Errno::EMFILE from a first use out of descriptors, and works once there are some' do
    script = <<~'RUBY'
      require 'posix/spawn'
      Process.setrlimit(:NOFILE, 256)
      ios = []
      begin
        loop { ios << File.open(File::NULL) }
      rescue Errno::EMFILE
      end
      2.times do
        begin
          POSIX::Spawn.start('true')
        rescue SystemCallError => e
          puts "start: #{e.class}"
        end
      end
      begin
        POSIX::Spawn::Child.new('true')
      rescue StandardError, LoadError # a constant's autoload raises LoadError (naming EMFILE) the first time
      end
      ios.each(&:close)
      puts POSIX::Spawn::Child.new('echo', 'child').out, POSIX::Spawn.start('echo', 'handle', out: :pipe).stdout.read
    RUBY
    out = IO.popen([*JRubyLauncher.command, '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect($?).to be_success, out
    expect(out.lines(chomp: true)).to eq(['start: Errno::EMFILE', 'start: Errno::EMFILE', 'child', 'handle'])
  end
end

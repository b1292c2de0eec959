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

  # jnr-ffi generates a class of stubs for an interface when it binds it (10-25 ms in a fresh JVM): a plain
  # spawn + wait generates none, its calls (LibC) being bound by hand through jffi (BoundLibC); the rest
  # (LibCExtra: pipes, reads, mappings, waits) are jnr-ffi's, bound on first use.
  # One fresh JRuby (-verbose:class) does a plain spawn + wait, says so, then captures a child.
  it 'generates no stubs for a plain spawn + wait, those of the rest when a child is captured' do
    script = "require 'posix/spawn'; Process.wait(POSIX::Spawn.spawn('true')); raise unless $?.success?; " \
             "$stdout.syswrite(\"SPAWNED\\n\"); raise unless POSIX::Spawn::Child.new('echo', 'hi').out == \"hi\\n\""
    out = IO.popen([*JRubyLauncher.command(['-verbose:class']), '--dev', '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect($?).to be_success, out.lines.last(5).join
    generated = ->(text) { text.scan(/org\.posixspawn\.jruby\.os\.libc\.(\w+)\$jnr\$ffi\$/).flatten.uniq }
    before, after = out.split("SPAWNED\n", 2)
    expect(before).to include('org.posixspawn.jruby.os.libc.BoundLibC')
    expect(generated.(before)).to eq([])
    expect(generated.(after)).to include('LibCExtra')
  end

  # Native's methods are defined from their groups' tables (BoundMethod::Table): a group's class, with its
  # methods' code, loads at its first call, so a plain spawn loads none of the six groups it never calls.
  it "loads a group of Native's methods at its first call, not at the require" do
    script = "require 'posix/spawn'; Process.wait(POSIX::Spawn.spawn('true')); raise unless $?.success?; " \
             "$stdout.syswrite(\"SPAWNED\\n\"); raise unless POSIX::Spawn::Child.new('echo', 'hi').out == \"hi\\n\""
    out = IO.popen([*JRubyLauncher.command(['-verbose:class']), '--dev', '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect($?).to be_success, out.lines.last(5).join
    groups = ->(text) { text.scan(/org\.posixspawn\.jruby\.(\w+Methods)\s/).flatten.uniq.sort }
    before, after = out.split("SPAWNED\n", 2)
    expect(groups.(before)).to eq(['NativeMethods'])
    expect(groups.(after)).to eq(['CaptureMethods'])
  end

  # A short program (tens of spawns) never binds the PATH watch, milliseconds at one spawn: ProgramCache
  # binds it from the JVM's 64th search (WATCH_AFTER), and caches a command from its 8th once it is bound.
  it "binds the PATH watch's calls at the JVM's 64th search, not before" do
    script = "require 'posix/spawn'; 63.times { Process.wait(POSIX::Spawn.spawn('true')) }; $stdout.syswrite(\"SIXTY-THREE\\n\"); " \
             "2.times { Process.wait(POSIX::Spawn.spawn('true')) }"
    out = IO.popen([*JRubyLauncher.command(['-verbose:class']), '--dev', '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect($?).to be_success, out.lines.last(5).join
    before, after = out.split("SIXTY-THREE\n", 2)
    expect(before).not_to match(/org\.posixspawn\.jruby\.os\.libc\.InotifyCalls\b/)
    expect(after).to match(/org\.posixspawn\.jruby\.os\.libc\.InotifyCalls\b/)
  end

  # The Java methods are bound by hand (BoundMethod): each checks its arity as an annotated one would.
  it "checks the arity of Native's methods: ArgumentError, not an index out of bounds" do
    native = POSIX::Spawn::Native
    expect { native.waitpid }.to raise_error(ArgumentError, 'wrong number of arguments (given 0, expected 1)')
    expect { native.last_status_set(nil) }.to raise_error(ArgumentError, 'wrong number of arguments (given 1, expected 2)')
    expect { native.read_all }.to raise_error(ArgumentError, 'wrong number of arguments (given 0, expected 1..2)')
    expect { native.start_handle }.to raise_error(ArgumentError, 'wrong number of arguments (given 0, expected 1+)')
    expect { native.last_route(1) }.to raise_error(ArgumentError, 'wrong number of arguments (given 1, expected 0)')
  end

  # The require defines the module and its methods, loads the rest of the gem on first use, and starts one
  # daemon thread that loads the plain spawn's classes (LibC's C functions looked up), so a spawn made a moment after the
  # require finds them ready (the first spawn call: 34 -> 8 ms on JRuby 9.4, 90 -> 15 ms on JRuby 10,
  # doc/performance-history.md); no other thread starts before the first call that needs it.
  it "binds the spawn's calls on a thread of its own once loaded, before any spawn, and starts no other thread" do
    # Waits for the thread to end rather than for a fixed time: on a loaded machine it may take seconds.
    script = <<~'RUBY'
      threads = -> { java.lang.Thread.getAllStackTraces.keySet.to_a }
      before = threads.()
      require 'posix/spawn'
      seen = (threads.() - before).map(&:name)
      deadline = Time.now + 60
      sleep 0.01 while threads.().any? { |t| t.name == 'posix-spawn-bind' } && Time.now < deadline
      $stdout.syswrite("WAITED #{((threads.() - before).map(&:name) | seen).sort.inspect}\n")
      Process.wait(POSIX::Spawn.spawn('true'))
    RUBY
    out = IO.popen([*JRubyLauncher.command(['-verbose:class']), '--dev', '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect($?).to be_success, out.lines.last(5).join
    before, threads, after = out.match(/\A(.*)^WAITED (.*?)\n(.*)/m).captures
    expect(threads).to eq('[]').or eq('["posix-spawn-bind"]') # the thread may have ended before it was seen
    expect(before).to match(/org\.posixspawn\.jruby\.os\.libc\.LibC\b/).and match(/org\.posixspawn\.jruby\.os\.spawn\.PlainSetup\b/)
    expect(after).not_to match(/org\.posixspawn\.jruby\.os\.(libc\.LibC|spawn\.Spawner|spawn\.PlainSetup)\b/)
  end

  # Threads that make their first calls at once, while the binding thread may still be loading the spawn's
  # classes and Child's file is loaded on first use: each call works.
  it 'works for threads making their first calls at once' do
    script = <<~'RUBY'
      require 'posix/spawn'
      calls = [-> { Process.wait(POSIX::Spawn.spawn('true')) && $?.success? }, -> { POSIX::Spawn.system('true') },
               -> { POSIX::Spawn.`('echo x') == "x\n" }, -> { POSIX::Spawn::Child.new('echo', 'y').out == "y\n" }]
      start = Queue.new
      threads = Array.new(8) { |i| Thread.new { start.pop && calls[i % 4].call } }
      8.times { start << true }
      p(threads.map { |t| t.value rescue $!.class })
    RUBY
    out = IO.popen([*JRubyLauncher.command, '-I', File.expand_path('../lib', __dir__), '-e', script], err: %i[child out], &:read)
    expect(out).to eq("#{[true] * 8}\n")
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

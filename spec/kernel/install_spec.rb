require 'spec_helper'
require_relative 'drop_in_context'
require 'open3' # as a program must: the drop-in does not load it

RSpec.describe POSIX::Spawn::Kernel do
  # What JRuby defines for each replaced entry: owner, visibility, arity (MRI's are the same owners).
  def table
    {
      Kernel => %i[spawn system ` open], Kernel.singleton_class => %i[spawn system ` open],
      Process.singleton_class => %i[spawn], IO.singleton_class => %i[popen popen3 popen4 read readlines foreach write binread binwrite],
      Open3 => %i[capture3 capture2 capture2e], Open3.singleton_class => %i[capture3 capture2 capture2e]
    }.flat_map do |target, names|
      names.map do |name|
        m = target.instance_method(name)
        vis = target.private_method_defined?(name) ? :private : :public
        [target, name, m.owner, vis, m.arity]
      end
    end
  end

  def jruby_entry?(target, name)
    target.instance_method(name).source_location.nil? # JRuby's own are Java: no Ruby source
  end

  after { POSIX::Spawn::Kernel.install if ENV['DROPIN'] == '1' }

  it 'installs by replacing entries in the owners themselves: owners, visibility and arity stay JRuby\'s' do
    POSIX::Spawn::Kernel.uninstall
    before = table
    POSIX::Spawn::Kernel.install
    expect(POSIX::Spawn::Kernel).to be_installed
    expect(table.map { |t, n, o, v, _a| [t, n, o, v] }).to eq(before.map { |t, n, o, v, _a| [t, n, o, v] })
    expect(method(:system).owner).to eq(Kernel)
    expect(Kernel.singleton_class.ancestors.first).to eq(Kernel.singleton_class) # nothing prepended
    expect(Kernel.ancestors.first).to eq(Kernel)
    expect(jruby_entry?(Kernel, :system)).to be(false)
    expect(jruby_entry?(IO.singleton_class, :popen)).to be(false)
  ensure
    POSIX::Spawn::Kernel.uninstall
  end

  it 'uninstall puts JRuby\'s own methods back exactly (same owners, visibility and arity)' do
    POSIX::Spawn::Kernel.uninstall
    before = table
    POSIX::Spawn::Kernel.install
    POSIX::Spawn::Kernel.uninstall
    expect(POSIX::Spawn::Kernel).not_to be_installed
    expect(table).to eq(before)
    expect(jruby_entry?(Kernel, :system)).to be(true)
    expect(jruby_entry?(Process.singleton_class, :spawn)).to be(true)
    expect(jruby_entry?(IO.singleton_class, :popen)).to be(true)
  end

  it 'is idempotent: installing twice, then uninstalling once, leaves JRuby\'s methods' do
    POSIX::Spawn::Kernel.uninstall
    POSIX::Spawn::Kernel.install
    expect(POSIX::Spawn::Kernel.install).to be(true)
    POSIX::Spawn::Kernel.uninstall
    expect(jruby_entry?(Kernel, :spawn)).to be(true)
  end

  it 'lets an alias chain added after install wrap the replacement (as other gems alias Kernel#system)' do
    POSIX::Spawn::Kernel.install
    mod = Module.new do
      def self.calls
        @calls ||= []
      end
    end
    Kernel.module_eval do
      alias_method :__spec_system_before, :system
      define_method(:system) { |*args| mod.calls << args; __spec_system_before(*args) }
      private :system
    end
    expect(system('true')).to be(true)
    expect(mod.calls).to eq([['true']])
  ensure
    Kernel.module_eval do
      alias_method :system, :__spec_system_before
      private :system
      remove_method :__spec_system_before
    end
    POSIX::Spawn::Kernel.uninstall
  end

  it 'takes replacements registered by other features (PTY\'s hook), installing them now when installed' do
    target = Module.new { def self.probe = :jruby }
    implementation = Module.new { def probe = :engine }.instance_method(:probe)
    POSIX::Spawn::Kernel.install
    POSIX::Spawn::Kernel.replace(target.singleton_class, :probe, implementation)
    expect(target.probe).to eq(:engine)
    POSIX::Spawn::Kernel.uninstall
    expect(target.probe).to eq(:jruby)
    POSIX::Spawn::Kernel.install
    expect(target.probe).to eq(:engine)
  ensure
    POSIX::Spawn::Kernel.uninstall
  end

  it 'refuses to register a replacement for a method that does not exist' do
    expect { POSIX::Spawn::Kernel.replace(Module.new, :nope, Kernel.instance_method(:system)) }
      .to raise_error(ArgumentError, /has no method nope to replace/)
  end

  it 'installs with RUBYOPT=-rposix/spawn/kernel (JRUBY_OPTS with the jruby launcher), and also in a JRuby started without its --add-opens' do
    lib = File.expand_path('../../lib', __dir__)
    probe = 'print POSIX::Spawn::Kernel.installed?, " ", method(:system).source_location.nil?'
    out = IO.popen({ 'RUBYOPT' => "-I#{lib} -rposix/spawn/kernel" }, [*JRubyLauncher.command, '-e', probe], err: [:child, :out], &:read)
    expect(out).to end_with('true false') # Java 24+ may warn about sun.misc.Unsafe first
    embedded = JRubyLauncher.embedded_command
    skip 'needs jruby-complete.jar to start JRuby without its --add-opens' unless embedded
    # JRuby's own pipes have made-up filenos there (Java 17+); the drop-in's have real ones. Open3's own
    # pipes must be the drop-in's before its first call there, however the program loads it (Kernel.require
    # is not Kernel#require, which sees the others), so Open3 comes with the drop-in.
    cmd = [*embedded, "-I#{lib}", '-e',
           "require 'posix/spawn/kernel'; print POSIX::Spawn::Kernel.installed?, ' ', `echo hi`.inspect, ' ', $?.exitstatus; " \
           "Kernel.require 'open3'; print ' ', Open3.popen2('echo', 'ho') { |_i, o, _t| o.read }.inspect"]
    out = IO.popen(cmd, err: [:child, :out], &:read)
    expect(out).not_to include('not installed')
    expect(out).to end_with('true "hi\n" 0 "ho\n"')
  end

  # As in MRI, Open3 exists once the program requires it; its methods are the drop-in's from then on.
  it 'loads no Open3, and replaces its methods when the program requires it: after the drop-in, before it, or while uninstalled' do
    lib = File.expand_path('../../lib', __dir__)
    run = lambda do |steps|
      script = "ours = -> { Open3.method(:capture3).source_location.first.end_with?('posix/spawn/kernel/open3.rb') }; #{steps}"
      IO.popen([*JRubyLauncher.command, '-I', lib, '-e', script], err: [:child, :out], &:read)
    end
    after = run.("require 'posix/spawn/kernel'; print defined?(Open3).inspect, ' '; require 'open3'; " \
                 "print ours.(), ' ', Open3.private_instance_methods(false).include?(:capture3) && " \
                 "Open3.instance_method(:capture3).source_location.first.end_with?('kernel/open3.rb')")
    expect(after).to end_with('nil true true')
    before = run.("require 'open3'; require 'posix/spawn/kernel'; print ours.()")
    expect(before).to end_with('true')
    uninstalled = run.("require 'posix/spawn/kernel'; POSIX::Spawn::Kernel.uninstall; require 'open3'; print ours.(), ' '; " \
                       "POSIX::Spawn::Kernel.install; print ours.()")
    expect(uninstalled).to end_with('false true')
    # An autoload the program registered stays the program's to trigger; then its methods are the drop-in's.
    autoloaded = run.("require 'posix/spawn/kernel'; autoload :Open3, 'open3'; require 'json'; " \
                      "print $LOADED_FEATURES.grep(%r{/open3\\.rb\\z}).inspect, ' ', ours.()")
    expect(autoloaded).to end_with('[] true')
  end

  # Zeitwerk (like Bootsnap) wraps Kernel#require by aliasing it and redefining it; its implicit namespaces (a
  # directory, no file) load only through that wrapper. Each step autoloads one: with the wrapper dropped, LoadError.
  zeitwerk = begin
    gem 'zeitwerk'
    false
  rescue LoadError
    'NOTICE: needs Zeitwerk (Debian\'s ruby-zeitwerk, which bin/dev test installs)'
  end
  it 'leaves a wrapper put on its methods (Zeitwerk\'s require, an alias chain on system) working, installed and uninstalled in any order', skip: zeitwerk do
    lib = File.expand_path('../../lib', __dir__)
    script = <<~'RUBY'
      require 'tmpdir'
      dir = Dir.mktmpdir
      names = %w[n0 n1 n2 n3 n4 n5]
      names.each { |n| Dir.mkdir(File.join(dir, n)); File.write(File.join(dir, n, 'x.rb'), "#{n.capitalize}::X = 1\n") }
      first, *steps = ARGV
      require 'zeitwerk' if first == 'zeitwerk-first'
      require 'posix/spawn/kernel'
      require 'zeitwerk' unless first == 'zeitwerk-first'
      loader = Zeitwerk::Loader.new
      loader.push_dir(dir)
      loader.setup
      module Kernel
        alias_method :traced_system, :system
        def system(*args) = (($traced ||= []) << args.first; traced_system(*args))
        private :system
      end
      ours = -> { !Kernel.instance_method(:traced_system).source_location.nil? }
      seen = steps.zip(names).map do |step, name|
        POSIX::Spawn::Kernel.public_send(step) unless step == 'none'
        namespace = begin
          Object.const_get(name.capitalize)::X
        rescue LoadError => e
          e.class
        end
        [step, namespace, POSIX::Spawn::Kernel.installed?, ours.(), system('true')]
      end
      FileUtils.rm_rf(dir)
      print seen.inspect, ' ', $traced.size
    RUBY
    expected = lambda do |steps|
      state = true
      steps.map { |step| [step, 1, state = step == 'none' ? state : step == 'install', state, true] }.inspect + " #{steps.size}"
    end
    [%w[dropin-first none uninstall install uninstall install], %w[zeitwerk-first uninstall install uninstall none]].each do |first, *steps|
      out = IO.popen([*JRubyLauncher.command(gems: true), '-I', lib, '-e', script, first, *steps], err: %i[child out], &:read)
      expect(out).to end_with(expected.call(steps)), "#{first}: #{out}"
    end
  end

  # JRuby's pty sets LIBFIXPOSIX_PATH as it loads. The drop-in does not load it (0.65 s): as in MRI, PTY
  # comes with the program's `require 'pty'`, and is the drop-in's then.
  it 'changes nothing in ENV or in what a child sees, by being required or by a later require \'pty\'' do
    lib = File.expand_path('../../lib', __dir__)
    script = <<~RUBY
      require 'json'
      env = -> { IO.popen(['env', '-0'], &:read).split("\\0").to_h { |pair| pair.split('=', 2) } }
      before = ENV.to_h
      require 'posix/spawn/kernel'
      report = { before: before, after: ENV.to_h, child: env.call, pty_loaded: !defined?(PTY).nil? }
      require 'pty'
      report.merge!(after_pty: ENV.to_h, child_after_pty: env.call, pty_master: PTY.spawn('true')[0].class.name)
      print JSON.generate(report)
    RUBY
    env = ENV.to_h.reject { |name, _| name == 'LIBFIXPOSIX_PATH' }
    report = JSON.parse(IO.popen(env, [*JRubyLauncher.command, '-I', lib, '-e', script], unsetenv_others: true, &:read)[/\{.*/m])
    expect(report.values_at('after', 'child', 'after_pty', 'child_after_pty')).to all(eq(report['before']))
    expect(report.values_at('pty_loaded', 'pty_master')).to eq([false, 'POSIX::Spawn::PtyMaster'])
  end
end

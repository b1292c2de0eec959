require 'fileutils'
require 'json'
require 'open3'
require 'rubygems/package'

# `rake bundler_check`: what `bundle install` does on JRuby with a Gemfile whose gem needs posix-spawn,
# offline. A folder holds what a registry would offer: this engine's two gems (posix-spawn-jruby and
# posix-spawn 0.3.15-java), a stand-in for the MRI gem (posix-spawn 0.3.15, platform ruby: metadata only,
# JRuby cannot build the real one) and a fixture gem written for the MRI gem. Bundler reads it as the app's
# vendor/cache with --local; no registry is asked.
class BundlerCheck
  ROOT = File.expand_path('../..', __dir__)

  # The fixture: a library written for the MRI gem (requires posix/spawn, spawns, runs a Child), telling
  # which engine ran it.
  FIXTURE = <<~RUBY.freeze
    require 'posix/spawn'

    module SpawnFixture
      def self.report
        pid = POSIX::Spawn.spawn('sh', '-c', 'exit 3')
        Process.wait(pid)
        spawn_status = $?.exitstatus
        child = POSIX::Spawn::Child.new('echo', 'from a Child')
        { 'spawn_status' => spawn_status, 'child_out' => child.out, 'child_success' => child.success?,
          'engine' => defined?(POSIX::Spawn::Native) && POSIX::Spawn::Native.name,
          'spawn_defined_in' => POSIX::Spawn.method(:spawn).source_location.first,
          'posix_spawn' => Gem.loaded_specs['posix-spawn'].full_name,
          'engine_gem' => Gem.loaded_specs['posix-spawn-jruby']&.full_name }
      end
    end
  RUBY

  def initialize(dir, jruby)
    @dir = dir
    @jruby = jruby
    @app = File.join(dir, 'app')
    @cache = File.join(@app, 'vendor', 'cache')
    home = File.join(dir, 'gem-home')
    # Nothing of this machine's gems, Bundler settings or load path; only the folder's gems.
    @env = { 'GEM_HOME' => home, 'GEM_PATH' => home, 'BUNDLE_GEMFILE' => File.join(@app, 'Gemfile'),
             'BUNDLE_USER_HOME' => File.join(dir, 'bundle-home'), 'BUNDLE_APP_CONFIG' => File.join(dir, 'bundle-config'),
             'RUBYLIB' => nil, 'RUBYOPT' => nil }
  end

  def run
    FileUtils.mkdir_p(@cache)
    build_gems
    File.write(File.join(@app, 'Gemfile'), "source 'https://rubygems.org'\n\ngem 'spawn-fixture'\n")
    bundle('install', '--local')
    lock = File.read(File.join(@app, 'Gemfile.lock'))
    expect(lock.include?("    posix-spawn (0.3.15-java)\n      posix-spawn-jruby (= #{POSIX::Spawn::VERSION})\n"),
           "Gemfile.lock does not resolve posix-spawn to 0.3.15-java on posix-spawn-jruby:\n#{lock}")
    check_engine_runs
    # --local resolves from installed gems: the stand-in, installed now, is what MRI's side resolves to.
    require 'rubygems/installer'
    Gem::DefaultUserInteraction.use_ui(Gem::SilentUI.new) do
      Gem::Installer.at(File.join(@cache, mri_stand_in.file_name), install_dir: @env['GEM_HOME'], document: []).install
    end
    bundle('lock', '--add-platform', 'ruby', '--local')
    check_ruby_platform(File.read(File.join(@app, 'Gemfile.lock')))
    puts File.read(File.join(@app, 'Gemfile.lock'))
    puts "Bundler #{bundler_version} on JRuby #{JRUBY_VERSION}: spawn-fixture's posix-spawn is 0.3.15-java " \
         'on this engine; with the ruby platform the lock keeps posix-spawn (0.3.15) for MRI'
  end

  private

  def build_gems
    require_relative '../../lib/posix/spawn/version'
    engine = Gem::Specification.load(File.join(ROOT, 'posix-spawn-jruby.gemspec'))
    compat = Gem::Specification.load(File.join(ROOT, 'compat', 'posix-spawn.gemspec'))
    Dir.chdir(ROOT) { [engine, compat].each { |spec| package(spec) } }
    package(mri_stand_in)
    fixture = File.join(@dir, 'fixture')
    FileUtils.mkdir_p(File.join(fixture, 'lib'))
    File.write(File.join(fixture, 'lib', 'spawn_fixture.rb'), FIXTURE)
    Dir.chdir(fixture) { package(fixture_spec) }
  end

  def package(spec)
    Gem::DefaultUserInteraction.use_ui(Gem::SilentUI.new) do
      Gem::Package.build(spec, false, false, File.join(@cache, spec.file_name))
    end
  end

  def mri_stand_in
    fixture_gem('posix-spawn', '0.3.15', 'stand-in for the MRI gem (no extension): what a registry lists beside the java variant')
  end

  def fixture_spec
    fixture_gem('spawn-fixture', '1.0.0', 'a gem written for the MRI posix-spawn gem',
                files: ['lib/spawn_fixture.rb'], depends: ['posix-spawn', '~> 0.3'])
  end

  def fixture_gem(name, version, summary, files: [], depends: nil)
    Gem::Specification.new do |s|
      s.name = name
      s.version = version
      s.summary = summary
      s.authors = ['bundler_check']
      s.files = files
      s.add_dependency(*depends) if depends
    end
  end

  # `bundle exec` starts a JRuby that loads the fixture through Bundler's setup and prints its report.
  def check_engine_runs
    probe = "require 'json'; require 'spawn_fixture'; puts JSON.generate(SpawnFixture.report)"
    report = JSON.parse(bundle('exec', *@jruby, '-e', probe).lines.last)
    engine_dir = File.join(@env['GEM_HOME'], 'gems', "posix-spawn-jruby-#{POSIX::Spawn::VERSION}-java")
    expected = { 'spawn_status' => 3, 'child_out' => "from a Child\n", 'child_success' => true,
                 'engine' => 'POSIX::Spawn::Native', 'posix_spawn' => 'posix-spawn-0.3.15-java',
                 'engine_gem' => "posix-spawn-jruby-#{POSIX::Spawn::VERSION}-java" }
    expect(report.slice(*expected.keys) == expected, "bundle exec ran #{report.inspect}, expected #{expected.inspect}")
    expect(report['spawn_defined_in'].start_with?(engine_dir + '/'),
           "POSIX::Spawn.spawn came from #{report['spawn_defined_in']}, not the installed #{engine_dir}")
  end

  # The lock with both platforms: posix-spawn (0.3.15) for ruby, without the engine; the java variant on it.
  def check_ruby_platform(lock)
    specs = lock[/^GEM\n(.*?)\n\n/m, 1].to_s
    expect(specs.include?("    posix-spawn (0.3.15)\n") && specs.include?("    posix-spawn (0.3.15-java)\n"),
           "the lock with the ruby platform lacks a variant of posix-spawn:\n#{lock}")
    expect(!specs.match?(/^    posix-spawn \(0\.3\.15\)\n      posix-spawn-jruby/),
           "the ruby variant of posix-spawn depends on the engine:\n#{lock}")
    platforms = lock[/^PLATFORMS\n(.*?)\n\n/m, 1].to_s.split.sort
    expect(platforms.include?('ruby') && platforms.any? { |p| p.include?('java') }, "PLATFORMS is #{platforms.inspect}:\n#{lock}")
  end

  def bundle(*args)
    out, status = Open3.capture2e(@env, *@jruby, '-S', 'bundle', *args, chdir: @app)
    expect(status.success?, "bundle #{args.join(' ')} failed (#{status.inspect}):\n#{out}")
    out
  end

  def bundler_version
    Gem::Specification.find_by_name('bundler').version
  rescue Gem::MissingSpecError
    '?'
  end

  def expect(condition, message)
    abort "bundler_check: #{message}" unless condition
  end
end

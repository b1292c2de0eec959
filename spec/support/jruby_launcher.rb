require 'rbconfig'

# The command that starts another copy of the running JRuby: `java -jar jruby-complete.jar` when that is
# how this one started (bin/dev), otherwise the installed `jruby` launcher. `jvm_options` go to its JVM.
module JRubyLauncher
  # The specs' JRubies live seconds: the JVM's quick compiler alone starts them about a third sooner, and
  # keeps C2's compiler threads off the two CPUs both suites share.
  QUICK = ['-XX:TieredStopAtLevel=1'].freeze

  def self.command(jvm_options = [])
    jvm_options = QUICK + jvm_options
    jar = ENV['JRUBY_JAR'] ||
          ENV_JAVA['java.class.path'].to_s.split(File::PATH_SEPARATOR).find { |p| p =~ /jruby-complete[^\/]*\.jar\z/ }
    return [RbConfig.ruby, *jvm_options.map { |option| "-J#{option}" }] unless jar

    java = ENV['JRUBY_JAVA'] || File.join(ENV_JAVA['java.home'], 'bin', 'java')
    # Java 24+ warns on every start that jffi (inside JRuby) uses sun.misc.Unsafe; bin/dev says it is expected.
    quiet = ENV_JAVA['java.specification.version'].to_i >= 24 ? ['--sun-misc-unsafe-memory-access=allow'] : []
    [java, *quiet, *jvm_options, '-jar', jar]
  end
end

require 'rbconfig'

# The command that starts another copy of the running JRuby: `java -jar jruby-complete.jar` when that is
# how this one started (bin/dev), otherwise the installed `jruby` launcher. `jvm_options` go to its JVM.
module JRubyLauncher
  # The specs' JRubies live seconds: the JVM's quick compiler alone starts them about a third sooner, and
  # keeps C2's compiler threads off the two CPUs both suites share.
  QUICK = ['-XX:TieredStopAtLevel=1'].freeze

  def self.command(jvm_options = [])
    jvm_options = QUICK + jvm_options
    return [RbConfig.ruby, *jvm_options.map { |option| "-J#{option}" }] unless jar

    [java, *quiet, *jvm_options, '-jar', jar]
  end

  # The same JRuby started as a Java application embeds it, `java -cp jruby-complete.jar org.jruby.Main`:
  # without the --add-opens that `java -jar` takes from the jar's manifest (and the jruby launcher passes),
  # so JRuby's own IOs get made-up filenos. Nil when this JRuby is no jruby-complete jar.
  def self.embedded_command
    jar && [java, *quiet, *QUICK, '-cp', jar, 'org.jruby.Main']
  end

  def self.jar
    ENV['JRUBY_JAR'] || ENV_JAVA['java.class.path'].to_s.split(File::PATH_SEPARATOR).find { |p| p =~ /jruby-complete[^\/]*\.jar\z/ }
  end

  def self.java
    ENV['JRUBY_JAVA'] || File.join(ENV_JAVA['java.home'], 'bin', 'java')
  end

  # Java 24+ warns on every start that jffi (inside JRuby) uses sun.misc.Unsafe; bin/dev says it is expected.
  def self.quiet
    ENV_JAVA['java.specification.version'].to_i >= 24 ? ['--sun-misc-unsafe-memory-access=allow'] : []
  end
end

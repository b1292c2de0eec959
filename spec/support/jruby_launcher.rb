require 'rbconfig'

# The command that starts another copy of the running JRuby: `java -jar jruby-complete.jar` when that is
# how this one started (bin/dev), otherwise the installed `jruby` launcher. `jvm_options` go to its JVM.
module JRubyLauncher
  # The specs' JRubies live seconds (a suite starts about 230): the JVM's quick compiler alone and the serial
  # collector start them in half the CPU, and keep C2's and G1's threads off the two CPUs both suites share.
  QUICK = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'].freeze

  # gems: false starts JRuby with --disable-gems (RubyGems' load is a third of a start); the JRubies that run
  # rake, rspec, gem or bundler ask for them.
  def self.command(jvm_options = [], gems: false)
    jvm_options = QUICK + class_data + jvm_options
    ruby_options = gems ? [] : ['--disable-gems']
    return [RbConfig.ruby, *jvm_options.map { |option| "-J#{option}" }, *ruby_options] unless jar

    [java, *quiet, *jvm_options, '-jar', jar, *ruby_options]
  end

  # The same JRuby started as a Java application embeds it, `java -cp jruby-complete.jar org.jruby.Main`:
  # without the --add-opens that `java -jar` takes from the jar's manifest (and the jruby launcher passes),
  # so JRuby's own IOs get made-up filenos. Nil when this JRuby is no jruby-complete jar.
  def self.embedded_command(gems: false)
    jar && [java, *quiet, *QUICK, *class_data, '-cp', jar, 'org.jruby.Main', *(gems ? [] : ['--disable-gems'])]
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

  # The archive of JRuby's classes that bin/dev makes for this java and jar (JRUBY_CDS): a JVM maps them
  # instead of loading them again. A JVM for which it does not fit ignores it, silently.
  def self.class_data
    archive = ENV['JRUBY_CDS']
    archive && File.file?(archive) ? ["-XX:SharedArchiveFile=#{archive}", '-Xlog:cds*=off', '-Xlog:class+path=off'] : []
  end
end

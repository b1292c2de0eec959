require 'rbconfig'

# The command that starts another copy of the running JRuby: `java -jar jruby-complete.jar` when that is
# how this one started (bin/dev), otherwise the installed `jruby` launcher.
module JRubyLauncher
  def self.command
    jar = ENV['JRUBY_JAR'] ||
          ENV_JAVA['java.class.path'].to_s.split(File::PATH_SEPARATOR).find { |p| p =~ /jruby-complete[^\/]*\.jar\z/ }
    return [RbConfig.ruby] unless jar

    java = ENV['JRUBY_JAVA'] || File.join(ENV_JAVA['java.home'], 'bin', 'java')
    # Java 24+ warns on every start that jffi (inside JRuby) uses sun.misc.Unsafe; bin/dev says it is expected.
    quiet = ENV_JAVA['java.specification.version'].to_i >= 24 ? ['--sun-misc-unsafe-memory-access=allow'] : []
    [java, *quiet, '-jar', jar]
  end
end

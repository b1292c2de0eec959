require 'json'
require 'rbconfig'
require 'posix/spawn/benchmark/measure'

module POSIX
  module Spawn
    module Benchmark
      # --cold: what a short program sees (a CLI, a rake task, a script that runs a few commands). Each run
      # is a fresh JVM doing one case's first operations from its start (cold_child.rb), the gem's require
      # timed too; every case the summary compares, but the C loop's (no JIT to warm), --jvms times, the
      # cases taking turns so that load from the rest of the machine falls on all of them alike.
      class Cold
        CHILD = File.expand_path('cold_child.rb', __dir__)
        LIB = File.expand_path('../../..', __dir__)

        # One case's run in one fresh JVM, in ms: its require (0 for JRuby's own ways), each of its first
        # operations, the whole process, JVM start to exit, and for JRuby's own ways the require of a
        # one-line file in its place (cold_child.rb), what the program's first require costs it anyway.
        Run = Struct.new(:require_ms, :op_ms, :process_ms, :first_require_ms) do
          def first_ms
            op_ms.first
          end

          def total_ms
            op_ms.sum
          end
        end

        # The command that starts a fresh JRuby like this one: the jruby launcher that started it; else the
        # same java with this JVM's own options (its class data archive, heap, Java 24's Unsafe switch) and
        # `-jar jruby-complete.jar` when bin/dev (which says so in JRUBY_JAR) or `java -jar` started it, or
        # its class path and org.jruby.Main (an embedding, `java -cp`), where there is no launcher to run.
        def self.launcher
          jar = ENV['JRUBY_JAR'] || started_from_jar
          return [RbConfig.ruby] if jar.nil? && java.io.File.new(RbConfig.ruby).file? # not JRuby's uri:classloader: one

          options = java.lang.management.ManagementFactory.getRuntimeMXBean.getInputArguments.to_a
          start = jar ? ['-jar', jar] : ['-cp', ENV_JAVA['java.class.path'], 'org.jruby.Main']
          [File.join(ENV_JAVA['java.home'], 'bin', 'java'), *options, *start]
        end

        # The jar of `java -jar JAR`, when that started this JVM.
        def self.started_from_jar
          path = ENV_JAVA['java.class.path'].to_s
          path if path.end_with?('.jar') && ENV_JAVA['sun.java.command'].to_s.start_with?(path)
        end

        def initialize(settings, cases, progress)
          names = Summary::COMPARISONS.flat_map { |_, _, pairs| pairs.flat_map { |ours, theirs, _| [ours, theirs] } }
          @cases = cases.select { |c| c.is_a?(RubyCase) && names.include?(c.name) }
          @settings = settings
          @progress = progress
        end

        def report
          ColdReport.new(@settings, @cases, measure)
        end

        private

        # { case => [Run, one a JVM] }
        def measure
          runs = Hash.new { |h, c| h[c] = [] }
          started = Benchmark.now
          total = @settings.jvms * @cases.size
          @settings.jvms.times do |jvm|
            @cases.rotate(jvm).each_with_index do |c, i|
              done = jvm * @cases.size + i
              left = (Benchmark.now - started) / done * (total - done) unless done.zero?
              @progress.status("cold: JVM #{jvm + 1}/#{@settings.jvms} of #{c.name}", left)
              runs[c] << run(c)
            end
          end
          @progress.done
          runs
        end

        def run(c)
          started = Benchmark.now
          out = IO.popen([*Cold.launcher, "-I#{LIB}", CHILD, c.name, @settings.count.to_s, *c.needs], &:read)
          raise "--cold: #{c.name} failed in a fresh JVM (#{$?.inspect})" unless $?.success?

          result = JSON.parse(out)
          required = result['require_ms']
          Run.new(c.needs ? required : 0, result['op_ms'], (Benchmark.now - started) * 1e3, (required unless c.needs))
        end
      end
    end
  end
end

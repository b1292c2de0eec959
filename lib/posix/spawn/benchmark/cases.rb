require 'open3'
require 'tmpdir'
require 'posix/spawn/benchmark/measure'

module POSIX
  module Spawn
    module Benchmark
      # The kinds of work compared. A case's ratio is to its group's baseline: this gem's way of doing it.
      Group = Struct.new(:title, :baseline)
      GROUPS = {
        spawn: Group.new('spawn `true` and wait for it', 'POSIX::Spawn.spawn'),
        capture: Group.new('run `head -c SIZE /dev/zero` and capture its output', 'POSIX::Spawn::Child 1 MiB'),
      }.freeze

      # A warm-up window's seconds per operation: the typical one (the median where each operation was
      # timed, steady under the odd slow one that load from the rest of the machine makes) and the mean.
      Window = Struct.new(:typical, :mean)

      # A case timed in this JRuby. The operation does one operation and returns true when the child did
      # what it should (checked while warming up, not while timing); NEEDS is the feature it requires of
      # this gem, which --cold's fresh JVMs time (nil for JRuby's own ways).
      class RubyCase
        attr_reader :name, :group, :needs, :operation

        # How many times the drop-in was installed or uninstalled (DropInCase), so far in this JVM.
        @toggles = 0
        class << self
          attr_accessor :toggles
        end

        def initialize(name, group, needs: nil, &operation)
          @name = name
          @group = group
          @needs = needs
          @operation = operation
          @toggles_seen = nil
        end

        # COUNT checked operations on this thread, each timed: their Window.
        def warm_up(count)
          times = Array.new(count) do
            started = Benchmark.now
            @operation.call or raise "#{name}: the child did not do what it should"
            Benchmark.now - started
          end
          Window.new(Benchmark.median(times), times.sum / count)
        end

        # Seconds per operation for COUNT operations shared out among THREADS threads.
        def time_per_op(count, threads)
          settle_method_caches
          started = Benchmark.now
          if threads == 1
            count.times { @operation.call }
          else
            Benchmark.shares(count, threads).map { |n| Thread.new { n.times { @operation.call } } }.each(&:join)
          end
          (Benchmark.now - started) / count
        end

        private

        # One untimed operation when the drop-in was installed or uninstalled since this case last ran:
        # JRuby's method caches, emptied by either, make the next call take twice as long (one 1 MiB
        # Open3.capture3 right after an install took 5.0 ms, the next ones 2.5 ms), which is not this case's
        # to pay. Only then: for JRuby's 16 MiB backtick (200 ms) an untimed call each round would double its time.
        def settle_method_caches
          return if @toggles_seen == RubyCase.toggles

          @operation.call
          @toggles_seen = RubyCase.toggles
        end
      end

      # A case run with the drop-in (posix/spawn/kernel) installed: installed for its warm-up and for each
      # round's batch, uninstalled after, so the builtin cases of the same run get JRuby's own methods.
      class DropInCase < RubyCase
        def initialize(name, group, &operation)
          super(name, group, needs: 'posix/spawn/kernel', &operation)
        end

        def warm_up(count)
          with_drop_in { super }
        end

        def time_per_op(count, threads)
          with_drop_in { super }
        end

        private

        def with_drop_in
          POSIX::Spawn::Kernel.install
          RubyCase.toggles += 1
          yield
        ensure
          POSIX::Spawn::Kernel.uninstall
          RubyCase.toggles += 1
        end
      end

      # A case that cannot run here: reported with the reason instead of a time.
      Unavailable = Struct.new(:name, :group, :reason)

      # Reported in place of the MRI gem's fork+exec row.
      NO_FSPAWN = 'fspawn (fork+exec) is not measured: the JVM cannot fork, and POSIX::Spawn.fspawn raises NotImplementedError'

      module Cases
        module_function

        # Every case, in report order; C_LOOPS, the C reference's (none for --cold's fresh JVMs, which
        # time only JRuby's first operations).
        def all(c_loops = c_reference)
          [
            gem_case('POSIX::Spawn.spawn', :spawn) { waited(POSIX::Spawn.spawn('true')) },
            gem_case('POSIX::Spawn.spawn chdir: Dir.tmpdir', :spawn) { waited(POSIX::Spawn.spawn('true', chdir: Dir.tmpdir)) },
            gem_case('POSIX::Spawn.spawn umask: 0o077', :spawn) { waited(POSIX::Spawn.spawn('true', umask: 0o077)) },
            gem_case('POSIX::Spawn.spawn close_others: false', :spawn) { waited(POSIX::Spawn.spawn('true', close_others: false)) },
            gem_case('POSIX::Spawn.spawn chdir + umask + close_others', :spawn) do
              waited(POSIX::Spawn.spawn('true', chdir: Dir.tmpdir, umask: 0o077, close_others: true))
            end,
            gem_case('POSIX::Spawn.spawn rlimit_nofile: 256', :spawn) { waited(POSIX::Spawn.spawn('true', rlimit_nofile: 256)) },
            gem_case('POSIX::Spawn.start + Handle#wait', :spawn) { POSIX::Spawn.start('true').wait.success? },
            *c_loops,
            RubyCase.new('Process.spawn', :spawn) { waited(Process.spawn('true')) },
            RubyCase.new('Process.spawn chdir: Dir.tmpdir', :spawn) { waited(Process.spawn('true', chdir: Dir.tmpdir)) },
            RubyCase.new('Kernel#system', :spawn) { system('true') },
            RubyCase.new('ProcessBuilder start + waitFor', :spawn) { java.lang.ProcessBuilder.new('true').inheritIO.start.waitFor.zero? },
            subspawn,
            *child(MB, 16 * MB),
            *[MB, 16 * MB].flat_map do |size|
              [RubyCase.new("Open3.capture3 #{size / MB} MiB", :capture) do
                 out, _err, status = Open3.capture3(*head(size))
                 status.success? && out.bytesize == size
               end,
               RubyCase.new("ProcessBuilder + drain threads #{size / MB} MiB", :capture) { process_builder_capture(size) }]
            end,
            *no_output_drop_in_and_builtin,
            *[MB, 16 * MB].flat_map { |size| drop_in_and_builtin(size) },
          ]
        end

        def gem_case(name, group, &operation)
          RubyCase.new(name, group, needs: 'posix/spawn', &operation)
        end

        def waited(pid)
          Process.wait(pid)
          $?.success?
        end

        # posix_spawnp searches PATH in the child, with one failed execve per entry before the right one;
        # this gem looks the program up once, in the parent. So the loop runs both ways; and posix_spawnp
        # once more inside this JVM, which sets what its process costs a spawn apart from the gem's code.
        def c_reference
          c_loop = CReference.compile
          path = Benchmark.which('true')
          [CReference.new(c_loop, 'C posix_spawnp("true")', :search_path, 'true'),
           CReference.new(c_loop, "C posix_spawn(\"#{path}\")", :full_path, path),
           CReference::InProcess.new(CReference.compile(library: true), 'C posix_spawnp("true") inside this JVM', :search_path, 'true')]
        rescue CReference::NotCompiled => e
          [Unavailable.new('C posix_spawn loop', :spawn, "skipped: #{e.message}")]
        end

        # SubSpawn, which JRuby 9.4 and 10 bundle (its PTY runs on it): libfixposix's spawn, which forks the
        # JVM (doc/benchmarking.md, "SubSpawn"). Skipped where it does not load (another JRuby, a platform
        # without its binary).
        def subspawn
          require 'subspawn'
          RubyCase.new('SubSpawn.spawn_compat', :spawn) { waited(SubSpawn.spawn_compat('true')) }
        rescue LoadError, StandardError => e
          Unavailable.new('SubSpawn.spawn_compat', :spawn, "skipped: require 'subspawn' failed (#{e.class}: #{e.message})")
        end

        def child(*sizes)
          sizes.map do |size|
            gem_case("POSIX::Spawn::Child #{size / MB} MiB", :capture) { POSIX::Spawn::Child.new(*head(size)).out.bytesize == size }
          end
        end

        # Open3.capture3 with the drop-in (the builtin's row is above), and ` and IO.popen(...).read with
        # the drop-in and with JRuby's builtin.
        def drop_in_and_builtin(size)
          command = head(size)
          line = command.join(' ')
          mib = size / MB
          [DropInCase.new("Open3.capture3 #{mib} MiB drop-in", :capture) { Open3.capture3(*command)[0].bytesize == size },
           *[[DropInCase, 'drop-in'], [RubyCase, 'builtin']].flat_map do |kind, label|
             [kind.new("backtick #{mib} MiB #{label}", :capture) { `#{line}`.bytesize == size },
              kind.new("IO.popen(...).read #{mib} MiB #{label}", :capture) { IO.popen(command, &:read).bytesize == size }]
           end]
        end

        # ` and IO.popen(...).read of a command that writes nothing (`true`): what the set-up and the close
        # cost, with the drop-in and with JRuby's builtin.
        def no_output_drop_in_and_builtin
          [[DropInCase, 'drop-in'], [RubyCase, 'builtin']].flat_map do |kind, label|
            [kind.new("backtick no output #{label}", :capture) { `true`.empty? && $?.success? },
             kind.new("IO.popen(...).read no output #{label}", :capture) { IO.popen(['true'], &:read).empty? && $?.success? }]
          end
        end

        def head(size)
          ['head', '-c', size.to_s, '/dev/zero']
        end

        # What capturing takes with java.lang.Process: a thread per output pipe, so that neither fills up
        # and stalls the child while the other is read. The fastest way found: readAllBytes, then one copy
        # into a String (reading through InputStream#to_io takes about half as long again at 16 MiB).
        def process_builder_capture(size)
          process = java.lang.ProcessBuilder.new(*head(size)).start
          process.getOutputStream.close
          drains = [process.getInputStream, process.getErrorStream].map do |stream|
            Thread.new { String.from_java_bytes(stream.readAllBytes).tap { stream.close } }
          end
          out, _err = drains.map(&:value)
          process.waitFor.zero? && out.bytesize == size
        end
      end
    end
  end
end

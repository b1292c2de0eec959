require 'spec_helper'
require 'etc'
require 'fcntl'
require 'fileutils'
require 'tempfile'
require 'timeout'
require_relative 'drop_in_context'
require_relative 'mri_assertions'

# MRI 3.1.2's own test/ruby/test_process.rb (Debian's ruby3.1_3.1.2.orig.tar.xz, the MRI at /usr/bin/ruby),
# ported to RSpec and run through the drop-in: each example is the MRI test of that name with MRI's body
# and assertions (mri_assertions.rb), Windows-only branches left out. The tests of spawn, system, ` and
# IO.popen are here; left out are those of what the drop-in does not replace (exec, fork, Process.daemon,
# rlimits, uids, clocks, Process.kill/wait/Status alone), and those whose spawn, popen or system runs
# inside an MRI child (test_popen_exit, test_argv0_keep_alive, test_execopts_redirect_open_fifo_interrupt_*,
# test_exec_*, test_execopts_exec, test_execopts_preserve_env_on_exec_failure, test_rlimit_*).
# MRI's setup and teardown (Process.waitall) are not ported: here they could reap other specs' children.
module MRITestProcess
  RUBY = MRIAssertions::RUBY

  TRUECOMMAND = [RUBY, '-e', '']
  # Linux's MANDATORY_ENVS (RbConfig's LIBPATHENV and PRELOADENV as MRI's build has them)
  MANDATORY_ENVS = %w[RUBYLIB MJIT_SEARCH_BUILD_DIR LD_PRELOAD LD_LIBRARY_PATH]
  PREENVARG = ['-e', "%w[#{MANDATORY_ENVS.join(' ')}].each{|e|ENV.delete(e)}"]
  ENVARG = ['-e', 'ENV.each {|k,v| puts "#{k}=#{v}" }']
  ENVCOMMAND = [RUBY].concat(PREENVARG).concat(ENVARG)
  PWD = [RUBY, '-e', 'puts Dir.pwd']
  UMASK = [RUBY, '-e', 'printf "%04o\n", File.umask']
  ECHO = lambda {|arg| [RUBY, '-e', "puts #{arg.dump}; STDOUT.flush"] }
  SORT = [RUBY, '-e', "puts ARGF.readlines.sort"]
  CAT = [RUBY, '-e', "IO.copy_stream STDIN, STDOUT"]

  RSpec.describe "MRI's test_process.rb through the drop-in" do
    include_context 'drop-in installed'
    include MRIAssertions

    before { skip "MRI's ruby is not at #{RUBY}" unless File.executable?(RUBY) }

    def _test_execopts_env_popen(cmd)
      message = cmd.inspect
      IO.popen({"FOO"=>"BAR"}, cmd) {|io|
        assert_equal('FOO=BAR', io.read[/^FOO=.*/], message)
      }

      old = ENV["hmm"]
      begin
        ENV["hmm"] = "fufu"
        IO.popen(cmd) {|io| assert_match(/^hmm=fufu$/, io.read, message)}
        IO.popen({"hmm"=>""}, cmd) {|io| assert_match(/^hmm=$/, io.read, message)}
        IO.popen({"hmm"=>nil}, cmd) {|io| assert_not_match(/^hmm=/, io.read, message)}
        ENV["hmm"] = ""
        IO.popen(cmd) {|io| assert_match(/^hmm=$/, io.read, message)}
        IO.popen({"hmm"=>""}, cmd) {|io| assert_match(/^hmm=$/, io.read, message)}
        IO.popen({"hmm"=>nil}, cmd) {|io| assert_not_match(/^hmm=/, io.read, message)}
        ENV["hmm"] = nil
        IO.popen(cmd) {|io| assert_not_match(/^hmm=/, io.read, message)}
        IO.popen({"hmm"=>""}, cmd) {|io| assert_match(/^hmm=$/, io.read, message)}
        IO.popen({"hmm"=>nil}, cmd) {|io| assert_not_match(/^hmm=/, io.read, message)}
      ensure
        ENV["hmm"] = old
      end
    end

    def with_stdin(filename)
      open(filename) {|f|
        begin
          old = STDIN.dup
          begin
            STDIN.reopen(filename)
            yield
          ensure
            STDIN.reopen(old)
          end
        ensure
          old.close
        end
      }
    end

    # MRI's, but it waits for the children it starts (MRI's teardown runs Process.waitall, which here
    # could reap other specs' children).
    def assert_fail_too_long_path((cmd, sep), mesg)
      sep ||= ""
      min = 1_000 / (cmd.size + sep.size)
      cmds = Array.new(min, cmd)
      exs = [Errno::ENOENT]
      exs << Errno::E2BIG if defined?(Errno::E2BIG)
      opts = {[STDOUT, STDERR]=>File::NULL}
      opts[:rlimit_nproc] = 128 if defined?(Process::RLIMIT_NPROC)
      pids = []
      verbose, $VERBOSE = $VERBOSE, nil # EnvUtil.suppress_warning
      assert_raise(*exs, mesg) do
        begin
          loop do
            pids << Process.spawn(cmds.join(sep), opts)
            min = [cmds.size, min].max
            cmds *= 100
          end
        rescue NoMemoryError
          size = cmds.size
          raise if min >= size - 1
          min = [min, size /= 2].max
          cmds[size..-1] = []
          raise if size < 250
          retry
        end
      end
    ensure
      $VERBOSE = verbose
      pids.each { |pid| Process.wait(pid) }
    end

    it 'test_execopts_opts' do
      assert_nothing_raised {
        Process.wait Process.spawn(*TRUECOMMAND, {})
      }
      assert_raise(ArgumentError) {
        Process.wait Process.spawn(*TRUECOMMAND, :foo => 100)
      }
      assert_raise(ArgumentError) {
        Process.wait Process.spawn(*TRUECOMMAND, Process => 100)
      }
    end

    it 'test_execopts_pgroup' do
      assert_nothing_raised { system(*TRUECOMMAND, :pgroup=>false) }

      io = IO.popen([RUBY, "-e", "print Process.getpgrp"])
      assert_equal(Process.getpgrp.to_s, io.read)
      io.close

      io = IO.popen([RUBY, "-e", "print Process.getpgrp", :pgroup=>true])
      assert_equal(io.pid.to_s, io.read)
      io.close

      assert_raise(ArgumentError) { system(*TRUECOMMAND, :pgroup=>-1) }
      IO.popen([RUBY, '-egets'], 'w') do |f|
        assert_raise(Errno::EPERM) {
          Process.wait spawn(*TRUECOMMAND, :pgroup=>f.pid)
        }
      end

      io1 = IO.popen([RUBY, "-e", "print Process.getpgrp", :pgroup=>true])
      io2 = IO.popen([RUBY, "-e", "print Process.getpgrp", :pgroup=>io1.pid])
      assert_equal(io1.pid.to_s, io1.read)
      assert_equal(io1.pid.to_s, io2.read)
      Process.wait io1.pid
      Process.wait io2.pid
      io1.close
      io2.close
    end

    it 'test_execopts_rlimit' do
      assert_raise(ArgumentError) { system(*TRUECOMMAND, :rlimit_foo=>0) }
      assert_raise(ArgumentError) { system(*TRUECOMMAND, :rlimit_NOFILE=>0) }
      assert_raise(ArgumentError) { system(*TRUECOMMAND, :rlimit_nofile=>[]) }
      assert_raise(ArgumentError) { system(*TRUECOMMAND, :rlimit_nofile=>[1,2,3]) }

      max = Process.getrlimit(:CORE).last
      max = 2**64 - 1 if max == -1 # JRuby's Process.getrlimit (not the drop-in's) says -1 for RLIM_INFINITY; MRI's 18446744073709551615

      n = max
      IO.popen([RUBY, "-e",
               "puts Process.getrlimit(:CORE)", :rlimit_core=>n]) {|io|
        assert_equal("#{n}\n#{n}\n", io.read)
      }

      n = 0
      IO.popen([RUBY, "-e",
               "puts Process.getrlimit(:CORE)", :rlimit_core=>n]) {|io|
        assert_equal("#{n}\n#{n}\n", io.read)
      }

      n = max
      IO.popen([RUBY, "-e",
               "puts Process.getrlimit(:CORE)", :rlimit_core=>[n]]) {|io|
        assert_equal("#{n}\n#{n}\n", io.read)
      }

      m, n = 0, max
      IO.popen([RUBY, "-e",
               "puts Process.getrlimit(:CORE)", :rlimit_core=>[m,n]]) {|io|
        assert_equal("#{m}\n#{n}\n", io.read)
      }

      m, n = 0, 0
      IO.popen([RUBY, "-e",
               "puts Process.getrlimit(:CORE)", :rlimit_core=>[m,n]]) {|io|
        assert_equal("#{m}\n#{n}\n", io.read)
      }

      n = max
      IO.popen([RUBY, "-e",
        "puts Process.getrlimit(:CORE), Process.getrlimit(:CPU)",
        :rlimit_core=>n, :rlimit_cpu=>3600]) {|io|
        assert_equal("#{n}\n#{n}\n""3600\n3600\n", io.read)
      }

      assert_raise(ArgumentError) do
        system(RUBY, '-e', 'exit',  'rlimit_bogus'.to_sym => 123)
      end
      assert_separately([],"#{<<~"begin;"}\n#{<<~'end;'}", 'rlimit_cpu'.to_sym => 3600)
      BUG = "[ruby-core:82033] [Bug #13744]"
      begin;
        assert_equal([3600,3600], Process.getrlimit(:CPU), BUG)
      end;

      assert_raise_with_message(ArgumentError, /bogus/) do
        system(RUBY, '-e', 'exit', :rlimit_bogus => 123)
      end

      assert_raise_with_message(ArgumentError, /rlimit_cpu/) {
        system(RUBY, '-e', 'exit', "rlimit_cpu\0".to_sym => 3600)
      }
    end

    it 'test_overwrite_ENV' do
      # assert_separately's code, run in this process (its spawn is what is tested), ENV put back after it
      bug = "[ruby-core:105223] [Bug #18164]"
      env, verbose = ENV, $VERBOSE
      begin
        $VERBOSE = nil
        Object.const_set(:ENV, {})
        pid = spawn({}, *TRUECOMMAND)
        ENV.replace({})
      ensure
        Object.const_set(:ENV, env)
        $VERBOSE = verbose
      end
      Process.wait(pid)
      assert_kind_of(Integer, pid, bug)
    end

    it 'test_execopts_env' do
      assert_raise(ArgumentError) {
        system({"F=O"=>"BAR"}, *TRUECOMMAND)
      }

      with_tmpchdir {|d|
        prog = "#{d}/notexist"
        e = assert_raise(Errno::ENOENT) {
          Process.wait Process.spawn({"FOO"=>"BAR"}, prog)
        }
        assert_equal(prog, e.message.sub(/.* - /, ''))
        e = assert_raise(Errno::ENOENT) {
          Process.wait Process.spawn({"FOO"=>"BAR"}, [prog, "blar"])
        }
        assert_equal(prog, e.message.sub(/.* - /, ''))
      }
      h = {}
      cmd = [h, RUBY]
      (ENV.keys + MANDATORY_ENVS).each do |k|
        case k
        when /\APATH\z/i
        when *MANDATORY_ENVS
          cmd << '-e' << "ENV.delete('#{k}')"
        else
          h[k] = nil
        end
      end
      cmd << '-e' << 'puts ENV.keys.map{|e|e.upcase}'
      IO.popen(cmd) {|io|
        assert_equal("PATH\n", io.read)
      }

      IO.popen([{"FOO"=>"BAR"}, *ENVCOMMAND]) {|io|
        assert_match(/^FOO=BAR$/, io.read)
      }

      with_tmpchdir {|d|
        system({"fofo"=>"haha"}, *ENVCOMMAND, STDOUT=>"out")
        assert_match(/^fofo=haha$/, File.read("out").chomp)
      }

      old = ENV["hmm"]
      begin
        ENV["hmm"] = "fufu"
        IO.popen(ENVCOMMAND) {|io| assert_match(/^hmm=fufu$/, io.read) }
        IO.popen([{"hmm"=>""}, *ENVCOMMAND]) {|io| assert_match(/^hmm=$/, io.read) }
        IO.popen([{"hmm"=>nil}, *ENVCOMMAND]) {|io| assert_not_match(/^hmm=/, io.read) }
        ENV["hmm"] = ""
        IO.popen(ENVCOMMAND) {|io| assert_match(/^hmm=$/, io.read) }
        IO.popen([{"hmm"=>""}, *ENVCOMMAND]) {|io| assert_match(/^hmm=$/, io.read) }
        IO.popen([{"hmm"=>nil}, *ENVCOMMAND]) {|io| assert_not_match(/^hmm=/, io.read) }
        ENV["hmm"] = nil
        IO.popen(ENVCOMMAND) {|io| assert_not_match(/^hmm=/, io.read) }
        IO.popen([{"hmm"=>""}, *ENVCOMMAND]) {|io| assert_match(/^hmm=$/, io.read) }
        IO.popen([{"hmm"=>nil}, *ENVCOMMAND]) {|io| assert_not_match(/^hmm=/, io.read) }
      ensure
        ENV["hmm"] = old
      end

      assert_raise_with_message(ArgumentError, /fo=fo/) {
        system({"fo=fo"=>"ha"}, *ENVCOMMAND)
      }
      assert_raise_with_message(ArgumentError, /\u{30c0}=\u{30e1}/) {
        system({"\u{30c0}=\u{30e1}"=>"ha"}, *ENVCOMMAND)
      }
    end

    it 'test_execopt_env_path' do
      bug8004 = '[ruby-core:53103] [Bug #8004]'
      Dir.mktmpdir do |d|
        open("#{d}/tmp_script.cmd", "w") {|f| f.puts ": ;"; f.chmod(0755)}
        assert_not_nil(pid = Process.spawn({"PATH" => d}, "tmp_script.cmd"), bug8004)
        wpid, st = Process.waitpid2(pid)
        assert_equal([pid, true], [wpid, st.success?], bug8004)
      end
    end

    it 'test_execopts_env_popen_vector' do
      _test_execopts_env_popen(ENVCOMMAND)
    end

    it 'test_execopts_env_popen_string' do
      with_tmpchdir do |d|
        open('test-script', 'w') do |f|
          ENVCOMMAND.each_with_index do |cmd, i|
            next if i.zero? or cmd == "-e"
            f.puts cmd
          end
        end
        _test_execopts_env_popen("#{RUBY} test-script")
      end
    end

    it 'test_execopts_env_single_word' do
      with_tmpchdir {|d|
        open("test_execopts_env_single_word.rb", "w") {|f|
          f.puts "print ENV['hgga']"
        }
        system({"hgga"=>"ugu"}, RUBY,
               :in => 'test_execopts_env_single_word.rb',
               :out => 'test_execopts_env_single_word.out')
        assert_equal('ugu', File.read('test_execopts_env_single_word.out'))
      }
    end

    it 'test_execopts_unsetenv_others' do
      h = {}
      MANDATORY_ENVS.each {|k| e = ENV[k] and h[k] = e}
      IO.popen([h, *ENVCOMMAND, :unsetenv_others=>true]) {|io|
        assert_equal("", io.read)
      }
      IO.popen([h.merge("A"=>"B"), *ENVCOMMAND, :unsetenv_others=>true]) {|io|
        assert_equal("A=B\n", io.read)
      }
    end

    it 'test_execopts_chdir' do
      with_tmpchdir {|d|
        IO.popen([*PWD, :chdir => d]) {|io|
          assert_equal(d, io.read.chomp)
        }
        assert_raise_with_message(Errno::ENOENT, %r"d/notexist") {
          Process.wait Process.spawn(*PWD, :chdir => "d/notexist")
        }
        n = "d/\u{1F37A}"
        assert_raise_with_message(Errno::ENOENT, /#{n}/) {
          Process.wait Process.spawn(*PWD, :chdir => n)
        }
      }
    end

    it 'test_execopts_open_chdir' do
      with_tmpchdir {|d|
        Dir.mkdir "foo"
        system(*PWD, :chdir => "foo", :out => "open_chdir_test")
        assert(File.exist?("open_chdir_test"))
        assert(!File.exist?("foo/open_chdir_test"))
        assert_equal("#{d}/foo", File.read("open_chdir_test").chomp)
      }
    end

    it 'test_execopts_open_chdir_m17n_path' do
      skip 'the locale is not UTF-8' unless Encoding.find('locale') == Encoding::UTF_8 # MRI's condition
      with_tmpchdir {|d|
        Dir.mkdir "テスト"
        (pwd = PWD.dup).insert(1, '-EUTF-8:UTF-8')
        system(*pwd, :chdir => "テスト", :out => "open_chdir_テスト")
        assert(File.exist?("open_chdir_テスト"))
        assert(!File.exist?("テスト/open_chdir_テスト"))
        assert_equal("#{d}/テスト", File.read("open_chdir_テスト", encoding: "UTF-8").chomp)
      }
    end

    it 'test_execopts_open_failure' do
      with_tmpchdir {|d|
        assert_raise_with_message(Errno::ENOENT, %r"d/notexist") {
          Process.wait Process.spawn(*PWD, :in => "d/notexist")
        }
        assert_raise_with_message(Errno::ENOENT, %r"d/notexist") {
          Process.wait Process.spawn(*PWD, :out => "d/notexist")
        }
        n = "d/\u{1F37A}"
        assert_raise_with_message(Errno::ENOENT, /#{n}/) {
          Process.wait Process.spawn(*PWD, :in => n)
        }
        assert_raise_with_message(Errno::ENOENT, /#{n}/) {
          Process.wait Process.spawn(*PWD, :out => n)
        }
      }
    end

    it 'test_execopts_umask' do
      IO.popen([*UMASK, :umask => 0]) {|io|
        assert_equal("0000", io.read.chomp)
      }
      IO.popen([*UMASK, :umask => 0777]) {|io|
        assert_equal("0777", io.read.chomp)
      }
    end

    it 'test_execopts_redirect_fd' do
      with_tmpchdir {|d|
        Process.wait Process.spawn(*ECHO["a"], STDOUT=>["out", File::WRONLY|File::CREAT|File::TRUNC, 0644])
        assert_equal("a", File.read("out").chomp)
        Process.wait Process.spawn(*ECHO["0"], STDOUT=>["out", File::WRONLY|File::CREAT|File::APPEND, 0644])
        assert_equal("a\n0\n", File.read("out"))
        Process.wait Process.spawn(*SORT, STDIN=>["out", File::RDONLY, 0644],
                                           STDOUT=>["out2", File::WRONLY|File::CREAT|File::TRUNC, 0644])
        assert_equal("0\na\n", File.read("out2"))
        Process.wait Process.spawn(*ECHO["b"], [STDOUT, STDERR]=>["out", File::WRONLY|File::CREAT|File::TRUNC, 0644])
        assert_equal("b", File.read("out").chomp)
        # problem occur with valgrind
        #Process.wait Process.spawn(*ECHO["a"], STDOUT=>:close, STDERR=>["out", File::WRONLY|File::CREAT|File::TRUNC, 0644])
        #p File.read("out")
        #assert_not_empty(File.read("out")) # error message such as "-e:1:in `flush': Bad file descriptor (Errno::EBADF)"
        Process.wait Process.spawn(*ECHO["c"], STDERR=>STDOUT, STDOUT=>["out", File::WRONLY|File::CREAT|File::TRUNC, 0644])
        assert_equal("c", File.read("out").chomp)
        File.open("out", "w") {|f|
          Process.wait Process.spawn(*ECHO["d"], STDOUT=>f)
          assert_equal("d", File.read("out").chomp)
        }
        opts = {STDOUT=>["out", File::WRONLY|File::CREAT|File::TRUNC, 0644]}
        opts.merge(3=>STDOUT, 4=>STDOUT, 5=>STDOUT, 6=>STDOUT, 7=>STDOUT)
        Process.wait Process.spawn(*ECHO["e"], opts)
        assert_equal("e", File.read("out").chomp)
        opts = {STDOUT=>["out", File::WRONLY|File::CREAT|File::TRUNC, 0644]}
        opts.merge(3=>0, 4=>:in, 5=>STDIN, 6=>1, 7=>:out, 8=>STDOUT, 9=>2, 10=>:err, 11=>STDERR)
        Process.wait Process.spawn(*ECHO["ee"], opts)
        assert_equal("ee", File.read("out").chomp)
        File.open("out", "w") {|f|
          h = {STDOUT=>f, f=>STDOUT}
          3.upto(30) {|i| h[i] = STDOUT if f.fileno != i }
          Process.wait Process.spawn(*ECHO["f"], h)
          assert_equal("f", File.read("out").chomp)
        }
        assert_raise(ArgumentError) {
          Process.wait Process.spawn(*ECHO["f"], 1=>Process)
        }
        assert_raise(ArgumentError) {
          Process.wait Process.spawn(*ECHO["f"], [Process]=>1)
        }
        assert_raise(ArgumentError) {
          Process.wait Process.spawn(*ECHO["f"], [1, STDOUT]=>2)
        }
        assert_raise(ArgumentError) {
          Process.wait Process.spawn(*ECHO["f"], -1=>2)
        }
        Process.wait Process.spawn(*ECHO["hhh\nggg\n"], STDOUT=>"out")
        assert_equal("hhh\nggg\n", File.read("out"))
        Process.wait Process.spawn(*SORT, STDIN=>"out", STDOUT=>"out2")
        assert_equal("ggg\nhhh\n", File.read("out2"))

        assert_raise(Errno::ENOENT) {
          Process.wait Process.spawn("non-existing-command", (3..60).to_a=>["err", File::WRONLY|File::CREAT])
        }
        assert_equal("", File.read("err"))

        system(*ECHO["bb\naa\n"], STDOUT=>["out", "w"])
        assert_equal("bb\naa\n", File.read("out"))
        system(*SORT, STDIN=>["out"], STDOUT=>"out2")
        assert_equal("aa\nbb\n", File.read("out2"))
      }
    end

    it 'test_execopts_redirect_open_order_normal' do
      minfd = 3
      maxfd = 20
      with_tmpchdir {|d|
        opts = {}
        minfd.upto(maxfd) {|fd| opts[fd] = ["out#{fd}", "w"] }
        system RUBY, "-e", "#{minfd}.upto(#{maxfd}) {|fd| IO.new(fd).print fd.to_s }", opts
        minfd.upto(maxfd) {|fd| assert_equal(fd.to_s, File.read("out#{fd}")) }
      }
    end

    it 'test_execopts_redirect_open_order_reverse' do
      minfd = 3
      maxfd = 20
      with_tmpchdir {|d|
        opts = {}
        maxfd.downto(minfd) {|fd| opts[fd] = ["out#{fd}", "w"] }
        system RUBY, "-e", "#{minfd}.upto(#{maxfd}) {|fd| IO.new(fd).print fd.to_s }", opts
        minfd.upto(maxfd) {|fd| assert_equal(fd.to_s, File.read("out#{fd}")) }
      }
    end

    it 'test_execopts_redirect_open_fifo' do
      with_tmpchdir {|d|
        begin
          File.mkfifo("fifo")
        rescue NotImplementedError
          skip "File.mkfifo is not implemented"
        end
        assert(File.pipe?("fifo"))
        t1 = Thread.new {
          system(*ECHO["output to fifo"], :out=>"fifo")
        }
        t2 = Thread.new {
          IO.popen([*CAT, :in=>"fifo"]) {|f| f.read }
        }
        _, v2 = assert_join_threads([t1, t2])
        assert_equal("output to fifo\n", v2)
      }
    end

    it 'test_execopts_redirect_pipe' do
      with_pipe {|r1, w1|
        with_pipe {|r2, w2|
          opts = {STDIN=>r1, STDOUT=>w2}
          opts.merge(w1=>:close, r2=>:close)
          pid = spawn(*SORT, opts)
          r1.close
          w2.close
          w1.puts "c"
          w1.puts "a"
          w1.puts "b"
          w1.close
          assert_equal("a\nb\nc\n", r2.read)
          r2.close
          Process.wait(pid)
        }
      }

      with_pipes(5) {|pipes|
        ios = pipes.flatten
        h = {}
        ios.length.times {|i| h[ios[i]] = ios[(i-1)%ios.length] }
        h2 = h.invert
        _rios = pipes.map {|r, w| r }
        wios  = pipes.map {|r, w| w }
        child_wfds = wios.map {|w| h2[w].fileno }
        pid = spawn(RUBY, "-e",
                    "[#{child_wfds.join(',')}].each {|fd| IO.new(fd, 'w').puts fd }", h)
        pipes.each {|r, w|
          assert_equal("#{h2[w].fileno}\n", r.gets)
        }
        Process.wait pid;
      }

      with_pipes(5) {|pipes|
        ios = pipes.flatten
        h = {}
        ios.length.times {|i| h[ios[i]] = ios[(i+1)%ios.length] }
        h2 = h.invert
        _rios = pipes.map {|r, w| r }
        wios  = pipes.map {|r, w| w }
        child_wfds = wios.map {|w| h2[w].fileno }
        pid = spawn(RUBY, "-e",
                    "[#{child_wfds.join(',')}].each {|fd| IO.new(fd, 'w').puts fd }", h)
        pipes.each {|r, w|
          assert_equal("#{h2[w].fileno}\n", r.gets)
        }
        Process.wait pid
      }

      closed_fd = nil
      with_pipes(5) {|pipes|
        io = pipes.last.last
        closed_fd = io.fileno
      }
      assert_raise(Errno::EBADF) { Process.wait spawn(*TRUECOMMAND, closed_fd=>closed_fd) }

      with_pipe {|r, w|
        if w.respond_to?(:"close_on_exec=")
          w.close_on_exec = true
          pid = spawn(RUBY, "-e", "IO.new(#{w.fileno}, 'w').print 'a'", w=>w)
          w.close
          assert_equal("a", r.read)
          Process.wait pid
        end
      }

      # ensure standard FDs we redirect to are blocking for compatibility
      with_pipes(3) do |pipes|
        src = 'p [STDIN,STDOUT,STDERR].map(&:nonblock?)'
        rdr = { 0 => pipes[0][0], 1 => pipes[1][1], 2 => pipes[2][1] }
        pid = spawn(RUBY, '-rio/nonblock', '-e', src, rdr)
        assert_equal("[false, false, false]\n", pipes[1][0].gets)
        Process.wait pid
      end
    end

    it 'test_execopts_redirect_symbol' do
      with_tmpchdir {|d|
        system(*ECHO["funya"], :out=>"out")
        assert_equal("funya\n", File.read("out"))
        system(RUBY, '-e', 'STDOUT.reopen(STDERR); puts "henya"', :err=>"out")
        assert_equal("henya\n", File.read("out"))
        IO.popen([*CAT, :in=>"out"]) {|io|
          assert_equal("henya\n", io.read)
        }
      }
    end

    it 'test_execopts_redirect_nonascii_path' do
      bug9946 = '[ruby-core:63185] [Bug #9946]'
      with_tmpchdir {|d|
        path = "t-\u{30c6 30b9 30c8 f6}.txt"
        system(*ECHO["a"], out: path)
        assert(File.exist?(path))
        assert_equal("a\n", File.read(path), bug9946)
      }
    end

    it 'test_execopts_redirect_to_out_and_err' do
      with_tmpchdir {|d|
        ret = system(RUBY, "-e", 'STDERR.print "e"; STDOUT.print "o"', [:out, :err] => "foo")
        assert_equal(true, ret)
        assert_equal("eo", File.read("foo"))
        ret = system(RUBY, "-e", 'STDERR.print "E"; STDOUT.print "O"', [:err, :out] => "bar")
        assert_equal(true, ret)
        assert_equal("EO", File.read("bar"))
      }
    end

    it 'test_execopts_redirect_dup2_child' do
      with_tmpchdir {|d|
        Process.wait spawn(RUBY, "-e", "STDERR.print 'err'; STDOUT.print 'out'",
                           STDOUT=>"out", STDERR=>[:child, STDOUT])
        assert_equal("errout", File.read("out"))

        Process.wait spawn(RUBY, "-e", "STDERR.print 'err'; STDOUT.print 'out'",
                           STDERR=>"out", STDOUT=>[:child, STDERR])
        assert_equal("errout", File.read("out"))

        Process.wait spawn(RUBY, "-e", "STDERR.print 'err'; STDOUT.print 'out'",
                           STDOUT=>"out",
                           STDERR=>[:child, 3],
                           3=>[:child, 4],
                           4=>[:child, STDOUT]
                          )
        assert_equal("errout", File.read("out"))

        IO.popen([RUBY, "-e", "STDERR.print 'err'; STDOUT.print 'out'", STDERR=>[:child, STDOUT]]) {|io|
          assert_equal("errout", io.read)
        }

        assert_raise(ArgumentError) { Process.wait spawn(*TRUECOMMAND, STDOUT=>[:child, STDOUT]) }
        assert_raise(ArgumentError) { Process.wait spawn(*TRUECOMMAND, 3=>[:child, 4], 4=>[:child, 3]) }
        assert_raise(ArgumentError) { Process.wait spawn(*TRUECOMMAND, 3=>[:child, 4], 4=>[:child, 5], 5=>[:child, 3]) }
        assert_raise(ArgumentError) { Process.wait spawn(*TRUECOMMAND, STDOUT=>[:child, 3]) }
      }
    end

    it 'test_execopts_popen' do
      with_tmpchdir {|d|
        IO.popen("#{RUBY} -e 'puts :foo'") {|io| assert_equal("foo\n", io.read) }
        assert_raise(Errno::ENOENT) { IO.popen(["echo bar"]) {} } # assuming "echo bar" command not exist.
        IO.popen(ECHO["baz"]) {|io| assert_equal("baz\n", io.read) }
      }
    end

    it 'test_execopts_popen_stdio' do
      with_tmpchdir {|d|
        assert_raise(ArgumentError) {
          IO.popen([*ECHO["qux"], STDOUT=>STDOUT]) {|io| }
        }
        IO.popen([*ECHO["hoge"], STDERR=>STDOUT]) {|io|
          assert_equal("hoge\n", io.read)
        }
        assert_raise(ArgumentError) {
          IO.popen([*ECHO["fuga"], STDOUT=>"out"]) {|io| }
        }
      }
    end

    it 'test_execopts_popen_extra_fd' do
      with_tmpchdir {|d|
        with_pipe {|r, w|
          IO.popen([RUBY, '-e', 'IO.new(3, "w").puts("a"); puts "b"', 3=>w]) {|io|
            assert_equal("b\n", io.read)
          }
          w.close
          assert_equal("a\n", r.read)
        }
        IO.popen([RUBY, '-e', "IO.new(9, 'w').puts(:b)",
                 9=>["out2", File::WRONLY|File::CREAT|File::TRUNC]]) {|io|
          assert_equal("", io.read)
        }
        assert_equal("b\n", File.read("out2"))
      }
    end

    it 'test_popen_fork' do
      IO.popen("-") {|io|
        if !io
          puts "fooo"
        else
          assert_equal("fooo\n", io.read)
        end
      }
    rescue NotImplementedError
    end

    it 'test_fd_inheritance' do
      with_pipe {|r, w|
        system(RUBY, '-e', 'IO.new(ARGV[0].to_i, "w").puts(:ba)', w.fileno.to_s, w=>w)
        w.close
        assert_equal("ba\n", r.read)
      }
      with_pipe {|r, w|
        Process.wait spawn(RUBY, '-e',
                           'IO.new(ARGV[0].to_i, "w").puts("bi") rescue nil',
                           w.fileno.to_s)
        w.close
        assert_equal("", r.read)
      }
      with_pipe {|r, w|
        with_tmpchdir {|d|
          write_file("s", <<-"End")
            exec(#{RUBY.dump}, '-e',
                 'IO.new(ARGV[0].to_i, "w").puts("bu") rescue nil',
                 #{w.fileno.to_s.dump}, :close_others=>false)
          End
          w.close_on_exec = false
          Process.wait spawn(RUBY, "s", :close_others=>false)
          w.close
          assert_equal("bu\n", r.read)
        }
      }
      with_pipe {|r, w|
        io = IO.popen([RUBY, "-e", "STDERR.reopen(STDOUT); IO.new(#{w.fileno}, 'w').puts('me')"])
        begin
          w.close
          errmsg = io.read
          assert_equal("", r.read)
          assert_not_equal("", errmsg)
        ensure
          io.close
        end
      }
      with_pipe {|r, w|
        errmsg = `#{RUBY} -e "STDERR.reopen(STDOUT); IO.new(#{w.fileno}, 'w').puts(123)"`
        w.close
        assert_equal("", r.read)
        assert_not_equal("", errmsg)
      }
    end

    it 'test_execopts_close_others' do
      with_tmpchdir {|d|
        with_pipe {|r, w|
          system(RUBY, '-e', 'STDERR.reopen("err", "w"); IO.new(ARGV[0].to_i, "w").puts("ma")', w.fileno.to_s, :close_others=>true)
          w.close
          assert_equal("", r.read)
          assert_not_equal("", File.read("err"))
          File.unlink("err")
        }
        with_pipe {|r, w|
          Process.wait spawn(RUBY, '-e', 'STDERR.reopen("err", "w"); IO.new(ARGV[0].to_i, "w").puts("mi")', w.fileno.to_s, :close_others=>true)
          w.close
          assert_equal("", r.read)
          assert_not_equal("", File.read("err"))
          File.unlink("err")
        }
        with_pipe {|r, w|
          w.close_on_exec = false
          Process.wait spawn(RUBY, '-e', 'IO.new(ARGV[0].to_i, "w").puts("bi")', w.fileno.to_s, :close_others=>false)
          w.close
          assert_equal("bi\n", r.read)
        }
        with_pipe {|r, w|
          write_file("s", <<-"End")
            exec(#{RUBY.dump}, '-e',
                 'STDERR.reopen("err", "w"); IO.new(ARGV[0].to_i, "w").puts("mu")',
                 #{w.fileno.to_s.dump},
                 :close_others=>true)
          End
          Process.wait spawn(RUBY, "s", :close_others=>false)
          w.close
          assert_equal("", r.read)
          assert_not_equal("", File.read("err"))
          File.unlink("err")
        }
        with_pipe {|r, w|
          io = IO.popen([RUBY, "-e", "STDERR.reopen(STDOUT); IO.new(#{w.fileno}, 'w').puts('me')", :close_others=>true])
          begin
            w.close
            errmsg = io.read
            assert_equal("", r.read)
            assert_not_equal("", errmsg)
          ensure
            io.close
          end
        }
        with_pipe {|r, w|
          w.close_on_exec = false
          io = IO.popen([RUBY, "-e", "STDERR.reopen(STDOUT); IO.new(#{w.fileno}, 'w').puts('mo')", :close_others=>false])
          begin
            w.close
            errmsg = io.read
            assert_equal("mo\n", r.read)
            assert_equal("", errmsg)
          ensure
            io.close
          end
        }
        with_pipe {|r, w|
          w.close_on_exec = false
          io = IO.popen([RUBY, "-e", "STDERR.reopen(STDOUT); IO.new(#{w.fileno}, 'w').puts('mo')", :close_others=>nil])
          begin
            w.close
            errmsg = io.read
            assert_equal("mo\n", r.read)
            assert_equal("", errmsg)
          ensure
            io.close
          end
        }

      }
    end

    it 'test_close_others_default_false' do
      IO.pipe do |r,w|
        w.close_on_exec = false
        src = "IO.new(#{w.fileno}).puts(:hi)"
        assert_equal true, system(*%W(#{RUBY} --disable=gems -e #{src}))
        assert_equal "hi\n", r.gets
      end
    end

    it 'test_execopts_redirect_self' do
      begin
        with_pipe {|r, w|
          w << "haha\n"
          w.close
          r.close_on_exec = true
          IO.popen([RUBY, "-e", "print IO.new(#{r.fileno}, 'r').read", r.fileno=>r.fileno, :close_others=>false]) {|io|
            assert_equal("haha\n", io.read)
          }
        }
      rescue NotImplementedError
        skip "IO#close_on_exec= is not supported"
      end
    end

    it 'test_execopts_redirect_tempfile' do
      bug6269 = '[ruby-core:44181]'
      Tempfile.create("execopts") do |tmp|
        pid = assert_nothing_raised(ArgumentError, bug6269) do
          break spawn(RUBY, "-e", "print $$", out: tmp)
        end
        Process.wait(pid)
        tmp.rewind
        assert_equal(pid.to_s, tmp.read)
      end
    end

    it 'test_execopts_duplex_io' do
      IO.popen("#{RUBY} -e ''", "r+") {|duplex|
        assert_raise(ArgumentError) { system("#{RUBY} -e ''", duplex=>STDOUT) }
        assert_raise(ArgumentError) { system("#{RUBY} -e ''", STDOUT=>duplex) }
      }
    end

    it 'test_execopts_modification' do
      h = {}
      Process.wait spawn(*TRUECOMMAND, h)
      assert_equal({}, h)

      h = {}
      system(*TRUECOMMAND, h)
      assert_equal({}, h)

      h = {}
      io = IO.popen([*TRUECOMMAND, h])
      io.close
      assert_equal({}, h)
    end

    it 'test_system_noshell' do
      str = "echo non existing command name which contains spaces"
      assert_nil(system([str, str]))
    end

    it 'test_spawn_noshell' do
      str = "echo non existing command name which contains spaces"
      assert_raise(Errno::ENOENT) { spawn([str, str]) }
    end

    it 'test_popen_noshell' do
      str = "echo non existing command name which contains spaces"
      assert_raise(Errno::ENOENT) { IO.popen([str, str]) }
    end

    it 'test_system_wordsplit' do
      with_tmpchdir {|d|
        write_file("script", <<-'End')
          File.open("result", "w") {|t| t << "haha pid=#{$$} ppid=#{Process.ppid}" }
          exit 5
        End
        str = "#{RUBY} script"
        ret = system(str)
        status = $?
        assert_equal(false, ret)
        assert_predicate(status, :exited?)
        assert_equal(5, status.exitstatus)
        assert_equal("haha pid=#{status.pid} ppid=#{$$}", File.read("result"))
      }
    end

    it 'test_spawn_wordsplit' do
      with_tmpchdir {|d|
        write_file("script", <<-'End')
          File.open("result", "w") {|t| t << "hihi pid=#{$$} ppid=#{Process.ppid}" }
          exit 6
        End
        str = "#{RUBY} script"
        pid = spawn(str)
        Process.wait pid
        status = $?
        assert_equal(pid, status.pid)
        assert_predicate(status, :exited?)
        assert_equal(6, status.exitstatus)
        assert_equal("hihi pid=#{status.pid} ppid=#{$$}", File.read("result"))
      }
    end

    it 'test_popen_wordsplit' do
      with_tmpchdir {|d|
        write_file("script", <<-'End')
          print "fufu pid=#{$$} ppid=#{Process.ppid}"
          exit 7
        End
        str = "#{RUBY} script"
        io = IO.popen(str)
        pid = io.pid
        result = io.read
        io.close
        status = $?
        assert_equal(pid, status.pid)
        assert_predicate(status, :exited?)
        assert_equal(7, status.exitstatus)
        assert_equal("fufu pid=#{status.pid} ppid=#{$$}", result)
      }
    end

    it 'test_popen_wordsplit_beginning_and_trailing_spaces' do
      with_tmpchdir {|d|
        write_file("script", <<-'End')
          print "fufumm pid=#{$$} ppid=#{Process.ppid}"
          exit 7
        End
        str = " #{RUBY} script "
        io = IO.popen(str)
        pid = io.pid
        result = io.read
        io.close
        status = $?
        assert_equal(pid, status.pid)
        assert_predicate(status, :exited?)
        assert_equal(7, status.exitstatus)
        assert_equal("fufumm pid=#{status.pid} ppid=#{$$}", result)
      }
    end

    it 'test_system_shell' do
      with_tmpchdir {|d|
        write_file("script1", <<-'End')
          File.open("result1", "w") {|t| t << "taka pid=#{$$} ppid=#{Process.ppid}" }
          exit 7
        End
        write_file("script2", <<-'End')
          File.open("result2", "w") {|t| t << "taki pid=#{$$} ppid=#{Process.ppid}" }
          exit 8
        End
        ret = system("#{RUBY} script1 || #{RUBY} script2")
        status = $?
        assert_equal(false, ret)
        assert_predicate(status, :exited?)
        result1 = File.read("result1")
        result2 = File.read("result2")
        assert_match(/\Ataka pid=\d+ ppid=\d+\z/, result1)
        assert_match(/\Ataki pid=\d+ ppid=\d+\z/, result2)
        assert_not_equal(result1[/\d+/].to_i, status.pid)

      }
    end

    it 'test_spawn_shell' do
      with_tmpchdir {|d|
        write_file("script1", <<-'End')
          File.open("result1", "w") {|t| t << "taku pid=#{$$} ppid=#{Process.ppid}" }
          exit 7
        End
        write_file("script2", <<-'End')
          File.open("result2", "w") {|t| t << "take pid=#{$$} ppid=#{Process.ppid}" }
          exit 8
        End
        pid = spawn("#{RUBY} script1 || #{RUBY} script2")
        Process.wait pid
        status = $?
        assert_predicate(status, :exited?)
        assert_not_predicate(status, :success?)
        result1 = File.read("result1")
        result2 = File.read("result2")
        assert_match(/\Ataku pid=\d+ ppid=\d+\z/, result1)
        assert_match(/\Atake pid=\d+ ppid=\d+\z/, result2)
        assert_not_equal(result1[/\d+/].to_i, status.pid)

      }
    end

    it 'test_popen_shell' do
      with_tmpchdir {|d|
        write_file("script1", <<-'End')
          puts "tako pid=#{$$} ppid=#{Process.ppid}"
          exit 7
        End
        write_file("script2", <<-'End')
          puts "tika pid=#{$$} ppid=#{Process.ppid}"
          exit 8
        End
        io = IO.popen("#{RUBY} script1 || #{RUBY} script2")
        result = io.read
        io.close
        status = $?
        assert_predicate(status, :exited?)
        assert_not_predicate(status, :success?)
        assert_match(/\Atako pid=\d+ ppid=\d+\ntika pid=\d+ ppid=\d+\n\z/, result)
        assert_not_equal(result[/\d+/].to_i, status.pid)

      }
    end

    it 'test_argv0' do
      with_tmpchdir {|d|
        assert_equal(false, system([RUBY, "asdfg"], "-e", "exit false"))
        assert_equal(true, system([RUBY, "zxcvb"], "-e", "exit true"))

        Process.wait spawn([RUBY, "poiu"], "-e", "exit 4")
        assert_equal(4, $?.exitstatus)

        assert_equal("1", IO.popen([[RUBY, "qwerty"], "-e", "print 1"]) {|f| f.read })

        write_file("s", <<-"End")
          exec([#{RUBY.dump}, "lkjh"], "-e", "exit 5")
        End
        pid = spawn RUBY, "s"
        Process.wait pid
        assert_equal(5, $?.exitstatus)
      }
    end

    it 'test_argv0_noarg' do
      # Not run: it would leave this process's STDIN on another descriptor for the specs after it.
      skip "JRuby's STDIN.reopen(path) gives STDIN a new descriptor and leaves descriptor 0 alone, so a child's stdin is still the old one (JRuby's own system's too); MRI's reopen is dup2 onto 0"
      with_tmpchdir {|d|
        open("t", "w") {|f| f.print "exit true" }
        open("f", "w") {|f| f.print "exit false" }

        with_stdin("t") { assert_equal(true, system([RUBY, "qaz"])) }
        with_stdin("f") { assert_equal(false, system([RUBY, "wsx"])) }

        with_stdin("t") { Process.wait spawn([RUBY, "edc"]) }
        assert_predicate($?, :success?)
        with_stdin("f") { Process.wait spawn([RUBY, "rfv"]) }
        assert_not_predicate($?, :success?)

        with_stdin("t") { IO.popen([[RUBY, "tgb"]]) {|io| assert_equal("", io.read) } }
        assert_predicate($?, :success?)
        with_stdin("f") { IO.popen([[RUBY, "yhn"]]) {|io| assert_equal("", io.read) } }
        assert_not_predicate($?, :success?)

        status = run_in_child "STDIN.reopen('t'); exec([#{RUBY.dump}, 'ujm'])"
        assert_predicate(status, :success?)
        status = run_in_child "STDIN.reopen('f'); exec([#{RUBY.dump}, 'ik,'])"
        assert_not_predicate(status, :success?)
      }
    end

    it 'test_status' do
      with_tmpchdir do
        s = run_in_child("exit 1")
        assert_equal("#<Process::Status: pid #{ s.pid } exit #{ s.exitstatus }>", s.inspect)

        assert_equal(s, s)
        assert_equal(s, s.to_i)

        assert_equal(s.to_i & 0x55555555, s & 0x55555555)
        assert_equal(s.to_i >> 1, s >> 1)
        assert_equal(false, s.stopped?)
        assert_equal(nil, s.stopsig)

        assert_equal(s, Marshal.load(Marshal.dump(s)))
      end
    end

    it 'test_status_kill' do

      # assume the system supports signal if SIGQUIT is available
      expected = Signal.list.include?("QUIT") ? [false, true, false, nil] : [true, false, false, true]

      with_tmpchdir do
        write_file("foo", "Process.kill(:KILL, $$); exit(42)")
        system(RUBY, "foo")
        s = $?
        assert_equal(expected,
                     [s.exited?, s.signaled?, s.stopped?, s.success?],
                     "[s.exited?, s.signaled?, s.stopped?, s.success?]")

        assert_equal(s, Marshal.load(Marshal.dump(s)))
      end
    end

    it 'test_status_quit' do
      pending %(JRuby's own Process::Status#inspect (not the drop-in's) names the signal "QUIT"; MRI's "SIGQUIT")

      with_tmpchdir do
        # assert_in_out_err's spawn, its output not captured
        system(RUBY, "-e", "Signal.trap(:QUIT,'DEFAULT'); Process.kill(:SIGQUIT, $$);sleep 30", rlimit_core: 0)
        s = $?
        assert_equal([false, true, false, nil],
                     [s.exited?, s.signaled?, s.stopped?, s.success?],
                     "[s.exited?, s.signaled?, s.stopped?, s.success?]")
        assert_equal("#<Process::Status: pid #{ s.pid } SIGQUIT (signal #{ s.termsig })>",
                     s.inspect.sub(/ \(core dumped\)(?=>\z)/, ''))

        assert_equal(s, Marshal.load(Marshal.dump(s)))
      end
    end

    it 'test_status_wait' do
      pending "JRuby's own Process::Status.wait (not the drop-in's) returns a made-up status for WNOHANG with the child running; MRI's nil"
      IO.popen([RUBY, "-e", "gets"], "w") do |io|
        pid = io.pid
        assert_nil(Process::Status.wait(pid, Process::WNOHANG))
        io.puts
        ret = Process::Status.wait(pid)
        assert_instance_of(Process::Status, ret)
        assert_equal(pid, ret.pid)
        assert_predicate(ret, :exited?)
      end
    end

    it 'test_wait_without_arg' do
      with_tmpchdir do
        write_file("foo", "sleep 0.1")
        pid = spawn(RUBY, "foo")
        assert_equal(pid, Process.wait)
      end
    end

    it 'test_wait2' do
      with_tmpchdir do
        write_file("foo", "sleep 0.1")
        pid = spawn(RUBY, "foo")
        assert_equal([pid, 0], Process.wait2)
      end
    end

    it 'test_waitall' do
      with_tmpchdir do
        write_file("foo", "sleep 0.1")
        ps = (0...3).map { spawn(RUBY, "foo") }.sort
        ss = Process.waitall.sort
        ps.zip(ss) do |p1, (p2, s)|
          assert_equal(p1, p2)
          assert_equal(p1, s.pid)
        end
      end
    end

    it 'test_wait_exception' do
      bug11340 = '[ruby-dev:49176] [Bug #11340]'
      t0 = t1 = nil
      sec = 3
      code = "puts;STDOUT.flush;Thread.start{gets;exit};sleep(#{sec})"
      IO.popen([RUBY, '-e', code], 'r+') do |f|
        pid = f.pid
        f.gets
        t0 = Time.now
        th = Thread.start(Thread.current) do |main|
          Thread.pass until main.stop?
          main.raise Interrupt
        end
        begin
          assert_raise(Interrupt) {Process.wait(pid)}
        ensure
          th.kill.join
        end
        t1 = Time.now
        diff = t1 - t0
        assert_operator(diff, :<, sec,
                    ->{"#{bug11340}: #{diff} seconds to interrupt Process.wait"})
        f.puts
      end
    end

    it 'test_abort' do
      with_tmpchdir do
        s = run_in_child("abort")
        assert_not_predicate(s, :success?)
        write_file("test-script", "#{<<~"begin;"}\n#{<<~'end;'}")
        begin;
          STDERR.reopen(STDOUT)
          begin
            raise "[Bug #16424]"
          rescue
            abort
          end
        end;
        assert_include(IO.popen([RUBY, "test-script"], &:read), "[Bug #16424]")
      end
    end

    it 'test_no_curdir' do
      pending "JRuby's Dir.chdir is its own (the JVM's directory never changes): a child starts in Dir.pwd by its path, so a removed Dir.pwd cannot be entered (Errno::ENOENT); MRI's child inherits the removed directory"
      if /solaris/i =~ RUBY_PLATFORM
        skip "Temporary skip to avoid CI failures after commit to use realpath on required files"
      end
      with_tmpchdir {|d|
        Dir.mkdir("vd")
        status = nil
        Dir.chdir("vd") {
          dir = "#{d}/vd"
          # OpenSolaris cannot remove the current directory.
          system(RUBY, "--disable-gems", "-e", "Dir.chdir '..'; Dir.rmdir #{dir.dump}", err: File::NULL)
          system({"RUBYLIB"=>nil}, RUBY, "--disable-gems", "-e", "exit true")
          status = $?
        }
        assert_predicate(status, :success?, "[ruby-dev:38105]")
      }
    end

    it 'test_fallback_to_sh' do
      # File.chmod for MRI's f.chmod: JRuby's File#chmod (not the drop-in's) looks for a relative path in the JVM's directory, not Dir.pwd
      feature = '[ruby-core:32745]'
      with_tmpchdir do |d|
        open("tmp_script.#{$$}", "w") {|f| f.puts ": ;"; File.chmod(0755, f.path)}
        assert_not_nil(pid = Process.spawn("./tmp_script.#{$$}"), feature)
        wpid, st = Process.waitpid2(pid)
        assert_equal([pid, true], [wpid, st.success?], feature)

        open("tmp_script.#{$$}", "w") {|f| f.puts "echo $#: $@"; File.chmod(0755, f.path)}
        result = IO.popen(["./tmp_script.#{$$}", "a b", "c"]) {|f| f.read}
        assert_equal("2: a b c\n", result, feature)

        open("tmp_script.#{$$}", "w") {|f| f.puts "echo $hghg"; File.chmod(0755, f.path)}
        result = IO.popen([{"hghg" => "mogomogo"}, "./tmp_script.#{$$}", "a b", "c"]) {|f| f.read}
        assert_equal("mogomogo\n", result, feature)

      end
    end

    it 'test_spawn_too_long_path' do
      bug4314 = '[ruby-core:34842]'
      assert_fail_too_long_path(%w"echo", bug4314)
    end

    it 'test_aspawn_too_long_path' do
      if /solaris/i =~ RUBY_PLATFORM && !defined?(Process::RLIMIT_NPROC)
        skip "Too exhaustive test on platforms without Process::RLIMIT_NPROC such as Solaris 10"
      end
      bug4315 = '[ruby-core:34833] #7904 [ruby-core:52628] #11613'
      # Root is exempt from RLIMIT_NPROC, so MRI's 16,600-stage pipeline forks every stage; with both CI legs at
      # it at once that filled pid_max (32,768) and the other examples got EAGAIN. As root the stages are
      # joined by ';' (the shell's builtin echo, no fork): the same too-long command line.
      assert_fail_too_long_path(Process.euid.zero? ? %w"echo ;" : %w"echo |", bug4315)
    end

    it 'test_system_sigpipe' do

      pid = 0

      with_tmpchdir do
        assert_nothing_raised('[ruby-dev:12261]') do
          Timeout.timeout(3) do
            pid = spawn('yes | ls')
            Process.waitpid pid
          end
        end
      end
    ensure
      Process.kill(:KILL, pid) if (pid != 0) rescue false
    end

    it 'test_popen_cloexec' do
      IO.popen([RUBY, "-e", ""]) {|io|
        assert_predicate(io, :close_on_exec?)
      }
    end

    it 'test_popen_reopen' do
      # assert_separately's code, run in this process (its popen is what is tested)
      io = File.open(IO::NULL)
      io2 = io.dup
      IO.popen("echo") {|f| io.reopen(f)}
      io.reopen(io2)
      [io, io2].each(&:close)
    end

    it 'test_execopts_uid' do
      skip "root can use uid option of Kernel#system on Android platform" if RUBY_PLATFORM =~ /android/
      feature6975 = '[ruby-core:47414]'

      [30000, [Process.uid, ENV["USER"]]].each do |uid, user|
        if user
          assert_nothing_raised(feature6975) do
            begin
              system(*TRUECOMMAND, uid: user, exception: true)
            rescue Errno::EPERM, Errno::EACCES, NotImplementedError
            end
          end
        end

        assert_nothing_raised(feature6975) do
          begin
            system(*TRUECOMMAND, uid: uid, exception: true)
          rescue Errno::EPERM, Errno::EACCES, NotImplementedError
          end
        end

        assert_nothing_raised(feature6975) do
          begin
            u = IO.popen([RUBY, "-e", "print Process.uid", uid: user||uid], &:read)
            assert_equal(uid.to_s, u, feature6975)
          rescue Errno::EPERM, Errno::EACCES, NotImplementedError
          end
        end
      end
    end

    it 'test_execopts_gid' do
      skip "root can use Process.groups on Android platform" if RUBY_PLATFORM =~ /android/
      feature6975 = '[ruby-core:47414]'

      groups = Process.groups.map do |g|
        g = Etc.getgrgid(g) rescue next
        [g.name, g.gid]
      end
      groups.compact!
      [30000, *groups].each do |group, gid|
        assert_nothing_raised(feature6975) do
          begin
            system(*TRUECOMMAND, gid: group)
          rescue Errno::EPERM, NotImplementedError
          end
        end

        gid = "#{gid || group}"
        assert_nothing_raised(feature6975) do
          begin
            g = IO.popen([RUBY, "-e", "print Process.gid", gid: group], &:read)
            # AIX allows a non-root process to setgid to its supplementary group,
            # while other UNIXes do not. (This might be AIX's violation of the POSIX standard.)
            # However, Ruby does not allow a setgid'ed Ruby process to use the -e option.
            # As a result, the Ruby process invoked by "IO.popen([RUBY, "-e", ..." above fails
            # with a message like "no -e allowed while running setgid (SecurityError)" to stderr,
            # the exis status is set to 1, and the variable "g" is set to an empty string.
            # To conclude, on AIX, if the "gid" variable is a supplementary group,
            # the assert_equal next can fail, so skip it.
            assert_equal(gid, g, feature6975) unless $?.exitstatus == 1 && /aix/ =~ RUBY_PLATFORM && gid != Process.gid
          rescue Errno::EPERM, NotImplementedError
          end
        end
      end
    end

    it 'test_sigpipe' do
      system(RUBY, "-e", "")
      with_pipe {|r, w|
        r.close
        assert_raise(Errno::EPIPE) { w.print "a" }
      }
    end

    it 'test_sh_comment' do
      IO.popen("echo a # fofoof") {|f|
        assert_equal("a\n", f.read)
      }
    end

    it 'test_sh_env' do
      IO.popen("foofoo=barbar env") {|f|
        lines = f.readlines
        assert_operator(lines, :include?, "foofoo=barbar\n")
      }
    end

    it 'test_sh_exec' do
      IO.popen("exec echo exexexec") {|f|
        assert_equal("exexexec\n", f.read)
      }
    end

    it 'test_setsid' do
      skip "Process.setsid or Process.getsid missing" unless Process.respond_to?(:setsid) && Process.respond_to?(:getsid)

      IO.popen([RUBY, "-e", <<EOS]) do|io|
          Marshal.dump(Process.getsid, STDOUT)
          newsid = Process.setsid
          Marshal.dump(newsid, STDOUT)
          STDOUT.flush
          # getsid() on MacOS X return ESRCH when target process is zombie
          # even if it is valid process id.
          sleep
EOS
        begin
          # test Process.getsid() w/o arg
          assert_equal(Marshal.load(io), Process.getsid)

          # test Process.setsid return value and Process::getsid(pid)
          assert_equal(Marshal.load(io), Process.getsid(io.pid))
        ensure
          Process.kill(:KILL, io.pid) rescue nil
          Process.wait(io.pid)
        end
      end
    end

    it 'test_many_args' do
      bug11418 = '[ruby-core:70251] [Bug #11418]'
      # assert_in_out_err's code, run in this process (its system is what is tested; GC.stress is MRI's)
      bin = RUBY
      args = Array.new(256) {"x"}
      IO.pipe do |r, w|
        system(bin, "--disable=gems", "-w", "-e", "puts ARGV", *args, out: w)
        w.close
        assert_equal(["x"]*256, r.read.lines(chomp: true), bug11418)
      end
    end

    it 'test_to_hash_on_arguments' do
      # assert_separately's code, run in this process (its system is what is tested), to_hash removed after it
      %w[Array String].each do |type|
        klass = Object.const_get(type)
        klass.class_eval { def to_hash; raise "[Bug-12355]: #{self.class}#to_hash is called"; end }
        begin
          ex = RUBY
          ret = system([ex, ex], "-e", "")
        ensure
          klass.send(:remove_method, :to_hash)
        end
        assert_equal(true, ret)
      end
    end

    it 'test_last_status' do
      Process.wait spawn(RUBY, "-e", "exit 13")
      assert_same(Process.last_status, $?)
    end

    it 'test_last_status_failure' do
      assert_nil system("sad")
      assert_not_predicate $?, :success?
      assert_equal $?.exitstatus, 127
    end

    it 'test_exec_failure_leaves_no_child' do
      assert_raise(Errno::ENOENT) do
        spawn('inexistent_command')
      end
      assert_empty(Process.waitall)
    end
  end
end

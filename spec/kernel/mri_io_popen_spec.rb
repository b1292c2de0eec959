require 'spec_helper'
require_relative 'drop_in_context'
require_relative 'mri_assertions'

# MRI 3.1.2's own tests of IO.popen and the pipe forms (Debian's ruby3.1_3.1.2.orig.tar.xz, the MRI at
# /usr/bin/ruby), ported to RSpec and run through the drop-in: each example is the MRI test of that name
# with MRI's body and assertions (mri_assertions.rb). From test/ruby/test_io.rb: every test that starts a
# process (through its `ruby` helper, IO.popen, open("|..."), IO.read/foreach("|...") or EnvUtil.invoke_ruby),
# test_close_on_exec and test_foreach with their popen and pipe parts only; from test/ruby/test_io_m17n.rb:
# the popen and open("|...") encoding tests and the one spawn test (Windows-only ones left out).
module MRITestIO
  RUBY = MRIAssertions::RUBY

  RSpec.describe "MRI's test_io.rb and test_io_m17n.rb (popen, pipe forms) through the drop-in" do
    include_context 'drop-in installed'
    include MRIAssertions

    before { skip "MRI's ruby is not at #{RUBY}" unless File.executable?(RUBY) }

    # test_io.rb's helper: MRI's ruby copying its stdin to its stdout, on a duplex popen IO.
    def ruby(*args)
      args = ['-e', '$>.write($<.read)'] if args.empty?
      ruby = RUBY
      opts = {}
      if defined?(Process::RLIMIT_NPROC)
        lim = Process.getrlimit(Process::RLIMIT_NPROC)[1]
        opts[:rlimit_nproc] = [lim, 2048].min
      end
      f = IO.popen([ruby] + args, 'r+', opts)
      pid = f.pid
      yield(f)
    ensure
      f.close unless !f || f.closed?
      begin
        Process.wait(pid)
      rescue Errno::ECHILD, Errno::ESRCH
      end
    end

    describe 'test_io.rb' do
      it 'test_copy_stream_to_duplex_io' do
        result = IO.pipe {|a,w|
          th = Thread.start {w.puts "yes"; w.close}
          IO.popen([RUBY, '-pe$_="#$.:#$_"'], "r+") {|b|
            IO.copy_stream(a, b)
            b.close_write
            assert_join_threads([th])
            b.read
          }
        }
        assert_equal("1:yes\n", result)
      end

      it 'test_dup' do
        ruby do |f|
          begin
            f2 = f.dup
            f.puts "foo"
            f2.puts "bar"
            f.close_write
            f2.close_write
            assert_equal("foo\nbar\n", f.read)
            assert_equal("", f2.read)
          ensure
            f2.close
          end
        end
      end

      it 'test_close_read' do
        ruby do |f|
          f.close_read
          f.write "foobarbaz"
          assert_raise(IOError) { f.read }
          assert_nothing_raised(IOError) {f.close_read}
          assert_nothing_raised(IOError) {f.close}
          assert_nothing_raised(IOError) {f.close_read}
        end
      end

      it 'test_close_write' do
        ruby do |f|
          f.write "foobarbaz"
          f.close_write
          assert_equal("foobarbaz", f.read)
          assert_nothing_raised(IOError) {f.close_write}
          assert_nothing_raised(IOError) {f.close}
          assert_nothing_raised(IOError) {f.close_write}
        end
      end

      it 'test_close_on_exec' do
        ruby do |f|
          assert_equal(true, f.close_on_exec?)
          f.close_on_exec = false
          assert_equal(false, f.close_on_exec?)
          f.close_on_exec = true
          assert_equal(true, f.close_on_exec?)
          f.close_on_exec = false
          assert_equal(false, f.close_on_exec?)
        end
      end

      it 'test_close_read_write_separately' do
        bug = '[ruby-list:49598]'
        (1..10).each do |i|
          assert_nothing_raised(IOError, "#{bug} trying ##{i}") do
            IO.popen(RUBY, "r+") {|f|
              th = Thread.new {f.close_write}
              f.close_read
              th.join
            }
          end
        end
      end

      it 'test_pid' do
        IO.pipe {|r, w|
          assert_equal(nil, r.pid)
          assert_equal(nil, w.pid)
        }

        begin
          pipe = IO.popen(RUBY, "r+")
          pid1 = pipe.pid
          pipe.puts "p $$"
          pipe.close_write
          pid2 = pipe.read.chomp.to_i
          assert_equal(pid2, pid1)
          assert_equal(pid2, pipe.pid)
        ensure
          pipe.close
        end
        assert_raise(IOError) { pipe.pid }
      end

      it 'test_pid_after_close_read' do
        pid1 = pid2 = nil
        IO.popen("exit ;", "r+") do |io|
          pid1 = io.pid
          io.close_read
          pid2 = io.pid
        end
        assert_not_nil(pid1)
        assert_equal(pid1, pid2)
      end

      it 'test_open_pipe' do
        open("|" + RUBY, "r+") do |f|
          f.puts "puts 'foo'"
          f.close_write
          assert_equal("foo\n", f.read)
        end
      end

      it 'test_read_command' do
        assert_equal("foo\n", IO.read("|echo foo"))
        assert_raise(Errno::ENOENT, Errno::EINVAL) do
          File.read("|#{RUBY} -e puts")
        end
        assert_raise(Errno::ENOENT, Errno::EINVAL) do
          File.binread("|#{RUBY} -e puts")
        end
        assert_raise(Errno::ENOENT, Errno::EINVAL) do
          Class.new(IO).read("|#{RUBY} -e puts")
        end
        assert_raise(Errno::ENOENT, Errno::EINVAL) do
          Class.new(IO).binread("|#{RUBY} -e puts")
        end
        assert_raise(Errno::ESPIPE) do
          IO.read("|echo foo", 1, 1)
        end
      end

      it 'test_foreach' do
        a = []
        IO.foreach("|" + RUBY + " -e 'puts :foo; puts :bar; puts :baz'") {|x| a << x }
        assert_equal(["foo\n", "bar\n", "baz\n"], a)

        a = []
        IO.foreach("|" + RUBY + " -e 'puts :zot'", :open_args => ["r"]) {|x| a << x }
        assert_equal(["zot\n"], a)
      end

      it 'test_write_buffered_with_multiple_arguments' do
        out, err, (_, status) = invoke_ruby(["-e", "sleep 0.1;puts 'foo'"], "", true, true) do |_, o, e, i|
          [o.read, e.read, Process.waitpid2(i)]
        end
        assert_predicate(status, :success?)
        assert_equal("foo\n", out)
        assert_empty(err)
      end

      it 'test_stdout_to_closed_pipe' do
        invoke_ruby(["-e", "loop {puts :ok}"], "", true, true) do
          |in_p, out_p, err_p, pid|
          out = out_p.gets
          out_p.close
          err = err_p.read
        ensure
          status = Process.wait2(pid)[1]
          assert_equal("ok\n", out)
          assert_empty(err)
          assert_not_predicate(status, :success?)
          if Signal.list["PIPE"]
            assert_predicate(status, :signaled?)
            assert_equal("PIPE", Signal.signame(status.termsig) || status.termsig)
          end
        end
      end
    end

    describe 'test_io_m17n.rb' do
      it 'test_stdin_external_encoding_with_reopen' do
        with_tmpchdir {
          open("tst", "w+") {|f|
            pid = spawn(RUBY, '-e', <<-'End', 10=>f)
              io = IO.new(10, "r+")
              STDIN.reopen(io)
              STDIN.external_encoding
              STDIN.write "\u3042"
              STDIN.flush
            End
            Process.wait pid
            f.rewind
            result = f.read.force_encoding("ascii-8bit")
            assert_equal("\u3042".force_encoding("ascii-8bit"), result)
          }
        }
      end

      it 'test_popen_r_enc' do
        IO.popen("#{RUBY} -e 'putc 255'", "r:ascii-8bit") {|f|
          assert_equal(Encoding::ASCII_8BIT, f.external_encoding)
          assert_equal(nil, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::ASCII_8BIT, s.encoding)
          assert_equal("\xff".force_encoding("ascii-8bit"), s)
        }
      end

      it 'test_popen_r_enc_in_opt' do
        IO.popen("#{RUBY} -e 'putc 255'", "r", encoding: "ascii-8bit") {|f|
          assert_equal(Encoding::ASCII_8BIT, f.external_encoding)
          assert_equal(nil, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::ASCII_8BIT, s.encoding)
          assert_equal("\xff".force_encoding("ascii-8bit"), s)
        }
      end

      it 'test_popen_r_enc_in_opt2' do
        IO.popen("#{RUBY} -e 'putc 255'", "r", external_encoding: "ascii-8bit") {|f|
          assert_equal(Encoding::ASCII_8BIT, f.external_encoding)
          assert_equal(nil, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::ASCII_8BIT, s.encoding)
          assert_equal("\xff".force_encoding("ascii-8bit"), s)
        }
      end

      it 'test_popen_r_enc_enc' do
        IO.popen("#{RUBY} -e 'putc 0xa1'", "r:shift_jis:euc-jp") {|f|
          assert_equal(Encoding::Shift_JIS, f.external_encoding)
          assert_equal(Encoding::EUC_JP, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::EUC_JP, s.encoding)
          assert_equal("\x8e\xa1".force_encoding("euc-jp"), s)
        }
      end

      it 'test_popen_r_enc_enc_in_opt' do
        IO.popen("#{RUBY} -e 'putc 0xa1'", "r", encoding: "shift_jis:euc-jp") {|f|
          assert_equal(Encoding::Shift_JIS, f.external_encoding)
          assert_equal(Encoding::EUC_JP, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::EUC_JP, s.encoding)
          assert_equal("\x8e\xa1".force_encoding("euc-jp"), s)
        }
      end

      it 'test_popen_r_enc_enc_in_opt2' do
        IO.popen("#{RUBY} -e 'putc 0xa1'", "r", external_encoding: "shift_jis", internal_encoding: "euc-jp") {|f|
          assert_equal(Encoding::Shift_JIS, f.external_encoding)
          assert_equal(Encoding::EUC_JP, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::EUC_JP, s.encoding)
          assert_equal("\x8e\xa1".force_encoding("euc-jp"), s)
        }
      end

      it 'test_popenv_r_enc_enc_in_opt2' do
        IO.popen([RUBY, "-e", "putc 0xa1"], "r", external_encoding: "shift_jis", internal_encoding: "euc-jp") {|f|
          assert_equal(Encoding::Shift_JIS, f.external_encoding)
          assert_equal(Encoding::EUC_JP, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::EUC_JP, s.encoding)
          assert_equal("\x8e\xa1".force_encoding("euc-jp"), s)
        }
      end

      it 'test_open_pipe_r_enc' do
        open("|#{RUBY} -e 'putc 255'", "r:ascii-8bit") {|f|
          assert_equal(Encoding::ASCII_8BIT, f.external_encoding)
          assert_equal(nil, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::ASCII_8BIT, s.encoding)
          assert_equal("\xff".force_encoding("ascii-8bit"), s)
        }
      end

      it 'test_open_pipe_r_enc2' do
        open("|#{RUBY} -e 'putc \"\\u3042\"'", "r:UTF-8") {|f|
          assert_equal(Encoding::UTF_8, f.external_encoding)
          assert_equal(nil, f.internal_encoding)
          s = f.read
          assert_equal(Encoding::UTF_8, s.encoding)
          assert_equal("\u3042", s)
        }
      end
    end
  end
end

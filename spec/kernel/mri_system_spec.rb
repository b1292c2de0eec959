require 'spec_helper'
require 'tmpdir'
require_relative 'drop_in_context'
require_relative 'mri_assertions'

# MRI 3.1.2's own test/ruby/test_system.rb (Debian's ruby3.1_3.1.2.orig.tar.xz, the MRI at /usr/bin/ruby),
# ported to RSpec and run through the drop-in: each example is the MRI test of that name with MRI's body
# and assertions (mri_assertions.rb). Left out: test_system_at and test_system_redirect_win (Windows only)
# and test_empty_evstr (string interpolation, no process).
module MRITestSystem
  RUBY = MRIAssertions::RUBY

  RSpec.describe "MRI's test_system.rb through the drop-in" do
    include_context 'drop-in installed'
    include MRIAssertions

    before { skip "MRI's ruby is not at #{RUBY}" unless File.executable?(RUBY) }

    it 'test_system' do
      ruby = RUBY
      assert_equal("foobar\n", `echo foobar`)
      assert_equal('foobar', `#{ruby} -e 'print "foobar"'`)

      Dir.mktmpdir("ruby_script_tmp") {|tmpdir|
        tmpfilename = "#{tmpdir}/ruby_script_tmp.#{$$}"

        tmp = open(tmpfilename, "w")
        tmp.print "print $zzz\n";
        tmp.close

        assert_equal('true', `#{ruby} -s #{tmpfilename} -zzz`)
        assert_equal('555', `#{ruby} -s #{tmpfilename} -zzz=555`)

        tmp = open(tmpfilename, "w")
        tmp.print "#! /usr/local/bin/ruby -s\n";
        tmp.print "print $zzz\n";
        tmp.close

        assert_equal('678', `#{ruby} #{tmpfilename} -zzz=678`)

        tmp = open(tmpfilename, "w")
        tmp.print "this is a leading junk\n";
        tmp.print "#! /usr/local/bin/ruby -s\n";
        tmp.print "print $zzz if defined? $zzz\n";
        tmp.print "__END__\n";
        tmp.print "this is a trailing junk\n";
        tmp.close

        assert_equal('', `#{ruby} -x #{tmpfilename}`)
        assert_equal('555', `#{ruby} -x #{tmpfilename} -zzz=555`)

        tmp = open(tmpfilename, "w")
        tmp.print "#! /non/exist\\interpreter?/./to|be:ignored\n";
        tmp.print "this is a leading junk\n";
        tmp.print "#! /usr/local/bin/ruby -s\n";
        tmp.print "print $zzz if defined? $zzz\n";
        tmp.print "__END__\n";
        tmp.print "this is a trailing junk\n";
        tmp.close

        assert_equal('', `#{ruby} #{tmpfilename}`)
        assert_equal('555', `#{ruby} #{tmpfilename} -zzz=555`)

        tmp = open(tmpfilename, "w")
        for i in 1..5
          tmp.print i, "\n"
        end
        tmp.close

        `#{ruby} -i.bak -pe '$_.sub!(/^[0-9]+$/){$&.to_i * 5}' #{tmpfilename}`
        tmp = open(tmpfilename, "r")
        while tmp.gets
          assert_equal(0, $_.to_i % 5)
        end
        tmp.close

        File.unlink tmpfilename or `/bin/rm -f "#{tmpfilename}"`
        File.unlink "#{tmpfilename}.bak" or `/bin/rm -f "#{tmpfilename}.bak"`

      }
    end

    it 'test_fallback_to_sh' do
      Dir.mktmpdir("ruby_script_tmp") {|tmpdir|
        tmpfilename = "#{tmpdir}/ruby_script_tmp.#{$$}"
        open(tmpfilename, "w") {|f|
          f.puts ": ;"
          f.chmod(0755)
        }
        assert_equal(true, system(tmpfilename), '[ruby-core:32745]')
      }
    end

    it 'test_system_exception' do
      ruby = RUBY
      assert_nothing_raised do
        system('feature_14235', exception: false)
      end
      assert_nothing_raised do
        system(ruby, "-e", "abort", exception: false)
      end
      assert_nothing_raised do
        system("'#{ruby}' -e abort", exception: false)
      end
      assert_raise(Errno::ENOENT) do
        system('feature_14235', exception: true)
      end
      assert_raise_with_message(RuntimeError, /\ACommand failed with exit /) do
        system(ruby, "-e", "abort", exception: true)
      end
      assert_raise_with_message(RuntimeError, /\ACommand failed with exit /) do
        system("'#{ruby}' -e abort", exception: true)
      end
    end

    it 'test_system_exception_nonascii' do
      Dir.mktmpdir("ruby_script_tmp") do |tmpdir|
        name = "\u{30c6 30b9 30c8}"
        tmpfilename = "#{tmpdir}/#{name}.cmd"
        message = /#{name}\.cmd/
        assert_raise_with_message(Errno::ENOENT, message) do
          system(tmpfilename, exception: true)
        end
        open(tmpfilename, "w") {|f|
          f.puts "exit 127"
          f.chmod(0755)
        }
        assert_raise_with_message(RuntimeError, message) do
          system(tmpfilename, exception: true)
        end
      end
    end
  end
end

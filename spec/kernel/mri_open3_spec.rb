require 'spec_helper'
require_relative 'drop_in_context'
require 'open3' # as a program must: the drop-in does not load it

# MRI's own test/test_open3.rb (ruby/ruby), ported to RSpec and run through the drop-in: each example is
# the test of that name, with MRI's assertions. The children are MRI's ruby (/usr/bin/ruby), as in MRI's
# run (EnvUtil.rubybin); test_popen2 and test_popen2e, which reopen this process's STDERR, are left out.
RSpec.describe "MRI's test_open3.rb through the drop-in" do
  include_context 'drop-in installed'
  ruby = '/usr/bin/ruby'

  before { skip "MRI's ruby is not at #{ruby}" unless File.executable?(ruby) }

  def with_pipe
    r, w = IO.pipe
    yield r, w
  ensure
    [r, w].each { |io| io.close unless io.closed? }
  end

  it 'test_exit_status, test_stdin, test_stdout, test_stderr' do
    expect(Open3.popen3(ruby, '-e', 'exit true') { |_i, _o, _e, t| t.value.success? }).to be(true)
    expect(Open3.popen3(ruby, '-e', 'exit false') { |_i, _o, _e, t| t.value.success? }).to be(false)
    expect(Open3.popen3(ruby, '-e', 'exit STDIN.gets.chomp == "t"') { |i, _o, _e, t| i.puts 't'; t.value.success? }).to be(true)
    expect(Open3.popen3(ruby, '-e', 'exit STDIN.gets.chomp == "t"') { |i, _o, _e, t| i.puts 'f'; t.value.success? }).to be(false)
    expect(Open3.popen3(ruby, '-e', 'STDOUT.print "foo"') { |_i, o, _e, _t| o.read }).to eq('foo')
    expect(Open3.popen3(ruby, '-e', 'STDERR.print "bar"') { |_i, _o, e, _t| e.read }).to eq('bar')
  end

  it 'test_block, test_noblock, test_commandline' do
    r = Open3.popen3(ruby, '-e', 'STDOUT.print STDIN.read') do |i, o, _e, _t|
      i.print 'baz'
      i.close
      expect(o.read).to eq('baz')
      'qux'
    end
    expect(r).to eq('qux')
    i, o, e, t = Open3.popen3(ruby, '-e', 'STDOUT.print STDIN.read')
    i.print 'baz'
    i.close
    expect(o.read).to eq('baz')
    [o, e].each(&:close)
    t.join
    expect(Open3.popen3("echo quux\n") { |_i, out, _e, _t| out.read }).to eq("quux\n")
  end

  it 'test_pid, test_env' do
    Open3.popen3(ruby, '-e', 'print $$') do |_i, o, _e, t|
      pid = o.read.to_i
      expect([t[:pid], t.pid]).to eq([pid, pid])
    end
    expect(Open3.popen3({ 'A' => 'B', 'C' => 'D' }, ruby, '-e' 'p ENV["A"]') { |_i, out, _e, _t| out.read }).to eq("\"B\"\n")
  end

  it 'test_numeric_file_descriptor2, test_numeric_file_descriptor3' do
    with_pipe do |r, w|
      Open3.popen2(ruby, '-e', 'STDERR.puts "foo"', 2 => w) { |_i, _o, _t| expect(r.gets).to eq("foo\n") }
    end
    with_pipe do |r, w|
      Open3.popen3(ruby, '-e', 'IO.open(3).puts "foo"', 3 => w) { |_i, _o, _e, _t| expect(r.gets).to eq("foo\n") }
    end
  end

  it 'test_capture3, test_capture3_flip, test_capture3_stdin_data' do
    o, e, s = Open3.capture3(ruby, '-e', 'i=STDIN.read; print i+"o"; STDOUT.flush; STDERR.print i+"e"', stdin_data: 'i')
    expect([o, e, s.success?]).to eq(['io', 'ie', true])
    o, e, s = Open3.capture3(ruby, '-e', 'STDOUT.sync=true; 1000.times { print "o"*1000; STDERR.print "e"*1000 }')
    expect([o == 'o' * 1_000_000, e == 'e' * 1_000_000, s.success?]).to eq([true, true, true])
    expect(Open3.capture3(ruby, '-e', '', stdin_data: 'z' * (1024 * 1024)).then { |out, err, st| [out, err, st.success?] }).to eq(['', '', true])
  end

  it 'test_capture2, test_capture2e, test_capture2_stdin_data, test_capture2e_stdin_data' do
    o, s = Open3.capture2(ruby, '-e', 'i=STDIN.read; print i+"o"', stdin_data: 'i')
    expect([o, s.success?]).to eq(['io', true])
    oe, s = Open3.capture2e(ruby, '-e', 'i=STDIN.read; print i+"o"; STDOUT.flush; STDERR.print i+"e"', stdin_data: 'i')
    expect([oe, s.success?]).to eq(['ioie', true])
    expect(Open3.capture2(ruby, '-e', '', stdin_data: 'z' * (1024 * 1024)).then { |out, st| [out, st.success?] }).to eq(['', true])
    expect(Open3.capture2e(ruby, '-e', '', stdin_data: 'z' * (1024 * 1024)).then { |out, st| [out, st.success?] }).to eq(['', true])
  end

  it 'test_pipeline_rw, test_pipeline_r, test_pipeline_w' do
    Open3.pipeline_rw([ruby, '-e', 'print STDIN.read + "1"'], [ruby, '-e', 'print STDIN.read + "2"']) do |i, o, ts|
      expect([i, o, ts.size]).to match([be_a(IO), be_a(IO), 2])
      i.print '0'
      i.close
      expect(o.read).to eq('012')
      expect(ts.map { |t| t.value.success? }).to eq([true, true])
    end
    Open3.pipeline_r([ruby, '-e', 'print "1"'], [ruby, '-e', 'print STDIN.read + "2"']) do |o, ts|
      expect(o.read).to eq('12')
      expect(ts.map { |t| t.value.success? }).to eq([true, true])
    end
    command = [ruby, '-e', 's=STDIN.read; print s[1..-1]; exit s[0] == ?t']
    str = 'ttftff'
    Open3.pipeline_w(*[command] * str.length) do |i, ts|
      i.print str
      i.close
      expect(ts.map { |t| t.value.success? }).to eq(str.chars.map { |c| c == 't' })
    end
  end

  it 'test_pipeline_start, test_pipeline_start_noblock, test_pipeline' do
    command = [ruby, '-e', 's=STDIN.read; print s[1..-1]; exit s[0] == ?t']
    str = 'ttftff'
    expected = [true, *str.chars.map { |c| c == 't' }]
    Open3.pipeline_start([ruby, '-e', 'print ARGV[0]', str], *([command] * str.length)) do |ts|
      expect(ts.map { |t| t.value.success? }).to eq(expected)
    end
    ts = Open3.pipeline_start([ruby, '-e', ''])
    expect(ts.map { |t| t.value.success? }).to eq([true])
    ss = Open3.pipeline([ruby, '-e', 'print ARGV[0]', str], *([command] * str.length))
    expect(ss.map(&:class).uniq).to eq([Process::Status])
    expect(ss.map(&:success?)).to eq(expected)
  end
end

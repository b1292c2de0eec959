require 'spec_helper'
require_relative 'drop_in_context'

# Kernel#open("|cmd") and IO.read & co on a "|cmd" with the drop-in; expectations are MRI 3.1's
# (/usr/bin/ruby) for the same calls. Ruby 3.3+ (JRuby 10) also warns under Warning[:deprecated].
RSpec.describe 'open("|cmd") and IO.read & co with the drop-in' do
  include_context 'drop-in installed'

  it 'runs each pipe form on the engine (MRI: "a\n", "b\n", ["c\n"], ["d\n"], 1, "e\n", 1)' do
    expect(open('|echo a', &:read)).to eq("a\n")
    expect(Kernel.open('|cat', 'r+') { |io| io.write('z'); io.close_write; io.read }).to eq('z')
    expect(IO.read('|echo b')).to eq("b\n")
    expect(IO.readlines('|echo c')).to eq(["c\n"])
    expect(IO.readlines("|printf 'a\\nb\\n'", chomp: true)).to eq(%w[a b])
    expect(IO.foreach('|echo d').to_a).to eq(["d\n"])
    expect(IO.write('|cat >/dev/null', 'x')).to eq(1)
    expect(IO.binread('|echo e')).to eq("e\n".b)
    expect(IO.binread('|echo e').encoding).to eq(Encoding::BINARY)
    expect(IO.binwrite('|cat >/dev/null', 'y')).to eq(1)
    expect(IO.read('|echo ghij', 2)).to eq('gh')
    expect($?.success?).to be(true)
  end

  it 'hands a plain file\'s call to JRuby with its keywords still keywords (MRI: "h\xC3\xA9\n" binary; a positional Hash is a TypeError)' do
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'f')
      File.binwrite(path, "h\u00e9\n")
      expect(File.read(path, encoding: 'BINARY')).to eq("h\xC3\xA9\n".b)
      expect(IO.read(path, mode: 'rb').encoding).to eq(Encoding::BINARY)
      expect(IO.readlines(path, chomp: true, encoding: 'BINARY')).to eq(["h\xC3\xA9".b])
      expect { IO.read(path, { encoding: 'BINARY' }) }.to raise_error(TypeError, 'no implicit conversion of Hash into Integer')
    end
  end

  it 'is on the engine: the child gets :chdir-free posix_spawn and only fds 0-2 (no JVM descriptors)' do
    expect(ChildReport.fds(IO.read("|#{ChildReport.command(:fds).join(' ')}"))).to eq([0, 1, 2])
  end

  it 'leaves File.read("|cmd") and plain paths to JRuby (MRI: ENOENT for File; pipes only on IO itself)' do
    expect { File.read('|echo f') }.to raise_error(Errno::ENOENT)
    Dir.mktmpdir do |dir|
      path = File.join(dir, 'f')
      expect(IO.write(path, 'abc')).to eq(3)
      expect(IO.read(path)).to eq('abc')
      expect(open(path, &:read)).to eq('abc')
    end
  end

  it 'raises Errno::ESPIPE for an offset (MRI: Illegal seek) and NotImplementedError for "|-"' do
    expect { IO.read('|echo x', 2, 1) }.to raise_error(Errno::ESPIPE, 'Illegal seek')
    expect { open('|-') }.to raise_error(NotImplementedError)
    expect { IO.read('|-') }.to raise_error(NotImplementedError)
  end

  it 'warns as the running Ruby does when Warning[:deprecated] is on (Ruby 3.3+: "... leading \'|\' is deprecated")' do
    deprecated = Warning[:deprecated]
    Warning[:deprecated] = true
    expect { IO.read('|true') }.to output(/IO process creation with a leading '\|' is deprecated/).to_stderr if RUBY_VERSION >= '3.3'
    expect { open('|true', &:read) }.to output(/#{Regexp.escape(__FILE__)}:\d+: warning: Calling Kernel#open with a leading '\|' is deprecated/).to_stderr if RUBY_VERSION >= '3.3'
    expect { IO.read('|true') }.not_to output.to_stderr if RUBY_VERSION < '3.3'
  ensure
    Warning[:deprecated] = deprecated
  end
end

require 'spec_helper'
require 'tmpdir'
require_relative 'drop_in_context'

# The drop-in's IO.popen and IO's pipe forms where issue #28 (and the differential test) found them apart
# from MRI 3.1. A row is a whole call as Ruby source and MRI's outcome, recorded by running each under
# /usr/bin/ruby (MRI 3.1.2) in a directory holding nothing: the call's value or [exception class,
# message], then the files left there.
module MriPopenEdgesSpec
  class ToStr
    def initialize(text)
      @text = text
    end

    def to_str
      @text
    end
  end

  class ToInt
    def to_int
      File::RDONLY
    end
  end

  CALLS = [
    # the pipe is popen's redirect of fd 1 (0 for writing), beside the caller's: "fd N specified twice",
    # once the caller's files are opened
    [%q(IO.popen('cat', out: 'out.txt', &:read)), ['ArgumentError', 'fd 1 specified twice'], ['out.txt']],
    [%q(IO.popen('cat', 'r+', out: 'out.txt') { 1 }), ['ArgumentError', 'fd 1 specified twice'], ['out.txt']],
    [%q(IO.popen(['cat'], [:out, :err] => 'out.txt') { 1 }), ['ArgumentError', 'fd 1 specified twice'], ['out.txt']],
    [%q(IO.popen('cat', 'w', in: '/dev/null') { 1 }), ['ArgumentError', 'fd 0 specified twice'], []],
    [%q(IO.popen('true', 'r+', out: 2, &:read)), ['ArgumentError', 'fd 1 specified twice'], []],
    [%q(IO.popen(['cat'], 'r+', in: 'missing.txt') { 1 }), ['Errno::ENOENT', 'No such file or directory - missing.txt'], []],
    [%q(IO.popen('cat', 'w', out: 'out.txt') { |io| io.write('x') }), 1, ['out.txt']],
    [%q(IO.popen('echo hi', 'r', in: '/dev/null', &:read)), "hi\n", []],
    # a :chdir the child cannot enter: MRI's popen child names the step (rb_exec_fail), not the directory
    [%q(IO.popen(['true'], 'w', chdir: 'nope') { 1 }), ['Errno::ENOENT', 'No such file or directory - chdir'], []],
    [%q(IO.popen('true', chdir: '/etc/hostname', &:read)), ['Errno::ENOTDIR', 'Not a directory - chdir'], []],
    # the mode: to_int before to_str (rb_io_extract_modeenc)
    [%q(IO.popen('echo hi', ToStr.new('r'), &:read)), "hi\n", []],
    [%q(IO.popen('echo hi', ToInt.new, &:read)), "hi\n", []],
    [%q(IO.popen('echo hi', Object.new, &:read)), ['TypeError', 'no implicit conversion of Object into String'], []],
    # keys that are no spawn option are ignored (rb_execarg_extract_options leaves them to the IO)
    [%q(IO.popen('echo hi', nil => 1, &:read)), "hi\n", []],
    [%q(IO.popen('echo hi', 'chdir' => '/', &:read)), "hi\n", []],
    [%q(IO.popen('echo hi', 3.5 => 1, &:read)), "hi\n", []],
    [%q(IO.popen('echo hi', 2**64 => 1, &:read)), "hi\n", []],
    [%q(IO.popen('echo hi', rlimit_bogus: 1, &:read)), "hi\n", []],
    [%q(IO.popen('echo hi', exception: true, &:read)), "hi\n", []],
    [%q(IO.popen(['echo', 'hi', { foo: 1 }], &:read)), ['ArgumentError', 'wrong exec option symbol: foo'], []],
    # IO.read, readlines, foreach, write: a positional Hash is a length, limit or offset; spawn keywords are ignored
    [%q(IO.read('|echo hi', {})), ['TypeError', 'no implicit conversion of Hash into Integer'], []],
    [%q(IO.read('|echo hi', 1, {})), ['TypeError', 'no implicit conversion of Hash into Integer'], []],
    [%q(IO.readlines('|echo hi', {})), ['TypeError', 'no implicit conversion of Hash into Integer'], []],
    [%q(IO.readlines('|echo hi', 'i', {})), ['TypeError', 'no implicit conversion of Hash into Integer'], []],
    [%q(IO.foreach('|echo hi', {}).to_a), ['TypeError', 'no implicit conversion of Hash into Integer'], []],
    [%q(IO.write('|cat >/dev/null', 'x', {})), ['TypeError', 'no implicit conversion of Hash into Integer'], []],
    [%q(IO.binread('|echo hi', {})), ['TypeError', 'no implicit conversion of Hash into Integer'], []],
    [%q(IO.read('|pwd', chdir: '/')), :pwd, []],
    [%q(IO.read('|pwd', out: 'x.txt')), :pwd, []],
    [%q(IO.readlines('|echo hi', chomp: true, chdir: '/nonexistent')), ['hi'], []],
    [%q(IO.foreach('|echo hi', chdir: '/nonexistent').to_a), ["hi\n"], []],
    [%q(IO.write('|cat >/dev/null', 'x', chdir: '/nonexistent')), 1, []],
    [%q(IO.read('|echo hi', umask: 'bad')), "hi\n", []],
    [%q(open('|pwd', chdir: '/', &:read)), "/\n", []]
  ].freeze

  # Each row's call in a new empty directory: [source, its outcome (:pwd for that directory's path and a
  # newline), the files left].
  def self.run(rows)
    rows.map do |source, _|
      Dir.mktmpdir('mri-popen-edges') do |dir|
        result = Dir.chdir(dir) do
          value = eval(source, binding, __FILE__, __LINE__) # rubocop:disable Security/Eval
          value == "#{Dir.pwd}\n" ? :pwd : value
        rescue StandardError => e
          [e.class.name, e.message]
        end
        [source, result, Dir.children(dir).sort]
      end
    end
  end
end

RSpec.describe "the drop-in's popen and pipe forms, where issue #28 found them apart from MRI" do
  include_context 'drop-in installed'

  it "give MRI's outcome and leave MRI's files" do
    expect(MriPopenEdgesSpec.run(MriPopenEdgesSpec::CALLS)).to eq(MriPopenEdgesSpec::CALLS)
  end
end

require 'spec_helper'
require 'tmpdir'
require_relative '../kernel/drop_in_context'

# Calls where issue #28 found the gem and MRI 3.1 apart: which error, its message, $?, and the files a
# failing call leaves behind. A row is a call's arguments as Ruby source and MRI's outcome, recorded by
# running each under /usr/bin/ruby (MRI 3.1.2) in a directory holding only exist.txt ("old"): the exit
# status (system: [its value, the exit status]) or [exception class, message], then the files left there
# with their sizes. FILE is a regular file, NOT_OPEN a descriptor that is not open.
module MriEdgesSpec
  FILE = '/etc/hostname'.freeze
  NOT_OPEN = 250
  NONE = ['exist.txt(3)'].freeze

  # Process.spawn's.
  SPAWN = [
    # the program looked for under a :chdir that is not there: MRI's child fails at chdir first
    [%q('nonexistent', chdir: 'nope'), ['Errno::ENOENT', 'No such file or directory - nope'], NONE],
    [%q('true', chdir: FILE), ['Errno::ENOTDIR', 'Not a directory - /etc/hostname'], NONE],
    # empty paths are given to chdir(2) and open(2) as they are
    [%q('pwd', chdir: ''), ['Errno::ENOENT', 'No such file or directory - '], NONE],
    [%q('true', out: ''), ['Errno::ENOENT', 'No such file or directory - '], NONE],
    [%q('true', in: ''), ['Errno::ENOENT', 'No such file or directory - '], NONE],
    [%q('true', out: ['', 'w']), ['Errno::ENOENT', 'No such file or directory - '], NONE],
    # :exception is read (TO_BOOL) with the other options; refused only once the command is read
    [%q('true', exception: 1), ['ArgumentError', 'expected true or false as exception: 1'], NONE],
    [%q('true', exception: true, foo: 1), ['ArgumentError', 'wrong exec option symbol: foo'], NONE],
    [%q('true', exception: true, umask: 'a'), ['TypeError', 'no implicit conversion of String into Integer'], NONE],
    [%q({'A=B' => '1'}, 'true', exception: true), ['ArgumentError', 'environment name contains a equal : A=B'], NONE],
    [%q('true', exception: true, 1 => 2, out: 3), ['ArgumentError', 'exception option is not allowed'], NONE],
    [%q('true', exception: true, out: 'new.txt'), ['ArgumentError', 'exception option is not allowed'], NONE],
    # the redirect files are opened, in order, before the descriptor table is checked
    [%q('true', [:out, :err] => 'new.txt', err: ['exist.txt', 'w']), ['ArgumentError', 'fd 2 specified twice'], ['exist.txt(0)', 'new.txt(0)']],
    # a file for an empty key serves no child fd: MRI never opens it, not even before an error it meets later
    [%q('true', [] => ['exist.txt', 'w'], out: 1, 1 => 2), ['ArgumentError', 'fd 1 specified twice'], NONE],
    [%q('true', [] => ['nope/x', 'w']), 0, NONE],
    [%q('true', [:out, :err] => 'new.txt', err: ['missing.txt', File::WRONLY]), ['Errno::ENOENT', 'No such file or directory - missing.txt'], ['exist.txt(3)', 'new.txt(0)']],
    [%q('true', err: ['missing.txt', File::WRONLY], out: 'new.txt', 1 => 2), ['Errno::ENOENT', 'No such file or directory - missing.txt'], NONE],
    [%q('true', out: 'new.txt', 1 => :close), ['ArgumentError', 'fd 1 specified twice'], ['exist.txt(3)', 'new.txt(0)']],
    [%q('true', out: 'new.txt', 3 => [:child, 4], 4 => [:child, 3]), ['ArgumentError', 'cyclic child fd redirection from 4'], ['exist.txt(3)', 'new.txt(0)']],
    [%q('true', out: 'new.txt', 3 => [:child, 5]), ['ArgumentError', 'child fd 5 is not redirected'], ['exist.txt(3)', 'new.txt(0)']],
    # an Integer redirect source is range-checked with the table; an open's flags and permission as it is opened
    [%q('true', err: 2**40, umask: '022'), ['TypeError', 'no implicit conversion of String into Integer'], NONE],
    [%q('true', out: 'new.txt', err: 2**40), ['RangeError', "integer 1099511627776 too big to convert to `int'"], ['exist.txt(3)', 'new.txt(0)']],
    [%q('true', err: 2**40, 2 => :out), ['RangeError', "integer 1099511627776 too big to convert to `int'"], NONE],
    [%q('true', err: 2**40, out: '/nonexistent/x'), ['Errno::ENOENT', 'No such file or directory - /nonexistent/x'], NONE],
    [%q('true', 3 => [:child, 2**40]), ['RangeError', "integer 1099511627776 too big to convert to `int'"], NONE],
    [%q('true', out: 'new.txt', err: ['b.txt', 2**40]), ['RangeError', "integer 1099511627776 too big to convert to `int'"], ['exist.txt(3)', 'new.txt(0)']],
    [%q('true', out: 'new.txt', err: ['b.txt', 'w', 2**40]), ['RangeError', "integer 1099511627776 too big to convert to `unsigned int'"], ['exist.txt(3)', 'new.txt(0)']],
    [%q('true', out: 'new.txt', err: ['b.txt', 2**40], umask: 'a'), ['TypeError', 'no implicit conversion of String into Integer'], NONE],
    # Integers MRI holds as Bignums (2**62 and up) are neither a redirect source nor a descriptor
    [%q('true', out: 2**62), ['ArgumentError', 'wrong exec redirect action'], NONE],
    [%q('true', 2**62 => 1), ['ArgumentError', 'wrong exec option'], NONE],
    [%q('true', 3 => [:child, 2**62]), ['ArgumentError', 'wrong exec redirect'], NONE]
  ].freeze

  # Kernel#system's: with exception: true, a child that cannot start names the command (the shell
  # command line, else the program as given), never the step that failed; a failure names it too.
  SYSTEM = [
    [%q('sh', '-c', 'exit 3', exception: true), ['RuntimeError', 'Command failed with exit 3: sh'], NONE],
    [%q(['sh', 'mysh'], '-c', 'exit 3', exception: true), ['RuntimeError', 'Command failed with exit 3: sh'], NONE],
    [%q('false  x  y', exception: true), ['RuntimeError', 'Command failed with exit 1: false'], NONE],
    [%q('exit 3', exception: true), ['RuntimeError', 'Command failed with exit 3: exit 3'], NONE],
    [%q({'A' => '1'}, 'sh', '-c', 'kill -9 $$', exception: true), ['RuntimeError', 'Command failed with SIGKILL (signal 9): sh'], NONE],
    [%q('kill -SEGV $$', exception: true), ['RuntimeError', 'Command failed with SIGSEGV (signal 11): kill -SEGV $$'], NONE],
    [%q('kill -40 $$', exception: true), ['RuntimeError', 'Command failed with signal 40: kill -40 $$'], NONE],
    [%q('true', chdir: FILE, exception: true), ['Errno::ENOTDIR', 'Not a directory - true'], NONE],
    [%q('echo $HOME', chdir: FILE, exception: true), ['Errno::ENOTDIR', 'Not a directory - echo $HOME'], NONE],
    [%q(['true', 'x'], chdir: FILE, exception: true), ['Errno::ENOTDIR', 'Not a directory - true'], NONE],
    [%q('true  x  y', chdir: 'nope', exception: true), ['Errno::ENOENT', 'No such file or directory - true'], NONE],
    [%q('nonexistent', chdir: 'nope', exception: true), ['Errno::ENOENT', 'No such file or directory - nonexistent'], NONE],
    [%q('pwd', chdir: '', exception: true), ['Errno::ENOENT', 'No such file or directory - pwd'], NONE],
    [%q('pwd', chdir: ''), [nil, 127], NONE],
    [%q('true', pgroup: 1, exception: true), ['Errno::EPERM', 'Operation not permitted - true'], NONE],
    [%q('true;', pgroup: 1, exception: true), ['Errno::EPERM', 'Operation not permitted - true;'], NONE],
    [%q('true', rlimit_nofile: [10, 2**40], exception: true), ['Errno::EPERM', 'Operation not permitted - true'], NONE],
    [%q('true', rlimit_core: [10, 5], exception: true), ['Errno::EINVAL', 'Invalid argument - true'], NONE],
    [%q('true', in: NOT_OPEN, exception: true), ['Errno::EBADF', 'Bad file descriptor - true'], NONE],
    [%q('true', exception: 1), ['ArgumentError', 'expected true or false as exception: 1'], NONE],
    [%q('true', out: ''), ['Errno::ENOENT', 'No such file or directory - '], NONE],
    [%q('true', [:out, :err] => 'new.txt', err: ['exist.txt', 'w'], exception: true), ['ArgumentError', 'fd 2 specified twice'], ['exist.txt(0)', 'new.txt(0)']]
  ].freeze

  # Process.spawn's failures that name the step, where system with exception: true names the command.
  SPAWN_STEPS = [
    [%q('true', pgroup: 1), ['Errno::EPERM', 'Operation not permitted - setpgid'], NONE],
    [%q('true', rlimit_nofile: [10, 2**40]), ['Errno::EPERM', 'Operation not permitted - setrlimit'], NONE],
    [%q('true', in: NOT_OPEN), ['Errno::EBADF', 'Bad file descriptor - dup2'], NONE]
  ].freeze

  # A message in MRI 3.1's quoting: Ruby 3.4 (JRuby 10) quotes 'int' where 3.1 wrote `int'.
  def self.as_mri31(message)
    RUBY_VERSION >= '3.4' ? message.gsub(/'([\w ]+)'/, "`\\1'") : message
  end

  # The outcome of `call` on the row's arguments in a new directory holding only exist.txt.
  def self.outcome(source, call)
    Dir.mktmpdir('mri-edges') do |dir|
      File.write(File.join(dir, 'exist.txt'), 'old')
      result = Dir.chdir(dir) do
        call.call(eval("[#{source}]", binding, __FILE__, __LINE__)) # rubocop:disable Security/Eval
      rescue StandardError => e
        [e.class.name, MriEdgesSpec.as_mri31(e.message)]
      end
      [source, result, Dir.children(dir).sort.map { |f| "#{f}(#{File.size(File.join(dir, f))})" }]
    end
  end

  def self.run(rows, call)
    rows.map { |source, _| outcome(source, call) }
  end

  SPAWN_CALL = ->(spawn) { ->(args) { Process.wait2(spawn.call(*args)).last.exitstatus } }
  SYSTEM_CALL = ->(system) { ->(args) { [system.call(*args), $?.exitstatus] } }
end

RSpec.describe "MRI's outcomes where issue #28 found the gem apart" do
  it 'POSIX::Spawn.spawn: the error, its message and the files left, as MRI' do
    call = MriEdgesSpec::SPAWN_CALL.call(POSIX::Spawn.method(:spawn))
    expect(MriEdgesSpec.run(MriEdgesSpec::SPAWN + MriEdgesSpec::SPAWN_STEPS, call)).to eq(MriEdgesSpec::SPAWN + MriEdgesSpec::SPAWN_STEPS)
  end

  it 'POSIX::Spawn.system: the command named, as MRI' do
    call = MriEdgesSpec::SYSTEM_CALL.call(POSIX::Spawn.method(:system))
    expect(MriEdgesSpec.run(MriEdgesSpec::SYSTEM, call)).to eq(MriEdgesSpec::SYSTEM)
  end

  it "POSIX::Spawn.system clears $? before it checks the descriptor table, as MRI's rb_f_system" do
    Process.wait(POSIX::Spawn.spawn('false'))
    expect { POSIX::Spawn.system('true', 1 => 2, out: 3) }.to raise_error(ArgumentError, 'fd 1 specified twice')
    expect($?).to be_nil
  end

  context 'with the drop-in' do
    include_context 'drop-in installed'

    it 'Process.spawn and Kernel#spawn, as MRI' do
      rows = MriEdgesSpec::SPAWN + MriEdgesSpec::SPAWN_STEPS
      expect(MriEdgesSpec.run(rows, MriEdgesSpec::SPAWN_CALL.call(Process.method(:spawn)))).to eq(rows)
      expect(MriEdgesSpec.run(rows, MriEdgesSpec::SPAWN_CALL.call(method(:spawn)))).to eq(rows)
    end

    it 'Kernel#system, as MRI' do
      expect(MriEdgesSpec.run(MriEdgesSpec::SYSTEM, MriEdgesSpec::SYSTEM_CALL.call(method(:system)))).to eq(MriEdgesSpec::SYSTEM)
    end
  end
end

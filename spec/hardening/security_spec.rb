require 'spec_helper'

# The argv form never involves a shell, and paths and environment are used byte for byte: nothing the
# caller passes is ever interpreted.
RSpec.describe 'no shell, no interpretation' do
  hostile = ['$(touch PWNED)', '`touch PWNED`', '; touch PWNED', "a\ntouch PWNED", %q('"'), '"$HOME"', '*', '> PWNED',
             '| touch PWNED', '&& touch PWNED', '\\', "\t", ' ', '', "\xff\xfe".b, '-c'].freeze

  around do |example|
    Dir.mktmpdir('posix-spawn-security') { |dir| @dir = File.realpath(dir); example.run }
  end

  def output_of(*args, **options)
    reader, writer = IO.pipe
    pid = POSIX::Spawn.spawn(*args, { out: writer, chdir: @dir }.merge(options))
    writer.close
    output = reader.read.b
    Process.wait(pid)
    output
  ensure
    reader.close
    writer.close unless writer.closed?
  end

  it 'passes every argument to the program as is, in the argv form' do
    expect(output_of('printf', '%s\0', *hostile)).to eq(hostile.map { |a| a.b + "\0" }.join)
    expect(Dir.children(@dir)).to be_empty
  end

  it 'passes the arguments as is with [program, argv0] too' do
    expect(output_of(%w[printf printf], '%s\0', *hostile)).to eq(hostile.map { |a| a.b + "\0" }.join)
    expect(Dir.children(@dir)).to be_empty
  end

  it 'runs a program whose name holds shell meta characters as that file, not a command line' do
    program = File.join(@dir, 'prog; touch PWNED $(id)')
    File.write(program, "#!/bin/sh\nprintf ran\n")
    File.chmod(0o755, program)
    expect(output_of(program, 'arg')).to eq('ran')
    expect(Dir.children(@dir)).to contain_exactly(File.basename(program))
  end

  it 'uses a :chdir and redirect paths with shell meta characters literally' do
    dir = File.join(@dir, "d $(touch PWNED) `x` ; '\"' \n*")
    Dir.mkdir(dir)
    expect(output_of('pwd', chdir: dir)).to eq("#{dir}\n".b)
    target = File.join(dir, 'out; touch PWNED > $(x)')
    pid = POSIX::Spawn.spawn('echo', 'hi', out: target)
    Process.wait(pid)
    expect(File.read(target)).to eq("hi\n")
    expect(Dir.children(@dir)).to contain_exactly(File.basename(dir))
    expect(Dir.children(dir)).to contain_exactly(File.basename(target))
  end

  it 'passes environment values byte for byte (every byte but NUL), and names with meta characters' do
    value = (1..255).map(&:chr).join.b
    env = { 'POSIX_SPAWN_BYTES' => value, 'POSIX_SPAWN_$(id)`x`' => '$(touch PWNED)' }
    expect(output_of(env, 'printenv', 'POSIX_SPAWN_BYTES')).to eq(value + "\n")
    expect(output_of(env, 'printenv', 'POSIX_SPAWN_$(id)`x`')).to eq("$(touch PWNED)\n")
    expect(Dir.children(@dir)).to be_empty
  end
end

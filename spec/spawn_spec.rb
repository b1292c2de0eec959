require 'spec_helper'

RSpec.describe 'POSIX::Spawn.spawn' do
  def run(*args)
    reader, writer = IO.pipe
    opts = args.last.is_a?(Hash) ? args.pop : {}
    pid = POSIX::Spawn.spawn(*args, { out: writer }.merge(opts))
    writer.close
    out = reader.read
    Process.wait(pid)
    [out, $?]
  ensure
    reader&.close
    writer&.close unless writer&.closed?
  end

  it 'runs a program with its arguments, no shell involved' do
    out, status = run('printf', '%s|', 'a b', '$(id)', ';')
    expect(out).to eq('a b|$(id)|;|')
    expect(status).to be_success
  end

  it 'runs a command line with meta characters through /bin/sh' do
    expect(run('echo a | tr a b').first).to eq("b\n")
  end

  it 'raises Errno::ENOENT naming a missing program' do
    expect { POSIX::Spawn.spawn('no-such-program-here') }
      .to raise_error(Errno::ENOENT, 'No such file or directory - no-such-program-here')
  end

  it 'starts the child in :chdir without a shell' do
    expect(run('pwd', chdir: '/tmp').first).to eq("/tmp\n")
  end

  it 'starts the child in JRuby\'s Dir.pwd' do
    Dir.chdir('/usr') { expect(run('pwd').first).to eq("/usr\n") }
  end

  it 'applies :umask to the child only' do
    before = File.umask
    expect(run('sh', '-c', 'umask', umask: 0o077).first).to eq("0077\n")
    expect(File.umask).to eq(before)
  end

  it 'gives the child only 0, 1, 2 and its redirects' do
    fds = run('ls', '/proc/self/fd').first.split.map(&:to_i).sort
    expect(fds).to eq([0, 1, 2, 3]) # 3 is ls's own directory handle
  end
end

# Every redirection form of Process.spawn (MRI's check_exec_redirect), checked through real descriptors.
# Part of the 'spawn behaviour' run on every route.
RSpec.shared_examples 'redirection behaviour' do
  let(:dir) { Dir.mktmpdir('posix-spawn-redirect') }
  after { FileUtils.rm_rf(dir) }

  def run_sh(script, **options)
    pid = POSIX::Spawn.spawn('/bin/sh', '-c', script, **options)
    Process.wait(pid)
    $?
  end

  it 'writes to a path for :out and :err (created 0644, truncated), reads from a path for :in' do
    out = File.join(dir, 'out')
    File.write(out, 'old content that must go')
    File.write(File.join(dir, 'in'), "input\n")
    run_sh('cat; echo err >&2', in: File.join(dir, 'in'), out: out, err: File.join(dir, 'err'))
    expect(File.read(out)).to eq("input\n")
    expect(File.read(File.join(dir, 'err'))).to eq("err\n")
    expect(File.stat(out).mode & 0o777).to eq(0o644 & ~File.umask)
  end

  it 'opens [path, mode, perm] with that mode and permission' do
    log = File.join(dir, 'log')
    File.write(log, "first\n")
    run_sh('echo second', out: [log, 'a'])
    expect(File.read(log)).to eq("first\nsecond\n")
    fresh = File.join(dir, 'fresh')
    run_sh('echo x', out: [fresh, File::WRONLY | File::CREAT, 0o600])
    expect(File.stat(fresh).mode & 0o777).to eq(0o600)
  end

  it 'opens [path] read-only, as MRI does' do
    File.write(File.join(dir, 'r'), "data\n")
    expect(child_output('cat', in: [File.join(dir, 'r')])).to eq("data\n")
  end

  it 'resolves relative paths against Dir.pwd' do
    Dir.chdir(dir) { run_sh('echo rel', out: 'relative.txt') }
    expect(File.read(File.join(dir, 'relative.txt'))).to eq("rel\n")
  end

  it 'sends an array of keys to one opened file' do
    both = File.join(dir, 'both')
    run_sh('echo out; echo err >&2', [:out, :err] => both)
    expect(File.read(both).lines.sort).to eq(["err\n", "out\n"])
  end

  it 'redirects to IO objects and Integer descriptors' do
    reader, writer = IO.pipe
    run_sh('echo to-io', out: writer)
    run_sh('echo to-int', out: writer.fileno)
    writer.close
    expect(reader.read).to eq("to-io\nto-int\n")
  ensure
    reader.close
  end

  it 'redirects a high child fd, and takes an IO as the key (its own fd in the child)' do
    reader, writer = IO.pipe
    run_sh('echo on-9 >&9', 9 => writer)
    expect(child_fds(writer => writer)).to eq([0, 1, 2, writer.fileno]) # dash cannot name fds above 9
    writer.close
    expect(reader.read).to eq("on-9\n")
  ensure
    reader.close
  end

  it 'swaps stdout and stderr with 1 => 2, 2 => 1 (all redirects see the parent\'s descriptors)' do
    out_r, out_w = IO.pipe
    err_r, err_w = IO.pipe
    run_sh('echo to-stdout; echo to-stderr >&2', out: err_w, err: out_w, 3 => :close)
    [out_w, err_w].each(&:close)
    expect([out_r.read, err_r.read]).to eq(["to-stderr\n", "to-stdout\n"])
  ensure
    [out_r, err_r].each(&:close)
  end

  it 'follows [:child, fd] after the other redirects' do
    reader, writer = IO.pipe
    run_sh('echo out; echo err >&2', out: writer, err: [:child, :out])
    writer.close
    expect(reader.read.lines.sort).to eq(["err\n", "out\n"])
  ensure
    reader.close
  end

  it 'closes a child descriptor with :close' do
    expect(child_fds(err: :close)).to eq([0, 1])
  end

  it 'raises in the parent, naming the path, when a redirect file cannot be opened' do
    expect { POSIX::Spawn.spawn('true', out: '/nonexistent-dir/x') }
      .to raise_error(Errno::ENOENT, 'No such file or directory - /nonexistent-dir/x')
    expect { POSIX::Spawn.spawn('true', out: '/tmp') }.to raise_error(Errno::EISDIR, 'Is a directory - /tmp')
  end

  it 'rejects an fd given twice, and [:child, fd] cycles, as MRI does' do
    expect { POSIX::Spawn.spawn('true', out: File::NULL, 1 => 2) }.to raise_error(ArgumentError, 'fd 1 specified twice')
    expect { POSIX::Spawn.spawn('true', 2 => [:child, 5]) }.to raise_error(ArgumentError, 'child fd 5 is not redirected')
    expect { POSIX::Spawn.spawn('true', 2 => [:child, 1], 1 => [:child, 2]) }
      .to raise_error(ArgumentError, 'cyclic child fd redirection from 1')
  end

  it 'raises Errno::EBADF naming dup2 for a source descriptor that is not open' do
    expect { POSIX::Spawn.spawn('true', 3 => 1000) }.to raise_error(Errno::EBADF, 'Bad file descriptor - dup2')
  end
end

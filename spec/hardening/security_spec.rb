require 'spec_helper'

# The argv form never involves a shell, and paths and environment are used byte for byte: nothing the
# caller passes is ever interpreted.
RSpec.describe 'no shell, no interpretation' do
  hostile = ['$(touch PWNED)', '`touch PWNED`', '; touch PWNED', "a\ntouch PWNED", %q('"'), '"$HOME"', '*', '> PWNED',
             '| touch PWNED', '&& touch PWNED', '\\', "\t", ' ', '', "\xff\xfe".b, '-c'].freeze

  around do |example|
    Dir.mktmpdir('posix-spawn-security') { |dir| @dir = File.realpath(dir); example.run }
  end

  include ChildReport

  # The child's stdout as bytes, run in the example's directory.
  def output_of(*args, **options) = capture(*args, chdir: @dir, **options).first.b

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

# Paths reach the kernel as the String's bytes, whatever its encoding, as in MRI: :chdir, redirect paths
# (every form), the program and argv0, PATH entries (ENV's and the env hash's) and JRuby's Dir.pwd. What
# the child and the file system report is checked, never JRuby's own File and Dir, which decode names.
RSpec.describe 'paths are bytes' do
  around do |example|
    @dir = File.realpath(Dir.mktmpdir('posix-spawn-bytes')).b
    example.run
  ensure
    POSIX::Spawn.system('rm', '-rf', @dir) # JRuby's FileUtils cannot remove names that are not UTF-8
  end

  # Names in each encoding, and the bytes the file system must see for them.
  def binary = "d\xFFx".b
  def latin1 = "d\u00e9".encode('ISO-8859-1')        # d \xE9
  def cp1252 = "d\u20ac".encode('Windows-1252')      # d \x80
  def under(name) = "#{@dir}/".b + name.b

  include ChildReport

  # The child's stdout, as bytes.
  def stdout_of(*args, **options) = capture(*args, **options).first.b

  # What the directory holds, as the file system's bytes (listed by a child: JRuby's Dir decodes names).
  def names_in(dir = @dir)
    stdout_of('find', dir, '-mindepth', '1', '-maxdepth', '1', '-printf', '%f\0').split("\0").sort
  end

  def make_dir(path) = expect(POSIX::Spawn.system('mkdir', path)).to be(true)

  def make_file(path, text) = expect(POSIX::Spawn.system('sh', '-c', 'printf %s "$2" > "$1"', 'sh', path, text)).to be(true)

  def make_script(path, text)
    make_file(path, "#!/bin/sh\n#{text}\n")
    expect(POSIX::Spawn.system('chmod', '755', path)).to be(true)
  end

  def contents(path) = stdout_of('cat', path)

  it 'changes to a :chdir of binary, ISO-8859-1 and Windows-1252 names, and resolves a relative one against Dir.pwd' do
    [binary, latin1, cp1252].each do |name|
      make_dir(under(name))
      expect(stdout_of('pwd', chdir: under(name).force_encoding(name.encoding))).to eq(under(name) + "\n")
    end
    Dir.chdir(@dir) { expect(stdout_of('pwd', chdir: latin1)).to eq(under(latin1) + "\n") }
  end

  it 'applies a Dir.pwd with non-ASCII characters, and resolves a relative :chdir of another encoding against it' do
    utf8 = "\u00e9t\u00e9"
    make_dir(under(utf8))
    make_dir(under(utf8) + '/'.b + binary)
    Dir.chdir(under(utf8).force_encoding('UTF-8')) do
      expect(stdout_of('pwd')).to eq(under(utf8) + "\n")
      expect(stdout_of('pwd', chdir: binary)).to eq(under(utf8) + '/'.b + binary + "\n")
    end
  end

  it 'opens redirect paths of every form by their bytes' do
    Process.wait(POSIX::Spawn.spawn('echo', 'plain', out: under(binary)))
    Process.wait(POSIX::Spawn.spawn('echo', 'mode', out: [under(latin1).force_encoding(latin1.encoding), 'w']))
    Process.wait(POSIX::Spawn.spawn('echo', 'perm', out: [under(cp1252).force_encoding(cp1252.encoding), File::WRONLY | File::CREAT, 0o600]))
    Process.wait(POSIX::Spawn.spawn('sh', '-c', 'echo both; echo err >&2', %i[out err] => under("b\xFE".b)))
    expect(names_in).to eq([binary, latin1.b, cp1252.b, "b\xFE".b].sort)
    expect(contents(under(binary))).to eq("plain\n")
    expect(contents(under(latin1))).to eq("mode\n")
    expect(contents(under(cp1252))).to eq("perm\n")
    expect(contents(under("b\xFE".b))).to eq("both\nerr\n")
    expect(stdout_of('cat', in: under(binary))).to eq("plain\n")
    dir = @dir
    to_path = Object.new.tap { |o| o.define_singleton_method(:to_path) { dir + "/p\xFF".b } }
    Process.wait(POSIX::Spawn.spawn('echo', 'to_path', out: [to_path, 'w']))
    expect(contents(under("p\xFF".b))).to eq("to_path\n")
  end

  it 'resolves a relative redirect path of one encoding against a Dir.pwd of another' do
    make_dir(under("\u00e9"))
    Dir.chdir(under("\u00e9").force_encoding('UTF-8')) do
      Process.wait(POSIX::Spawn.spawn('echo', 'hi', out: latin1))
    end
    expect(names_in(under("\u00e9"))).to eq([latin1.b])
  end

  it 'runs a program by a path of non-UTF-8 bytes, with an argv0 of any encoding' do
    make_dir(under(binary))
    make_script(under(binary) + "/p\xFE".b, 'printf ran')
    expect(stdout_of(under(binary) + "/p\xFE".b)).to eq('ran')
    expect(child_argv(latin1).map(&:b)).to eq([latin1.b, *ChildReport.command(:argv).drop(1).map(&:b)])
    expect(stdout_of([under(binary) + "/p\xFE".b, binary], chdir: under(binary))).to eq('ran')
  end

  it 'looks the program up on PATH entries of non-UTF-8 bytes, from ENV and from the env hash, skipping a directory of its name' do
    [binary, latin1, cp1252].each { |name| make_dir(under(name)) }
    make_dir(under(binary) + "/tool\xFF".b) # not a program: the search goes on
    make_script(under(cp1252) + "/tool\xFF".b, 'printf cp1252')
    make_script(under(latin1) + "/tool\xFF".b, 'printf latin1')
    path = ENV['PATH']
    begin
      ENV['PATH'] = "#{under(binary)}:#{under(cp1252)}:".b + path.b
      expect(stdout_of("tool\xFF".b)).to eq('cp1252')
      env_path = "#{under(binary)}:#{under(latin1)}".b.force_encoding(latin1.encoding)
      expect(stdout_of({ 'PATH' => env_path }, "tool\xFF".b)).to eq('latin1')
      Dir.chdir(@dir) do
        ENV["PATH"] = binary + ":".b + cp1252.b + ":".b + path.b # relative entries, against Dir.pwd
        expect(stdout_of("tool\xFF".b)).to eq('cp1252')
      end
    ensure
      ENV['PATH'] = path
    end
  end

  it 'names the culprit in an error message with its bytes and encoding, as MRI does' do
    missing = "/nonexistent-posix-spawn/".b
    [[{ chdir: missing + binary }, binary], [{ out: missing + "f\xFEy".b }, "f\xFEy".b],
     [{ chdir: (missing + latin1.b).force_encoding(latin1.encoding) }, latin1]].each do |options, name|
      expect { POSIX::Spawn.spawn('true', **options) }.to raise_error(Errno::ENOENT) { |e|
        expect(e.message.b).to eq("No such file or directory - ".b + missing + name.b)
        expect(e.message.encoding).to eq(name.encoding)
      }
    end
    expect { POSIX::Spawn.spawn(missing + "p\xFE".b) }.to raise_error(Errno::ENOENT) { |e|
      expect(e.message).to eq("No such file or directory - ".b + missing + "p\xFE".b)
      expect(e.message.encoding).to eq(Encoding::BINARY)
    }
  end

  it 'refuses a path in an ASCII-incompatible encoding (UTF-16) as MRI does' do
    [{ chdir: @dir }, { out: "#{@dir}/x" }, { in: ["#{@dir}/x", 'r'] }].each do |options|
      key, value = options.first
      utf16 = value.is_a?(Array) ? [value[0].encode('UTF-16LE'), value[1]] : value.encode('UTF-16LE')
      message = "path name must be ASCII-compatible (UTF-16LE): #{(value.is_a?(Array) ? value[0] : value).dump}"
      expect { POSIX::Spawn.spawn('true', key => utf16) }.to raise_error(Encoding::CompatibilityError, message)
    end
    expect(names_in).to be_empty
  end
end

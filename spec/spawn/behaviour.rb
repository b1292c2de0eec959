# The behaviour of POSIX::Spawn.spawn, checked by what real children report. Included once per spawn route
# (spec/spawn/routes_spec.rb), so the fallbacks for a libc without addchdir_np / addclosefrom_np are held
# to exactly the same behaviour. Expected values are what MRI 3.x's Process.spawn gives for the same call.
RSpec.shared_examples 'spawn behaviour' do
  let(:tmp) { Dir.mktmpdir('posix-spawn-spec') }
  after { FileUtils.rm_rf(tmp) }

  describe 'command forms' do
    it 'runs cmd, args... directly: no shell, whatever the bytes' do
      args = ['$(id)', '`id`', 'a;b', "x\ny", %q('"), '*', '']
      expect(child_output('printf', '%s|', *args)).to eq(args.map { |a| "#{a}|" }.join)
    end

    it 'runs one string with shell meta characters through /bin/sh -c' do
      expect(child_output('echo a | tr a b; echo $((1+2))')).to eq("b\n3\n")
      # POSIX sets $0 to sh's argv[0] when -c has no command_name after it; $# counts the words after that.
      expect(child_output('printf "%s %s\n" "$0" "$#"')).to eq("sh 0\n")
    end

    it 'splits one string without meta characters on blanks and runs it without a shell' do
      report = ChildReport.command(:argv)
      expect(child_output(report.join(" \t ")).split("\0")).to eq(report)
    end

    it 'sends a string starting with a shell reserved word, or an assignment, to the shell' do
      expect(capture('exit 3')[1].exitstatus).to eq(3) # `exit` is a shell word: no ENOENT
      expect(child_output('A=1 env')).to include("A=1\n")
    end

    it 'uses [path, argv0] as the program and its argv[0]' do
      expect(child_argv('custom-name')).to eq(['custom-name', *ChildReport.command(:argv).drop(1)])
    end

    it 'looks the program up on PATH from the env hash when given there' do
      bin = File.join(tmp, 'bin')
      FileUtils.mkdir_p(bin)
      File.write(File.join(bin, 'only-here'), "#!/bin/sh\necho found-it\n")
      File.chmod(0o755, File.join(bin, 'only-here'))
      expect(child_output({ 'PATH' => "#{bin}:/usr/bin:/bin" }, 'only-here')).to eq("found-it\n")
      expect { POSIX::Spawn.spawn('only-here') }.to raise_error(Errno::ENOENT, 'No such file or directory - only-here')
    end

    it 'runs a script without #! under /bin/sh, as MRI does' do
      script = File.join(tmp, 'plain-script')
      File.write(script, "echo from-sh \"$1\"\n")
      File.chmod(0o755, script)
      expect(child_output(script, 'arg')).to eq("from-sh arg\n")
    end

    it 'runs a relative program path against Dir.pwd' do
      File.write(File.join(tmp, 'here.sh'), "#!/bin/sh\npwd\n")
      File.chmod(0o755, File.join(tmp, 'here.sh'))
      Dir.chdir(tmp) { expect(child_output('./here.sh')).to eq("#{File.realpath(tmp)}\n") }
    end
  end

  describe 'environment' do
    it "starts from Ruby's ENV, not the JVM's native environment" do
      ENV['POSIX_SPAWN_SPEC_VAR'] = 'from-ENV'
      expect(child_env['POSIX_SPAWN_SPEC_VAR']).to eq('from-ENV')
    ensure
      ENV.delete('POSIX_SPAWN_SPEC_VAR')
    end

    it 'sets, replaces and (with nil) unsets variables from the env hash' do
      ENV['POSIX_SPAWN_SPEC_GONE'] = 'x'
      env = child_env({ 'NEW' => 'v a l', 'HOME' => '/elsewhere', 'POSIX_SPAWN_SPEC_GONE' => nil })
      expect(env).to include('NEW' => 'v a l', 'HOME' => '/elsewhere')
      expect(env).not_to have_key('POSIX_SPAWN_SPEC_GONE')
      expect(ENV['POSIX_SPAWN_SPEC_GONE']).to eq('x')
    ensure
      ENV.delete('POSIX_SPAWN_SPEC_GONE')
    end

    it "keeps the rest of ENV, in ENV's order, a replaced variable in its place and a new one last (as MRI)" do
      ENV['POSIX_SPAWN_SPEC_A'] = 'a'
      ENV['POSIX_SPAWN_SPEC_B'] = 'b'
      # Bytes against bytes: ENV's Strings carry the locale's encoding, the child's report is binary.
      expected = ENV.to_a.map { |k, v| k == 'POSIX_SPAWN_SPEC_A' ? [k, 'x'] : [k, v] }.map { |kv| kv.map(&:b) } + [%w[POSIX_SPAWN_SPEC_NEW n]]
      expect(child_env({ 'POSIX_SPAWN_SPEC_A' => 'x', 'POSIX_SPAWN_SPEC_NEW' => 'n' }).to_a).to eq(expected)
    ensure
      ENV.delete('POSIX_SPAWN_SPEC_A')
      ENV.delete('POSIX_SPAWN_SPEC_B')
    end

    it 'starts from nothing with unsetenv_others: true' do
      expect(child_env({ 'ONLY' => '1' }, unsetenv_others: true)).to eq('ONLY' => '1')
    end

    it 'passes values byte for byte' do
      value = (1..255).map(&:chr).join.delete("\0").b
      expect(child_env({ 'BYTES' => value }, unsetenv_others: true)['BYTES'].b).to eq(value)
    end
  end

  describe ':chdir and the working directory' do
    it 'starts the child in :chdir (relative to Dir.pwd), without a shell' do
      expect(child_cwd(chdir: '/etc')).to eq(File.realpath('/etc')) # /private/etc on macOS
      Dir.chdir('/usr') { expect(child_cwd(chdir: 'lib')).to eq(File.realpath('/usr/lib')) }
    end

    it "starts the child in JRuby's Dir.pwd after Dir.chdir, though JRuby never changes the process's" do
      Dir.chdir(tmp) { expect(child_cwd).to eq(File.realpath(tmp)) }
    end

    it 'uses a directory name with shell meta characters literally' do
      odd = File.join(tmp, %q(a dir;$(touch pwned)'"))
      FileUtils.mkdir_p(odd)
      expect(child_cwd(chdir: odd)).to eq(File.realpath(odd))
      expect(File.exist?('pwned')).to be(false)
    end

    it 'raises in the parent, naming the directory, when it cannot be entered' do
      expect { POSIX::Spawn.spawn('true', chdir: '/nonexistent-dir') }
        .to raise_error(Errno::ENOENT, 'No such file or directory - /nonexistent-dir')
      expect { POSIX::Spawn.spawn('true', chdir: '/etc/passwd') }
        .to raise_error(Errno::ENOTDIR, 'Not a directory - /etc/passwd')
    end
  end

  describe 'descriptors' do
    it 'gives the child only 0, 1, 2 and its redirects by default' do
      expect(child_fds).to eq([0, 1, 2])
      File.open(File::NULL) do |f|
        expect(child_fds(7 => f)).to eq([0, 1, 2, 7])
      end
    end

    # A descriptor the JVM opened for itself, inheritable as the JVM's are: a FileInputStream's. Yields its number.
    def with_jvm_descriptor
      null_fds = -> { ProcessResources.descriptors_of(File::NULL) }
      before = null_fds.call
      stream = java.io.FileInputStream.new(File::NULL)
      fd = (null_fds.call - before).first
      yield fd
    ensure
      stream&.close
    end

    # ruby/spec core/process/spawn_spec.rb, "defaults :close_others to false": what the program set
    # close_on_exec = false reaches the child; in MRI nothing else is inheritable, so nothing else does.
    it 'by default, hands on a Ruby IO the program set close_on_exec = false, and no other inheritable descriptor' do
      reader, writer = IO.pipe
      writer.close_on_exec = false
      pid = POSIX::Spawn.spawn("echo inherited > /dev/fd/#{writer.fileno}") # dash takes one-digit fds only
      writer.close
      Process.wait(pid)
      expect(reader.read).to eq("inherited\n")
      with_jvm_descriptor do |jvm_fd|
        marked, unmarked = IO.pipe
        marked.close_on_exec = false
        expect(child_fds).to eq([0, 1, 2, marked.fileno].sort)
        expect(child_fds(close_others: false)).to include(marked.fileno, jvm_fd)
        expect(child_fds(close_others: true)).to eq([0, 1, 2])
      ensure
        [marked, unmarked].compact.each(&:close)
      end
    ensure
      reader&.close
    end

    it 'forgets an IO set back to close_on_exec = true, or closed (its number may be the JVM\'s next)' do
      reader, writer = IO.pipe
      [reader, writer].each { |io| io.close_on_exec = false }
      expect(child_fds).to include(reader.fileno, writer.fileno)
      reader.close_on_exec = true
      expect(child_fds).to include(writer.fileno)
      expect(child_fds).not_to include(reader.fileno)
      writer_fd = writer.fileno
      writer.close
      expect(child_fds).not_to include(writer_fd)
    ensure
      reader&.close
      writer&.close unless writer&.closed?
    end

    it 'hands on both descriptors of a duplex IO set close_on_exec = false, and a redirect may still take its number' do
      duplex = IO.popen(['cat'], 'r+')
      duplex.close_on_exec = false
      fds = child_fds
      expect(fds.size).to eq(5) # 0, 1, 2 and the two ends of cat's pipes
      File.open(File::NULL) do |null|
        taken = (fds - [0, 1, 2]).first
        expect(child_fd_file(taken, taken => null)).to eq(File.stat(File::NULL).then { |st| [st.dev, st.ino] })
      end
    ensure
      duplex&.close
    end

    it 'lets every inheritable descriptor through with close_others: false, the JVM\'s too' do
      with_jvm_descriptor do |jvm_fd|
        expect(child_fds).not_to include(jvm_fd)
        expect(child_fds(close_others: false)).to include(jvm_fd)
      end
    end
  end
end

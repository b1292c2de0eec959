require 'spec_helper'
require 'pathname'

# JRuby lets Dir.pwd be a directory no kernel knows: inside the class loader (uri:classloader:/...) or inside
# a jar (/app.jar!/dir), as in warbler apps. No child can start there; as JRuby's own Process.spawn does,
# the child then starts in the process's directory. An explicit :chdir still applies.
RSpec.describe 'spawning while Dir.pwd is a virtual JRuby directory' do
  process_dir = ProcessResources.working_directory
  jar = File.expand_path('../../lib/posix_spawn_jruby.jar', __dir__)

  { 'the class loader' => 'uri:classloader:/META-INF', 'a jar' => "#{jar}!/META-INF" }.each do |where, dir|
    context "inside #{where} (#{dir.sub(jar, 'posix_spawn_jruby.jar')})" do
      around do |example|
        saved = Dir.pwd
        Dir.chdir(dir)
        example.run
      ensure
        Dir.chdir(saved)
      end

      it 'spawn, system, `, popen4 and Child run the child in the process\'s directory' do
        expect(Dir.pwd).to eq(dir)
        reader, writer = IO.pipe
        Process.wait(POSIX::Spawn.spawn('pwd', out: writer))
        writer.close
        expect(reader.read).to eq("#{process_dir}\n")
        expect(POSIX::Spawn.system({ 'PROCESS_DIR' => process_dir }, 'test "$(pwd)" = "$PROCESS_DIR"')).to be(true)
        expect(POSIX::Spawn.`('pwd')).to eq("#{process_dir}\n")
        expect(POSIX::Spawn.popen4('pwd') { |_pid, _in, out, _err| expect(out.read).to eq("#{process_dir}\n") }).to be_success
        expect(POSIX::Spawn::Child.new('pwd').out).to eq("#{process_dir}\n")
      ensure
        reader&.close
      end

      it 'finds a relative program and redirect path from the process\'s directory, and applies an explicit :chdir' do
        Dir.mktmpdir do |tmp|
          script = File.join(tmp, 'script')
          File.write(script, "#!/bin/sh\necho ran\n")
          File.chmod(0o755, script)
          relative = ->(path) { Pathname(path).relative_path_from(Pathname(process_dir)).to_s }
          expect(POSIX::Spawn.system(relative.(script), out: relative.(File.join(tmp, 'out')))).to be(true)
          expect(File.read(File.join(tmp, 'out'))).to eq("ran\n")
        end
        expect(POSIX::Spawn::Child.new('pwd', chdir: '/tmp').out).to eq("/tmp\n")
      end
    end
  end
end

require 'spec_helper'

# The rest of the MRI posix-spawn gem's API, and how the pids work with Process.
RSpec.describe POSIX::Spawn do
  it 'returns a pid that Process.wait2, waitpid, detach and kill work with' do
    pid = POSIX::Spawn.spawn('sh', '-c', 'exit 7')
    expect(Process.wait2(pid)).to match([pid, an_object_having_attributes(exitstatus: 7)])

    pid = POSIX::Spawn.spawn('sleep', '30')
    OwnProcesses.kill(:TERM, pid)
    expect(Process.waitpid(pid)).to eq(pid)
    expect($?.termsig).to eq(Signal.list['TERM'])

    thread = Process.detach(POSIX::Spawn.spawn('true'))
    expect(thread.value).to be_success
  end

  it "lists every module function, with the file it is defined in, in the module's comment" do
    # the files loaded on first use define theirs then: loaded here, whichever examples ran before
    %w[handle pty].each { |file| require "posix/spawn/#{file}" }
    lib = File.expand_path('../../lib', __dir__)
    comment = File.read(File.join(lib, 'posix/spawn.rb'))[/(?:^  #.*\n)+(?=  module Spawn\n)/]
    listed = comment.scan(%r{^  #   (\S+) .* (posix/spawn\S*\.rb)$}).to_h
    defined = POSIX::Spawn.public_instance_methods(false).to_h do |name|
      [name.to_s, POSIX::Spawn.instance_method(name).source_location.first.delete_prefix("#{lib}/")]
    end
    expect(listed).to eq(defined)
  end

  it 'pspawn is spawn' do
    pid = POSIX::Spawn.pspawn('sh', '-c', 'exit 4')
    Process.wait(pid)
    expect($?.exitstatus).to eq(4)
  end

  it 'fspawn says why it cannot exist on the JVM' do
    expect { POSIX::Spawn.fspawn('true') }.to raise_error(NotImplementedError, /fork/)
  end

  describe '.system' do
    it 'returns true, false or nil and sets $?, like Kernel#system' do
      expect(POSIX::Spawn.system('true')).to be(true)
      expect(POSIX::Spawn.system('sh', '-c', 'exit 3')).to be(false)
      expect($?.exitstatus).to eq(3)
      expect(POSIX::Spawn.system('no-such-program-here')).to be_nil
    end

    it 'raises with exception: true, with Kernel#system\'s messages' do
      expect { POSIX::Spawn.system('no-such-program-here', exception: true) }
        .to raise_error(Errno::ENOENT, 'No such file or directory - no-such-program-here')
      expect { POSIX::Spawn.system('sh', '-c', 'exit 3', exception: true) }
        .to raise_error(RuntimeError, 'Command failed with exit 3: sh') # MRI names the program
    end

    it 'takes env and options' do
      Dir.mktmpdir do |dir|
        expect(POSIX::Spawn.system({ 'V' => 'x' }, 'echo $V > out', chdir: dir)).to be(true)
        expect(File.read(File.join(dir, 'out'))).to eq("x\n")
      end
    end

    it 'still raises for bad arguments' do
      expect { POSIX::Spawn.system('true', bogus: 1) }.to raise_error(ArgumentError, 'wrong exec option symbol: bogus')
    end
  end

  describe '.`' do
    it 'returns stdout of a shell command line and sets $?' do
      expect(POSIX::Spawn.`('echo hi; exit 2')).to eq("hi\n")
      expect($?.exitstatus).to eq(2)
    end

    it 'raises ENOENT for a missing program, as Kernel#` does' do
      expect { POSIX::Spawn.`('no-such-program-here') }.to raise_error(Errno::ENOENT)
    end
  end

  describe '.popen4' do
    it 'returns [pid, stdin, stdout, stderr] with real pipes' do
      pid, stdin, stdout, stderr = POSIX::Spawn.popen4('sh', '-c', 'cat; echo err >&2')
      stdin.write('through cat')
      stdin.close
      expect([stdout.read, stderr.read]).to eq(['through cat', "err\n"])
      Process.wait(pid)
      expect($?).to be_success
    ensure
      [stdin, stdout, stderr].each { |io| io&.close unless io&.closed? }
    end

    it 'yields, then closes and waits, returning the status' do
      status = POSIX::Spawn.popen4({ 'V' => 'env-ok' }, 'echo $V; exit 5') { |_pid, _i, o, _e| expect(o.read).to eq("env-ok\n") }
      expect(status.exitstatus).to eq(5)
    end

    it 'closes every pipe when the spawn fails' do
      expect { expect { POSIX::Spawn.popen4('no-such-program-here') }.to raise_error(Errno::ENOENT) }.not_to leak(:descriptors)
    end
  end

  describe 'as a mixin' do
    let(:wrapper) { Class.new { include POSIX::Spawn }.new }

    it 'gives instances spawn, system, ` and popen4' do
      Process.wait(wrapper.spawn('true'))
      expect($?).to be_success
      expect(wrapper.system('true')).to be(true)
      expect(wrapper.send(:`, 'echo mixed')).to eq("mixed\n")
      pid, *pipes = wrapper.popen4('true')
      pipes.each(&:close)
      Process.wait(pid)
      expect($?).to be_success
    end
  end
end

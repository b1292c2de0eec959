require 'spec_helper'
require 'tmpdir'

# The rlimit gate (ResourceLimitGate) holds a child between its creation and its exec while its limits are
# set: whatever the program, the limits and the JVM's fate, the spawn returns and no held child is left.
RSpec.describe 'the rlimit gate', if: File.directory?('/proc/self') do
  let(:lib) { File.expand_path('../../lib', __dir__) }

  it 'leaves nothing in the temporary directory of a JVM that used it, once that JVM has exited' do
    Dir.mktmpdir do |tmp|
      script = "require 'posix/spawn'; Process.wait(POSIX::Spawn.spawn('true', rlimit_core: 0)); p $?.success?"
      out = IO.popen({ 'TMPDIR' => tmp }, [*JRubyLauncher.command(["-Djava.io.tmpdir=#{tmp}"]), '-I', lib, '-e', script],
                     err: %i[child out], &:read)
      expect(out).to eq("true\n")
      expect(Dir.children(tmp)).to eq([])
    end
  end
end

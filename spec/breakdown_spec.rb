require 'spec_helper'
require 'open3'
require 'json'

# tools/spawn-breakdown, the warm breakdown, with tiny counts so that it keeps working (it reaches
# into the gem's Java classes, which a change of theirs can break without any other spec noticing: the
# LibC split once did). How fast things are is the tool's to report.
RSpec.describe 'tools/spawn-breakdown', ci_leg: 'jruby-9.4' do
  root = File.expand_path('..', __dir__)

  it 'prints every case and every phase of the warm breakdown' do
    command = [*JRubyLauncher.command, '--dev', '-I', File.join(root, 'lib'), File.join(root, 'tools', 'spawn-breakdown'), '-n', '4', '-r', '2', '-w', '4']
    out, err, status = Open3.capture3(*command)
    expect(status).to be_success, err
    expect(out).to match(/^  POSIX::Spawn\.spawn\("true"\) \+ Process\.wait +\d+\.\d/)
    expect(out).to match(/^  raw jnr-ffi posix_spawn\("\S+"\) \+ waitpid +\d+\.\d/)
    expect(out).to match(/^  C posix_spawnp\("true"\) \+ waitpid inside this JVM +\d+\.\d/)
    expect(out).to include('of which the PATH search', 'the posix_spawn call (raw jnr-ffi', 'the wait (Process.wait')
  end

  it "reports one cold JVM's first spawns and how the later ones split into the call and the wait" do
    command = [*JRubyLauncher.command, '--dev', '-I', File.join(root, 'lib'), File.join(root, 'tools', 'spawn-breakdown'), '--cold-child=gem']
    out, err, status = Open3.capture3(*command)
    expect(status).to be_success, err
    result = JSON.parse(out)
    expect(result['first_n_ms'].keys).to eq(%w[1 100 1000])
    expect(result['late_us'].keys).to contain_exactly('spawn_wall', 'spawn_cpu', 'wait_wall', 'wait_cpu')
    expect(result['late_us'].values).to all(be > 0)
  end
end

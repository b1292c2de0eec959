require 'spec_helper'
require 'json'
require 'open3'

# A wait for any child (Process.wait with no pid, -1, 0 or -pgid; waitall) never takes a Handle's child: it
# sees the program's other children as it would if the Handles' were not there (issue #47). Run in a JRuby
# of its own, whose children are all the script's: a wait for any child here would take other examples'.
RSpec.describe 'Process.wait for any child, beside live Handles' do
  script = <<~'RUBY'
    require 'posix/spawn'
    require 'json'
    def plain(*cmd, **opts) = POSIX::Spawn.spawn(*cmd, **opts)
    results = {}
    # A Handle's child that ends first, while the wait for any child is blocked: the wait gets the other.
    results['blocked wait'] = Array.new(10) do
      other = plain('sleep', '0.3')
      handle = POSIX::Spawn.start('sleep', '0.05')
      [Process.wait == other, handle.wait.success?]
    end.uniq
    # Ended Handles' children already waitable when the wait starts (and their reaper possibly behind).
    others = [1, 2, 3].to_h { |code| [plain('sh', '-c', "exit #{code}"), code] }
    handles = Array.new(20) { POSIX::Spawn.start('true') }
    sleep 0.3
    results['waitall'] = [Process.waitall.to_h { |pid, st| [pid, st.exitstatus] } == others, handles.map { |h| h.wait.exitstatus }.uniq]
    # Only Handles' children alive: as if this process had none.
    handle = POSIX::Spawn.start('sleep', '5')
    system('true')
    before = $?.pid
    results['only handles'] = [(Process.wait rescue $!.class.name), (Process.wait2(-1, Process::WNOHANG) rescue $!.class.name),
                               Process.waitall, $?&.pid == before, handle.alive?]
    # WNOHANG with another child running: nil, and $? nil, as MRI leaves them.
    other = plain('sleep', '0.3')
    results['nohang'] = [Process.wait(-1, Process::WNOHANG), $?]
    Process.wait(other)
    # A stopped Handle's child does not hold up a WUNTRACED wait for any child, which gets the other.
    Process.kill(:STOP, handle.pid)
    other = plain('sleep', '0.1')
    results['untraced'] = [Process.waitpid(-1, Process::WUNTRACED) == other, $?.exitstatus]
    Process.kill(:CONT, handle.pid)
    handle.terminate(grace: 1)
    results['stopped handle'] = [handle.wait.termsig == Signal.list['TERM']]
    # This process's group (0) and another group (-pgid), each with a Handle's child in it.
    other = plain('sleep', '0.2')
    handle = POSIX::Spawn.start('true')
    results['own group'] = [Process.wait(0) == other, handle.wait.success?]
    leader = plain('sleep', '0.3', pgroup: true)
    handle = POSIX::Spawn.start('sleep', '0.05', pgroup: leader)
    results['other group'] = [Process.wait(-leader) == leader, handle.wait.success?]
    puts JSON.generate(results)
  RUBY

  it 'takes the other children, and never a Handle\'s, whose status the Handle reports' do
    out, err, status = Open3.capture3(*JRubyLauncher.command, '-I', File.expand_path('../../lib', __dir__), '-e', script)
    expect(status).to be_success, err
    expect(JSON.parse(out.lines.last)).to eq(
      'blocked wait' => [[true, true]],
      'waitall' => [true, [0]],
      'only handles' => ['Errno::ECHILD', 'Errno::ECHILD', [], true, true],
      'nohang' => [nil, nil],
      'untraced' => [true, 0],
      'stopped handle' => [true],
      'own group' => [true, true],
      'other group' => [true, true]
    )
  end

  mri = '/usr/bin/ruby'
  it 'matches MRI once no Handle is alive: WNOHANG gives nil and $? nil, ECHILD leaves $?, waitall gives every child',
     skip: (File.executable?(mri) ? false : "no MRI at #{mri}") do
    snippet = <<~'RUBY'
      out = []
      system('true'); pid = spawn('sleep', '0.2')
      out << Process.wait(-1, Process::WNOHANG).inspect << $?.inspect
      out << Process.waitall.map(&:first).==([pid])
      system('true'); kept = $?.pid
      out << (Process.wait rescue $!.class.name) << ($?.pid == kept)
      puts out.join(' ')
    RUBY
    mri_out, err, status = Open3.capture3(mri, '-e', snippet)
    expect(status).to be_success, err
    jruby, err, status = Open3.capture3(*JRubyLauncher.command, '-I', File.expand_path('../../lib', __dir__), '-r', 'posix/spawn',
                                        '-e', "POSIX::Spawn.start('true').wait; h = POSIX::Spawn.start('sleep', '5'); h.terminate(grace: 1)\n#{snippet}")
    expect(status).to be_success, err
    expect(mri_out).to eq("nil nil true Errno::ECHILD true\n")
    expect(jruby.lines.last).to eq(mri_out)
  end
end

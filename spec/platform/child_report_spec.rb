require 'spec_helper'

# ChildReport's portable route (spec/support/child_report.c, what a run on macOS or FreeBSD uses) against its
# /proc route on this Linux machine: the same spawn, reported down both, must say the same.
RSpec.describe 'ChildReport' do
  let(:null) { File.open(File::NULL) }
  after { null.close }

  # { proc: what the block reports down /proc, portable: down the helper }
  def both(&report) = %i[proc portable].to_h { |route| [route, ChildReport.using(route, &report)] }

  it 'reports through the route chosen at load: the compiled helper on the portable one, cat on /proc' do
    expect(child_argv.first).to eq(ChildReport.route == :portable ? ChildReport.helper : 'cat')
  end

  describe 'its two routes, on Linux', if: File.directory?('/proc/self') do
    it 'agree on argv0, byte for byte, and each reports the rest of its own argv' do
      argv0 = "d\xE9 \n".b
      reports = both { [child_argv(argv0).map(&:b), ChildReport.command(:argv)] }
      reports.each_value { |argv, command| expect(argv).to eq([argv0, *command.drop(1)]) }
    end

    it 'agree on the environment, byte for byte, from ENV and from an env hash' do
      value = (1..255).map(&:chr).join.delete("\0").b
      reports = both { [child_env, child_env({ 'BYTES' => value }, unsetenv_others: true)] }
      expect(reports[:portable]).to eq(reports[:proc])
      expect(reports[:proc].last).to eq('BYTES' => value)
    end

    it 'agree on the working directory' do
      Dir.mktmpdir { |dir| expect(both { child_cwd(chdir: dir) }.values.uniq).to eq([File.realpath(dir)]) }
    end

    it 'agree on umask, the signal mask and the ignored signals, an ignored SIGINT among them' do
      ignoring = -> { child_output("trap '' INT; exec #{ChildReport.command(:status).join(' ')}") }
      reports = both { [child_status(umask: 0o027), ignoring.call.lines.grep(/\ASig(Blk|Ign):/)] }
      expect(reports.transform_values { |status, _| status.slice('Umask', 'SigBlk', 'SigIgn') }.values.uniq)
        .to eq([{ 'Umask' => '0027', 'SigBlk' => '0' * 16, 'SigIgn' => inherited_ignored }])
      with_int = format('%016x', inherited_ignored.hex | (1 << (Signal.list.fetch('INT') - 1)))
      expect(reports.transform_values(&:last).values.uniq).to eq([["SigBlk:\t#{'0' * 16}\n", "SigIgn:\t#{with_int}\n"]])
    end

    it 'agree on the open descriptors and what one refers to' do
      reports = both { [child_fds, child_fds(7 => null, err: :close), child_fd_file(7, 7 => null)] }
      expect(reports.values.uniq).to eq([[[0, 1, 2], [0, 1, 7], File.stat(File::NULL).then { |st| [st.dev, st.ino] }]])
    end

    it 'agree on the process group and session' do
      ours = ProcessResources.stat(Process.pid).values_at(:pgrp, :session)
      expect(both { child_ids }.values.uniq).to eq([ours])
      both { child_ids(pgroup: true) }.each_value { |pgid, sid| expect([pgid == ours.first, sid]).to eq([false, ours.last]) }
    end

    it 'agree on every resource limit the helper reports' do
      reports = both { child_limits(rlimit_nofile: [64, 128], rlimit_core: 0, rlimit_cpu: Process::RLIM_INFINITY) }
      expect(reports[:portable]).to eq(reports[:proc])
      expect(reports[:proc].values_at('NOFILE', 'CORE', 'CPU')).to eq([[64, 128], [0, 0], [Process::RLIM_INFINITY] * 2])
      expect(reports[:proc].keys).to eq(%w[CPU FSIZE DATA STACK CORE NOFILE AS])
    end

    it 'agree on what a plain spawn was given' do
      Dir.mktmpdir do |dir|
        reports = both do
          %i[environ fds].map do |report|
            file = File.join(dir, "#{ChildReport.route}-#{report}")
            Process.wait(POSIX::Spawn.spawn(*ChildReport.plain_command(report, file)))
            File.binread(file).then { |out| report == :fds ? ChildReport.fds(out) : out.split("\0") }
          end
        end
        expect(reports[:portable]).to eq(reports[:proc])
        expect(reports[:proc].last).to eq([0, 1, 2])
      end
    end
  end
end

require_relative '../spec_helper'
require_relative 'runner'

# The differential test at a fixed seed (`rake differential` runs thousands from a random one): every
# generated call, run by /usr/bin/ruby and by the gem, lets a user see what MRI's lets them see, but for
# the differences spec/differential/allowed.rb lists.
RSpec.describe 'Differential test against MRI' do
  seed = 28
  count = 300

  it "#{count} calls from seed #{seed} (a third also under ignored HUP/INT/QUIT) show what MRI's show" do
    skip "NOTICE: #{Differential::MRI} is absent: the differential test needs MRI to compare with" unless Differential::Runner.mri?
    skip 'NOTICE: no cc to build spec/differential/reporter.c' unless Differential::Runner.cc?

    dir = Dir.mktmpdir('posix-spawn-differential')
    runner = Differential::Runner.new(seed: seed, count: count, ignored: count / 3, dir: dir).run
    expect(runner.differences).to be_empty, lambda {
      "#{runner.differences.size} calls differ from MRI (again: bin/dev rake differential SEED=#{seed} N=#{count}; " \
        "workers took #{runner.timings.map { |batch, s| "#{batch} #{s.round} s" }.join(', ')}):\n\n" +
        Differential.summary(runner.differences)
    }
  ensure
    Differential.remove(dir) if dir
  end
end

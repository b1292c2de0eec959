require 'spec_helper'
require 'json'

# A terminal-driving client reads a child's timed writes with IO.select and readpartial, and expects them
# chunk by chunk: MRI's select returns as soon as the child writes, the first call included. Run in a new
# JRuby, where the first select and read of a master pay JRuby's and the extension's one-time costs.
RSpec.describe 'POSIX::Spawn::PtyMaster, read as a client reads it in a new process' do
  # Ten writes 0.1 s apart. MRI 3.1 (/usr/bin/ruby, PTY.spawn, the same loop) reads
  # ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]; before PtyMaster.prepare_reading this read
  # ["012", "3", ...] or ["0123", "4", ...]: the first select and readpartial took 250-490 ms.
  PROBE = <<~RUBY.freeze
    require 'posix/spawn'
    require 'json'
    reader, _writer, pid = POSIX::Spawn.pty_spawn('sh', '-c', 'for i in 0 1 2 3 4 5 6 7 8 9; do printf $i; sleep 0.1; done')
    chunks = []
    begin
      loop { IO.select([reader]); chunks << reader.readpartial(64) }
    rescue Errno::EIO
      nil # the slave hung up: the child has exited
    end
    Process.wait(pid)
    puts JSON.generate(chunks)
  RUBY

  it 'gives the first write alone, and the rest in several chunks, as MRI does' do
    lib = File.expand_path('../../lib', __dir__)
    out = IO.popen([*JRubyLauncher.command, '-I', lib, '-e', PROBE], &:read)
    expect($?).to be_success
    chunks = JSON.parse(out)
    expect(chunks.join).to eq('0123456789')
    # the first select returns within about one 0.1 s gap (the old code gave "0123"; a loaded JRuby 10, "01")
    expect(chunks.first.size).to be <= 2
    expect(chunks.size).to be >= 5
  end
end

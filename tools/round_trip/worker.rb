# tools/round-trip's worker, the same file on MRI and on JRuby (with or without the drop-in): it opens a
# coprocess of each kind once, then answers `run KIND N` on stdin with one line on stdout: the process CPU
# those N round trips took (all threads, ns) and each trip's wall time (ns).
require 'pty'

cpu_ns =
  if defined?(Process::CLOCK_PROCESS_CPUTIME_ID)
    -> { Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID, :nanosecond) }
  else # JRuby has no process CPU clock (and the JVM's counts in 10 ms ticks): libc's, through FFI
    require 'ffi'
    clock = Module.new do
      extend FFI::Library
      ffi_lib FFI::Library::LIBC
      attach_function :clock_gettime, %i[int pointer], :int
    end
    timespec = FFI::MemoryPointer.new(:long, 2)
    lambda do
      clock.clock_gettime(2, timespec) # CLOCK_PROCESS_CPUTIME_ID on Linux
      timespec.get(:long, 0) * 1_000_000_000 + timespec.get(:long, 8)
    end
  end
wall_ns = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond) }

# A terminal in raw mode without echo: the byte goes to cat and back, as a key to a program on a terminal.
pty_reader, pty_writer, pty_pid = PTY.spawn('sh', '-c', 'stty raw -echo && echo ready && exec cat')
ready = +''
ready << pty_reader.readpartial(64) until ready.include?('ready')
pipe = IO.popen('cat', 'r+')
[pipe, pty_writer].each { |io| io.sync = true } # as MRI's are: each write reaches the child

trips = {
  'pipe' => lambda do
    pipe.write("x\n")
    got = 0
    while got < 2
      IO.select([pipe])
      got += pipe.readpartial(64).bytesize
    end
  end,
  'pty' => lambda do
    pty_writer.write('x')
    IO.select([pty_reader])
    pty_reader.readpartial(64)
  end
}

$stdout.sync = true
while (line = $stdin.gets)
  _, kind, n = line.split
  trip = trips.fetch(kind)
  walls = Array.new(Integer(n))
  cpu = cpu_ns.call
  walls.size.times do |i|
    start = wall_ns.call
    trip.call
    walls[i] = wall_ns.call - start
  end
  puts "#{cpu_ns.call - cpu} #{walls.join(' ')}"
end
pipe.close
[pty_reader, pty_writer].uniq.each(&:close)
Process.wait(pty_pid)

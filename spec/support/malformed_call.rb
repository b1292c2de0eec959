# One malformed call of the bad-input matrix (spec/hardening/bad_input_spec.rb), written as Ruby source so
# that the same text runs under the gem (JRuby) and under MRI, the reference for exception classes and
# messages. Plain Ruby that needs no gem: run as a script, MRI evaluates rows with it (see the end).
module MalformedCall
  # What each API of the gem is checked against in MRI. popen4 and Child have no MRI twin: they pass their
  # arguments (plus three pipe redirects, less Child's own options) to spawn, so Process.spawn is their
  # reference. Child's own options (:input, :timeout, :max, :pgroup_kill, :streams) are the MRI posix-spawn gem's.
  # POSIX::Spawn.start's twin is Process.spawn too, Handle#signal's Process.kill (given a child of its own);
  # Handle#wait, #terminate and #communicate have none.
  MRI_TWIN = {
    spawn: ->(args) { Process.spawn(*args) },
    system: ->(args) { Kernel.system(*args) },
    backtick: ->(args) { Kernel.send(:`, *args) },
    popen4: ->(args) { Process.spawn(*args) },
    child: ->(args) { Process.spawn(*args) },
    start: ->(args) { Process.spawn(*args) },
    signal: lambda do |args|
      pid = Process.spawn('sleep', '30')
      begin
        Process.kill(*args, pid)
      ensure
        Process.kill(:KILL, pid)
        Process.wait(pid)
      end
      nil
    end
  }.freeze

  # Calls `method` of a fresh handle (on `sleep 30`, its three streams piped) with the arguments, a Hash
  # last as keywords, then ends the child and closes the pipes.
  def self.on_handle(method, args)
    handle = POSIX::Spawn.start('sleep', '30', in: :pipe, out: :pipe, err: :pipe)
    keywords = args.last.is_a?(Hash) ? args.pop : {}
    handle.public_send(method, *args, **keywords)
    nil
  ensure
    handle&.terminate(grace: 0) if handle&.alive?
    [handle&.stdin, handle&.stdout, handle&.stderr].compact.each { |io| io.close unless io.closed? }
  end

  # The gem's APIs, called the same way. popen4's pipes are closed and its child reaped by the caller.
  GEM = {
    spawn: ->(args) { POSIX::Spawn.spawn(*args) },
    system: ->(args) { POSIX::Spawn.system(*args) },
    backtick: ->(args) { POSIX::Spawn.send(:`, *args) },
    popen4: lambda do |args|
      pid, *pipes = POSIX::Spawn.popen4(*args)
      pipes.each(&:close)
      pid
    end,
    child: lambda do |args|
      POSIX::Spawn::Child.new(*args)
      nil
    end,
    start: lambda do |args|
      handle = POSIX::Spawn.start(*args)
      handle.terminate(grace: 0)
      [handle.stdin, handle.stdout, handle.stderr].compact.each(&:close)
      nil
    end,
    wait: ->(args) { on_handle(:wait, args) },
    signal: ->(args) { on_handle(:signal, args) },
    terminate: ->(args) { on_handle(:terminate, args) },
    communicate: ->(args) { on_handle(:communicate, args) },
    on_exit: ->(args) { on_handle(:on_exit, args) }
  }.freeze

  # One row of the matrix: API, arguments (Ruby source), MRI's exception class and message (nil: MRI
  # accepts the call; a Symbol: MRI cannot be asked, see the spec), the gem's where it differs on purpose
  # or where MRI cannot be asked (nil there: the gem accepts the call).
  Row = Struct.new(:api, :arguments, :mri_class, :mri_message, :gem_class, :gem_message) do
    def expected_class = gem_class || (mri_class if mri_observable?)
    def expected_message = gem_message || mri_message
    def mri_observable? = !mri_class.is_a?(Symbol)
    def to_s = "#{api}(#{arguments})"
  end

  # Objects the calls refer to by name, built fresh for each call so no row depends on another.
  module Fixtures
    def closed_io
      reader, writer = IO.pipe
      writer.close
      reader.close
      reader
    end

    # Answers fileno like an IO but is none: Process.spawn must not trust a duck-typed descriptor.
    def fileno_only
      Object.new.tap { |o| o.define_singleton_method(:fileno) { 1 } }
    end

    # An IO over a Java stream: JRuby gives it a made-up fileno that belongs to no real descriptor.
    def fake_fileno_io
      java.io.ByteArrayOutputStream.new.to_io
    end

    def to_str_with_nul
      Object.new.tap { |o| o.define_singleton_method(:to_str) { "tr\0ue" } }
    end

    # Answers to_io, with something that is no IO (or nil: "no IO here").
    def to_io_giving(value)
      Object.new.tap { |o| o.define_singleton_method(:to_io) { value } }
    end

    # Answers `conversion` (to_hash, to_str, to_path, to_ary, to_int, to_io) with `value`, of the wrong class.
    def converting(conversion, value = 5)
      Converting.new(conversion, value)
    end
  end

  # Its class name is what MRI's TypeError names: one class, so both Rubies word the message alike.
  class Converting
    def initialize(conversion, value)
      define_singleton_method(conversion) { value }
    end
  end

  # Evaluates the arguments of a row in a context holding the fixtures.
  def self.arguments(source)
    context = Object.new.extend(Fixtures)
    context.instance_eval("[#{source}]", __FILE__, __LINE__)
  end

  # The exception a call raises as [class name, message], or nil when it raised nothing (reaping the
  # child it may have started). The block makes the call with the evaluated arguments.
  def self.outcome(source)
    args = arguments(source)
    result = yield(args)
    Process.wait(result) if result.is_a?(Integer)
    nil
  rescue Exception => e # rubocop:disable Lint/RescueException -- NotImplementedError is a ScriptError
    [e.class.name, e.message]
  end
end

# Run as a script by MRI: reads [[api, source], ...] as JSON on stdin, prints their outcomes as JSON.
if $PROGRAM_NAME == __FILE__
  require 'json'
  rows = JSON.parse($stdin.read)
  puts JSON.generate(rows.map { |api, source| MalformedCall.outcome(source, &MalformedCall::MRI_TWIN.fetch(api.to_sym)) })
end

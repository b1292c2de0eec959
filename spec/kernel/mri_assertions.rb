# The part of MRI's test/unit assertions (tool/lib/core_assertions.rb, test-unit) and of the helpers of
# test/ruby/test_process.rb and test_io.rb that the ported MRI tests in spec/kernel/mri_*_spec.rb use,
# as RSpec expectations, so that each ported test keeps MRI's own body. Only what they need.
module MRIAssertions
  RUBY = '/usr/bin/ruby' # MRI's EnvUtil.rubybin: the children are MRI's ruby, as in MRI's run

  def assert(value, message = nil)
    expect(value).to be_truthy, message
  end

  def assert_equal(expected, actual, message = nil)
    expect(actual).to eq(expected), message
  end

  def assert_not_equal(unexpected, actual, message = nil)
    expect(actual).not_to eq(unexpected), message
  end

  def assert_same(expected, actual, message = nil)
    expect(actual).to be(expected), message
  end

  def assert_nil(value, message = nil)
    expect(value).to be_nil, message
  end

  def assert_not_nil(value, message = nil)
    expect(value).not_to be_nil, message
  end

  def assert_match(pattern, string, message = nil)
    expect(string).to match(pattern), message
  end

  def assert_not_match(pattern, string, message = nil)
    expect(string).not_to match(pattern), message
  end

  def assert_predicate(object, predicate, message = nil)
    expect(object.__send__(predicate)).to be_truthy, message || "#{object.inspect}.#{predicate} is not true"
  end

  def assert_not_predicate(object, predicate, message = nil)
    expect(object.__send__(predicate)).to be_falsey, message || "#{object.inspect}.#{predicate} is true"
  end

  def assert_operator(left, operator, right, message = nil)
    message = message.call if message.respond_to?(:call)
    expect(left.__send__(operator, right)).to be_truthy, message || "#{left.inspect} #{operator} #{right.inspect} is false"
  end

  def assert_include(collection, object, message = nil)
    expect(collection).to include(object), message
  end

  def assert_empty(object, message = nil)
    expect(object).to be_empty, message
  end

  def assert_instance_of(klass, object, message = nil)
    expect(object).to be_an_instance_of(klass), message
  end

  def assert_kind_of(klass, object, message = nil)
    expect(object).to be_a(klass), message
  end

  # MRI's assert_raise: the block raises one of `classes` (StandardError when none); returns the exception.
  def assert_raise(*classes, &block)
    message = classes.last.is_a?(String) ? classes.pop : nil
    classes = [StandardError] if classes.empty?
    begin
      block.call
    rescue RSpec::Expectations::ExpectationNotMetError
      raise
    rescue *classes => e
      return e
    rescue Exception => e # rubocop:disable Lint/RescueException
      raise RSpec::Expectations::ExpectationNotMetError, "#{message}\nexpected #{classes.join(' or ')}, got #{e.class}: #{e.message}"
    end
    raise RSpec::Expectations::ExpectationNotMetError, "#{message}\nexpected #{classes.join(' or ')}, nothing was raised"
  end

  def assert_raise_with_message(klass, expected, message = nil, &block)
    error = assert_raise(klass, *message, &block)
    expected.is_a?(Regexp) ? assert_match(expected, error.message, message) : assert_equal(expected, error.message, message)
    error
  end

  # The block's value (MRI's also checks that nothing is raised, which an exception shows anyway).
  def assert_nothing_raised(*_classes_and_message)
    yield
  end

  def assert_join_threads(threads)
    threads.map(&:value)
  end

  # MRI's assert_separately, for code that checks a child's state: `src` runs in MRI's ruby (with a one-line
  # assert_equal), started by this process's spawn with `options`; the child must succeed.
  def assert_separately(args, src, **options)
    prelude = 'def assert_equal(e, a, m = nil); e == a or abort("#{m}: expected #{e.inspect}, got #{a.inspect}"); end'
    output = IO.popen([RUBY, *args, '-e', "#{prelude}\n#{src}", err: [:child, :out], **options], &:read)
    expect($?).to be_success, output
  end

  # MRI's EnvUtil.invoke_ruby, the block form only: MRI's ruby with `args`, its stdin a pipe, its stdout and
  # stderr pipes when asked; yields the parent's ends and the pid.
  def invoke_ruby(args, _stdin_data = '', capture_stdout = false, capture_stderr = false)
    in_c, in_p = IO.pipe
    out_p, out_c = IO.pipe if capture_stdout
    err_p, err_c = IO.pipe if capture_stderr
    options = { in: in_c }
    options[:out] = out_c if capture_stdout
    options[:err] = err_c if capture_stderr
    pid = spawn({ 'LANG' => 'C', 'LC_ALL' => 'C' }, RUBY, *args, options)
    [in_c, out_c, err_c].each { |io| io&.close }
    yield in_p, out_p, err_p, pid
  ensure
    [in_c, in_p, out_c, out_p, err_c, err_p].each { |io| io.close if io && !io.closed? }
  end

  # test_process.rb's helpers.

  def write_file(filename, content)
    File.open(filename, 'w') { |f| f << content }
  end

  def with_tmpchdir
    Dir.mktmpdir do |d|
      d = File.realpath(d)
      Dir.chdir(d) { yield d }
    end
  end

  def run_in_child(str)
    write_file('test-script', str)
    Process.wait spawn(RUBY, 'test-script')
    $?
  end

  def with_pipe
    r, w = IO.pipe
    yield r, w
  ensure
    r.close unless r.closed?
    w.close unless w.closed?
  end

  def with_pipes(n)
    ary = []
    n.times { ary << IO.pipe }
    yield ary
  ensure
    ary.each do |r, w|
      r.close unless r.closed?
      w.close unless w.closed?
    end
  end

  def windows?
    false
  end
end

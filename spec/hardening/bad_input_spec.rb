require 'spec_helper'
require 'json'

# Every malformed call raises the exception MRI 3.1 raises for it (class and message), and nothing is
# left open afterwards. The MRI column was observed by running each call under /usr/bin/ruby (MRI 3.1.2)
# with MalformedCall::MRI_TWIN; the last example re-runs them there, so the column cannot go stale.
#
# The one malformed-call table of the suite. One row per call, one call per line:
#
#   [API, ARGUMENTS, MRI_CLASS, MRI_MESSAGE]                          the gem raises what MRI raises
#   [API, ARGUMENTS, MRI_CLASS, MRI_MESSAGE, GEM_CLASS, GEM_MESSAGE]  the gem differs on purpose (reason below)
#
# - API: :spawn, :system, :backtick, :popen4, :child, :start, or a Handle method (:wait, :signal, :terminate,
#   :communicate, :on_exit, called on a fresh handle of `sleep 30`) (MalformedCall::GEM and MRI_TWIN call it).
# - ARGUMENTS: the call's arguments as Ruby source, %q(...), evaluated fresh for each call with the
#   helpers of MalformedCall::Fixtures (closed_io, fileno_only, ...): the same text runs under MRI.
# - MRI_CLASS, MRI_MESSAGE: what MRI raises; nil, nil when MRI accepts the call (the gem must too). A
#   Symbol instead of a class when MRI cannot be asked (:jruby_only, :mri_hangs, :posix_spawn_gem for
#   Child's own options, :gem_only for the gem's own spawn options), with the gem's outcome then given
#   as GEM_CLASS, GEM_MESSAGE (none: the gem accepts the call).
# - GEM_MESSAGE may be a Regexp; every other message is matched exactly.
module MalformedCall
  CALLS = [
    [:spawn,    %q(),                                         ArgumentError, 'wrong number of arguments (given 0, expected 1+)'],
    [:spawn,    %q(nil),                                      TypeError,     'no implicit conversion of nil into String'],
    [:spawn,    %q(''),                                       Errno::ENOENT, 'No such file or directory - '],
    [:spawn,    %q('no-such-program-here'),                   Errno::ENOENT, 'No such file or directory - no-such-program-here'],
    [:spawn,    %q('no-such-program-here arg'),               Errno::ENOENT, 'No such file or directory - no-such-program-here'],
    [:spawn,    %q('/etc/passwd'),                            Errno::EACCES, 'Permission denied - /etc/passwd'],
    [:spawn,    %q('/etc'),                                   Errno::EACCES, 'Permission denied - /etc'],
    [:spawn,    %q([]),                                       ArgumentError, 'wrong first argument'],
    [:spawn,    %q(['true']),                                 ArgumentError, 'wrong first argument'],
    [:spawn,    %q(['true', 'x', 'y']),                       ArgumentError, 'wrong first argument'],
    [:spawn,    %q(['true', nil]),                            TypeError,     'no implicit conversion of nil into String'],
    [:spawn,    %q(:echo),                                    TypeError,     'no implicit conversion of Symbol into String'],
    [:spawn,    %q('echo', 1),                                TypeError,     'no implicit conversion of Integer into String'],
    [:spawn,    %q('echo', nil),                              TypeError,     'no implicit conversion of nil into String'],
    [:spawn,    %q('echo', :sym),                             TypeError,     'no implicit conversion of Symbol into String'],
    [:spawn,    %q("ec\0ho"),                                 ArgumentError, 'string contains null byte'],
    [:spawn,    %q('echo', "a\0b"),                           ArgumentError, 'string contains null byte'],
    [:spawn,    %q(["tr\0ue", 'x']),                          ArgumentError, 'string contains null byte'],
    [:spawn,    %q(to_str_with_nul),                          ArgumentError, 'string contains null byte'],
    [:spawn,    %q({"A\0" => '1'}, 'true'),                   ArgumentError, 'string contains null byte'],
    [:spawn,    %q({'A' => "1\0"}, 'true'),                   ArgumentError, 'string contains null byte'],
    [:spawn,    %q({'A=B' => '1'}, 'true'),                   ArgumentError, 'environment name contains a equal : A=B'],
    [:spawn,    %q({'=' => '1'}, 'true'),                     ArgumentError, 'environment name contains a equal : ='],
    [:spawn,    %q({1 => '1'}, 'true'),                       TypeError,     'no implicit conversion of Integer into String'],
    [:spawn,    %q({'A' => 1}, 'true'),                       TypeError,     'no implicit conversion of Integer into String'],
    [:spawn,    %q({'A' => 'x'}, {'B' => 'y'}),               ArgumentError, 'wrong number of arguments (given 0, expected 1+)'],
    [:spawn,    %q('true', bogus: 1),                         ArgumentError, 'wrong exec option symbol: bogus'],
    [:spawn,    %q('true', new_pgroup: true),                 ArgumentError, 'wrong exec option symbol: new_pgroup'],
    [:spawn,    %q('true', 'chdir' => '/'),                   ArgumentError, 'wrong exec option'],
    [:spawn,    %q('true', exception: true),                  ArgumentError, 'exception option is not allowed'],
    [:spawn,    %q('true', chdir: 1),                         TypeError,     'no implicit conversion of Integer into String'],
    [:spawn,    %q('true', chdir: nil),                       TypeError,     'no implicit conversion of nil into String'],
    [:spawn,    %q('true', chdir: "/tmp\0"),                  ArgumentError, 'path name contains null byte'],
    [:spawn,    %q('true', umask: 'x'),                       TypeError,     'no implicit conversion of String into Integer'],
    [:spawn,    %q('true', umask: nil),                       TypeError,     'no implicit conversion from nil to integer'],
    [:spawn,    %q('true', umask: 2**64),                     RangeError,    "bignum too big to convert into `unsigned long'"],
    [:spawn,    %q('true', umask: -1),                        nil,           nil],
    [:spawn,    %q('true', umask: 2**32 - 1),                 nil,           nil],
    [:spawn,    %q('true', umask: -2**31),                    nil,           nil],
    [:spawn,    %q('true', umask: 2**32),                     RangeError,    "integer 4294967296 too big to convert to `unsigned int'"],
    [:spawn,    %q('true', umask: 2**63),                     RangeError,    "integer 9223372036854775808 too big to convert to `unsigned int'"],
    [:spawn,    %q('true', umask: 2.0**40),                   RangeError,    "integer 1099511627776 too big to convert to `unsigned int'"],
    [:spawn,    %q('true', umask: -2**31 - 1),                RangeError,    "integer -2147483649 too small to convert to `unsigned int'"],
    [:spawn,    %q('true', umask: -2**63 - 1),                RangeError,    'bignum out of range of unsigned long'],
    [:spawn,    %q('true', pgroup: 'x'),                      TypeError,     'no implicit conversion of String into Integer'],
    [:spawn,    %q('true', pgroup: -1),                       ArgumentError, 'negative process group ID : -1'],
    [:spawn,    %q('true', pgroup: 2**31),                    RangeError,    "integer 2147483648 too big to convert to `int'"],
    [:spawn,    %q('true', pgroup: 2**40),                    RangeError,    "integer 1099511627776 too big to convert to `int'"],
    [:spawn,    %q('true', pgroup: -2**40),                   RangeError,    "integer -1099511627776 too small to convert to `int'"],
    [:spawn,    %q('true', pgroup: 2.0**40),                  RangeError,    "integer 1099511627776 too big to convert to `int'"],
    [:spawn,    %q('true', pgroup: 2**64),                    RangeError,    "bignum too big to convert into `long'"],
    [:spawn,    %q('true', pgroup: 2**31 - 1),                Errno::EPERM,  'Operation not permitted - setpgid'],
    [:system,   %q('true', pgroup: 2**31 - 1),                nil,           nil],
    [:spawn,    %q('true', close_others: 1),                  ArgumentError, 'expected true or false as close_others: 1'],
    [:spawn,    %q('true', unsetenv_others: 1),               ArgumentError, 'expected true or false as unsetenv_others: 1'],
    [:spawn,    %q('true', setsid: 1),                        :gem_only,     nil,                                         ArgumentError, 'expected true or false as setsid: 1'],
    [:spawn,    %q('true', setsid: true, pgroup: true),       :gem_only,     nil,                                         ArgumentError, 'setsid and pgroup options are exclusive: a new session leads a new process group'],
    [:spawn,    %q('true', uid: 0),                           nil,           nil,                                         NotImplementedError, "uid option is not supported by posix-spawn-jruby: posix_spawn(3) cannot change the child's credentials"],
    [:spawn,    %q('true', gid: 0),                           nil,           nil,                                         NotImplementedError, "gid option is not supported by posix-spawn-jruby: posix_spawn(3) cannot change the child's credentials"],
    [:spawn,    %q('true', in: :bogus),                       ArgumentError, 'wrong exec redirect symbol: bogus'],
    [:spawn,    %q('true', out: 1.5),                         ArgumentError, 'wrong exec redirect action'],
    [:spawn,    %q('true', out: nil),                         ArgumentError, 'wrong exec redirect action'],
    [:spawn,    %q('true', 1.5 => :out),                      ArgumentError, 'wrong exec option'],
    [:spawn,    %q('true', -1 => :out),                       ArgumentError, 'negative file descriptor'],
    [:spawn,    %q('true', out: -1),                          nil,           nil,                                         ArgumentError, 'negative file descriptor'],
    [:spawn,    %q('true', 2**40 => :out),                    RangeError,    "integer 1099511627776 too big to convert to `int'"],
    [:spawn,    %q('true', out: 2**40),                       RangeError,    "integer 1099511627776 too big to convert to `int'"],
    [:spawn,    %q('true', -2**31 - 1 => :out),               RangeError,    "integer -2147483649 too small to convert to `int'"],
    [:spawn,    %q('true', out: -2**31 - 1),                  RangeError,    "integer -2147483649 too small to convert to `int'"],
    [:spawn,    %q('true', out: [:child, 2**31]),             RangeError,    "integer 2147483648 too big to convert to `int'"],
    [:spawn,    %q('true', 999 => :close),                    Errno::EBADF,  'Bad file descriptor - close'],
    [:spawn,    %q('true', [999] => :close),                  Errno::EBADF,  'Bad file descriptor - close'],
    [:spawn,    %q('true', out: 999),                         Errno::EBADF,  'Bad file descriptor - dup2'],
    [:system,   %q('true', 999 => :close),                    nil,           nil],
    [:spawn,    %q('true', out: to_io_giving(1)),             TypeError,     "can't convert Object to IO (Object#to_io gives Integer)"],
    [:spawn,    %q('true', out: to_io_giving('x')),           TypeError,     "can't convert Object to IO (Object#to_io gives String)"],
    [:spawn,    %q('true', out: to_io_giving(nil)),           ArgumentError, 'wrong exec redirect action'],
    [:spawn,    %q('true', out: [:child, to_io_giving(1)]),   TypeError,     "can't convert Object to IO (Object#to_io gives Integer)"],
    [:spawn,    %q('true', out: [:child, to_io_giving(nil)]), ArgumentError, 'wrong exec redirect'],
    [:spawn,    %q('true', [to_io_giving(1)] => :out),        TypeError,     "can't convert Object to IO (Object#to_io gives Integer)"],
    [:spawn,    %q('true', to_io_giving(1) => :out),          ArgumentError, 'wrong exec option'],
    [:spawn,    %q('true', 2**70 => :out),                    ArgumentError, 'wrong exec option'],
    [:spawn,    %q('true', out: 2**70),                       ArgumentError, 'wrong exec redirect action'],
    [:spawn,    %q('true', out: closed_io),                   IOError,       'closed stream'],
    [:spawn,    %q('true', closed_io => :out),                IOError,       'closed stream'],
    [:spawn,    %q('true', out: [:child, closed_io]),         IOError,       'closed stream'],
    [:spawn,    %q('true', out: fileno_only),                 ArgumentError, 'wrong exec redirect action'],
    [:spawn,    %q('true', out: Object.new),                  ArgumentError, 'wrong exec redirect action'],
    [:spawn,    %q('true', fileno_only => :out),              ArgumentError, 'wrong exec option'],
    [:spawn,    %q('true', out: fake_fileno_io),              :jruby_only,   nil,                                         ArgumentError, /\AIO #<IO:fd \d+> has no operating-system file descriptor \(fileno \d+ is JRuby's own number\), so it cannot be redirected\z/],
    [:spawn,    %q('true', out: ['/dev/null', 'q']),          ArgumentError, 'invalid access mode q'],
    [:spawn,    %q('true', out: ['/dev/null', 'rw+x']),       ArgumentError, 'invalid access mode rw+x'],
    [:spawn,    %q('true', out: ['/dev/null', :w]),           TypeError,     'no implicit conversion of Symbol into Integer'],
    [:spawn,    %q('true', out: ['/dev/null', 'w', 'x']),     TypeError,     'no implicit conversion of String into Integer'],
    [:spawn,    %q('true', out: ['/dev/null', 'w', 2**70]),   RangeError,    "bignum too big to convert into `unsigned long'"],
    [:spawn,    %q('true', out: ['/dev/null', 'w', 2**32]),   RangeError,    "integer 4294967296 too big to convert to `unsigned int'"],
    [:spawn,    %q('true', out: ['/dev/null', 2**31]),        RangeError,    "integer 2147483648 too big to convert to `int'"],
    [:spawn,    %q('true', out: ['/dev/null', 2**63]),        RangeError,    "bignum too big to convert into `long'"],
    [:spawn,    %q('true', out: ['/dev/null', 'w', -1]),      nil,           nil],
    [:spawn,    %q('true', out: []),                          TypeError,     'no implicit conversion of nil into String'],
    [:spawn,    %q('true', out: [nil]),                       TypeError,     'no implicit conversion of nil into String'],
    [:spawn,    %q('true', out: "/dev/null\0"),               ArgumentError, 'path name contains null byte'],
    [:spawn,    %q('true', out: [:child]),                    TypeError,     'no implicit conversion of Symbol into String'],
    [:spawn,    %q('true', out: [:child, 9]),                 ArgumentError, 'child fd 9 is not redirected'],
    [:spawn,    %q('true', out: [:child, :bogus]),            ArgumentError, 'wrong exec redirect'],
    [:spawn,    %q('true', out: [:child, :out, 1]),           TypeError,     'no implicit conversion of Symbol into String'],
    [:spawn,    %q('true', [1, 1] => '/dev/null'),            ArgumentError, 'fd 1 specified twice'],
    [:spawn,    %q('true', out: :out, 1 => :err),             ArgumentError, 'fd 1 specified twice'],
    [:spawn,    %q('true', [] => '/dev/null'),                nil,           nil],
    [:spawn,    %q('true', rlimit_bogus: 1),                  ArgumentError, 'wrong exec option symbol: rlimit_bogus'],
    [:spawn,    %q('true', rlimit_core: 'x'),                 TypeError,     'no implicit conversion of String into Integer'],
    [:spawn,    %q('true', rlimit_core: nil),                 TypeError,     'no implicit conversion of nil into Integer'],
    [:spawn,    %q('true', rlimit_core: []),                  ArgumentError, 'wrong exec rlimit option'],
    [:spawn,    %q('true', rlimit_core: [1, 2, 3]),           ArgumentError, 'wrong exec rlimit option'],
    [:spawn,    %q('true', rlimit_core: :INFINITY),           TypeError,     'no implicit conversion of Symbol into Integer'],
    [:spawn,    %q('true', rlimit_core: 2**65),               :mri_hangs,    nil,                                         RangeError, "bignum too big to convert into `unsigned long'"],
    [:spawn,    %q('true', rlimit_core: [1, 2**64]),          :mri_hangs,    nil,                                         RangeError, "bignum too big to convert into `unsigned long'"],
    [:spawn,    %q('true', rlimit_core: -2**63 - 1),          :mri_hangs,    nil,                                         RangeError, 'bignum out of range of unsigned long'],
    [:system,   %q(),                                         ArgumentError, 'wrong number of arguments (given 0, expected 1+)'],
    [:system,   %q(nil),                                      TypeError,     'no implicit conversion of nil into String'],
    [:system,   %q([]),                                       ArgumentError, 'wrong first argument'],
    [:system,   %q("tr\0ue"),                                 ArgumentError, 'string contains null byte'],
    [:system,   %q('true', exception: 1),                     ArgumentError, 'expected true or false as exception: 1'],
    [:system,   %q('true', bogus: 1),                         ArgumentError, 'wrong exec option symbol: bogus'],
    [:system,   %q('true', chdir: 1),                         TypeError,     'no implicit conversion of Integer into String'],
    [:system,   %q('true', out: closed_io),                   IOError,       'closed stream'],
    [:system,   %q({'A=B' => '1'}, 'true'),                   ArgumentError, 'environment name contains a equal : A=B'],
    [:system,   %q('true', umask: 'x'),                       TypeError,     'no implicit conversion of String into Integer'],
    [:system,   %q('true', out: ['/dev/null', 'q']),          ArgumentError, 'invalid access mode q'],
    [:backtick, %q(),                                         ArgumentError, 'wrong number of arguments (given 0, expected 1)'],
    [:backtick, %q('echo', 'x'),                              ArgumentError, 'wrong number of arguments (given 2, expected 1)'],
    [:backtick, %q(nil),                                      TypeError,     'no implicit conversion of nil into String'],
    [:backtick, %q(1),                                        TypeError,     'no implicit conversion of Integer into String'],
    [:backtick, %q(['echo']),                                 TypeError,     'no implicit conversion of Array into String'],
    [:backtick, %q({}),                                       TypeError,     'no implicit conversion of Hash into String'],
    [:backtick, %q("echo\0"),                                 ArgumentError, 'string contains null byte'],
    [:backtick, %q(to_str_with_nul),                          ArgumentError, 'string contains null byte'],
    [:popen4,   %q(),                                         ArgumentError, 'wrong number of arguments (given 0, expected 1+)'],
    [:popen4,   %q(nil),                                      TypeError,     'no implicit conversion of nil into String'],
    [:popen4,   %q([]),                                       ArgumentError, 'wrong first argument'],
    [:popen4,   %q("tr\0ue"),                                 ArgumentError, 'string contains null byte'],
    [:popen4,   %q({'A=B' => '1'}, 'true'),                   ArgumentError, 'environment name contains a equal : A=B'],
    [:popen4,   %q('true', bogus: 1),                         ArgumentError, 'wrong exec option symbol: bogus'],
    [:popen4,   %q('true', chdir: 1),                         TypeError,     'no implicit conversion of Integer into String'],
    [:popen4,   %q('true', 3 => ['/dev/null', 'q']),          ArgumentError, 'invalid access mode q'],
    [:popen4,   %q('true', 3 => closed_io),                   IOError,       'closed stream'],
    [:popen4,   %q('true', umask: nil),                       TypeError,     'no implicit conversion from nil to integer'],
    [:child,    %q(),                                         ArgumentError, 'wrong number of arguments (given 0, expected 1+)'],
    [:child,    %q(nil),                                      TypeError,     'no implicit conversion of nil into String'],
    [:child,    %q(''),                                       Errno::ENOENT, 'No such file or directory - '],
    [:child,    %q([]),                                       ArgumentError, 'wrong first argument'],
    [:child,    %q('true', bogus: 1),                         ArgumentError, 'wrong exec option symbol: bogus'],
    [:child,    %q('true', chdir: 1),                         TypeError,     'no implicit conversion of Integer into String'],
    [:child,    %q('true', timeout: '1'),                     :posix_spawn_gem, nil,                                      TypeError, 'timeout option must be a number of seconds, not String'],
    [:child,    %q('true', timeout: :never),                  :posix_spawn_gem, nil,                                      TypeError, 'timeout option must be a number of seconds, not Symbol'],
    [:child,    %q('true', timeout: 1i),                      :posix_spawn_gem, nil,                                      TypeError, 'timeout option must be a number of seconds, not Complex'],
    [:child,    %q('true', timeout: Float::NAN),              :posix_spawn_gem, nil,                                      ArgumentError, 'timeout option must be a number of seconds, not NaN'],
    [:child,    %q('true', timeout: -1),                      :posix_spawn_gem, nil],
    [:child,    %q('true', max: '1000'),                      :posix_spawn_gem, nil,                                      TypeError, 'max option must be a number of bytes, not String'],
    [:child,    %q('true', max: [1000]),                      :posix_spawn_gem, nil,                                      TypeError, 'max option must be a number of bytes, not Array'],
    [:child,    %q('true', max: Float::NAN),                  :posix_spawn_gem, nil,                                      ArgumentError, 'max option must be a number of bytes, not NaN'],
    [:child,    %q('true', max: -1),                          :posix_spawn_gem, nil],
    [:child,    %q('true', max: 0.5),                         :posix_spawn_gem, nil],
    [:child,    %q('cat', input: 1),                          :posix_spawn_gem, nil,                                      TypeError, 'input option must be a String, not Integer'],
    [:child,    %q('cat', input: :data),                      :posix_spawn_gem, nil,                                      TypeError, 'input option must be a String, not Symbol'],
    [:child,    %q('cat', input: closed_io),                  :posix_spawn_gem, nil,                                      TypeError, 'input option must be a String, not IO'],
    [:child,    %q('cat', input: ['x']),                      :posix_spawn_gem, nil,                                      TypeError, 'input option must be a String, not Array'],
    [:child,    %q('true', pgroup_kill: 1),                   :posix_spawn_gem, nil,                                      ArgumentError, 'expected true or false as pgroup_kill: 1'],
    [:child,    %q('true', pgroup_kill: 'yes'),               :posix_spawn_gem, nil,                                      ArgumentError, 'expected true or false as pgroup_kill: yes'],
    [:child,    %q('true', pgroup_kill: nil),                 :posix_spawn_gem, nil],
    [:child,    %q('true', streams: {}),                      :posix_spawn_gem, nil],
    [:child,    %q('true', streams: { stdout: nil }),         :posix_spawn_gem, nil],
    [:child,    %q('true', streams: proc {}),                 :posix_spawn_gem, nil,                                      TypeError, 'streams option must be a Hash of :stdout and :stderr to callables, not Proc'],
    [:child,    %q('true', streams: { stdin: proc {} }),      :posix_spawn_gem, nil,                                      ArgumentError, 'streams option takes :stdout and :stderr, not :stdin'],
    [:child,    %q('true', streams: { 'stdout' => proc {} }), :posix_spawn_gem, nil,                                      ArgumentError, 'streams option takes :stdout and :stderr, not "stdout"'],
    [:child,    %q('true', streams: { stderr: 'log' }),       :posix_spawn_gem, nil,                                      TypeError, "streams option's :stderr must respond to call, not String"],
    [:start,    %q(),                                         ArgumentError, 'wrong number of arguments (given 0, expected 1+)'],
    [:start,    %q([]),                                       ArgumentError, 'wrong first argument'],
    [:start,    %q('no-such-program-here'),                   Errno::ENOENT, 'No such file or directory - no-such-program-here'],
    [:start,    %q('true', bogus: 1),                         ArgumentError, 'wrong exec option symbol: bogus'],
    [:start,    %q('true', out: :pipes),                      ArgumentError, 'wrong exec redirect symbol: pipes'],
    [:start,    %q('true', in: :pipe, out: :pipe, err: :pipe), :gem_only,    nil],
    [:start,    %q('true', kill_on_exit: 1),                  :gem_only,     nil,                                         ArgumentError, 'expected true or false as kill_on_exit: 1'],
    [:start,    %q('true', kill_on_exit: 'yes'),              :gem_only,     nil,                                         ArgumentError, 'expected true or false as kill_on_exit: yes'],
    [:start,    %q('true', setsid: 1),                        :gem_only,     nil,                                         ArgumentError, 'expected true or false as setsid: 1'],
    [:wait,     %q(timeout: '1'),                             :gem_only,     nil,                                         TypeError, 'timeout option must be a number of seconds, not String'],
    [:wait,     %q(timeout: :soon),                           :gem_only,     nil,                                         TypeError, 'timeout option must be a number of seconds, not Symbol'],
    [:wait,     %q(timeout: 1i),                              :gem_only,     nil,                                         TypeError, 'timeout option must be a number of seconds, not Complex'],
    [:wait,     %q(timeout: Float::NAN),                      :gem_only,     nil,                                         ArgumentError, 'timeout option must be a number of seconds, not NaN'],
    [:wait,     %q(timeout: -1),                              :gem_only,     nil],
    [:wait,     %q(timeout: 0.01),                            :gem_only,     nil],
    [:wait,     %q(1),                                        :gem_only,     nil,                                         ArgumentError, 'wrong number of arguments (given 1, expected 0)'],
    [:wait,     %q(bogus: 1),                                 :gem_only,     nil,                                         ArgumentError, 'unknown keyword: :bogus'],
    [:signal,   %q(:NOSUCH),                                  ArgumentError, "unsupported signal `SIGNOSUCH'"],
    [:signal,   %q('SIGNOSUCH'),                              ArgumentError, "unsupported signal `SIGNOSUCH'"],
    [:signal,   %q('term'),                                   ArgumentError, "unsupported signal `SIGterm'"],
    [:signal,   %q(1.5),                                      ArgumentError, 'bad signal type Float'],
    [:signal,   %q(nil),                                      ArgumentError, 'bad signal type NilClass'],
    [:signal,   %q(1000),                                     Errno::EINVAL, 'Invalid argument',                          Errno::EINVAL, /\AInvalid argument - signal 1000 to pid \d+\z/],
    [:signal,   %q(-9),                                       Errno::ESRCH,  'No such process',                           ArgumentError, 'invalid signal number (-9)'],
    [:signal,   %q(0),                                        nil,           nil],
    [:signal,   %q(:TERM),                                    nil,           nil],
    [:signal,   %q('SIGHUP'),                                 nil,           nil],
    [:terminate, %q(grace: nil),                              :gem_only,     nil,                                         TypeError, 'grace option must be a number of seconds, not nil'],
    [:terminate, %q(grace: 'soon'),                           :gem_only,     nil,                                         TypeError, 'grace option must be a number of seconds, not String'],
    [:terminate, %q(grace: Float::NAN),                       :gem_only,     nil,                                         ArgumentError, 'grace option must be a number of seconds, not NaN'],
    [:terminate, %q(grace: -1),                               :gem_only,     nil],
    [:terminate, %q(:KILL),                                   :gem_only,     nil,                                         ArgumentError, 'wrong number of arguments (given 1, expected 0)'],
    [:communicate, %q(1),                                     :gem_only,     nil,                                         TypeError, 'input must be a String, not Integer'],
    [:communicate, %q(:data),                                 :gem_only,     nil,                                         TypeError, 'input must be a String, not Symbol'],
    [:communicate, %q(timeout: '1'),                          :gem_only,     nil,                                         TypeError, 'timeout option must be a number of seconds, not String'],
    [:communicate, %q(timeout: Float::NAN),                   :gem_only,     nil,                                         ArgumentError, 'timeout option must be a number of seconds, not NaN'],
    [:communicate, %q(wait_delay: :x),                        :gem_only,     nil,                                         TypeError, 'wait_delay option must be a number of seconds, not Symbol'],
    [:communicate, %q(wait_delay: Float::NAN),                :gem_only,     nil,                                         ArgumentError, 'wait_delay option must be a number of seconds, not NaN'],
    [:communicate, %q(bogus: 1),                              :gem_only,     nil,                                         ArgumentError, 'unknown keyword: :bogus'],
    [:on_exit,  %q(),                                         :gem_only,     nil,                                         ArgumentError, 'on_exit needs a block'],
    [:spawn,    %q('true', detach: 'yes'),                    :gem_only,     nil,                                         ArgumentError, 'expected true or false as detach: yes'],
    # Implicit conversions giving the wrong class, at every place a call asks for one (MRI: rb_check_*_type, rb_convert_type)
    [:spawn,     %q('true', converting(:to_hash)),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:spawn,     %q(converting(:to_hash), 'true'),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:spawn,     %q('true', converting(:to_hash, nil)),                       TypeError, "no implicit conversion of MalformedCall::Converting into String"],
    [:spawn,     %q(converting(:to_str)),                                     TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:spawn,     %q('echo', converting(:to_str)),                             TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:spawn,     %q([converting(:to_str), 'x']),                              TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:spawn,     %q(converting(:to_ary)),                                     TypeError, "can't convert MalformedCall::Converting to Array (MalformedCall::Converting#to_ary gives Integer)"],
    [:spawn,     %q('true', chdir: converting(:to_str)),                      TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:spawn,     %q('true', chdir: converting(:to_path)),                     TypeError, "no implicit conversion of Integer into String"],
    [:spawn,     %q('true', out: [converting(:to_path), 'w']),                TypeError, "no implicit conversion of Integer into String"],
    [:spawn,     %q('true', out: ['/dev/null', converting(:to_str)]),         TypeError, "no implicit conversion of MalformedCall::Converting into Integer"],
    [:spawn,     %q('true', out: ['/dev/null', 'w', converting(:to_int, 'x')]), TypeError, "can't convert MalformedCall::Converting to Integer (MalformedCall::Converting#to_int gives String)"],
    [:spawn,     %q('true', umask: converting(:to_int, 'x')),                 TypeError, "can't convert MalformedCall::Converting to Integer (MalformedCall::Converting#to_int gives String)"],
    [:spawn,     %q('true', pgroup: converting(:to_int, 'x')),                TypeError, "can't convert MalformedCall::Converting to Integer (MalformedCall::Converting#to_int gives String)"],
    [:spawn,     %q('true', rlimit_core: converting(:to_int, 'x')),           TypeError, "can't convert MalformedCall::Converting to Integer (MalformedCall::Converting#to_int gives String)"],
    [:spawn,     %q('true', rlimit_core: [1, converting(:to_int, 'x')]),      TypeError, "can't convert MalformedCall::Converting to Integer (MalformedCall::Converting#to_int gives String)"],
    [:spawn,     %q('true', out: converting(:to_io)),                         TypeError, "can't convert MalformedCall::Converting to IO (MalformedCall::Converting#to_io gives Integer)"],
    [:spawn,     %q({'A' => converting(:to_str)}, 'true'),                    TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:spawn,     %q({converting(:to_str) => 'x'}, 'true'),                    TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:system,    %q('true', converting(:to_hash)),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:system,    %q(converting(:to_hash), 'true'),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:system,    %q('true', chdir: converting(:to_str)),                      TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:backtick,  %q(converting(:to_str)),                                     TypeError, "can't convert MalformedCall::Converting to String (MalformedCall::Converting#to_str gives Integer)"],
    [:popen4,    %q('true', converting(:to_hash)),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:popen4,    %q(converting(:to_hash), 'true'),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:child,     %q('true', converting(:to_hash)),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:child,     %q(converting(:to_hash), 'true'),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:child,     %q('true', umask: converting(:to_int, 'x')),                 TypeError, "can't convert MalformedCall::Converting to Integer (MalformedCall::Converting#to_int gives String)"],
    [:start,     %q('true', converting(:to_hash)),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:start,     %q(converting(:to_hash), 'true'),                            TypeError, "can't convert MalformedCall::Converting to Hash (MalformedCall::Converting#to_hash gives Integer)"],
    [:start,     %q('true', rlimit_core: converting(:to_int, 'x')),           TypeError, "can't convert MalformedCall::Converting to Integer (MalformedCall::Converting#to_int gives String)"],
    # Two faults in one call: the error of the step MRI's forked child takes first wins (setpgid, setrlimit, dup2, close, chdir, exec)
    [:spawn,     %q('exit 3', rlimit_nofile: [16, 2**21], chdir: 'nope'),     Errno::EPERM, "Operation not permitted - setrlimit"],
    [:spawn,     %q('no-such-program-here', rlimit_core: [2048, 1024]),       Errno::EINVAL, "Invalid argument - setrlimit"],
    [:spawn,     %q('true', rlimit_core: [2048, 1024], chdir: ''),            Errno::EINVAL, "Invalid argument - setrlimit"],
    [:spawn,     %q('no-such-program-here a ', chdir: '/', pgroup: 2**31 - 1), Errno::EPERM, "Operation not permitted - setpgid"],
    [:spawn,     %q('true', pgroup: 1.5, STDOUT => 250),                      Errno::EPERM, "Operation not permitted - setpgid"],
    [:spawn,     %q('true', pgroup: 2**31 - 1, 250 => :close),                Errno::EPERM, "Operation not permitted - setpgid"],
    [:spawn,     %q('true', rlimit_core: [2, 1], 1 => 250),                   Errno::EINVAL, "Invalid argument - setrlimit"],
    [:spawn,     %q('true', rlimit_core: [2, 1], pgroup: 2**31 - 1),          Errno::EPERM, "Operation not permitted - setpgid"],
    [:spawn,     %q('true', umask: 0o22, pgroup: 2**31 - 1, chdir: 'nope'),   Errno::EPERM, "Operation not permitted - setpgid"],
    [:spawn,     %q('true', umask: 0o22, rlimit_core: [2, 1], 2 => 250),      Errno::EINVAL, "Invalid argument - setrlimit"],
    [:spawn,     %q('no-such-program-here', rlimit_nofile: 0),                   Errno::ENOENT, "No such file or directory - no-such-program-here"],
    [:spawn,     %q('true', rlimit_nofile: 0, chdir: 'nope'),                    Errno::ENOENT, "No such file or directory - nope"],
    [:spawn,     %q('no-such-program-here', 70 => :out, rlimit_nofile: 64),      Errno::EBADF, "Bad file descriptor - dup2"],
    [:spawn,     %q('true', 1 => File::NULL, 70 => [:child, 1], rlimit_nofile: 64, chdir: 'nope'), Errno::EBADF, "Bad file descriptor - dup2"],
    [:spawn,     %q('true', 1 => 250, chdir: 'nope'),                         Errno::EBADF, "Bad file descriptor - dup2"],
    [:spawn,     %q('true', pgroup: 2**31 - 1, out: '/nonexistent/x'),        Errno::ENOENT, "No such file or directory - /nonexistent/x"],
    [:system,    %q('no-such-program-here a ', chdir: '/', pgroup: 2**31 - 1, exception: true), Errno::EPERM, "Operation not permitted - no-such-program-here"],
    [:system,    %q('true', rlimit_core: [2, 1], 1 => 250, exception: true),  Errno::EINVAL, "Invalid argument - true"],
    [:system,    %q('no-such-program-here', rlimit_core: [2048, 1024]),       nil, nil],
    [:popen4,    %q('no-such-program-here', rlimit_core: [2048, 1024]),       Errno::EINVAL, "Invalid argument - setrlimit"],
    [:child,     %q('no-such-program-here a ', chdir: 'nope', pgroup: 2**31 - 1), Errno::EPERM, "Operation not permitted - setpgid"],
    [:child,     %q('true', rlimit_core: [2, 1], chdir: 'nope'),              Errno::EINVAL, "Invalid argument - setrlimit"],
    [:start,     %q('true', pgroup: 1.5, 250 => :close),                      Errno::EPERM, "Operation not permitted - setpgid"],
    [:start,     %q('no-such-program-here', rlimit_core: [2048, 1024]),       Errno::EINVAL, "Invalid argument - setrlimit"]
  ].freeze
end

RSpec.describe 'bad input' do
  # Where the gem's outcome differs from MRI's, on purpose:
  # - JRuby 10 quotes C types like Ruby 3.4 ('long' for `long'): messages are compared in this Ruby's quotes.
  # - A Fixnum in JRuby may be a Bignum in MRI (2**62 up to 2**63 - 1): as an fd, MRI says "wrong exec
  #   option" for one, the gem that it is too big for an int.
  # - uid/gid: posix_spawn cannot change credentials (documented in lib/posix/spawn.rb).
  # - out: -1: MRI fails only in the forked child and reports nothing; the gem refuses it up front.
  # - fake_fileno_io: only JRuby has IOs whose fileno is no real descriptor; redirecting one would wire
  #   the child to an unrelated descriptor, so it is refused.
  # - rlimit_core: 2**65 and the like: MRI converts rlimits in the forked child, whose RangeError never
  #   reaches the parent, so MRI's spawn hangs; the gem raises before spawning, with MRI's message.
  # - Child's own options (:posix_spawn_gem): MRI has no Child. The MRI posix-spawn gem takes a :timeout
  #   or :max that is not positive as no limit, and any truthy :pgroup_kill as true; it fails on the rest
  #   only after spawning, with errors that do not name the option (a String :timeout or :max fails a
  #   comparison with 0, an Integer :input has no force_encoding, a :streams callable that cannot be
  #   called fails at the first chunk, an unknown stream is ignored). The gem raises before spawning,
  #   naming the option.
  # - setsid (:gem_only): the gem's own spawn option (doc/spawning.md), unknown to MRI ("wrong exec option symbol").
  # - POSIX::Spawn.start and Handle (:gem_only for their own options): start is spawn with :pipe streams
  #   and :kill_on_exit; Handle#signal reads a signal as Process.kill does, but names the signal and the
  #   pid in an EINVAL, and refuses a negative number (Process.kill's "signal the group") with
  #   ArgumentError: a handle signals its group only through #terminate.

  rows = MalformedCall::CALLS.map { |row| MalformedCall::Row.new(*row) }

  def gem_outcome(row)
    MalformedCall.outcome(row.arguments, &MalformedCall::GEM.fetch(row.api))
  end

  # MRI 3.1's message as this Ruby words it: from 3.4 (JRuby 10) a C type is quoted 'int', not `int'.
  def in_this_rubys_quotes(message)
    RUBY_VERSION >= '3.4' ? message.gsub(/`([^`']*)'/, "'\\1'") : message
  end

  it 'has at least 60 malformed calls, across spawn, system, backtick, popen4, Child, start and Handle' do
    raising = rows.select(&:expected_class)
    expect(raising.size).to be >= 60
    expect(raising.map(&:api).uniq).to contain_exactly(:spawn, :system, :backtick, :popen4, :child, :start, :wait, :signal, :terminate, :communicate, :on_exit)
  end

  rows.each do |row|
    if row.expected_class
      it "#{row} raises #{row.expected_class}: #{row.expected_message.inspect}" do
        outcome = gem_outcome(row)
        expect(outcome&.first).to eq(row.expected_class.name)
        expect(outcome.last).to match(row.expected_message.is_a?(Regexp) ? row.expected_message : /\A#{Regexp.escape(in_this_rubys_quotes(row.expected_message))}\z/)
      end
    else
      it "#{row} is accepted, as #{row.mri_observable? ? 'MRI accepts it' : 'the posix-spawn gem documents'}" do
        expect(gem_outcome(row)).to be_nil
      end
    end
  end

  it 'leaves the JVM holding exactly the descriptors it held before the whole matrix, and no child' do
    rows.each { |row| gem_outcome(row) } # loads every class and opens whatever JRuby opens once
    before = ProcessResources.snapshot(:descriptors, :children)
    rows.each { |row| gem_outcome(row) }
    # What appeared counts; a descriptor closed meanwhile is an earlier example's IO collected as garbage.
    expect(ProcessResources.settled_changes(before, new_only: true)).to eq({})
  end

  it 'raises NotImplementedError for :setsid where posix_spawn has no POSIX_SPAWN_SETSID, naming it' do
    POSIX::Spawn::Native.pretend_missing('POSIX_SPAWN_SETSID', true)
    expect { POSIX::Spawn.spawn('true', setsid: true) }.to raise_error(NotImplementedError, /setsid option needs POSIX_SPAWN_SETSID/)
    Process.wait(POSIX::Spawn.spawn('true', setsid: false))
  ensure
    POSIX::Spawn::Native.pretend_missing('POSIX_SPAWN_SETSID', false)
  end

  it 'leaves no child, zombie or not, after a spawn that fails in the child, on any route' do
    expect do
      expect { POSIX::Spawn.spawn('true', chdir: '/nonexistent-dir') }.to raise_error(Errno::ENOENT)
      expect { POSIX::Spawn.spawn('true', chdir: '/nonexistent-dir', umask: 0o22) }.to raise_error(Errno::ENOENT)
      expect { POSIX::Spawn.spawn('true', rlimit_nofile: [10, 5]) }.to raise_error(Errno::EINVAL)
      expect { POSIX::Spawn.spawn('/etc/passwd', rlimit_core: 0) }.to raise_error(Errno::EACCES)
      # two faults: the child tried for setpgid and setrlimit alone goes, whichever error wins
      expect { POSIX::Spawn.spawn('true', pgroup: 0o7777777, chdir: '/nonexistent-dir') }.to raise_error(Errno::EPERM)
      expect { POSIX::Spawn.spawn('true', rlimit_core: [2, 1], chdir: '/nonexistent-dir') }.to raise_error(Errno::EINVAL)
      expect { POSIX::Spawn.spawn('no-such-program-here', rlimit_core: 0, chdir: '/') }.to raise_error(Errno::ENOENT)
      expect { POSIX::Spawn.spawn('true', rlimit_core: 0, pgroup: 0o7777777, 250 => :close) }.to raise_error(Errno::EPERM)
    end.not_to leak(:children)
  end

  mri = '/usr/bin/ruby'
  it 'records what MRI really raises (re-run under MRI 3.1)', skip: (File.executable?(mri) ? false : "no MRI at #{mri}") do
    observable = rows.select(&:mri_observable?)
    script = File.expand_path('../support/malformed_call.rb', __dir__)
    outcomes = IO.popen([mri, script], 'r+') do |io|
      io.write(JSON.generate(observable.map { |row| [row.api, row.arguments] }))
      io.close_write
      JSON.parse(io.read)
    end
    recorded = observable.map { |row| row.mri_class && [row.mri_class.name, row.mri_message] }
    mismatches = observable.zip(outcomes, recorded).reject { |_, seen, noted| seen == noted }
    expect(mismatches.map { |row, seen, _| "#{row}: MRI gives #{seen.inspect}" }).to be_empty
  end
end

# Calls for the differential test, from a seed: each a line "ID<TAB>API<TAB>FLAGS<TAB>SOURCE", SOURCE a Ruby
# expression giving the call's arguments, evaluated by spec/differential/worker.rb in its Call (which names
# the reporter `rep`, the worker's IOs `r1 w1 pr pw pin inh closed`, `worker_pgid`, `hard_nofile`), in a
# scratch directory with the worker's fixtures (in.txt exist.txt noexec.txt noshebang shebang \xFF.sh dir
# d\xFF readonly.txt). Pieces are source text so that both sides build the very same objects.
module Differential
  class Generator
    # mod_*: POSIX::Spawn.spawn/system on the JRuby side; the rest the drop-in's Process.spawn, Kernel#spawn,
    # Kernel#system, IO.popen and `. MRI runs its own of each.
    APIS = { 'mod_spawn' => 25, 'mod_system' => 20, 'spawn' => 10, 'kernel_spawn' => 5, 'system' => 15, 'popen' => 15,
             'backtick' => 10 }.freeze

    # Each list is [well-formed, malformed]; a call takes from the first mostly (#either).
    ENVS = [[
      '{"DIFF_A" => "1"}', '{"DIFF_INHERITED" => nil}', '{"DIFF_A" => "x=y"}', '{"DIFF_A" => nil, "DIFF_B" => "2"}',
      '{"DIFF_A" => "\xFF".b}', '{"PATH" => File.dirname(rep)}', '{"PATH" => "/nonexistent"}', '{"PATH" => nil}',
      '{"LANG" => "C"}', '{"DIFF_\xFF".b => "1"}'
    ], [
      '{"A=B" => "1"}', '{"DIFF\0A" => "1"}', '{"DIFF_A" => "a\0b"}', '{:DIFF_SYM => "1"}', '{"DIFF_A" => 1}',
      '{"" => "1"}', '{1 => "x"}', '{"=" => "x"}'
    ]].freeze

    # The program and its arguments, as the elements they are in a call: [source of each element].
    PROGRAMS = [[
      ['rep', '"a"'], ['rep'], ['rep', '"a b"', '"c"'], ['[rep, "argv0"]', '"a"'], ['[rep, ""]', '"a"'],
      ['"reporter"', '"a"'], ['"reporter"', '"x"', '"fail"'], ['"sh"', '"-c"', '"reporter a; exit 3"'],
      ['"sh"', '"-c"', '"kill -TERM $$"'], ['"./shebang"', '"a"'], ['"./noshebang"', '"a"'], ['"./\xFF.sh".b', '"a"'],
      ['"true"'], ['"false"'], ['["sh", "sh"]', '"-c"', '"exit 7"'], ['"reporter"', '"\xFF".b']
    ], [
      ['"shebang"'], ['"./noexec.txt"'], ['"./dir"'], ['"dir"'], ['"/"'], ['"nonexistent_diff_prog"'],
      ['"/nonexistent/x"'], ['"./missing"'], ['""'], ['""', '"a"'], ['"\xFF.sh".b'], ['"./\xFEmissing".b'],
      ['"reporter\0x"'], ['nil'], ['1'], ['[rep]'], ['[rep, "a", "b"]']
    ]].freeze

    # Command strings: without shell metacharacters (split by Ruby itself) and with them (sh -c).
    STRINGS = [[
      '"reporter a b"', '"  reporter   a  "', '"#{rep} a"', '"reporter x fail"', '"./noshebang a"', '"./shebang"',
      '"true"', '"exit 5"', '"reporter \'a b\'"', '"reporter a; reporter b"', '"reporter a | reporter b"',
      '"reporter a > sh_out.txt"', '"exec reporter $DIFF_INHERITED"', '"reporter a 2>&1"', '"reporter a 2>/dev/null"',
      '"nonexistent_diff_prog; exit 4"', '"reporter \xFF".b', '"./noshebang a && echo ok"', '"kill -KILL $$"',
      '"cd dir && reporter a"', '"reporter a <in.txt"', '"DIFF_X=1 reporter a"'
    ], [
      '"nonexistent_diff_prog a"', '"./noexec.txt"', '"dir"', '""', '" "', '"reporter\0x"'
    ]].freeze

    OPTIONS = {
      chdir: [%w["dir" "/" "d\xFF".b], %w["" "nope" "noexec.txt" 1 nil :dir]],
      umask: [%w[0 0o22 0o77 0o777], %w[-1 2**40 "022" nil 0.5]],
      pgroup: [%w[true 0 worker_pgid], %w[1 -1 "x" nil false 2**40]],
      rlimit_core: [%w[0 [0,0] [1024,2048] :INFINITY], %w[2**70 "x" -2 [1,2,3] [2,1] "INFINITY" nil]],
      rlimit_nofile: [%w[64 [32,hard_nofile] [hard_nofile,hard_nofile]], %w[4 hard_nofile+1 [10,20]]],
      rlimit_cpu: [%w[100 [10,20]], %w[[10,5]]],
      rlimit_fsize: [%w[2**20], %w[1]],
      rlimit_as: [%w[2**34], []],
      rlimit_bogus: [[], %w[1]],
      unsetenv_others: [%w[true false], %w[1 nil]],
      close_others: [%w[true false], %w[nil 1]],
      exception: [%w[true false], %w[1 nil]],
      uid: [%w[Process.uid], []],
      gid: [%w[Process.gid], []],
      foo: [[], %w[1]],
      '"chdir"' => [[], %w["dir"]]
    }.freeze

    ONLY_MALFORMED = OPTIONS.keys.select { |name| OPTIONS[name][0].empty? }.freeze

    # Faults of the steps MRI's forked child takes in order (setpgid, setrlimit, dup2, close, chdir, exec:
    # rb_execarg_run_options), of which a call now and then gets two: the first step's error must win.
    STEP_FAULTS = {
      pgroup: %w[pgroup:\ 2147483647 pgroup:\ 1.5],
      rlimit: %w[rlimit_core:\ [2048,1024] rlimit_nofile:\ [16,2**21] rlimit_nofile:\ [128,64]],
      dup2: %w[1\ =>\ 250 :err\ =>\ 250],
      close: %w[250\ =>\ :close],
      chdir: %w[chdir:\ "nope" chdir:\ "" chdir:\ "noexec.txt"]
    }.freeze

    # Objects whose implicit conversion gives the wrong class (or nil), where a call asks for one:
    # `wrong(:to_hash)` is the worker's (Call#wrong), the same class and message on both sides.
    WRONG_CONVERSIONS = {
      options: %w[wrong(:to_hash) wrong(:to_hash,nil)],
      env: %w[wrong(:to_hash) wrong(:to_hash,nil)],
      program: %w[wrong(:to_str) wrong(:to_ary)],
      argument: %w[wrong(:to_str)],
      option: %w[chdir:\ wrong(:to_str) chdir:\ wrong(:to_path) umask:\ wrong(:to_int,"x") pgroup:\ wrong(:to_int,"x")
                 rlimit_core:\ wrong(:to_int,"x") rlimit_core:\ [wrong(:to_int,"x"),1] :out\ =>\ wrong(:to_io)
                 :out\ =>\ [wrong(:to_path),"w"] :out\ =>\ ["out.txt",wrong(:to_str)] :out\ =>\ ["out.txt","w",wrong(:to_int,"x")]
                 {"DIFF_A"\ =>\ wrong(:to_str)}]
    }.freeze

    # Encoding.default_external and default_internal a call runs under (Call#encodings), and popen modes
    # that name encodings: what reads return must be MRI's bytes in MRI's encoding.
    ENCODINGS = %w[encodings(nil,"UTF-16LE") encodings("ISO-8859-1",nil) encodings("ISO-8859-1","UTF-16LE")
                   encodings("UTF-8","EUC-JP")].freeze

    REDIRECT_KEYS = [%w[:in :out :err 0 1 2 3 5 9 [:out,:err] w1 STDOUT], %w[99 -1 "out.txt" nil [] [:out,:bogus] :bogus 2**40 closed]].freeze
    # Values by the keys they make sense for: reading (:in, 0), writing (the rest).
    READ_VALUES = %w["in.txt" ["in.txt","r"] r1 pin "missing.txt" :close [:child,:out] "/dev/null" ["in.txt",File::RDONLY] 0].freeze
    WRITE_VALUES = %w["out.txt" ["out.txt","w"] ["out.txt","a"] ["exist.txt","a"] ["exist.txt","w"]
                      ["new.txt",File::WRONLY|File::CREAT|File::EXCL,0o600] ["new.txt","w",0o640] :close :out :err
                      [:child,:out] [:child,1] [:child,:err] 1 2 w1 pw "/dev/null" ["exist.txt","r+"] "d\xFF/x.txt".b inh].freeze
    BAD_VALUES = %w["dir" "" ["missing.txt",File::WRONLY] ["exist.txt",File::WRONLY|File::CREAT|File::EXCL] ["out.txt","bogus"]
                    ["out.txt","w","x"] ["out.txt"] ["out.txt","w",0o600,1] 99 -1 closed nil 2**40 :bogus Object.new
                    [:child,3] [:child,:in,1] "nope/x.txt" "readonly.txt" r1 pr].freeze

    def initialize(seed)
      @random = Random.new(seed)
    end

    # n lines, ids 0...n.
    def calls(n)
      Array.new(n) { |i| line(i) }
    end

    private

    def line(id)
      api = weighted(APIS)
      flags = []
      source =
        case api
        when 'backtick' then "[#{either(STRINGS)}]"
        when 'popen' then popen(flags)
        else spawn_args(api)
        end
      source = "inh; #{source}" if chance(0.1)
      source = "#{pick(ENCODINGS)}; #{source}" if %w[popen backtick].include?(api) && chance(0.2)
      flags << '-' if flags.empty?
      [format('%04d', id), api, flags.join(','), source].join("\t")
    end

    def spawn_args(api)
      return wrong_conversion(api) if chance(0.06)

      faults = chance(0.12) ? STEP_FAULTS.keys.sample(2, random: @random) : []
      faults << :program if faults.size == 1 # the program's own fault, ENOENT at exec, is the last step's
      parts = []
      parts << either(ENVS) if chance(0.35)
      parts.concat(faults.delete(:program) ? [pick(['"nonexistent_diff_prog"', '"nonexistent_diff_prog a"'])] : program)
      options = faults.map { |step| pick(STEP_FAULTS[step]) } + options_for(api)
      parts << "{#{options.uniq { |option| option[/\A\S+/] }.join(', ')}}" unless options.empty? && !chance(0.05)
      "[#{parts.join(', ')}]"
    end

    def program
      chance(0.3) ? [either(STRINGS)] : either(PROGRAMS)
    end

    # A call with one object whose conversion gives the wrong class, where the options, the env, the program,
    # an argument or an option's value would be.
    def wrong_conversion(api)
      place = pick(WRONG_CONVERSIONS.keys)
      wrong = pick(WRONG_CONVERSIONS[place])
      words = program
      parts = case place
              when :options then [*words, wrong]
              when :env then [wrong, *words]
              when :program then [wrong, '"a"']
              when :argument then ['rep', wrong]
              else wrong.start_with?('{') ? [wrong, *words] : [*words, "{#{wrong}}"]
              end
      parts << "{#{options_for(api).join(', ')}}" if place != :options && !wrong.start_with?(':', 'chdir', 'umask', 'pgroup', 'rlimit') && chance(0.3)
      "[#{parts.join(', ')}]"
    end

    def popen(flags)
      mode = pick([nil, '"r"', '"r"', '"w"', '"r+"', '"rb"', '"r:ISO-8859-1"', '"r:UTF-8:UTF-16LE"'])
      flags << 'read' unless mode == '"w"'
      flags << 'write' if mode == '"w"' || mode == '"r+"'
      env = chance(0.25) ? either(ENVS) : nil
      command = chance(0.5) ? either(STRINGS) : "[#{either(PROGRAMS).join(', ')}]"
      options = options_for('popen').reject { |o| o.start_with?('exception:', ':exception') }
      parts = [env, command, mode].compact
      parts << "{#{options.join(', ')}}" unless options.empty?
      "[#{parts.join(', ')}]"
    end

    # 0-4 options and redirects, mostly valid values, and now and then two for one descriptor.
    def options_for(api)
      chosen = []
      rand_count.times do
        if chance(0.55)
          names = OPTIONS.keys
          names -= [:exception] unless api.end_with?('system') || chance(0.15)
          names -= ONLY_MALFORMED unless chance(0.15)
          name = pick(names)
          good, bad = OPTIONS[name]
          values = (chance(0.85) || bad.empty?) && !good.empty? ? good : bad
          key = name.is_a?(Symbol) ? "#{name}:" : "#{name} =>"
          chosen << "#{key} #{pick(values)}"
        else
          chosen << redirect
        end
      end
      chosen << redirect.sub(/\A\S+/, pick(%w[1 [:out,:err] :err 2])) if chance(0.08)
      # A Hash literal keeps the last of a repeated key (and warns): one of each.
      chosen.uniq { |option| option[/\A\S+/] }
    end

    def redirect
      good_keys, bad_keys = REDIRECT_KEYS
      key = chance(0.92) ? pick(good_keys) : pick(bad_keys)
      values = if chance(0.12) then BAD_VALUES
               elsif %w[:in 0].include?(key) then READ_VALUES
               else WRITE_VALUES
               end
      "#{key} => #{pick(values)}"
    end

    def rand_count
      [0, 1, 1, 2, 2, 3, 4][@random.rand(7)]
    end

    def chance(p)
      @random.rand < p
    end

    def either((good, bad))
      pick(chance(0.85) ? good : bad)
    end

    def pick(list)
      list[@random.rand(list.size)]
    end

    def weighted(weights)
      n = @random.rand(weights.values.sum)
      weights.each { |k, w| return k if (n -= w) < 0 }
    end
  end
end

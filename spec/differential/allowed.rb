# The differences between MRI and the gem that the differential test accepts: each real, documented and
# unfixable on posix_spawn or JRuby, with its reason and the README text it matches. An entry sees a call
# (its generated line) and both sides' observations (lines), and returns both with what it excuses set
# aside: nothing else of that call is excused.
module Differential
  module Allowed
    Entry = Struct.new(:name, :reason, :readme, :pending, :rule, keyword_init: true)

    # Both sides' lines without those matching `pattern` on `side` (:mri, :gem or :both).
    def self.without(mri, gem, pattern, side = :both)
      [side == :gem ? mri : mri.grep_v(pattern), side == :mri ? gem : gem.grep_v(pattern)]
    end

    # The whole call set aside when the gem raised `raised` (a line prefix) and the call's source matches.
    def self.refused(call, mri, gem, source, raised)
      call =~ source && gem.any? { |l| l.start_with?("raised=#{raised}") } ? [[], []] : [mri, gem]
    end

    ENTRIES = [
      Entry.new(
        name: 'uid/gid refused',
        reason: 'posix_spawn cannot change credentials',
        readme: '`:uid`/`:gid` raise NotImplementedError (posix_spawn cannot change credentials).',
        rule: ->(call, mri, gem) { refused(call, mri, gem, /\b[ug]id:/, 'NotImplementedError') }
      ),
      Entry.new(
        name: 'negative redirect source',
        reason: 'MRI ignores a negative descriptor as a redirect source; the gem refuses it on purpose',
        readme: 'A negative redirect source (`1 => -1`), which MRI ignores, raises ArgumentError.',
        rule: ->(call, mri, gem) { refused(call, mri, gem, /=> -1\b/, 'ArgumentError: negative file descriptor') }
      ),
      Entry.new(
        name: "JRuby's IO.pipe is blocking",
        reason: "MRI 3's IO.pipe makes both ends O_NONBLOCK (for the fiber scheduler), JRuby's leaves them " \
                'blocking; a child given such a pipe (3 => writer) sees the flag its parent IO has. The IO is ' \
                "JRuby's, not the gem's: the gem hands the descriptor over as it is",
        readme: "(to add, The drop-in's remaining differences) A pipe made by `IO.pipe` and handed to a child is " \
                "blocking, as JRuby's IO.pipe makes it; MRI 3's are non-blocking.",
        rule: lambda do |call, mri, gem|
          next [mri, gem] unless call =~ /\b(pw|pr|pin)\b/
          [mri.map { |l| l =~ /\Afd \w+=pipe:/ && gem.include?(l.sub(',nonblock', '')) ? l.sub(',nonblock', '') : l }, gem]
        end
      ),
      Entry.new(
        name: "close_others: false passes the JVM's descriptors",
        reason: "the JVM's own descriptors (jars, sockets, /dev/random, the pipe of a selector an earlier read " \
                "of JRuby's opened) are not close-on-exec, so every inheritable descriptor the option lets through " \
                'includes them; MRI has none of its own open. A pipe is the JVM\'s only at 10 and up, where no call names one',
        readme: "`close_others: false` lets every inheritable descriptor through, the JVM's included" \
                ' (nil is false, as in MRI)',
        rule: lambda do |call, mri, gem|
          next [mri, gem] unless call =~ /close_others: (false|nil)/
          jvm = ->(l) { l =~ %r{\Afd (\d+)=(?!\$W/)(pipe:)?} && (!Regexp.last_match(2) || Regexp.last_match(1).to_i >= 10) }
          [mri, gem.reject { |l| jvm.call(l) && !mri.include?(l) }]
        end
      ),
      Entry.new(
        name: "JRuby's ENV['RUBY']",
        reason: 'JRuby itself puts RUBY (the command that starts this JRuby) into ENV at startup ' \
                "(`jruby -e 'p ENV[\"RUBY\"]'`; JRuby's own system passes it too); the gem passes ENV on as it is, " \
                'as MRI passes its ENV',
        readme: "The environment starts from Ruby's `ENV` (on JRuby it differs from the native environ).",
        rule: ->(_call, mri, gem) { without(mri, gem, /\Aenv=RUBY=/, :gem) }
      ),
      Entry.new(
        name: 'rlimit value beyond rlim_t',
        reason: "MRI converts rlimit values in its forked child (process.c run_exec_rlimit, NUM2RLIM): the spawn " \
                'returns a pid and the child prints the RangeError and exits 1 (system: false, or even true without ' \
                'running the program). posix_spawn has no Ruby in the ' \
                'child, so the gem raises that RangeError in the caller, before anything starts',
        readme: '(to add, Differences from MRI, on purpose) An rlimit value of 2**64 or more raises RangeError in ' \
                "the caller; MRI raises it in its forked child, which exits 1 (spawn returns the child's pid).",
        rule: lambda do |call, mri, gem|
          big = call =~ /rlimit_\w+: \[?2\*\*(6[4-9]|[7-9]\d)/
          refused = gem.grep(/\Araised=RangeError: bignum too big to convert into [`']unsigned long'\z/).any? # JRuby 10 quotes as Ruby 3.4
          big && refused ? [[], []] : [mri, gem]
        end
      ),

      Entry.new(
        name: 'SIGQUIT ignored by the parent of the JVM',
        reason: 'the JVM takes SIGQUIT for itself as it starts (its thread dump), replacing an inherited ignore ' \
                'before any Ruby runs and keeping no record of it, so its children get QUIT at its default; the ' \
                "other ignored signals (HUP, INT) they keep, as MRI's do",
        readme: 'the signals the JVM takes for itself as it starts (SIGQUIT, ...) reach children at their default even ' \
                'when the JVM was started with them ignored (doc/guarantees.md, Signals)',
        rule: lambda do |_call, mri, gem|
          next [mri, gem] unless mri.include?("SigIgn:\t0000000000000007") && gem.include?("SigIgn:\t0000000000000003")
          without(mri, gem, /\ASigIgn:/)
        end
      ),

      Entry.new(
        name: "Ruby 3.4's quotes in messages",
        reason: "Ruby 3.4 (JRuby 10) quotes names in its messages as 'int' where MRI 3.1 wrote `int'; the words are the same",
        readme: 'JRuby 10 is Ruby 3.4: its messages use 3.4\'s quoting',
        rule: lambda do |_call, mri, gem|
          next [mri, gem] unless RUBY_VERSION >= '3.4'
          [mri.map { |l| l.start_with?('raised=') ? l.gsub(/`([\w ]+)'/, "'\\1'") : l }, gem]
        end
      ),

      Entry.new(
        name: "MRI 3.1's env hash under a UTF-16 default_internal",
        reason: 'with Encoding.default_internal UTF-16LE (not ASCII-compatible) MRI 3.1 keeps the inherited variable that ' \
                'the env hash unsets or sets ({"NAME" => nil}, {"PATH" => dir}: the child gets both PATHs): it compares the ' \
                'names with ENV\'s, transcoded to default_internal, which never match (`DIFF_X=yes ruby -e ' \
                '\'Encoding.default_internal = "UTF-16LE"; system({"DIFF_X" => nil}, "env")\'`); the gem unsets or replaces ' \
                'it, as MRI does under any ASCII-compatible default_internal',
        readme: '(to add, Differences from MRI, on purpose) An env hash unsets and replaces variables whatever ' \
                'Encoding.default_internal is',
        rule: lambda do |call, mri, gem|
          names = call =~ /encodings\([^)]*"UTF-16LE"\)/ ? call.scan(/"(\w+)" => /).flatten : []
          names.reduce([mri, gem]) { |(m, g), name| without(m, g, /\Aenv=#{name}=/, :mri) }
        end
      ),

      # ---- pending: known bugs of the gem, not differences it keeps; each goes when its fix lands
      # ---- (DIFFERENTIAL_NO_PENDING=1 shows what they still hide).
      # (none now)
    ].freeze

    # The observations of one call with every applicable entry's lines set aside; `explained` counts by name.
    # DIFFERENTIAL_NO_PENDING=1 leaves the pending entries out: what the fixes in flight still have to remove.
    def self.apply(call, mri, gem, explained)
      ENTRIES.each do |entry|
        next if entry.pending && ENV['DIFFERENTIAL_NO_PENDING']
        a, b = entry.rule.call(call, mri, gem)
        next if a == mri && b == gem
        explained[entry.name] += 1 if (mri - gem) != (a - b) || (gem - mri) != (b - a)
        mri, gem = a, b
      end
      [mri, gem]
    end
  end
end

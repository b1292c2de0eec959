module POSIX
  module Spawn
    # Where the options Hash (and the env Hash) is in a call's arguments: every entry point asks here.
    #
    # Spawn-style arguments, [env,] command... [,options], have one rule at every entry point (spawn, system,
    # popen4, Child, start, pty_spawn, PTY.spawn, IO.popen): the last argument is the options when it
    # converts with to_hash and is not alone, the first the env by the same test (MRI: rb_io_s_popen). A lone
    # Hash stays where it is: MRI's Process.spawn (rb_exec_getargs) takes it as options and then has no
    # command, the engine raises that same ArgumentError, and the gem's own options (:detach, :winsize,
    # :input...) never come out of a call without a command. The calls that follow another MRI function
    # have a method of their own below, which names it.
    module Arguments
      module_function

      # value's Hash by to_hash, or nil when it has none or to_hash gives nil; TypeError, as MRI's, when
      # to_hash gives anything else (MRI: rb_check_hash_type, which Hash.try_convert is on both engines).
      def hash_of(value)
        Hash.try_convert(value)
      end

      # The options of spawn-style arguments, as to_hash gives them (not a copy), or nil.
      def options(args)
        hash_of(args.last) if args.size > 1
      end

      # [the arguments before the options, a copy of the options ({} when there are none)].
      def split(args)
        options = options(args)
        options ? [args[0...-1], options.dup] : [args, {}]
      end

      # [the arguments without option `key`, its value] for one of the gem's own options, or nil when the
      # options do not hold `key` (the arguments are then not copied: the common call pays nothing).
      def extract(args, key)
        options = options(args)
        return unless options&.key?(key)

        options = options.dup
        value = options.delete(key)
        [options.empty? ? args[0...-1] : [*args[0...-1], options], value]
      end

      # [the env, as to_hash gives it, or nil, the other arguments]: what is left once the options are split off.
      def split_env(args)
        env = hash_of(args.first) if args.size > 1
        env ? [env, args.drop(1)] : [nil, args]
      end

      # [env or nil, words, options or nil] of an Array command (MRI: rb_exec_getargs, as IO.popen reads one):
      # the options, then the env, each taken even when it is the only argument left.
      def split_exec(args)
        options = hash_of(args.last)
        words = options ? args[0...-1] : args
        env = hash_of(words.first)
        [env, env ? words.drop(1) : words, options]
      end

      # [arguments, options or {}] of open("|cmd") and the pipe calls the drop-in makes, whose keywords are
      # put last (MRI: rb_scan_args' trailing ":"): the last argument, even alone. A positional Hash there is
      # taken too, where MRI takes it as the permission, which a pipe ignores.
      def split_keywords(args)
        options = hash_of(args.last)
        options ? [args[0...-1], options] : [args, {}]
      end

      # [arguments, a copy of the options or {}] of an Open3 call (MRI: lib/open3.rb's `Hash === cmd.last`):
      # only a Hash, even alone; an object that converts with to_hash is a command word there.
      def split_open3(args)
        Hash === args.last ? [args[0...-1], args.last.dup] : [args, {}]
      end
    end
  end
end

package org.posixspawn.jruby.plan;

import java.util.ArrayList;
import java.util.List;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyHash;
import org.jruby.RubyString;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.jruby.util.TypeConverter;

/**
 * Reads Process.spawn's arguments ({@code [env,] command... [,options]}) into a {@link SpawnPlan}, raising
 * the exceptions MRI raises for bad ones, in MRI's order.
 *
 * <p>A port of MRI 3.x process.c, split along its own seams: this class is rb_exec_getargs, rb_check_argv
 * and the order of rb_exec_fillarg; {@link CommandLine} the command (shell or not), {@link ExecOptions}
 * rb_execarg_addopt, {@link Redirects} check_exec_redirect, {@link FdTable} check_exec_fds,
 * {@link Environment} rb_check_exec_env and the envp of rb_execarg_parent_start1, {@link Conversions}
 * the conversion macros. Each method names the function it ports.
 */
public final class SpawnArguments {
    private SpawnArguments() {}

    /** Process.spawn's arguments to a plan; throws {@link AfterOpening} for an error MRI meets only after opening files. */
    public static SpawnPlan parse(ThreadContext context, IRubyObject[] args) {
        return read(context, args, false, null).plan;
    }

    /** Kernel#system's arguments (which may hold :exception) to a plan and that flag. */
    public static Parsed parseForSystem(ThreadContext context, IRubyObject[] args) {
        return read(context, args, true, null);
    }

    /**
     * IO.popen's arguments with its separate env Hash, which MRI applies once the arguments are read
     * (rb_execarg_setenv): it replaces the arguments' own env Hash (the Array form's) for the child, but the
     * program was looked up before, on that Hash's PATH, else ENV's, never on the separate Hash's.
     */
    public static SpawnPlan parseForPopen(ThreadContext context, IRubyObject[] args, IRubyObject popenEnv) {
        return read(context, args, false, popenEnv).plan;
    }

    /** A plan and Kernel#system's :exception flag. */
    public static final class Parsed {
        public final SpawnPlan plan;
        public final boolean exception;

        Parsed(SpawnPlan plan, boolean exception) {
            this.plan = plan;
            this.exception = exception;
        }
    }

    /** A Hash for an options or env argument, else nil; a String or an Array is never asked for to_hash ([Bug #12355]). */
    // MRI: check_hash (process.c)
    private static IRubyObject checkHash(Ruby runtime, IRubyObject obj) {
        if (obj instanceof RubyString || obj instanceof RubyArray) return runtime.getNil();
        return TypeConverter.checkHashType(runtime, obj);
    }

    // MRI: rb_execarg_init -> rb_exec_getargs, rb_check_argv, rb_exec_fillarg
    private static Parsed read(ThreadContext context, IRubyObject[] args, boolean exceptionAllowed, IRubyObject popenEnv) {
        Ruby runtime = context.runtime;
        int argc = args.length;
        int first = 0;
        IRubyObject options = null, envHash = null;
        if (argc > 0) {
            IRubyObject hash = checkHash(runtime, args[argc - 1]);
            if (!hash.isNil()) {
                options = hash;
                argc--;
            }
        }
        if (argc > 0) {
            IRubyObject hash = checkHash(runtime, args[0]);
            if (!hash.isNil()) {
                envHash = hash;
                argc--;
                first = 1;
            }
        }
        if (argc == 0) throw runtime.newArgumentError("wrong number of arguments (given 0, expected 1+)");

        // rb_check_argv
        PathName program = null;
        IRubyObject[] words = new IRubyObject[argc];
        System.arraycopy(args, first, words, 0, argc);
        IRubyObject pair = TypeConverter.checkArrayType(runtime, words[0]);
        if (!pair.isNil()) {
            RubyArray<?> a = (RubyArray<?>) pair;
            if (a.size() != 2) throw runtime.newArgumentError("wrong first argument");
            program = Conversions.pathName(Conversions.cString(runtime, a.eltOk(0)));
            words[0] = a.eltOk(1);
        }
        List<ByteList> argv = new ArrayList<>(argc);
        for (IRubyObject word : words) argv.add(Conversions.cString(runtime, word).getByteList());

        // rb_exec_fillarg: options first, then the environment, then the command.
        SpawnPlan.Builder plan = new SpawnPlan.Builder();
        plan.pwd = Conversions.pwd(runtime);
        Redirects redirects = new Redirects(context, plan.pwd);
        ExecOptions exec = new ExecOptions(context, plan, redirects);
        if (options != null) exec.read((RubyHash) options);
        Environment environment = envHash == null ? Environment.none() : Environment.read(runtime, (RubyHash) envHash);
        EnvironmentSnapshot env = EnvironmentSnapshot.of(runtime);
        plan.searchPath = environment.searchPath(env);
        CommandLine.fill(plan, program, argv);
        if (!exceptionAllowed && exec.exception != null) throw runtime.newArgumentError("exception option is not allowed"); // MRI: rb_execarg_init
        if (popenEnv != null) environment = Environment.read(runtime, (RubyHash) TypeConverter.convertToType(popenEnv, runtime.getHash(), "to_hash"));
        plan.envp = environment.envp(env, exec.unsetenvOthers);
        if (plan.cwd == null) plan.cwd = plan.pwd;
        if (!exec.closeOthersGiven) plan.inherited.addAll(InheritableIOs.descriptors());
        // setsid(2) makes the child lead a new group too; setpgid after it fails (EPERM) in the child.
        if (plan.setsid && plan.pgroup >= 0) throw runtime.newArgumentError("setsid and pgroup options are exclusive: a new session leads a new process group");
        redirects.into(plan);
        return new Parsed(plan.build(), Boolean.TRUE.equals(exec.exception));
    }
}

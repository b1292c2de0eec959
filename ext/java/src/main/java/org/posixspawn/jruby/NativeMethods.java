package org.posixspawn.jruby;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyNumeric;
import org.jruby.RubyProcess;
import org.jruby.anno.JRubyMethod;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.os.Features;
import org.posixspawn.jruby.os.Route;
import org.posixspawn.jruby.os.SpawnFailure;
import org.posixspawn.jruby.os.Spawner;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/** POSIX::Spawn::Native: the primitives lib/posix/spawn.rb builds its API on. */
public final class NativeMethods {
    private NativeMethods() {}

    /** Native.spawn([env,] command... [,options]) -> pid: Process.spawn's contract. */
    @JRubyMethod(module = true, rest = true)
    public static IRubyObject spawn(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        SpawnPlan plan = SpawnArguments.parse(context, args);
        return RubyFixnum.newFixnum(context.runtime, start(context, () -> Spawner.spawn(plan)));
    }

    /**
     * Native.system_spawn([env,] command... [,options]) -> [pid or nil, exception]: Kernel#system's
     * spawn half. A child that could not start gives nil (and $? exit 127), unless :exception asked for the
     * error; a redirect file that cannot be opened raises, as in MRI.
     */
    @JRubyMethod(module = true, rest = true)
    public static IRubyObject system_spawn(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        Ruby runtime = context.runtime;
        SpawnArguments.Parsed parsed = SpawnArguments.parseForSystem(context, args);
        context.setLastExitStatus(context.nil); // MRI: rb_f_system's rb_last_status_clear, after the arguments are read
        IRubyObject pid;
        try {
            pid = RubyFixnum.newFixnum(runtime, Spawner.spawn(parsed.plan));
        } catch (SpawnFailure failure) {
            RaiseException error = toRuby(context, failure);
            if (parsed.exception || !failure.inChild) throw error;
            pid = runtime.getNil();
        } catch (UnsupportedOperationException e) {
            throw runtime.newNotImplementedError(e.getMessage());
        }
        return RubyArray.newArray(runtime, pid, runtime.newBoolean(parsed.exception));
    }

    /**
     * Native.last_status_set(wait_status, pid) -> $?: sets the calling thread's $? to a Process::Status of
     * that wait(2) status and pid (MRI: rb_last_status_set); a nil wait_status clears it (rb_last_status_clear).
     */
    @JRubyMethod(module = true)
    public static IRubyObject last_status_set(ThreadContext context, IRubyObject self, IRubyObject waitStatus, IRubyObject pid) {
        IRubyObject status = waitStatus.isNil() ? context.nil
                : RubyProcess.RubyStatus.newProcessStatus(context.runtime, RubyNumeric.num2long(waitStatus), RubyNumeric.num2long(pid));
        context.setLastExitStatus(status);
        return status;
    }

    /** Native.last_route -> :posix_spawn or :fs_thread: how this thread's last spawn ran. */
    @JRubyMethod(module = true)
    public static IRubyObject last_route(ThreadContext context, IRubyObject self) {
        Route route = Route.last();
        return route == null ? context.nil : context.runtime.newSymbol(route.name().toLowerCase());
    }

    /** Native.pretend_missing(name, missing): run the fallback for an optional call (a libc function, or pidfd_open). */
    @JRubyMethod(module = true)
    public static IRubyObject pretend_missing(ThreadContext context, IRubyObject self, IRubyObject name, IRubyObject missing) {
        try {
            Features.pretendMissing(name.asJavaString(), missing.isTrue());
        } catch (IllegalArgumentException e) {
            throw context.runtime.newArgumentError(e.getMessage());
        }
        return context.nil;
    }

    /** A way to start a child: Spawner.spawn, or Capture.start. */
    interface Start<T> {
        T call() throws SpawnFailure;
    }

    /** MRI's exit status of a forked child whose exec (or a step before it) failed: rb_exec_fail's 127. */
    private static final int EXEC_FAILED = 127 << 8;

    /** Runs {@code start}, turning its failures into the Ruby exceptions spawn raises. */
    static <T> T start(ThreadContext context, Start<T> start) {
        try {
            return start.call();
        } catch (SpawnFailure failure) {
            throw toRuby(context, failure);
        } catch (UnsupportedOperationException e) {
            throw context.runtime.newNotImplementedError(e.getMessage());
        }
    }

    /**
     * The Errno of a failure. One MRI would see in its forked child also sets $? to exit 127, as MRI's
     * does; that child had a pid, ours never existed, so the status has pid 0 (as JRuby's Kernel#system's).
     */
    static RaiseException toRuby(ThreadContext context, SpawnFailure failure) {
        Ruby runtime = context.runtime;
        if (failure.inChild) context.setLastExitStatus(RubyProcess.RubyStatus.newProcessStatus(runtime, EXEC_FAILED, 0));
        return runtime.newErrnoFromInt(failure.errno, failure.culprit);
    }
}

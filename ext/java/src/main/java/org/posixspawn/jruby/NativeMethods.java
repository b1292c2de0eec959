package org.posixspawn.jruby;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
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
        return RubyFixnum.newFixnum(context.runtime, start(context.runtime, plan));
    }

    /**
     * Native.system_spawn([env,] command... [,options]) -> [pid or nil, exception]: Kernel#system's
     * spawn half. A child that could not start gives nil, unless :exception asked for the error.
     */
    @JRubyMethod(module = true, rest = true)
    public static IRubyObject system_spawn(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        Ruby runtime = context.runtime;
        SpawnArguments.Parsed parsed = SpawnArguments.parseForSystem(context, args);
        IRubyObject pid;
        try {
            pid = RubyFixnum.newFixnum(runtime, Spawner.spawn(parsed.plan));
        } catch (SpawnFailure failure) {
            if (parsed.exception) throw toRuby(runtime, failure);
            pid = runtime.getNil();
        } catch (UnsupportedOperationException e) {
            throw runtime.newNotImplementedError(e.getMessage());
        }
        return RubyArray.newArray(runtime, pid, runtime.newBoolean(parsed.exception));
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

    static long start(Ruby runtime, SpawnPlan plan) {
        return start(runtime, () -> Spawner.spawn(plan));
    }

    /** A way to start a child: Spawner.spawn, or Capture.start. */
    interface Start<T> {
        T call() throws SpawnFailure;
    }

    /** Runs {@code start}, turning its failures into the Ruby exceptions spawn raises. */
    static <T> T start(Ruby runtime, Start<T> start) {
        try {
            return start.call();
        } catch (SpawnFailure failure) {
            throw toRuby(runtime, failure);
        } catch (UnsupportedOperationException e) {
            throw runtime.newNotImplementedError(e.getMessage());
        }
    }

    static RaiseException toRuby(Ruby runtime, SpawnFailure failure) {
        return runtime.newErrnoFromInt(failure.errno, failure.culprit);
    }
}

package org.posixspawn.jruby;

import java.util.Arrays;

import org.jruby.RubyFixnum;
import org.jruby.RubyModule;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.os.child.AnyChildWait;
import org.posixspawn.jruby.os.child.OwnedChild;
import org.posixspawn.jruby.os.child.Reaper;
import org.posixspawn.jruby.plan.SpawnPlan;

/** POSIX::Spawn::Native's functions that give children to the reaper (lib/posix/spawn/handle.rb, spawn's :detach). */
public final class HandleMethods implements BoundMethod.Group {
    HandleMethods() {} // made by its Table, at the first call

    /** These methods' names and arities ({@link BoundMethod.Table}). */
    static final class Table extends BoundMethod.Table {
        @Override
        void defineAll(RubyModule target) {
            define(target, "start_handle", 1, BoundMethod.REST);
            define(target, "spawn_detached", 0, BoundMethod.REST);
            define(target, "handle_of", 1, 0);
            define(target, "wait_target", 2, 0);
        }

        @Override
        BoundMethod.Group create() {
            return new HandleMethods();
        }
    }

    @Override
    public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
        switch (name) {
            case "start_handle": return start_handle(context, self, args);
            case "spawn_detached": return spawn_detached(context, self, args);
            case "handle_of": return handle_of(context, self, args[0]);
            case "wait_target": return wait_target(context, self, args[0], args[1]);
            default: throw new AssertionError(name);
        }
    }

    /** Native.start_handle(kill_on_exit, [env,] command... [,options]) -> Handle. */
    public static IRubyObject start_handle(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        boolean killOnExit = args[0].isTrue();
        SpawnPlan plan = Plans.parse(context, Arrays.copyOfRange(args, 1, args.length));
        OwnedChild child = Errors.call(context, () -> Reaper.spawn(plan, plan.pgroup == 0 || plan.setsid, killOnExit));
        return Handle.of(context.runtime, child);
    }

    /** Native.spawn_detached([env,] command... [,options]) -> pid: a child the reaper reaps as it ends, for nobody. */
    public static IRubyObject spawn_detached(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        SpawnPlan plan = Plans.parse(context, args);
        OwnedChild child = Errors.call(context, () -> Reaper.spawn(plan, plan.pgroup == 0 || plan.setsid, false));
        return RubyFixnum.newFixnum(context.runtime, child.pid);
    }

    /** Native.handle_of(pid) -> the Handle owning that running child, or nil. */
    public static IRubyObject handle_of(ThreadContext context, IRubyObject self, IRubyObject pid) {
        OwnedChild child = pid instanceof RubyFixnum ? Reaper.owned(((RubyFixnum) pid).getLongValue()) : null;
        Handle handle = child == null ? null : Handle.attachedTo(context.runtime, child.attachment);
        return handle != null ? handle : context.nil;
    }

    /**
     * Native.wait_target(pid, flags) -> the pid Process's own wait is to be given, for a wait on any child or
     * a group's (pid 0 or less) that must not take a Handle's child: pid itself while the reaper owns none
     * (or pid is above 0); else a child of the selection no Handle owns that is ready now, blocking until one
     * is unless flags has WNOHANG, when it is nil if none is ($? then nil, as MRI's wait leaves it).
     * Errno::ECHILD when none is left but Handles'.
     */
    public static IRubyObject wait_target(ThreadContext context, IRubyObject self, IRubyObject pid, IRubyObject flags) {
        if (!(pid instanceof RubyFixnum && flags instanceof RubyFixnum) || ((RubyFixnum) pid).getLongValue() > 0 || !Reaper.ownsAny()) return pid;
        long found = Errors.call(context, () -> AnyChildWait.next(((RubyFixnum) pid).getLongValue(), (int) ((RubyFixnum) flags).getLongValue()));
        if (found < 0) throw context.runtime.newErrnoECHILDError();
        if (found > 0) return RubyFixnum.newFixnum(context.runtime, found);
        context.setLastExitStatus(context.nil);
        return context.nil;
    }
}

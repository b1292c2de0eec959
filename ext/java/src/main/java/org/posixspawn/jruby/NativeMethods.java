package org.posixspawn.jruby;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyModule;
import org.jruby.RubyNumeric;
import org.jruby.RubyProcess;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.spawn.Spawner;
import org.posixspawn.jruby.plan.AfterOpening;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/** POSIX::Spawn::Native: the primitives lib/posix/spawn.rb builds its API on. */
public final class NativeMethods implements BoundMethod.Group {
    NativeMethods() {} // made by its Table, at the first call

    /** These methods' names and arities ({@link BoundMethod.Table}). */
    static final class Table extends BoundMethod.Table {
        @Override
        void defineAll(RubyModule target) {
            define(target, "spawn", 0, BoundMethod.REST);
            define(target, "system_spawn", 0, BoundMethod.REST);
            define(target, "waitpid", 1, 0);
            define(target, "last_status_set", 2, 0);
        }

        @Override
        BoundMethod.Group create() {
            return new NativeMethods();
        }
    }

    @Override
    public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
        switch (name) {
            case "spawn": return spawn(context, self, args);
            case "system_spawn": return system_spawn(context, self, args);
            case "waitpid": return waitpid(context, self, args[0]);
            case "last_status_set": return last_status_set(context, self, args[0], args[1]);
            default: throw new AssertionError(name);
        }
    }

    /** Native.spawn([env,] command... [,options]) -> pid: Process.spawn's contract. */
    public static IRubyObject spawn(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        SpawnPlan plan = Plans.parse(context, args);
        try { // not Errors.call: its lambda's bootstrap would be part of the first spawn
            return RubyFixnum.newFixnum(context.runtime, Spawner.spawn(plan));
        } catch (SpawnError error) {
            throw Errors.toRuby(context, error);
        }
    }

    /**
     * Native.system_spawn([env,] command... [,options]) -> [pid or nil, exception, command]: Kernel#system's
     * spawn half, and the command as its messages name it. A child that could not start gives nil (and $?
     * exit 127), unless :exception asked for the error, which then names the command (MRI's rb_f_system);
     * a redirect file that cannot be opened raises, naming the file, as in MRI.
     */
    public static IRubyObject system_spawn(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        Ruby runtime = context.runtime;
        SpawnArguments.Parsed parsed;
        try {
            parsed = SpawnArguments.parseForSystem(context, args);
        } catch (AfterOpening failure) {
            context.setLastExitStatus(context.nil); // MRI: the arguments are read, $? cleared, then the files opened
            throw Plans.raise(context, failure);
        }
        context.setLastExitStatus(context.nil); // MRI: rb_f_system's rb_last_status_clear, after the arguments are read
        SpawnPlan plan = parsed.plan;
        IRubyObject pid;
        try {
            pid = RubyFixnum.newFixnum(runtime, Spawner.spawn(plan));
        } catch (SpawnError error) {
            if (parsed.exception && error.inChild) throw Errors.toRuby(context, error, plan.command); // MRI names the command
            RaiseException raised = Errors.toRuby(context, error);
            if (parsed.exception || !error.inChild) throw raised;
            pid = runtime.getNil();
        }
        return RubyArray.newArray(runtime, pid, runtime.newBoolean(parsed.exception), RubyValues.string(runtime, plan.command));
    }

    /**
     * Native.waitpid(pid) -> pid: Process.waitpid(pid) for a child the drop-in started (system, backtick, popen's
     * close), $? set as MRI sets it, Errno::ECHILD when it is no child to wait for. Unlike JRuby's own, which
     * an embedded JRuby (no --add-opens) cannot interrupt, Thread#raise and Timeout reach it everywhere (issue #27).
     */
    public static IRubyObject waitpid(ThreadContext context, IRubyObject self, IRubyObject pid) {
        long number = RubyNumeric.num2long(pid);
        int status = Interrupts.waitChild(context, number);
        context.setLastExitStatus(RubyProcess.RubyStatus.newProcessStatus(context.runtime, status, number));
        return pid;
    }

    /**
     * Native.last_status_set(wait_status, pid) -> $?: sets the calling thread's $? to a Process::Status of
     * that wait(2) status and pid (MRI: rb_last_status_set); a nil wait_status clears it (rb_last_status_clear).
     */
    public static IRubyObject last_status_set(ThreadContext context, IRubyObject self, IRubyObject waitStatus, IRubyObject pid) {
        IRubyObject status = waitStatus.isNil() ? context.nil
                : RubyProcess.RubyStatus.newProcessStatus(context.runtime, RubyNumeric.num2long(waitStatus), RubyNumeric.num2long(pid));
        context.setLastExitStatus(status);
        return status;
    }
}

package org.posixspawn.jruby;

import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyModule;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.os.child.Reaper;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.Trace;
import org.posixspawn.jruby.os.spawn.Spawner;

/**
 * POSIX::Spawn::Native's diagnostics, internal, for the specs and for users working around a broken libc:
 * which way the calling thread's last spawn, pipe, PATH search, buffer growth, reaper watch and IO.select went while
 * tracing was on (a lower-case Symbol, nil before any: see os/libc/Trace), what the reaper holds, and
 * pretend_missing, which runs a fallback.
 */
public final class DiagnosticsMethods implements BoundMethod.Group {
    DiagnosticsMethods() {} // made by its Table, at the first call

    /** These methods' names and arities ({@link BoundMethod.Table}). */
    static final class Table extends BoundMethod.Table {
        @Override
        void defineAll(RubyModule target) {
            define(target, "trace", 1, 0);
            define(target, "last_route", 0, 0);
            define(target, "last_closing", 0, 0);
            define(target, "last_program_lookup", 0, 0);
            define(target, "last_pipes", 0, 0);
            define(target, "last_buffer_growth", 0, 0);
            define(target, "last_reaper_route", 0, 0);
            define(target, "last_select", 0, 0);
            define(target, "reaper_owned_pids", 0, 0);
            define(target, "pretend_missing", 2, 0);
            define(target, "hold_at_gate", 1, 0);
        }

        @Override
        BoundMethod.Group create() {
            return new DiagnosticsMethods();
        }
    }

    @Override
    public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
        switch (name) {
            case "trace": return trace(context, self, args[0]);
            case "last_route": return last_route(context, self);
            case "last_closing": return last_closing(context, self);
            case "last_program_lookup": return last_program_lookup(context, self);
            case "last_pipes": return last_pipes(context, self);
            case "last_buffer_growth": return last_buffer_growth(context, self);
            case "last_reaper_route": return last_reaper_route(context, self);
            case "last_select": return last_select(context, self);
            case "reaper_owned_pids": return reaper_owned_pids(context, self);
            case "pretend_missing": return pretend_missing(context, self, args[0], args[1]);
            case "hold_at_gate": return hold_at_gate(context, self, args[0]);
            default: throw new AssertionError(name);
        }
    }

    /** Native.trace(on) -> nil: starts (true) or stops recording the last_* ways, forgetting what this thread recorded. */
    public static IRubyObject trace(ThreadContext context, IRubyObject self, IRubyObject on) {
        Trace.turn(on.isTrue());
        return context.nil;
    }

    /** Native.last_route -> :posix_spawn or :fs_thread: which thread carried out this thread's last spawn. */
    public static IRubyObject last_route(ThreadContext context, IRubyObject self) {
        return symbol(context, Trace.last(Trace.Concern.SPAWN_ROUTE));
    }

    /** Native.last_closing -> :closefrom, :listed_and_above, :each_listed, :cloexec_default or :none: how it closed the other descriptors. */
    public static IRubyObject last_closing(ThreadContext context, IRubyObject self) {
        return symbol(context, Trace.last(Trace.Concern.CLOSING));
    }

    /** Native.last_program_lookup -> :cached or :searched: how this thread's last PATH search was answered (Linux keeps them). */
    public static IRubyObject last_program_lookup(ThreadContext context, IRubyObject self) {
        return symbol(context, Trace.last(Trace.Concern.PROGRAM_LOOKUP));
    }

    /** Native.last_pipes -> :pipe2 or :pipe_then_fd_cloexec: how this thread's last pipe (a Child's, a Handle's) was made. */
    public static IRubyObject last_pipes(ThreadContext context, IRubyObject self) {
        return symbol(context, Trace.last(Trace.Concern.PIPES));
    }

    /** Native.last_buffer_growth -> :mremap or :mmap_copy: how this thread's last capture buffer to outgrow its mapping grew it. */
    public static IRubyObject last_buffer_growth(ThreadContext context, IRubyObject self) {
        return symbol(context, Trace.last(Trace.Concern.BUFFER_GROWTH));
    }

    /** Native.last_reaper_route -> :pidfd or :waitpid_poll: how the reaper watches this thread's last started child. */
    public static IRubyObject last_reaper_route(ThreadContext context, IRubyObject self) {
        return symbol(context, Trace.last(Trace.Concern.EXIT_ROUTE));
    }

    /** Native.last_select -> :poll or :jruby: whether this thread's last IO.select (the drop-in's) was one poll(2) or JRuby's select. */
    public static IRubyObject last_select(ThreadContext context, IRubyObject self) {
        return symbol(context, Trace.last(Trace.Concern.SELECT));
    }

    /** Native.reaper_owned_pids -> the pids of the children the reaper holds that have not ended (for leak checks). */
    public static IRubyObject reaper_owned_pids(ThreadContext context, IRubyObject self) {
        RubyArray<?> pids = RubyArray.newArray(context.runtime);
        for (long pid : Reaper.ownedPids()) pids.append(RubyFixnum.newFixnum(context.runtime, pid));
        return pids;
    }

    /** Native.pretend_missing(name, missing): run the fallback for an optional call (a libc function, or pidfd_open). */
    public static IRubyObject pretend_missing(ThreadContext context, IRubyObject self, IRubyObject name, IRubyObject missing) {
        try {
            Features.pretendMissing(name.asJavaString(), missing.isTrue());
        } catch (IllegalArgumentException e) {
            throw context.runtime.newArgumentError(e.getMessage());
        }
        return context.nil;
    }

    /** Native.hold_at_gate(hold): keep each child an rlimit spawn makes at the gate until cleared (the lifeline's spec). */
    public static IRubyObject hold_at_gate(ThreadContext context, IRubyObject self, IRubyObject hold) {
        Spawner.holdAtGate(hold.isTrue());
        return context.nil;
    }

    private static IRubyObject symbol(ThreadContext context, Enum<?> way) {
        return way == null ? context.nil : context.runtime.newSymbol(way.name().toLowerCase());
    }
}

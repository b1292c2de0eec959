package org.posixspawn.jruby;

import java.nio.ByteBuffer;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyIO;
import org.jruby.RubyClass;
import org.jruby.RubyFixnum;
import org.jruby.RubyModule;
import org.jruby.RubyNumeric;
import org.jruby.RubyObject;
import org.jruby.RubyProcess;
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.os.capture.Capture;
import org.posixspawn.jruby.os.child.OwnedChild;
import org.posixspawn.jruby.os.child.Reaper;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.plan.RealDescriptors;

/**
 * POSIX::Spawn::Handle's core (lib/posix/spawn/handle.rb adds the rest): a child owned by the {@link Reaper},
 * its status once it has ended, and waits for that which any number of threads may do at once, each
 * interruptible (Thread#raise, Thread#kill, Timeout).
 */
public final class Handle extends RubyObject {
    private static final long serialVersionUID = 1L;

    private final transient OwnedChild child;
    private IRubyObject status; // the Process::Status, made once
    private transient Capture communication; // a communicate's run until its output reached the caller (__communicated)

    private Handle(Ruby runtime, RubyClass type, OwnedChild child) {
        super(runtime, type);
        this.child = child;
    }

    static void define(Ruby runtime, RubyModule spawn) {
        RubyClass type = spawn.defineClassUnder("Handle", runtime.getObject(), org.jruby.runtime.ObjectAllocator.NOT_ALLOCATABLE_ALLOCATOR);
        new BoundMethods().defineAll(type);
    }

    /** A Handle of {@code child}, attached to it (so {@link #attachedTo} finds it again from the reaper's child). */
    static Handle of(Ruby runtime, OwnedChild child) {
        RubyClass type = (RubyClass) ((RubyModule) runtime.getModule("POSIX").getConstantAt("Spawn")).getConstantAt("Handle");
        Handle handle = new Handle(runtime, type, child);
        child.attachment = handle;
        return handle;
    }

    /** The Handle a child's {@code attachment} is, when it was made in {@code runtime}; else null. */
    static Handle attachedTo(Ruby runtime, Object attachment) {
        return attachment instanceof Handle && ((Handle) attachment).getRuntime() == runtime ? (Handle) attachment : null;
    }

    public IRubyObject pid(ThreadContext context) {
        return RubyFixnum.newFixnum(context.runtime, child.pid);
    }

    /** How the reaper learns of this child's end: :pidfd or :waitpid_poll. */
    public IRubyObject route(ThreadContext context) {
        return context.runtime.newSymbol(child.route().name().toLowerCase());
    }

    /** The Process::Status once the child has ended, else nil. */
    public IRubyObject status(ThreadContext context) {
        return child.ended() && !child.lost() ? statusObject(context) : context.nil;
    }

    public IRubyObject alive_p(ThreadContext context) {
        return context.runtime.newBoolean(!child.ended());
    }

    /** Whether the child leads a process group of its own (:pgroup => true, :setsid), which signals may go to. */
    public IRubyObject leads_group_p(ThreadContext context) {
        return context.runtime.newBoolean(child.leadsGroup);
    }

    /**
     * __wait(seconds or nil) -> Process::Status, or nil if the time ran out first; $? is set in this thread.
     * Raises Errno::ECHILD when someone else's wait took the child (Process.wait with no pid).
     */
    public IRubyObject await(ThreadContext context, IRubyObject timeout) {
        if (!Interrupts.awaitEnd(context, child, RubyValues.deadline(context, System.nanoTime(), timeout))) return context.nil;
        if (child.lost()) throw Errors.toRuby(context, child.lostError());
        IRubyObject result = statusObject(context);
        context.setLastExitStatus(result);
        return result;
    }

    /** __signal(number, group) -> true if sent, false if the child has already ended. */
    public IRubyObject signal(ThreadContext context, IRubyObject number, IRubyObject group) {
        int signal = RubyNumeric.num2int(number);
        return context.runtime.newBoolean(Errors.call(context, () -> child.signal(signal, group.isTrue())));
    }

    /**
     * __on_exit { |status| } : the block runs on the reaper's thread once the child has ended, also when it has
     * already (issue #28: one rule whatever the timing). What it raises never reaches the caller: it is reported
     * on $stderr as Thread#report_on_exception reports a thread's, naming the handle.
     */
    public IRubyObject on_exit(ThreadContext context, Block block) {
        if (!block.isGiven()) throw context.runtime.newArgumentError("on_exit needs a block");
        Ruby runtime = context.runtime;
        child.onExitOnReaper(ended -> {
            ThreadContext reaperContext = runtime.getCurrentContext();
            try {
                block.call(reaperContext, status(reaperContext));
            } catch (RaiseException e) {
                IRubyObject report = runtime.newString("posix-spawn: the on_exit callback of " + callMethod(reaperContext, "inspect")
                        + " terminated with exception (reported as report_on_exception reports):\n");
                report.callMethod(reaperContext, "<<", e.getException().callMethod(reaperContext, "full_message"));
                runtime.getGlobalVariables().get("$stderr").callMethod(reaperContext, "write", report);
            }
        });
        return this;
    }

    /**
     * __communicate(stdin, stdout, stderr, input, timeout, wait_delay) -> [out, err] (nil where not piped), or :timeout.
     * The first call takes the pipes over from the three IOs (closing them) and feeds input, then reads both
     * outputs to the end with Child's poll loop. The run stays the handle's until {@link #communicated}: after
     * a timeout, an interrupt (Thread#raise, Timeout) or a wait that did not end, the next call goes on where
     * it stopped, or gives the finished run's output again, nothing lost. A run that failed (a read error) is
     * closed. A wait_delay closes the pipes that long after the child has ended. Waiting for the exit is the caller's.
     */
    public IRubyObject communicate(ThreadContext context, IRubyObject[] args) {
        Ruby runtime = context.runtime;
        if (communication == null) communication = takeOver(context, args);
        long deadline = RubyValues.deadline(context, System.nanoTime(), args[4]);
        Capture run = communication;
        run.resume(deadline);
        if (!args[5].isNil()) run.waitDelay(RubyValues.nanos(context, args[5]));
        try {
            Interrupts.runToEnd(context, run, () -> false);
        } catch (RuntimeException | Error e) {
            if (run.failed()) {
                communication = null;
                run.close();
            }
            throw e;
        }
        if (run.outcome() == Capture.Outcome.TIMED_OUT) return runtime.newSymbol("timeout");
        run.close(); // every pipe at its end: closed now; the output stays until communicated
        return RubyArray.newArray(runtime,
                args[1].isNil() ? context.nil : RubyValues.binaryString(runtime, run.out().bytes()),
                args[2].isNil() ? context.nil : RubyValues.binaryString(runtime, run.err().bytes()));
    }

    /** __communicated: the output of the last __communicate reached its caller; the next one starts afresh. */
    public IRubyObject communicated(ThreadContext context) {
        Capture run = communication;
        communication = null;
        if (run != null) run.close();
        return context.nil;
    }

    /**
     * A run over close-on-exec duplicates of the three IOs' descriptors (args 0-2, nil or closed: not piped),
     * which are closed once the run owns the copies. When a copy or the run cannot be made (EMFILE), the
     * copies made so far are closed and the IOs stay open, for a later call.
     */
    private Capture takeOver(ThreadContext context, IRubyObject[] args) {
        ByteBuffer input = args[3].isNil() ? null : ByteBuffer.wrap(args[3].convertToString().getByteList().bytes());
        int[] copies = {-1, -1, -1};
        Capture run = null;
        try {
            run = Errors.call(context, () -> {
                for (int i = 0; i < 3; i++) {
                    if (args[i].isNil() || ((RubyIO) args[i]).isClosed()) continue;
                    copies[i] = Fds.dupCloexec(RealDescriptors.of((RubyIO) args[i]), 0, "dup of the handle's pipe");
                }
                return Capture.over(child, copies[0], copies[1], copies[2], input);
            });
        } finally {
            if (run == null) for (int fd : copies) if (fd >= 0) Fds.close(fd);
        }
        for (int i = 0; i < 3; i++) if (copies[i] >= 0) args[i].callMethod(context, "close");
        return run;
    }

    private IRubyObject statusObject(ThreadContext context) {
        synchronized (this) {
            if (status == null) status = RubyProcess.RubyStatus.newProcessStatus(context.runtime, child.rawStatus(), child.pid);
            return status;
        }
    }

    /** Handle's methods, called by name ({@link BoundMethod}): their table and their group at once (Handle is loaded). */
    private static final class BoundMethods extends BoundMethod.Table implements BoundMethod.Group {
        @Override
        void defineAll(RubyModule type) {
            define(type, "pid", 0, 0);
            define(type, "route", 0, 0);
            define(type, "status", 0, 0);
            define(type, "alive?", 0, 0);
            define(type, "leads_group?", 0, 0);
            define(type, "__wait", 1, 0);
            define(type, "__signal", 2, 0);
            define(type, "__on_exit", 0, 0);
            define(type, "__communicate", 6, 0);
            define(type, "__communicated", 0, 0);
        }

        @Override
        BoundMethod.Group create() {
            return this;
        }

        @Override
        public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
            switch (name) {
                case "pid": return ((Handle) self).pid(context);
                case "route": return ((Handle) self).route(context);
                case "status": return ((Handle) self).status(context);
                case "alive?": return ((Handle) self).alive_p(context);
                case "leads_group?": return ((Handle) self).leads_group_p(context);
                case "__wait": return ((Handle) self).await(context, args[0]);
                case "__signal": return ((Handle) self).signal(context, args[0], args[1]);
                case "__on_exit": return ((Handle) self).on_exit(context, block);
                case "__communicate": return ((Handle) self).communicate(context, args);
                case "__communicated": return ((Handle) self).communicated(context);
                default: throw new AssertionError(name);
            }
        }
    }
}

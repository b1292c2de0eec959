package org.posixspawn.jruby;

import java.nio.ByteBuffer;

import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyFloat;
import org.jruby.RubyNumeric;
import org.jruby.RubyProcess;
import org.jruby.RubyString;
import org.jruby.RubyThread;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.runtime.builtin.InstanceVariables;
import org.jruby.util.ByteList;
import org.posixspawn.jruby.os.Capture;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/** POSIX::Spawn::Native.capture: the engine of POSIX::Spawn::Child#exec! (lib/posix/spawn/child.rb). */
public final class ChildMethods {
    private ChildMethods() {}

    /**
     * While the loop waits in poll, another thread's Thread#raise, Thread#kill (and so Timeout.timeout and
     * Ctrl-C) call wakeup; run then returns false and executeTask's caller delivers the pending event.
     */
    static final RubyThread.Task<Capture, Boolean> RUN = new RubyThread.Task<Capture, Boolean>() {
        @Override
        public Boolean run(ThreadContext context, Capture capture) {
            return capture.run();
        }

        @Override
        public void wakeup(RubyThread thread, Capture capture) {
            capture.wakeup();
        }
    };

    /**
     * Native.capture(child, spawn_args, input, timeout, max, pgroup_kill, stdout_stream, stderr_stream[, wait_delay])
     *   -> nil, :timeout, :max or :aborted
     *
     * Runs the command of spawn_args (Process.spawn's arguments) to completion, feeding it input (a String,
     * or nil to close its stdin at once). Sets child's @pid once started, and @out, @err, @status ($? too)
     * and @runtime on every way out, exceptions and interrupts included, so partial output stays readable.
     * A timeout (seconds) or max (bytes) that is nil or not positive means none. A stream that is not nil
     * is called with each chunk of that output (a binary String) instead of capturing it; a true result
     * stops the run (:aborted). A wait_delay (seconds) that is not nil closes the pipes that long after the
     * child's exit, even if a background process still holds them open.
     */
    @JRubyMethod(module = true, required = 8, optional = 1)
    public static IRubyObject capture(ThreadContext context, IRubyObject self, IRubyObject[] args) {
        Ruby runtime = context.runtime;
        IRubyObject child = args[0];
        SpawnPlan plan = SpawnArguments.parse(context, ((RubyArray<?>) args[1].convertToArray()).toJavaArray());
        ByteBuffer input = args[2].isNil() ? null : bytesOf(args[2].convertToString());
        double timeout = args[3].isNil() ? 0 : RubyNumeric.num2dbl(context, args[3]);
        long max = args[4].isNil() ? 0 : RubyNumeric.num2long(args[4]);
        IRubyObject stdoutStream = args[6], stderrStream = args[7];

        long started = System.nanoTime();
        long deadline = timeout > 0 ? started + (long) Math.min(timeout * 1e9, Long.MAX_VALUE / 2) : Long.MAX_VALUE;
        Capture capture = NativeMethods.start(context, () -> Capture.start(plan, input, deadline, max > 0 ? max : -1, args[5].isTrue()));
        child.getInstanceVariables().setInstanceVariable("@pid", RubyFixnum.newFixnum(runtime, capture.pid()));
        boolean aborted = false;
        try {
            if (!stdoutStream.isNil()) capture.out().stream();
            if (!stderrStream.isNil()) capture.err().stream();
            if (args.length > 8 && !args[8].isNil()) capture.waitDelay(Handle.nanos(context, args[8]), null);
            boolean over = false;
            while (!over && !aborted) {
                try {
                    over = context.getThread().executeTask(context, capture, RUN);
                } catch (InterruptedException e) {
                    // a Java interrupt: handled like a wake-up
                }
                aborted = deliver(context, capture.out(), stdoutStream) || deliver(context, capture.err(), stderrStream);
                if (!over) context.pollThreadEvents(); // woken: a pending raise or kill fires here, else keep going
            }
        } finally {
            capture.close();
            report(context, child, capture, started);
        }
        if (aborted) return runtime.newSymbol("aborted");
        switch (capture.outcome()) {
            case TIMED_OUT: return runtime.newSymbol("timeout");
            case OUTPUT_EXCEEDED: return runtime.newSymbol("max");
            default: return context.nil;
        }
    }

    /** Calls stream with the chunk a streamed output has waiting, if any; returns whether it asked to stop (a true result). */
    private static boolean deliver(ThreadContext context, Capture.Output output, IRubyObject stream) {
        byte[] chunk = output.takeChunk();
        if (chunk == null) return false;
        return stream.callMethod(context, "call", binaryString(context.runtime, chunk)).isTrue();
    }

    /** Native.last_exit_wait -> :pidfd or :waitpid_poll: how this thread's last Child waited for its exit. */
    @JRubyMethod(module = true)
    public static IRubyObject last_exit_wait(ThreadContext context, IRubyObject self) {
        Capture.ExitWait wait = Capture.ExitWait.last();
        return wait == null ? context.nil : context.runtime.newSymbol(wait.name().toLowerCase());
    }

    private static void report(ThreadContext context, IRubyObject child, Capture capture, long started) {
        Ruby runtime = context.runtime;
        IRubyObject status = context.nil;
        if (capture.rawStatus() >= 0) {
            status = RubyProcess.RubyStatus.newProcessStatus(runtime, capture.rawStatus(), capture.pid());
            context.setLastExitStatus(status);
        }
        InstanceVariables ivars = child.getInstanceVariables();
        ivars.setInstanceVariable("@out", binaryString(runtime, capture.out().bytes()));
        ivars.setInstanceVariable("@err", binaryString(runtime, capture.err().bytes()));
        ivars.setInstanceVariable("@status", status);
        ivars.setInstanceVariable("@runtime", RubyFloat.newFloat(runtime, (System.nanoTime() - started) / 1e9));
    }

    /** The String's bytes where they are, not copied (as with IO#write, another thread changing it meanwhile races the run). */
    private static ByteBuffer bytesOf(RubyString string) {
        ByteList bytes = string.getByteList();
        return ByteBuffer.wrap(bytes.unsafeBytes(), bytes.begin(), bytes.realSize());
    }

    /** An ASCII-8BIT String that takes over the array (no copy). */
    static RubyString binaryString(Ruby runtime, byte[] bytes) {
        return RubyString.newStringNoCopy(runtime, new ByteList(bytes, ASCIIEncoding.INSTANCE, false));
    }
}

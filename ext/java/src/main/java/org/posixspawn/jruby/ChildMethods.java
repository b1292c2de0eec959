package org.posixspawn.jruby;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyFloat;
import org.jruby.RubyHash;
import org.jruby.RubyNumeric;
import org.jruby.RubyProcess;
import org.jruby.RubyString;
import org.jruby.RubyThread;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.posixspawn.jruby.os.capture.Capture;
import org.posixspawn.jruby.os.capture.CaptureBuffer;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.platform.Strategy;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/** POSIX::Spawn::Native.capture: the engine of POSIX::Spawn::Child#exec! (lib/posix/spawn/child.rb). */
public final class ChildMethods {
    private ChildMethods() {}

    /**
     * While the loop waits in poll, another thread's Thread#raise, Thread#kill (and so Timeout.timeout and
     * Ctrl-C) call wakeup; run then returns false and executeTask's caller delivers the pending event. The
     * result is run's (a Boolean), or the SpawnError it raised, which a Task cannot throw.
     */
    static final RubyThread.Task<Capture, Object> RUN = new RubyThread.Task<Capture, Object>() {
        @Override
        public Object run(ThreadContext context, Capture capture) {
            try {
                return capture.run();
            } catch (SpawnError e) {
                return e;
            }
        }

        @Override
        public void wakeup(RubyThread thread, Capture capture) {
            capture.wakeup();
        }
    };

    /**
     * Native.capture(spawn_args, input:, timeout:, max:, pgroup_kill:, stdout:, stderr:, wait_delay:) { |result| } -> nil, :timeout, :max or :aborted
     *
     * Runs the command of spawn_args (Process.spawn's arguments) to completion, feeding it input (a String,
     * or nil to close its stdin at once). A timeout (seconds) or max (bytes) that is nil or not positive means
     * none. A stdout or stderr callable is called with each chunk of that output (a binary String) instead of
     * capturing it; a true result stops the run (:aborted). A wait_delay (seconds) that is not nil closes the
     * pipes that long after the child's exit, even if a background process still holds them open. The block gets { pid: } once the child has
     * started, then { pid:, out:, err:, status:, runtime: } on every way out, exceptions and interrupts
     * included, so partial output stays readable; $? is set too.
     */
    @JRubyMethod(module = true)
    public static IRubyObject capture(ThreadContext context, IRubyObject self, IRubyObject spawnArgs, IRubyObject options, Block report) {
        Ruby runtime = context.runtime;
        RubyHash opts = options.convertToHash();
        SpawnPlan plan = SpawnArguments.parse(context, ((RubyArray<?>) spawnArgs.convertToArray()).toJavaArray());
        IRubyObject inputValue = option(context, opts, "input");
        ByteBuffer input = inputValue.isNil() ? null : bytesOf(inputValue.convertToString());
        IRubyObject timeoutValue = option(context, opts, "timeout"), maxValue = option(context, opts, "max");
        double timeout = timeoutValue.isNil() ? 0 : RubyNumeric.num2dbl(context, timeoutValue);
        long max = maxValue.isNil() ? 0 : RubyNumeric.num2long(maxValue);
        boolean ownGroup = option(context, opts, "pgroup_kill").isTrue();
        IRubyObject stdoutStream = option(context, opts, "stdout"), stderrStream = option(context, opts, "stderr");
        IRubyObject waitDelay = option(context, opts, "wait_delay");

        long startedAt = System.nanoTime();
        long deadline = timeout > 0 ? startedAt + (long) Math.min(timeout * 1e9, Long.MAX_VALUE / 2) : Long.MAX_VALUE;
        Capture capture = NativeMethods.start(context, () -> Capture.start(plan, input, deadline, max > 0 ? max : -1, ownGroup));
        RubyHash started = RubyHash.newHash(runtime);
        started.fastASet(runtime.newSymbol("pid"), RubyFixnum.newFixnum(runtime, capture.pid()));
        report.yield(context, started);
        boolean aborted = false;
        try {
            if (!stdoutStream.isNil()) capture.out().stream();
            if (!stderrStream.isNil()) capture.err().stream();
            if (!waitDelay.isNil()) capture.waitDelay(Handle.nanos(context, waitDelay));
            aborted = runToEnd(context, capture,
                    () -> deliver(context, capture.out(), stdoutStream) || deliver(context, capture.err(), stderrStream));
        } finally {
            capture.close();
            report.yield(context, result(context, capture, startedAt));
        }
        if (aborted) return runtime.newSymbol("aborted");
        switch (capture.outcome()) {
            case TIMED_OUT: return runtime.newSymbol("timeout");
            case OUTPUT_EXCEEDED: return runtime.newSymbol("max");
            default: return context.nil;
        }
    }

    /** Native.last_pipes -> :pipe2 or :pipe_then_fd_cloexec: how this thread's last pipe (a Child's, a Handle's) was made. */
    @JRubyMethod(module = true)
    public static IRubyObject last_pipes(ThreadContext context, IRubyObject self) {
        Strategy.Pipes pipes = Pipe.last();
        return pipes == null ? context.nil : context.runtime.newSymbol(pipes.name().toLowerCase());
    }

    /** Native.last_buffer_growth -> :mremap or :mmap_copy: how this thread's last capture buffer to outgrow its mapping grew it. */
    @JRubyMethod(module = true)
    public static IRubyObject last_buffer_growth(ThreadContext context, IRubyObject self) {
        Strategy.CaptureBuffer growth = CaptureBuffer.lastGrowth();
        return growth == null ? context.nil : context.runtime.newSymbol(growth.name().toLowerCase());
    }

    /**
     * Runs a capture until it is over, in executeTask, so that Thread#raise and #kill (Timeout, Ctrl-C) wake
     * it and are delivered here. After each round {@code stop} hands on what a streamed output has waiting;
     * true stops the run early. Returns whether it did.
     */
    static boolean runToEnd(ThreadContext context, Capture capture, BooleanSupplier stop) {
        while (true) {
            Object ran = null;
            try {
                ran = context.getThread().executeTask(context, capture, RUN);
            } catch (InterruptedException e) {
                // a Java interrupt: handled like a wake-up
            }
            if (ran instanceof SpawnError) throw Errors.toRuby(context, (SpawnError) ran);
            boolean over = Boolean.TRUE.equals(ran);
            boolean stopped = stop.getAsBoolean();
            if (!over) context.pollThreadEvents(); // woken: a pending raise or kill fires here, else keep going
            if (over || stopped) return stopped;
        }
    }

    private static IRubyObject option(ThreadContext context, RubyHash options, String name) {
        IRubyObject value = options.fastARef(context.runtime.newSymbol(name));
        return value == null ? context.nil : value;
    }

    /** Calls stream with the chunk a streamed output has waiting, if any; returns whether it asked to stop (a true result). */
    private static boolean deliver(ThreadContext context, CaptureBuffer output, IRubyObject stream) {
        byte[] chunk = output.takeChunk();
        if (chunk == null) return false;
        return stream.callMethod(context, "call", binaryString(context.runtime, chunk)).isTrue();
    }

    /** What the run left, for Child to keep: { pid:, out:, err:, status: (nil if someone else reaped it), runtime: }; $? set. */
    private static RubyHash result(ThreadContext context, Capture capture, long started) {
        Ruby runtime = context.runtime;
        IRubyObject status = context.nil;
        if (capture.rawStatus() >= 0) {
            status = RubyProcess.RubyStatus.newProcessStatus(runtime, capture.rawStatus(), capture.pid());
            context.setLastExitStatus(status);
        }
        RubyHash result = RubyHash.newHash(runtime);
        result.fastASet(runtime.newSymbol("pid"), RubyFixnum.newFixnum(runtime, capture.pid()));
        result.fastASet(runtime.newSymbol("out"), binaryString(runtime, capture.out().bytes()));
        result.fastASet(runtime.newSymbol("err"), binaryString(runtime, capture.err().bytes()));
        result.fastASet(runtime.newSymbol("status"), status);
        result.fastASet(runtime.newSymbol("runtime"), RubyFloat.newFloat(runtime, (System.nanoTime() - started) / 1e9));
        return result;
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

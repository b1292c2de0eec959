package org.posixspawn.jruby;

import java.nio.ByteBuffer;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyFloat;
import org.jruby.RubyHash;
import org.jruby.RubyModule;
import org.jruby.RubyNumeric;
import org.jruby.RubyProcess;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.os.capture.Capture;
import org.posixspawn.jruby.os.capture.CaptureBuffer;
import org.posixspawn.jruby.plan.SpawnPlan;

/** POSIX::Spawn::Native.capture: the engine of POSIX::Spawn::Child#exec! (lib/posix/spawn/child.rb). */
public final class CaptureMethods implements BoundMethod.Group {
    CaptureMethods() {} // made by its Table, at the first call

    /** These methods' names and arities ({@link BoundMethod.Table}). */
    static final class Table extends BoundMethod.Table {
        @Override
        void defineAll(RubyModule target) {
            define(target, "capture", 2, 0);
        }

        @Override
        BoundMethod.Group create() {
            return new CaptureMethods();
        }
    }

    @Override
    public IRubyObject call(String name, ThreadContext context, IRubyObject self, IRubyObject[] args, Block block) {
        switch (name) {
            case "capture": return capture(context, self, args[0], args[1], block);
            default: throw new AssertionError(name);
        }
    }

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
    public static IRubyObject capture(ThreadContext context, IRubyObject self, IRubyObject spawnArgs, IRubyObject options, Block report) {
        Ruby runtime = context.runtime;
        RubyHash opts = options.convertToHash();
        SpawnPlan plan = Plans.parse(context, ((RubyArray<?>) spawnArgs.convertToArray()).toJavaArray());
        IRubyObject inputValue = RubyValues.option(context, opts, "input");
        ByteBuffer input = inputValue.isNil() ? null : RubyValues.bytesOf(inputValue.convertToString());
        IRubyObject timeoutValue = RubyValues.option(context, opts, "timeout"), maxValue = RubyValues.option(context, opts, "max");
        double timeout = timeoutValue.isNil() ? 0 : RubyNumeric.num2dbl(context, timeoutValue);
        long max = maxValue.isNil() ? 0 : RubyNumeric.num2long(maxValue);
        boolean ownGroup = RubyValues.option(context, opts, "pgroup_kill").isTrue();
        IRubyObject stdoutStream = RubyValues.option(context, opts, "stdout"), stderrStream = RubyValues.option(context, opts, "stderr");
        IRubyObject waitDelay = RubyValues.option(context, opts, "wait_delay");

        long startedAt = System.nanoTime();
        long deadline = timeout > 0 ? RubyValues.deadline(context, startedAt, timeoutValue) : RubyValues.NO_DEADLINE;
        Capture capture = Errors.call(context, () -> Capture.start(plan, input, deadline, max > 0 ? max : -1, ownGroup));
        RubyHash started = RubyHash.newHash(runtime);
        started.fastASet(runtime.newSymbol("pid"), RubyFixnum.newFixnum(runtime, capture.pid()));
        boolean aborted = false;
        try {
            report.yield(context, started); // in the try: whatever it raises, close() ends and reaps the child
            if (!stdoutStream.isNil()) capture.out().stream();
            if (!stderrStream.isNil()) capture.err().stream();
            if (!waitDelay.isNil()) capture.waitDelay(RubyValues.nanos(context, waitDelay));
            aborted = Interrupts.runToEnd(context, capture,
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

    /** Calls stream with the chunk a streamed output has waiting, if any; returns whether it asked to stop (a true result). */
    private static boolean deliver(ThreadContext context, CaptureBuffer output, IRubyObject stream) {
        byte[] chunk = output.takeChunk();
        if (chunk == null) return false;
        return stream.callMethod(context, "call", RubyValues.binaryString(context.runtime, chunk)).isTrue();
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
        result.fastASet(runtime.newSymbol("out"), RubyValues.binaryString(runtime, capture.out().bytes()));
        result.fastASet(runtime.newSymbol("err"), RubyValues.binaryString(runtime, capture.err().bytes()));
        result.fastASet(runtime.newSymbol("status"), status);
        result.fastASet(runtime.newSymbol("runtime"), RubyFloat.newFloat(runtime, (System.nanoTime() - started) / 1e9));
        return result;
    }
}

package org.posixspawn.jruby.os;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * One child run to completion with its stdin fed and its stdout and stderr captured, by one thread and
 * one poll(2) loop: no thread per stream, so nothing can deadlock however much flows each way.
 * <p>
 * The pipes are {@link CapturePipes}; output is read straight into {@link CaptureBuffer}s. A wake-up pipe
 * lets another thread ({@link #wakeup}: Thread#raise, Thread#kill, Timeout, a trapped Ctrl-C) break the
 * poll; {@link #close} then ends a child that is still running ({@link ChildExit#terminate}) and closes
 * every descriptor. After the pipes close, the child's {@link ChildExit} joins the same poll (a pidfd), so
 * the deadline covers the wait for the exit too; without one, waitpid is asked every few milliseconds.
 * <p>
 * An output can be streamed instead of captured ({@link CaptureBuffer#stream}): {@link #run} then returns
 * after each read from it, and the caller takes the bytes with {@link CaptureBuffer#takeChunk}.
 * <p>
 * Used as: {@link #start}, then {@link #run} until it returns true (false means woken, or a chunk of a streamed
 * output is waiting), then {@link #close}.
 */
public final class Capture implements AutoCloseable {
    /** How a run ended. */
    public enum Outcome { EXITED, TIMED_OUT, OUTPUT_EXCEEDED }

    private final long pid;
    /** The child's exit, which the run waits for and ends; null for a handle's pipes ({@link #over}): the reaper owns the child. */
    private final ChildExit exit;
    private long deadline; // System.nanoTime(), or Long.MAX_VALUE
    private long waitDelay = -1; // nanoseconds the pipes are still read once the child has exited, or -1: to their end
    private long drainUntil = Long.MAX_VALUE; // System.nanoTime() when waitDelay's time is up
    private BooleanSupplier ended; // over(): the reaper's word that the child has ended
    private final long max;      // bytes of stdout + stderr, or -1
    private final ByteBuffer input;
    private final PollSet pollfds = new PollSet(5);
    private final CaptureBuffer out = new CaptureBuffer(), err = new CaptureBuffer();
    private final Object wakeLock = new Object();
    // The parent's ends, -1 once closed.
    private int stdin, stdout, stderr, wakeRead, wakeWrite;
    private boolean closed;
    private boolean moved; // the last round read or wrote something
    private long outputTotal; // bytes read from stdout and stderr, streamed or captured
    private Outcome outcome;

    private Capture(long pid, ChildExit exit, long deadline, long max, ByteBuffer input, int stdin, int stdout, int stderr, Pipe wake) {
        this.pid = pid;
        this.exit = exit;
        this.deadline = deadline;
        this.max = max;
        this.input = input;
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        wakeRead = wake.takeRead();
        wakeWrite = wake.takeWrite();
    }

    private static boolean feeds(ByteBuffer input) {
        return input != null && input.remaining() > 0;
    }

    /**
     * Starts the child the plan describes with pipes on 0, 1 and 2 (replacing any redirect of them).
     *
     * @param input     bytes for stdin from position to limit, or null to close stdin at once
     * @param deadline  System.nanoTime() after which the run times out, or Long.MAX_VALUE
     * @param max       bytes of stdout and stderr together beyond which the run stops, or -1
     * @param ownGroup  start the child in a new process group and signal the whole group
     */
    public static Capture start(SpawnPlan plan, ByteBuffer input, long deadline, long max, boolean ownGroup) throws SpawnError {
        Native.requireProfile();
        try (CapturePipes pipes = CapturePipes.open(feeds(input))) {
            SpawnPlan piped = plan.withStdio(new int[] {pipes.stdin.readEnd(), pipes.stdout.writeEnd(), pipes.stderr.writeEnd()}, ownGroup);
            ChildExit exit = new ChildExit(Spawner.spawn(piped), ownGroup);
            JvmExitHook.watch(exit);
            // The child's ends (and stdin's, when there is nothing to feed) are closed with the pipes.
            return new Capture(exit.pid, exit, deadline, max, input, feeds(input) ? pipes.stdin.takeWrite() : -1,
                    pipes.stdout.takeRead(), pipes.stderr.takeRead(), pipes.wake);
        }
    }

    /**
     * A run over the parent's ends of a handle's pipes (each -1 where not piped), which it takes over and
     * closes: it feeds and reads them to the end, and neither waits for, signals nor reaps the child (the
     * {@link Reaper} does). {@link #run} returns true once every pipe is closed, or at the deadline.
     */
    public static Capture over(long pid, int stdin, int stdout, int stderr, ByteBuffer input) throws SpawnError {
        Pipe wake = Pipe.open();
        for (int fd : new int[] {stdin, stdout, stderr, wake.readEnd(), wake.writeEnd()}) if (fd >= 0) Pipe.setNonBlocking(fd);
        if (stdin >= 0 && !feeds(input)) {
            Native.libc.close(stdin);
            stdin = -1;
        }
        return new Capture(pid, null, Long.MAX_VALUE, -1, input, stdin, stdout, stderr, wake);
    }

    /** Moves the deadline (System.nanoTime(), or Long.MAX_VALUE) and clears a timeout, for a resumed {@link #over} run. */
    public void resume(long deadline) {
        this.deadline = deadline;
        if (outcome == Outcome.TIMED_OUT) outcome = null;
    }

    /**
     * Reads the pipes for at most {@code nanos} once the child has exited, then closes them (wait_delay: a
     * background process holding the child's stdout open no longer holds up the run). For an {@link #over}
     * run, {@code ended} says when the child has ended, and a {@link #wakeup} should follow its end.
     */
    public void waitDelay(long nanos, BooleanSupplier ended) {
        this.waitDelay = nanos;
        this.ended = ended;
    }

    private boolean childExited() {
        if (exit == null) return ended != null && ended.getAsBoolean();
        return exit.exited();
    }

    /** Bytes of the input not written yet. */
    public int inputLeft() {
        return input == null ? 0 : input.remaining();
    }

    public long pid() {
        return pid;
    }

    /** The outcome once {@link #run} has returned true, else null. */
    public Outcome outcome() {
        return outcome;
    }

    /** The raw wait status (as waitpid gives it) once reaped, or -1 (not reaped, or reaped by someone else, or an {@link #over} run). */
    public int rawStatus() {
        return exit == null ? -1 : exit.rawStatus();
    }

    public CaptureBuffer out() {
        return out;
    }

    public CaptureBuffer err() {
        return err;
    }

    /**
     * Feeds, reads and waits until the run is over (true; see {@link #outcome}), {@link #wakeup} was called, or
     * a streamed output has a chunk (false: the caller handles what woke it, takes the chunks, and calls run again).
     */
    public boolean run() throws SpawnError {
        while (outcome == null) {
            boolean waitingForExit = stdin < 0 && stdout < 0 && stderr < 0;
            if (waitingForExit && (exit == null || exit.reapIfExited())) {
                outcome = Outcome.EXITED;
                break;
            }
            if (!waitingForExit && waitDelay >= 0) {
                if (drainUntil == Long.MAX_VALUE && childExited()) drainUntil = System.nanoTime() + waitDelay;
                if (drainUntil != Long.MAX_VALUE && System.nanoTime() - drainUntil >= 0) {
                    closeAll(stdin, stdout, stderr); // what a background process writes after this is not ours
                    stdin = stdout = stderr = -1;
                    continue;
                }
            }
            long left = deadline == Long.MAX_VALUE ? -1 : deadline - System.nanoTime();
            if (deadline != Long.MAX_VALUE && left <= 0) {
                outcome = Outcome.TIMED_OUT;
                break;
            }
            int timeout = left < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
            pollfds.clear();
            pollfds.watch(wakeRead, Constants.POLLIN);
            pollfds.watch(stdin, Constants.POLLOUT);
            pollfds.watch(stdout, Constants.POLLIN);
            pollfds.watch(stderr, Constants.POLLIN);
            if (waitingForExit) {
                if (exit.pidfd() >= 0) pollfds.watch(exit.pidfd(), Constants.POLLIN);
                else timeout = timeout < 0 ? ChildExit.EXIT_POLL_MILLIS : Math.min(timeout, ChildExit.EXIT_POLL_MILLIS);
            } else if (waitDelay >= 0) {
                // Until the exit, Child watches it beside the pipes; after it, poll no longer than the delay.
                int until = drainUntil == Long.MAX_VALUE ? -1 : (int) Math.max(0, (drainUntil - System.nanoTime() + 999_999) / 1_000_000);
                if (until < 0 && exit != null && exit.pidfd() >= 0) pollfds.watch(exit.pidfd(), Constants.POLLIN);
                else if (until < 0 && exit != null) until = ChildExit.EXIT_POLL_MILLIS;
                if (until >= 0) timeout = timeout < 0 ? until : Math.min(timeout, until);
            }
            // Data just moved: look again without sleeping. Sleeping in poll after each read, to be woken by the
            // child's next write, made a 16 MiB capture about a third slower (also in C: Linux 6.18 on a VM).
            if (moved) timeout = 0;
            moved = false;
            if (pollfds.poll(timeout) < 0) {
                int errno = Native.errno();
                if (errno == Constants.EINTR) continue;
                throw SpawnError.errno(errno, "poll");
            }
            boolean woken = false;
            for (int i = 0; i < pollfds.count(); i++) {
                if (!pollfds.ready(i)) continue;
                int fd = pollfds.fd(i);
                if (fd == wakeRead) woken = true;
                else if (fd == stdin) feed();
                else if (fd == stdout) stdout = drain(stdout, out);
                else if (fd == stderr) stderr = drain(stderr, err);
                // a readable pidfd only ends the poll: the next round reaps
            }
            if (woken) drainWakeups();
            if (woken || out.hasChunk() || err.hasChunk()) return false;
        }
        return true;
    }

    /** Makes a {@link #run} in progress (or the next one) return false soon. Any thread may call it. */
    public void wakeup() {
        synchronized (wakeLock) {
            if (wakeWrite < 0) return; // closed: the fd number may belong to someone else by now
            try (NativeBlock one = new NativeBlock(NativeBlock.align(1))) {
                Native.libc.write(wakeWrite, one.reserve(1), 1); // a full pipe (EAGAIN) is woken already
            }
        }
    }

    /**
     * Ends the run: a child not yet reaped (timed out, too much output, interrupted, or an exception) is
     * terminated and reaped ({@link ChildExit#terminate}). Every descriptor is closed.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        closeAll(stdin, stdout, stderr);
        stdin = stdout = stderr = -1;
        if (exit != null) {
            if (!exit.reaped()) exit.terminate();
            JvmExitHook.forget(exit);
        }
        synchronized (wakeLock) {
            closeAll(wakeRead, wakeWrite);
            wakeRead = wakeWrite = -1;
        }
        if (exit != null) exit.close();
        pollfds.close();
        out.finish();
        err.finish();
    }

    /** Writes what stdin takes now; closes it when all is written or the child stopped reading (EPIPE). */
    private void feed() throws SpawnError {
        long n = Native.libc.write(stdin, input, input.remaining());
        if (n > 0) {
            input.position(input.position() + (int) n);
            moved = true;
        } else if (n < 0) {
            int errno = Native.errno();
            if (errno != Constants.EAGAIN && errno != Constants.EINTR && errno != Constants.EPIPE) throw SpawnError.errno(errno, "write to the child's stdin");
            if (errno == Constants.EPIPE) input.position(input.limit()); // the child is not reading: not an error
        }
        if (input.remaining() == 0) {
            Native.libc.close(stdin);
            stdin = -1;
        }
    }

    /** Reads what {@code fd} has now into {@code into}; returns fd, or -1 once it is closed at end of file. */
    private int drain(int fd, CaptureBuffer into) throws SpawnError {
        long room = into.makeRoom();
        long allowed = max - outputTotal;
        if (max >= 0 && allowed < room) room = allowed + 1; // one byte past max proves excess; no overflow near Long.MAX_VALUE
        long n = Native.libc.read(fd, into.end(), room);
        if (n > 0) {
            moved = true;
            into.advance(n);
            outputTotal += n;
            long excess = outputTotal - max;
            if (max >= 0 && excess > 0) {
                into.dropLast(excess); // keep (or hand over) exactly the first max bytes
                outputTotal = max;
                outcome = Outcome.OUTPUT_EXCEEDED;
            }
            return fd;
        }
        if (n < 0) {
            int errno = Native.errno();
            if (errno == Constants.EAGAIN || errno == Constants.EINTR) return fd;
            throw SpawnError.errno(errno, "read from the child's output");
        }
        Native.libc.close(fd);
        return -1;
    }

    private void drainWakeups() {
        ByteBuffer sink = ByteBuffer.allocate(64);
        while (Native.libc.read(wakeRead, sink, 64) == 64) sink.clear();
    }

    private static void closeAll(int... fds) {
        for (int fd : fds) if (fd >= 0) Native.libc.close(fd);
    }
}

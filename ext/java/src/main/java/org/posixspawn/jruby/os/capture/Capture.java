package org.posixspawn.jruby.os.capture;

import java.nio.ByteBuffer;

import jnr.ffi.Pointer;

import org.posixspawn.jruby.os.child.OwnedChild;
import org.posixspawn.jruby.os.child.Reaper;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.LinuxCalls;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.PollSet;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * One child run to completion with its stdin fed and its stdout and stderr captured, by one thread and
 * one poll(2) loop: no thread per stream, so nothing can deadlock however much flows each way.
 * <p>
 * The pipes are {@link CapturePipes}; output is read straight into {@link CaptureBuffer}s. A wake-up pipe
 * lets another thread ({@link #wakeup}: Thread#raise, Thread#kill, Timeout, a trapped Ctrl-C) break the
 * poll; {@link #close} then ends a child that is still running ({@link OwnedChild#terminate}) and closes
 * every descriptor. The child belongs to the {@link Reaper}; the run also polls a pidfd of its own (the
 * reaper's are in another descriptor table) and reaps the child the moment it ends (the reaper's own check,
 * under the child's lock: whichever comes first reaps), and without a pidfd the reaper's word of the end
 * comes through the same wake-up pipe; the deadline covers the wait for the exit too.
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

    private final OwnedChild child; // null for an over() run that reads a pipe of no child of ours
    /** The run waits for the child's end, and ends it at {@link #close}; false for a handle's pipes ({@link #over}). */
    private final boolean runsChild;
    private long deadline; // System.nanoTime(), or Long.MAX_VALUE
    private long waitDelay = -1; // nanoseconds the pipes are still read once the child has exited, or -1: to their end
    private long drainUntil = Long.MAX_VALUE; // System.nanoTime() when waitDelay's time is up
    private final long max;      // bytes of stdout + stderr, or -1
    private final ByteBuffer input;
    private final PollSet pollfds = new PollSet(5);
    private Pointer status; // for a reap of our own: malloc'd when the pidfd first fires, freed by close
    private final CaptureBuffer out = new CaptureBuffer(), err = new CaptureBuffer();
    private final Object wakeLock = new Object();
    private volatile boolean wakeupAsked; // by wakeup(), not by the reaper's word of the end
    // The parent's ends, -1 once closed.
    private int stdin, stdout, stderr, wakeRead, wakeWrite, pidfd;
    private boolean closed;
    private boolean moved; // the last round read or wrote something
    private long outputTotal; // bytes read from stdout and stderr, streamed or captured
    private Outcome outcome;
    private boolean failed; // run threw

    private Capture(OwnedChild child, boolean runsChild, long deadline, long max, ByteBuffer input, int stdin, int stdout, int stderr, Pipe wake) {
        this.child = child;
        this.runsChild = runsChild;
        this.deadline = deadline;
        this.max = max;
        this.input = input;
        this.stdin = stdin;
        this.stdout = stdout;
        this.stderr = stderr;
        wakeRead = wake.takeRead();
        wakeWrite = wake.takeWrite();
        // Where pidfd_open fails (EMFILE, ESRCH: reaped already), the reaper's word of the end comes instead.
        pidfd = runsChild && Features.pidfdOpen() ? (int) LinuxCalls.Bound.LINUX.syscall(Constants.PIDFD_OPEN_SYSCALL, child.pid, 0, 0, 0) : -1;
        if (child != null) child.onExitLater(ended -> nudge()); // false: it has ended already, which run sees first
    }

    private static boolean feeds(ByteBuffer input) {
        return input != null && input.remaining() > 0;
    }

    /**
     * Starts the child the plan describes with pipes on 0, 1 and 2 (replacing any redirect of them), and
     * gives it to the {@link Reaper}, which ends it if the JVM exits first.
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
            OwnedChild child = Reaper.spawn(piped, ownGroup, true);
            // The child's ends (and stdin's, when there is nothing to feed) are closed with the pipes.
            return new Capture(child, true, deadline, max, input, feeds(input) ? pipes.stdin.takeWrite() : -1,
                    pipes.stdout.takeRead(), pipes.stderr.takeRead(), pipes.wake);
        }
    }

    /**
     * A run over the parent's ends of a handle's pipes (each -1 where not piped), which it takes over and
     * closes: it feeds and reads them to the end, and neither waits for nor signals the child (null: the
     * pipes are no child's of ours, and there is no wait_delay).
     * {@link #run} returns true once every pipe is closed, or at the deadline. When this throws, the
     * descriptors are still the caller's.
     */
    public static Capture over(OwnedChild child, int stdin, int stdout, int stderr, ByteBuffer input) throws SpawnError {
        Pipe wake = Pipe.openNonBlocking(); // first: when it fails (EMFILE), the caller still owns the three
        for (int fd : new int[] {stdin, stdout, stderr}) if (fd >= 0) Pipe.setNonBlocking(fd);
        if (stdin >= 0 && !feeds(input)) {
            Native.libc.close(stdin);
            stdin = -1;
        }
        return new Capture(child, false, Long.MAX_VALUE, -1, input, stdin, stdout, stderr, wake);
    }

    /** Moves the deadline (System.nanoTime(), or Long.MAX_VALUE) and clears a timeout, for a resumed {@link #over} run. */
    public void resume(long deadline) {
        this.deadline = deadline;
        if (outcome == Outcome.TIMED_OUT) outcome = null;
    }

    /**
     * Reads the pipes for at most {@code nanos} once the child has exited, then closes them (wait_delay: a
     * background process holding the child's stdout open no longer holds up the run).
     */
    public void waitDelay(long nanos) {
        this.waitDelay = nanos;
    }

    /** Bytes of the input not written yet. */
    public int inputLeft() {
        return input == null ? 0 : input.remaining();
    }

    public long pid() {
        return child == null ? -1 : child.pid;
    }

    /** The outcome once {@link #run} has returned true, else null. */
    public Outcome outcome() {
        return outcome;
    }

    /** The raw wait status (as waitpid gives it) once reaped, or -1 (not reaped, or reaped by someone else). */
    public int rawStatus() {
        return child == null ? -1 : child.rawStatus();
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
        try {
            return rounds();
        } catch (SpawnError e) {
            failed = true;
            throw e;
        }
    }

    /** Whether {@link #run} failed (poll, a read or a write did): such a run cannot go on, only be closed. */
    public boolean failed() {
        return failed;
    }

    private boolean rounds() throws SpawnError {
        while (outcome == null) {
            boolean waitingForExit = stdin < 0 && stdout < 0 && stderr < 0;
            if (waitingForExit && (!runsChild || child.ended())) {
                outcome = Outcome.EXITED;
                break;
            }
            if (!waitingForExit && waitDelay >= 0) {
                if (drainUntil == Long.MAX_VALUE && child != null && child.ended()) drainUntil = System.nanoTime() + waitDelay;
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
            pollfds.watch(pidfd, Constants.POLLIN);
            if (!waitingForExit && drainUntil != Long.MAX_VALUE) {
                // After the exit (the reaper's wake-up told), poll no longer than the delay.
                int until = (int) Math.max(0, (drainUntil - System.nanoTime() + 999_999) / 1_000_000);
                timeout = timeout < 0 ? until : Math.min(timeout, until);
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
                else if (fd == pidfd && child.reapIfExited(status())) { // readable from now on: out of the poll
                    Native.libc.close(pidfd);
                    pidfd = -1;
                }
            }
            if (woken) drainWakeups();
            if (woken && wakeupAsked) {
                wakeupAsked = false;
                return false;
            }
            if (out.hasChunk() || err.hasChunk()) return false;
        }
        return true;
    }

    /** Makes a {@link #run} in progress (or the next one) return false soon. Any thread may call it. */
    public void wakeup() {
        wakeupAsked = true; // before the byte: a run that reads it sees the request
        nudge();
    }

    /** Breaks the poll of a run in progress (or the next one), which then looks at the pipes and the child again. */
    private void nudge() {
        synchronized (wakeLock) {
            if (wakeWrite < 0) return; // closed: the fd number may belong to someone else by now
            try (NativeBlock one = new NativeBlock(NativeBlock.align(1))) {
                Native.extra().write(wakeWrite, one.reserve(1), 1); // a full pipe (EAGAIN) is woken already
            }
        }
    }

    /**
     * Ends the run: a child of {@link #start} still running (timed out, too much output, interrupted, or an
     * exception) is terminated, and this waits until the reaper has reaped it ({@link OwnedChild#terminate}).
     * Every descriptor is closed.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        closeAll(stdin, stdout, stderr, pidfd);
        stdin = stdout = stderr = pidfd = -1;
        if (runsChild && !child.ended()) child.terminate();
        synchronized (wakeLock) {
            closeAll(wakeRead, wakeWrite);
            wakeRead = wakeWrite = -1;
        }
        pollfds.close();
        if (status != null) Native.libc.free(status);
        status = null;
        out.finish();
        err.finish();
    }

    /** Writes what stdin takes now; closes it when all is written or the child stopped reading (EPIPE). */
    private void feed() throws SpawnError {
        long n = Native.extra().write(stdin, input, input.remaining());
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
        long n = Native.extra().read(fd, into.end(), room);
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

    private Pointer status() {
        if (status == null) status = Native.allocate(8);
        return status;
    }

    private void drainWakeups() {
        ByteBuffer sink = ByteBuffer.allocate(64);
        while (Native.extra().read(wakeRead, sink, 64) == 64) sink.clear();
    }

    private static void closeAll(int... fds) {
        for (int fd : fds) if (fd >= 0) Native.libc.close(fd);
    }
}

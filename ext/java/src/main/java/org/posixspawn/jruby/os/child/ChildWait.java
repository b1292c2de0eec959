package org.posixspawn.jruby.os.child;

import jnr.ffi.Pointer;

import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.LinuxCalls;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;

/**
 * waitpid(pid, 0) for a child of this process that the {@link Reaper} does not own (the drop-in's system,
 * backtick, popen's close), but one another thread can wake ({@link #wakeup}): JRuby wakes its own
 * Process.wait only through sun.nio.ch, which an embedded JRuby (no --add-opens) cannot reach (issue #27).
 * The child stays the caller's: a woken wait leaves it unreaped, for the next, as an interrupted
 * Process.wait does. On Linux 5.3+ a poll on its pidfd and a wake-up pipe; elsewhere (or when either cannot
 * be opened) waitpid(WNOHANG) between Java sleeps, which a Java interrupt ends.
 */
public final class ChildWait implements AutoCloseable {
    /** The longest sleep between two waitpid(WNOHANG) on the polling route; it starts at 50 µs. */
    private static final long MAX_SLEEP_NANOS = Reaper.POLL_MILLIS * 1_000_000L;

    private final long pid;
    private final NativeBlock mem = new NativeBlock(3 * NativeBlock.align(16)); // freed by close
    private final Pointer status = mem.reserve(8), pollfds = mem.reserve(16), sink = mem.reserve(16);
    private int pidfd = -1, wakeRead = -1, wakeWrite = -1;
    private boolean opened; // the pidfd and pipe were tried, once the child was seen running
    private volatile boolean wakeupAsked;
    private long sleepNanos = 50_000;

    public ChildWait(long pid) {
        this.pid = pid;
    }

    /**
     * The child's wait status once it has ended and is reaped; -1 when {@link #wakeup} came first (call again).
     * ECHILD (no such child, or another wait took it) is the SpawnError.
     */
    public int run() throws SpawnError, InterruptedException {
        while (true) {
            long r = Native.extra().waitpid(pid, status, Constants.WNOHANG);
            if (r == pid) return status.getInt(0);
            if (r < 0 && Native.errno() != Constants.EINTR) throw SpawnError.errno(Native.errno(), "waitpid");
            if (wakeupAsked) {
                wakeupAsked = false;
                return -1;
            }
            if (r < 0) continue;
            if (!opened) {
                open();
                continue; // a wake-up before the pipe was there set only the flag: asked again above
            }
            if (pidfd >= 0) pollPidfd();
            else sleep();
        }
    }

    /** Whether {@code error}, from {@link #run}, is waitpid's ECHILD: no such child, or another wait took it. */
    public static boolean noChild(SpawnError error) {
        return error.errno == Constants.ECHILD;
    }

    /** Makes a {@link #run} in progress (or the next one) return -1 soon. Any thread may call it. */
    public void wakeup(Thread waiting) {
        wakeupAsked = true; // before the byte: a run woken by it sees the request
        synchronized (this) {
            if (wakeWrite >= 0) Native.extra().write(wakeWrite, sink, 1); // a full pipe (EAGAIN) is woken already
        }
        if (pidfd < 0) waiting.interrupt(); // ends the Java sleep; a poll on the pidfd is woken by the byte
    }

    /** A pidfd and a wake-up pipe, or neither (EMFILE, no pidfd_open): the polling route. */
    private void open() {
        opened = true;
        if (!Features.pidfdOpen()) return;
        int fd = (int) LinuxCalls.Bound.LINUX.syscall(Constants.PIDFD_OPEN_SYSCALL, pid, 0, 0, 0);
        if (fd < 0) return;
        try (Pipe wake = Pipe.openNonBlocking()) {
            synchronized (this) {
                wakeRead = wake.takeRead();
                wakeWrite = wake.takeWrite();
            }
            pidfd = fd;
        } catch (SpawnError e) {
            Native.libc.close(fd);
        }
    }

    private void pollPidfd() throws SpawnError {
        pollfds.putInt(0, pidfd);
        pollfds.putShort(4, Constants.POLLIN);
        pollfds.putShort(6, (short) 0);
        pollfds.putInt(8, wakeRead);
        pollfds.putShort(12, Constants.POLLIN);
        pollfds.putShort(14, (short) 0);
        if (Native.extra().poll(pollfds, 2, -1) < 0 && Native.errno() != Constants.EINTR) throw SpawnError.errno(Native.errno(), "poll");
        while (Native.extra().read(wakeRead, sink, 16) > 0) { /* drained */ }
    }

    private void sleep() throws InterruptedException {
        Thread.sleep(sleepNanos / 1_000_000, (int) (sleepNanos % 1_000_000));
        sleepNanos = Math.min(sleepNanos * 2, MAX_SLEEP_NANOS);
    }

    @Override
    public void close() {
        synchronized (this) {
            for (int fd : new int[] {pidfd, wakeRead, wakeWrite}) if (fd >= 0) Native.libc.close(fd);
            pidfd = wakeRead = wakeWrite = -1;
        }
        mem.close();
    }
}

package org.posixspawn.jruby.os;

import jnr.ffi.Pointer;

/**
 * The exit of one child this process started: waited for with a pidfd where there is one (its readiness
 * can join any poll(2), so a deadline covers the wait too), else by asking waitpid every few
 * milliseconds; and its end on demand: TERM, a grace period, KILL, reaped. With a process group of its
 * own ({@code ownGroup}) the whole group is signalled, and gets KILL after the grace period either way, so
 * no grandchild outlives it.
 */
public final class ChildExit implements AutoCloseable {
    /** How long a child has between TERM and KILL. */
    public static final long GRACE_NANOS = 1_000_000_000L;
    /** Without pidfd, how often the wait asks waitpid. */
    static final int EXIT_POLL_MILLIS = 5;

    public final long pid;
    public final boolean ownGroup;
    private final Pointer status = Native.allocate(8);
    private final Pointer pollfd = Native.allocate(Constants.POLLFD_SIZE);
    private int pidfd;
    private boolean reaped;
    private int rawStatus = -1;

    public ChildExit(long pid, boolean ownGroup) {
        this.pid = pid;
        this.ownGroup = ownGroup;
        pidfd = Features.pidfdOpen() ? (int) Native.libc.syscall(Constants.PIDFD_OPEN_SYSCALL, pid, 0) : -1;
        (pidfd >= 0 ? ExitWait.PIDFD : ExitWait.WAITPID_POLL).record();
    }

    /** A descriptor that polls readable (POLLIN) once the child has exited, or -1: then ask {@link #reapIfExited} every {@link #EXIT_POLL_MILLIS} ms. */
    int pidfd() {
        return pidfd;
    }

    public boolean reaped() {
        return reaped;
    }

    /** The raw wait status (as waitpid gives it) once reaped, or -1 (not reaped, or reaped by someone else). */
    public int rawStatus() {
        return rawStatus;
    }

    /** Whether the child has exited, without waiting: its pidfd is readable (it stays unreaped), or waitpid reaps it. */
    boolean exited() {
        return pidfd >= 0 ? Reaper.readable(pidfd) : reapIfExited();
    }

    /** Reaps the child if it has exited (without waiting); whether it is reaped now. */
    public boolean reapIfExited() {
        if (reaped) return true; // with wait_delay, reaped before the pipes closed
        long r = Native.libc.waitpid(pid, status, Constants.WNOHANG);
        if (r == pid) reaped(status.getInt(0));
        else if (r < 0 && Native.errno() == Constants.ECHILD) reaped(-1); // someone else's Process.wait took it
        return reaped;
    }

    /** TERM, up to {@link #GRACE_NANOS} for the exit, KILL if still there (or always, to a group), then reaped. */
    public void terminate() {
        signal(Constants.SIGTERM);
        boolean exited = awaitExit(System.nanoTime() + GRACE_NANOS);
        if (ownGroup || !exited) signal(Constants.SIGKILL);
        while (!reaped) {
            long r = Native.libc.waitpid(pid, status, 0);
            if (r == pid) reaped(status.getInt(0));
            else if (Native.errno() != Constants.EINTR) reaped(-1);
        }
    }

    /**
     * Waits until the child exits or {@code until} (System.nanoTime()) passes. With a pidfd the child stays
     * unreaped (a zombie keeps its pid, so its group can still be signalled); without one, waitpid reaps it as it checks.
     */
    private boolean awaitExit(long until) {
        while (true) {
            long left = until - System.nanoTime();
            if (pidfd >= 0) {
                pollfd.putInt(0, pidfd);
                pollfd.putShort(4, Constants.POLLIN);
                pollfd.putShort(6, (short) 0);
                int r = Native.libc.poll(pollfd, 1, (int) Math.max(0, (left + 999_999) / 1_000_000));
                if (r > 0) return true;
                if (r == 0) return false;
                if (Native.errno() != Constants.EINTR) return false;
            } else {
                if (reapIfExited()) return true;
                if (left <= 0) return false;
                Native.libc.poll(null, 0, EXIT_POLL_MILLIS);
            }
        }
    }

    private void signal(int signal) {
        if (!reaped || ownGroup) Native.libc.kill(ownGroup ? -pid : pid, signal);
    }

    private void reaped(int raw) {
        reaped = true;
        rawStatus = raw;
    }

    /** Releases the pidfd and memory; the child must be reaped by then (see {@link #terminate}). */
    @Override
    public void close() {
        if (pidfd >= 0) Native.libc.close(pidfd);
        pidfd = -1;
        Native.libc.free(status);
        Native.libc.free(pollfd);
    }
}

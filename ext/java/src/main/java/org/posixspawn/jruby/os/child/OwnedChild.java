package org.posixspawn.jruby.os.child;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import jnr.constants.platform.Errno;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.LinuxCalls;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.SpawnError;

/**
 * A child given to the {@link Reaper}: its pid, how the reaper learns of its end (a pidfd in the
 * {@link PidfdWatch}, or waitpid polled), and, once it has ended, its wait status. Only {@link #reapIfExited}
 * reaps it (the reaper's, the watch's, or a Capture's that saw its own pidfd readable), under this object's
 * lock, so while {@link #ended} is false the pid is still this child's (a zombie keeps it) and may be signalled. The lock is a ReentrantLock, not a monitor:
 * HotSpot gives a monitor waited on (or fought over) a C-heap ObjectMonitor that it frees only a minute later,
 * one per child for every Handle#wait (doc/native-memory.md).
 */
public final class OwnedChild {
    /** How long a child has between TERM and KILL, when Child ends it and when the JVM exits. */
    public static final long GRACE_NANOS = 1_000_000_000L;

    public final long pid;
    /** Signal the child's process group (it leads one: :pgroup or :setsid) where a group is asked for. */
    public final boolean leadsGroup;
    final boolean killOnExit;
    private ExitRoute route; // null until the watch has opened the pidfd, or could not
    private boolean ended, lost;
    private int rawStatus = -1;
    private List<Consumer<OwnedChild>> listeners = new ArrayList<>();
    private List<Consumer<OwnedChild>> reaperListeners = new ArrayList<>(); // queued to the reaper's thread at the end
    /** What the caller ties to this child (the Ruby Handle). */
    public volatile Object attachment;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition end = lock.newCondition();

    /** @param watched given to the {@link PidfdWatch}, which decides the route soon; else polled */
    OwnedChild(long pid, boolean leadsGroup, boolean killOnExit, boolean watched) {
        this.pid = pid;
        this.leadsGroup = leadsGroup;
        this.killOnExit = killOnExit;
        this.route = watched ? null : ExitRoute.WAITPID_POLL;
    }

    /** The watch opened the pidfd (PIDFD), or could not and handed the child to polling. */
    void decideRoute(ExitRoute way) {
        lock.lock();
        try {
            route = way;
            end.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** How the reaper learns of this child's end; waits for the watch's word, which comes at once. */
    public ExitRoute route() {
        lock.lock();
        try {
            while (route == null) end.awaitUninterruptibly();
            return route;
        } finally {
            lock.unlock();
        }
    }

    public boolean ended() {
        lock.lock();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }

    /** Ended, but reaped by someone else's wait (Process.wait with no pid): the status is unknown. */
    public boolean lost() {
        lock.lock();
        try {
            return lost;
        } finally {
            lock.unlock();
        }
    }

    /** Why this child's status cannot be had, once {@link #lost}: ECHILD, naming the pid. */
    public SpawnError lostError() {
        return SpawnError.errno(Constants.ECHILD, "pid " + pid + " was reaped by another wait");
    }

    /** The wait status (as waitpid gives it) once ended, else -1 (also when {@link #lost}). */
    public int rawStatus() {
        lock.lock();
        try {
            return rawStatus;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the child has ended (true) or System.nanoTime() passes {@code deadline} (false); interruptible. */
    public boolean awaitEnd(long deadline) throws InterruptedException {
        lock.lock(); // not lockInterruptibly: as before, an ended child is reported even to an interrupted thread
        try {
            while (!ended) { // the end condition is also signalled when the route is decided
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                end.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sends {@code signal} to the child (or, with {@code group} and {@link #leadsGroup}, to its group); false when
     * it has already ended. Under the lock, so no reap of ours frees the pid meanwhile; through a pidfd of the
     * caller's own where pidfd_open works (the watch's are in another table), so an exited child not yet
     * reaped counts as ended.
     */
    public boolean signal(int signal, boolean group) throws SpawnError {
        lock.lock();
        try {
            return signalHeld(signal, group);
        } finally {
            lock.unlock();
        }
    }

    private boolean signalHeld(int signal, boolean group) throws SpawnError {
        if (ended) return false;
        int pidfd = Features.pidfdOpen() ? (int) LinuxCalls.Bound.LINUX.syscall(Constants.PIDFD_OPEN_SYSCALL, pid, 0, 0, 0) : -1;
        try {
            if (pidfd < 0 && Features.pidfdOpen() && LinuxCalls.Bound.errno() == Constants.ESRCH) return false; // someone else's wait took it
            if (pidfd >= 0 && Fds.readable(pidfd)) return false;
            return send(signal, group, pidfd);
        } finally {
            if (pidfd >= 0) Native.libc.close(pidfd);
        }
    }

    private boolean send(int signal, boolean group, int pidfd) throws SpawnError {
        long r;
        int errno;
        if (group && leadsGroup) {
            r = Native.extra().kill(-pid, signal); // the unreaped leader holds the group's id: no other group can have it
            errno = r < 0 ? Native.errno() : 0;
        } else if (pidfd >= 0) {
            r = LinuxCalls.Bound.LINUX.syscall(Constants.PIDFD_SEND_SIGNAL_SYSCALL, pidfd, signal, 0, 0);
            errno = r < 0 ? LinuxCalls.Bound.errno() : 0;
        } else {
            r = Native.extra().kill(pid, signal);
            errno = r < 0 ? Native.errno() : 0;
        }
        if (r == 0) return true;
        if (errno == Errno.ESRCH.intValue()) return false;
        throw SpawnError.errno(errno, "signal " + signal + " to pid " + pid); // EINVAL: no such signal; EPERM
    }

    /**
     * Ends the child, whatever interrupts this thread meanwhile: TERM (to its group where it leads one), up to
     * {@link #GRACE_NANOS} for the end, then KILL if it is still running; a group gets KILL after the grace
     * period either way, so no member that ignored TERM outlives its leader. Returns once the reaper has
     * reaped it.
     */
    public void terminate() {
        signalQuietly(Constants.SIGTERM);
        if (!awaitEndUninterruptibly(System.nanoTime() + GRACE_NANOS)) signalQuietly(Constants.SIGKILL);
        else if (leadsGroup) Native.extra().kill(-pid, Constants.SIGKILL); // members left keep the group's id; none: ESRCH
        awaitEndUninterruptibly(Long.MAX_VALUE);
    }

    /** {@link #signal} to the group where it leads one, ignoring a refusal (EPERM: a set-uid program): nothing more to do then. */
    void signalQuietly(int signal) {
        try {
            signal(signal, true);
        } catch (SpawnError e) {
            // the caller waits for the end all the same
        }
    }

    /** {@link #awaitEnd}, an interrupt meanwhile (Thread#raise during a cleanup) kept for after it. */
    private boolean awaitEndUninterruptibly(long deadline) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return awaitEnd(deadline);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /**
     * Has {@code listener} called by the thread that reaps the child (the reaper's, or a Capture's) once it has
     * ended (true), unless it already has (false: nothing is registered, the caller acts itself). For the gem's
     * own quick wake-ups; what a listener throws is reported on stderr.
     */
    public boolean onExitLater(Consumer<OwnedChild> listener) {
        lock.lock();
        try {
            if (ended) return false;
            listeners.add(listener);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Has {@code listener} called on the reaper's thread once the child has ended, whichever thread reaps it
     * and whether it has ended already: one thread and one rule for the user's callbacks, whatever the
     * timing (issue #28). Queued under the lock, so they run in the order registered. The reaper reports what
     * a listener throws.
     */
    public void onExitOnReaper(Consumer<OwnedChild> listener) {
        lock.lock();
        try {
            if (ended) Reaper.queue(listener, this);
            else reaperListeners.add(listener);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reaps the child if it has exited, returning whether it has ended: the reaper's check, also made by a
     * {@code Capture} whose own pidfd saw the end (one thread's wake-up less before its run ends). The gem's
     * listeners ({@link #onExitLater}) run on the calling thread.
     */
    public boolean reapIfExited(Pointer status) {
        return reap(status, false);
    }

    /** {@link #reapIfExited} on the {@link PidfdWatch}'s thread, which runs no listener: they go to the reaper's. */
    boolean reapOnWatch(Pointer status) {
        return reap(status, true);
    }

    private boolean reap(Pointer status, boolean onWatch) {
        List<Consumer<OwnedChild>> toCall;
        lock.lock();
        try {
            if (ended) return true;
            long r = Native.extra().waitpid(pid, status, Constants.WNOHANG);
            if (r == pid) {
                rawStatus = status.getInt(0);
            } else if (r < 0 && Native.errno() == Constants.ECHILD) {
                lost = true;
            } else {
                return false; // still running (or EINTR: asked again next time)
            }
            ended = true;
            Reaper.forget(this); // before anyone learns of the end: a Process.wait after it gets ECHILD
            toCall = listeners;
            listeners = null;
            for (Consumer<OwnedChild> listener : reaperListeners) Reaper.queue(listener, this);
            reaperListeners = null;
            end.signalAll();
        } finally {
            lock.unlock();
        }
        for (Consumer<OwnedChild> listener : toCall) {
            if (onWatch) Reaper.queue(listener, this);
            else Reaper.callSafely(listener, this);
        }
        return true;
    }
}

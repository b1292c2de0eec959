package org.posixspawn.jruby.os.child;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import jnr.ffi.Pointer;

import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.LinuxCalls;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.libc.Trace;
import org.posixspawn.jruby.os.platform.Strategy;
import org.posixspawn.jruby.os.spawn.Spawner;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * One thread per JVM, started on first use, that reaps every child given to it ({@link #spawn}) as soon as it
 * ends: it waits on all their pidfds at once with epoll (Linux 5.3+), and asks waitpid(WNOHANG) every
 * {@link #POLL_MILLIS} ms for those without one (no pidfd_open, or it failed). It reaps nothing else: children
 * of a plain spawn stay their caller's. 10,000 children cost this one thread and a pidfd each.
 * <p>
 * Children adopted with kill-on-exit get TERM, then KILL after {@link OwnedChild#GRACE_NANOS}, when the JVM exits.
 */
public final class Reaper {
    /** How often children without a pidfd are asked about. */
    public static final int POLL_MILLIS = 10;
    private static final int MAX_EVENTS = 256;

    private static final Map<Long, OwnedChild> OWNED = new ConcurrentHashMap<>();
    private static final Map<Integer, OwnedChild> BY_PIDFD = new ConcurrentHashMap<>();
    private static final Set<OwnedChild> POLLED = ConcurrentHashMap.newKeySet();
    private static final Set<OwnedChild> KILL_ON_EXIT = ConcurrentHashMap.newKeySet();
    /** Listeners {@link OwnedChild#onExitOnReaper} queued for this thread to call, in the order queued. */
    private static final Queue<Runnable> QUEUED = new ConcurrentLinkedQueue<>();
    private static volatile Reaper instance;

    private final int epoll; // -1 where there is no epoll (not Linux): only the waitpid route
    private final int wakeRead, wakeWrite;

    private Reaper(int epoll, int wakeRead, int wakeWrite) {
        this.epoll = epoll;
        this.wakeRead = wakeRead;
        this.wakeWrite = wakeWrite;
        Thread thread = new Thread(this::loop, "posix-spawn-reaper");
        thread.setDaemon(true);
        thread.start();
        Runtime.getRuntime().addShutdownHook(new Thread(Reaper::killOnExit, "posix-spawn-kill-on-exit"));
    }

    /** The reaper, started on first use; what it cannot open (EMFILE) is the caller's SpawnError, and left open is nothing. */
    private static synchronized Reaper instance() throws SpawnError {
        if (instance != null) return instance;
        int wakeRead, wakeWrite;
        try (Pipe wake = Pipe.openNonBlocking()) {
            wakeRead = wake.takeRead();
            wakeWrite = wake.takeWrite();
        }
        int epoll = -1;
        if (Native.PROFILE.exitWait == Strategy.ExitWait.PIDFD_ELSE_WAITPID_POLL) {
            epoll = LinuxCalls.Bound.LINUX.epoll_create1(Constants.EPOLL_CLOEXEC);
            int errno = epoll < 0 ? LinuxCalls.Bound.errno() : watch(epoll, wakeRead);
            if (errno != 0) {
                for (int fd : new int[] {epoll, wakeRead, wakeWrite}) if (fd >= 0) Native.libc.close(fd);
                throw SpawnError.errno(errno, epoll < 0 ? "epoll_create1" : "epoll_ctl");
            }
        }
        instance = new Reaper(epoll, wakeRead, wakeWrite);
        return instance;
    }

    /**
     * Starts the child the plan describes and gives it to the reaper, which alone waits for it from now on.
     * The reaper is started first, so a reaper that cannot start leaves no child without a waiter.
     *
     * @param leadsGroup the child leads a process group of its own (signals may go to the group)
     * @param killOnExit TERM, then KILL, when the JVM exits
     */
    public static OwnedChild spawn(SpawnPlan plan, boolean leadsGroup, boolean killOnExit) throws SpawnError {
        Native.requireProfile(); // before instance(), which reads the profile's strategy
        Reaper reaper = instance();
        return reaper.adopt(Spawner.spawn(plan), leadsGroup, killOnExit);
    }

    private OwnedChild adopt(long pid, boolean leadsGroup, boolean killOnExit) {
        // pidfd_open may fail (EMFILE, an old kernel), and so may epoll_ctl (ENOMEM, ENOSPC: max_user_watches):
        // then this child is asked about by waitpid instead.
        int pidfd = Features.pidfdOpen() ? (int) LinuxCalls.Bound.LINUX.syscall(Constants.PIDFD_OPEN_SYSCALL, pid, 0, 0, 0) : -1;
        OwnedChild child = new OwnedChild(pid, pidfd, leadsGroup, killOnExit);
        OWNED.put(pid, child); // before the reaper can see it end
        if (killOnExit) KILL_ON_EXIT.add(child);
        if (pidfd >= 0) {
            BY_PIDFD.put(pidfd, child); // before the watch: epoll_wait sees it at once, even when it has already exited
            if (watch(epoll, pidfd) != 0) { // never watched, so not reaped meanwhile
                BY_PIDFD.remove(pidfd);
                child.withoutPidfd();
            }
        }
        if (child.route() == ExitRoute.WAITPID_POLL) {
            POLLED.add(child);
            wake(); // a blocked epoll_wait would not look at it otherwise
        }
        Trace.record(Trace.Concern.EXIT_ROUTE, child.route());
        return child;
    }

    /** The child of {@code pid} the reaper owns and has not yet seen end, or null. */
    public static OwnedChild owned(long pid) {
        return OWNED.get(pid);
    }

    /** The pids of the children the reaper owns that have not yet ended (tests' view of what it holds). */
    public static List<Long> ownedPids() {
        return new ArrayList<>(OWNED.keySet());
    }

    /** Adds {@code fd} to the epoll set; 0, or the errno. */
    private static int watch(int epoll, int fd) {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(16))) {
            Pointer event = mem.reserve(16);
            event.putInt(0, Constants.EPOLLIN);
            event.putLong(Constants.EPOLL_EVENT_DATA, fd);
            return LinuxCalls.Bound.LINUX.epoll_ctl(epoll, Constants.EPOLL_CTL_ADD, fd, event) == 0 ? 0 : LinuxCalls.Bound.errno();
        }
    }

    private void wake() {
        try (NativeBlock one = new NativeBlock(NativeBlock.align(1))) {
            Native.extra().write(wakeWrite, one.reserve(1), 1); // a full pipe (EAGAIN) is woken already
        }
    }

    private void loop() {
        Pointer events = Native.allocate((long) MAX_EVENTS * Constants.EPOLL_EVENT_SIZE);
        Pointer status = Native.allocate(8);
        Pointer sink = Native.allocate(64);
        while (true) {
            int timeout = POLLED.isEmpty() ? -1 : POLL_MILLIS;
            int n = epoll >= 0
                    ? LinuxCalls.Bound.LINUX.epoll_wait(epoll, events, MAX_EVENTS, timeout)
                    : waitForWakeup(timeout);
            for (int i = 0; i < n; i++) {
                int fd = (int) events.getLong((long) i * Constants.EPOLL_EVENT_SIZE + Constants.EPOLL_EVENT_DATA);
                if (fd == wakeRead) {
                    while (Native.extra().read(wakeRead, sink, 64) > 0) { /* drained */ }
                    continue;
                }
                OwnedChild child = BY_PIDFD.get(fd);
                if (child != null) child.reapIfExited(status);
            }
            for (OwnedChild child : POLLED) {
                if (child.reapIfExited(status)) POLLED.remove(child);
            }
            for (Runnable task; (task = QUEUED.poll()) != null; ) task.run();
        }
    }

    /** Has the reaper's thread run {@code task} (which must not throw) soon, after those queued before it. */
    static void queue(Runnable task) {
        QUEUED.add(task);
        instance.wake(); // an OwnedChild exists, so the reaper does
    }

    /** Without epoll: poll(2) on the wake-up pipe alone. */
    private int waitForWakeup(int timeout) {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(8))) {
            Pointer pollfd = mem.reserve(8);
            pollfd.putInt(0, wakeRead);
            pollfd.putShort(4, Constants.POLLIN);
            pollfd.putShort(6, (short) 0);
            Native.extra().poll(pollfd, 1, timeout);
            while (Native.extra().read(wakeRead, mem.reserve(8), 8) > 0) { /* drained */ }
        }
        return 0;
    }

    /**
     * Called by {@link OwnedChild} once it has ended, on the reaper's thread, before it closes {@code pidfd}
     * (or -1). The pidfd leaves the epoll set here, not by its close: a child being spawned meanwhile holds a
     * copy of this process's descriptors until its exec, which would keep it registered, reported readable
     * under its number while that number is already another child's.
     */
    static void forget(OwnedChild child, int pidfd) {
        if (pidfd >= 0) {
            LinuxCalls.Bound.LINUX.epoll_ctl(instance.epoll, Constants.EPOLL_CTL_DEL, pidfd, null);
            BY_PIDFD.remove(pidfd, child);
        }
        OWNED.remove(child.pid, child);
        KILL_ON_EXIT.remove(child);
    }

    /** Whether {@code fd} (a pidfd) is readable now: its process has exited. */
    static boolean readable(int fd) {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(8))) {
            Pointer pollfd = mem.reserve(8);
            pollfd.putInt(0, fd);
            pollfd.putShort(4, Constants.POLLIN);
            pollfd.putShort(6, (short) 0);
            return Native.extra().poll(pollfd, 1, 0) > 0;
        }
    }

    /** Runs an exit listener; what it throws is reported on stderr and never stops the reaper. */
    static void callSafely(Consumer<OwnedChild> listener, OwnedChild child) {
        try {
            listener.accept(child);
        } catch (Throwable t) {
            System.err.println("posix-spawn: an exit callback for pid " + child.pid + " raised: " + t);
        }
    }

    /**
     * The shutdown hook: TERM to every kill-on-exit child (its group where it leads one), then KILL to those
     * still running after the grace period, and to every such group, as {@link OwnedChild#terminate} does.
     */
    private static void killOnExit() {
        List<OwnedChild> running = new ArrayList<>(KILL_ON_EXIT);
        for (OwnedChild c : running) c.signalQuietly(Constants.SIGTERM);
        long until = System.nanoTime() + OwnedChild.GRACE_NANOS;
        for (OwnedChild c : running) {
            try {
                c.awaitEnd(until);
            } catch (InterruptedException e) {
                break;
            }
        }
        for (OwnedChild c : running) {
            if (c.leadsGroup) Native.extra().kill(-c.pid, Constants.SIGKILL); // the leader too, if still there
            else c.signalQuietly(Constants.SIGKILL);
        }
    }
}

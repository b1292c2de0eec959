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
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.libc.Trace;
import org.posixspawn.jruby.os.platform.Strategy;
import org.posixspawn.jruby.os.spawn.Spawner;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * One thread per JVM, started on first use, that owns every child given to it ({@link #spawn}) until it
 * ends, and runs their exit listeners. On Linux 5.3+ a second thread, the {@link PidfdWatch}, waits on all
 * their pidfds at once and reaps each as it ends; children without a pidfd (no pidfd_open, or it failed)
 * are asked about with waitpid(WNOHANG) every {@link #POLL_MILLIS} ms here. It reaps nothing else: children
 * of a plain spawn stay their caller's. 10,000 children cost these two threads and a pidfd each, in the
 * watch's descriptor table, not the one every spawn copies.
 * <p>
 * Children adopted with kill-on-exit get TERM, then KILL after {@link OwnedChild#GRACE_NANOS}, when the JVM exits.
 */
public final class Reaper {
    /** How often children without a pidfd are asked about. */
    public static final int POLL_MILLIS = 10;

    private static final Map<Long, OwnedChild> OWNED = new ConcurrentHashMap<>();
    private static final Set<OwnedChild> POLLED = ConcurrentHashMap.newKeySet();
    private static final Set<OwnedChild> KILL_ON_EXIT = ConcurrentHashMap.newKeySet();
    /** Listeners queued for this thread to call, in the order queued. */
    private static final Queue<Call> QUEUED = new ConcurrentLinkedQueue<>();
    private static volatile Reaper instance;
    /** What a wake-up writes (its value is never read), shared: for the JVM's life, as the threads it wakes. */
    private static final Pointer WAKE_BYTE = Native.allocate(1);

    private final int wakeRead, wakeWrite;
    private final PidfdWatch watch; // null: every child is polled

    private Reaper(int wakeRead, int wakeWrite, PidfdWatch watch) {
        this.wakeRead = wakeRead;
        this.wakeWrite = wakeWrite;
        this.watch = watch;
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
        PidfdWatch watch = null;
        if (Native.PROFILE.exitWait == Strategy.ExitWait.PIDFD_ELSE_WAITPID_POLL) { // pretended missing or not: a later child may have one
            try {
                watch = PidfdWatch.start(wakeWrite);
            } catch (SpawnError e) {
                Native.libc.close(wakeRead);
                Native.libc.close(wakeWrite);
                throw e;
            }
        }
        instance = new Reaper(wakeRead, wakeWrite, watch);
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
        boolean watched = watch != null && Features.pidfdOpen();
        OwnedChild child = new OwnedChild(pid, leadsGroup, killOnExit, watched);
        OWNED.put(pid, child); // before anyone can see it end
        if (killOnExit) KILL_ON_EXIT.add(child);
        // The watch opens the pidfd on its own thread; where it cannot (EMFILE), it hands the child to poll().
        if (watched) watch.add(child);
        else poll(child);
        Trace.record(Trace.Concern.EXIT_ROUTE, watched ? ExitRoute.PIDFD : ExitRoute.WAITPID_POLL);
        return child;
    }

    /** Asks waitpid about {@code child} every {@link #POLL_MILLIS} ms from now on. */
    static void poll(OwnedChild child) {
        POLLED.add(child);
        wake(instance.wakeWrite); // a blocked poll would not look at it otherwise
    }

    /** The child of {@code pid} the reaper owns and has not yet seen end, or null. */
    public static OwnedChild owned(long pid) {
        return OWNED.get(pid);
    }

    /** Whether the reaper owns a child that has not yet ended. */
    public static boolean ownsAny() {
        return !OWNED.isEmpty();
    }

    /** The pids of the children the reaper owns that have not yet ended (tests' view of what it holds). */
    public static List<Long> ownedPids() {
        return new ArrayList<>(OWNED.keySet());
    }

    /** One byte into a wake-up pipe. */
    static void wake(int fd) {
        Native.extra().write(fd, WAKE_BYTE, 1); // a full pipe (EAGAIN) is woken already
    }

    private void loop() {
        Pointer status = Native.allocate(8); // for the JVM's life, as the thread
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(8) + NativeBlock.align(64))) {
            Pointer pollfd = mem.reserve(8), sink = mem.reserve(64);
            while (true) {
                pollfd.putInt(0, wakeRead);
                pollfd.putShort(4, Constants.POLLIN);
                pollfd.putShort(6, (short) 0);
                Native.extra().poll(pollfd, 1, POLLED.isEmpty() ? -1 : POLL_MILLIS);
                while (Native.extra().read(wakeRead, sink, 64) == 64) { /* more: one read unless the sink filled */ }
                for (OwnedChild child : POLLED) {
                    if (child.reapIfExited(status)) POLLED.remove(child);
                }
                for (Call call; (call = QUEUED.poll()) != null; ) call.run();
            }
        }
    }

    /** Has the reaper's thread call {@code listener} with {@code child} soon, after those queued before it. */
    static void queue(Consumer<OwnedChild> listener, OwnedChild child) {
        QUEUED.add(new Call(listener, child));
        wake(instance.wakeWrite); // an OwnedChild exists, so the reaper does
    }

    /** A listener and its child, queued: a class, not a lambda, so the watch's thread makes one with nothing to load. */
    private static final class Call {
        final Consumer<OwnedChild> listener;
        final OwnedChild child;

        Call(Consumer<OwnedChild> listener, OwnedChild child) {
            this.listener = listener;
            this.child = child;
        }

        void run() {
            callSafely(listener, child);
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

    /** Loads what the watch's thread calls here, before it leaves the process's descriptors (see {@link PidfdWatch}). */
    static void warmUp() {
        Call.class.getName();
        QUEUED.isEmpty();
    }

    /** Called by {@link OwnedChild} once it has ended, before anyone learns of the end. */
    static void forget(OwnedChild child) {
        OWNED.remove(child.pid, child);
        KILL_ON_EXIT.remove(child);
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

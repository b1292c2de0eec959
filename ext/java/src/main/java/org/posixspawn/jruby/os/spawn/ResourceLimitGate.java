package org.posixspawn.jruby.os.spawn;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.PathName;
import org.posixspawn.jruby.plan.ResourceLimit;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * Applies :rlimit_* to a child between its creation and its exec, where posix_spawn has no attribute for
 * them and setrlimit in the parent would change the limits of the whole JVM. The whole handshake is here.
 *
 * <p>The child's first file action opens a FIFO for reading, which blocks it before it runs anything
 * else. The spawn runs on the {@link FsThread}, which first hands over the children it already has, so the
 * child is found as that thread's one new child in /proc; once it sleeps in that open (its descriptor for
 * the FIFO is taken then, so no limit on descriptors can refuse it), the caller sets its limits with
 * prlimit(2), then opens the FIFO for writing, which lets the child go on to its other actions and exec.
 * Each child the spawn makes passes the gate (a script without #! makes a second one, for /bin/sh, once the
 * caller has closed its writer: a child arriving while the FIFO is open for writing would pass unheld), and
 * the FS thread spawns nothing else until the caller has stopped looking, so each new child is this spawn's. argv0,
 * the environment and exec errors stay exactly as in any other spawn; a limit the kernel refuses kills the
 * held child and raises, as MRI's "setrlimit" error. Linux only.
 *
 * <p>The lifeline: a pipe whose read end the child holds (inherited, close-on-exec) with O_ASYNC, F_SETSIG
 * SIGKILL and the child as its owner, and whose write end only the caller holds (the child's copy is
 * where it opens the FIFO, so that open takes that very number and needs no dup2 under the new limits).
 * When the caller's end closes before the child has exec'd, the JVM killed or the spawn abandoned, the
 * kernel kills the child: none stays held at the gate; a spawn that returns disarms it first. (A JVM killed
 * in the microseconds between the child's creation and its owner being set still leaves it held.)
 */
final class ResourceLimitGate {
    private static final long POLL_NANOS = 20_000;
    /** Diagnostics (Native.hold_at_gate): keep each child at the gate, held and armed, until cleared. */
    static volatile boolean holding;
    /** Held while the FIFO is open for writing: see {@link #awaitNoWriter}. */
    private static final ReentrantLock WRITER = new ReentrantLock();
    private final byte[] fifo;
    private final SpawnError unavailable;

    private ResourceLimitGate(byte[] fifo, SpawnError unavailable) {
        this.fifo = fifo;
        this.unavailable = unavailable;
    }

    private static final class Holder {
        static final ResourceLimitGate INSTANCE = create();
    }

    static ResourceLimitGate get() {
        return Holder.INSTANCE;
    }

    /** The spawn the gate holds: posix_spawn with {@code gate} (a FIFO's path) opened on {@code gateFd} as the child's first file action. */
    interface GatedSpawn {
        long spawn(byte[] gate, int gateFd) throws SpawnError;
    }

    /**
     * Runs {@code spawnThroughGate} on {@code fs} (prepared for the plan), sets the plan's limits on each
     * child it holds, opens the gate and returns the child's pid. No child is left held, whatever fails.
     */
    long spawn(FsThread fs, SpawnPlan plan, GatedSpawn spawnThroughGate) throws SpawnError {
        if (unavailable != null) throw unavailable;
        try (Pipe lifeline = Pipe.open()) {
            int end = lifeline.readEnd();
            if (Native.libc.fcntl(end, Constants.F_SETSIG, Constants.SIGKILL) != 0
                    || Native.libc.fcntl(end, Constants.F_SETFL, Fds.statusFlags(end) | Constants.O_ASYNC) != 0) {
                throw SpawnError.errno(Native.errno(), "fcntl of the rlimit gate's lifeline");
            }
            CompletableFuture<Set<Long>> before = new CompletableFuture<>();
            CompletableFuture<Void> returned = new CompletableFuture<>();
            CountDownLatch looked = new CountDownLatch(1);
            Future<Long> spawned = fs.submit(() -> {
                try {
                    try {
                        before.complete(fs.children());
                    } finally {
                        before.complete(null); // it failed first (say no descriptor left for /proc): the caller learns it from spawned
                    }
                    fs.prepare(plan);
                    return spawnThroughGate.spawn(fifo, lifeline.writeEnd());
                } finally {
                    // Until the caller has stopped looking for held children, this thread spawns nothing else:
                    // any new child of it is this spawn's.
                    returned.complete(null);
                    awaitUninterruptibly(looked);
                }
            });
            boolean released = false;
            Set<Long> known = null;
            long held = -1;
            try {
                known = FsThread.await(before);
                while (known != null && (held = heldChild(fs, known, returned)) >= 0) {
                    known.add(held);
                    release(held, end, plan, returned);
                }
                released = true;
            } catch (SpawnError | RuntimeException | Error e) {
                if (known != null) abandon(held, fs, known, returned); // the spawn fails: none of its children may outlive it
                throw e;
            } finally {
                looked.countDown();
                // posix_spawn must be over before the lifeline's descriptors close (its child holds a copy)
                if (!released) awaitQuietly(spawned);
            }
            long pid = FsThread.await(spawned);
            // Disarmed before the ends close: exec releases the vfork parent before it closes the child's
            // close-on-exec descriptors, so the child may still hold its read end, and the write end's close
            // would kill it (seen: 1 in 15 under load, with close_others: false). A spawn that fails keeps it armed.
            Native.libc.fcntl(end, Constants.F_SETFL, Fds.statusFlags(end) & ~Constants.O_ASYNC);
            return pid;
        }
    }

    /**
     * Called by the spawn before it makes a further child (the shell's, for a script without #!): while a
     * writer has the FIFO open, a child would pass the gate unheld.
     */
    static void awaitNoWriter() {
        WRITER.lock();
        WRITER.unlock();
    }

    /**
     * Arms the lifeline for {@code pid}, waits for it at the gate, sets its limits and opens the gate. Returns
     * at once if it ended first (the spawn says how); throws if its limits are refused.
     */
    private void release(long pid, int lifeline, SpawnPlan plan, Future<Void> returned) throws SpawnError {
        if (Native.libc.fcntl(lifeline, Constants.F_SETOWN, (int) pid) != 0) {
            if (Native.errno() == Constants.ESRCH) return;
            throw SpawnError.errno(Native.errno(), "fcntl of the rlimit gate's lifeline");
        }
        if (!atGate(pid, returned)) return;
        while (holding && !returned.isDone()) LockSupport.parkNanos(1_000_000);
        int refused = setLimits(pid, plan);
        if (refused != 0) throw SpawnError.inChild(refused, PathName.of("setrlimit"));
        open(returned);
    }

    /**
     * The next child of the FS thread not in {@code known}, once it exists, or -1 once the spawn has returned.
     */
    private static long heldChild(FsThread fs, Set<Long> known, Future<Void> returned) throws SpawnError {
        while (true) {
            Set<Long> now = fs.children();
            now.removeAll(known);
            if (!now.isEmpty()) return now.iterator().next();
            if (returned.isDone()) return -1;
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /**
     * Whether {@code pid} has come to sleep in its open of the FIFO (its descriptor taken): the one place its
     * code before exec can sleep (state S in /proc/PID/stat); false if it ended first (posix_spawn may have
     * reaped it already: its /proc entry is gone, or going).
     */
    private static boolean atGate(long pid, Future<Void> returned) throws SpawnError {
        String path = "/proc/" + pid + "/stat";
        int fd;
        try {
            fd = FsThread.openProcFile(path);
        } catch (SpawnError e) {
            if (e.errno == Constants.ENOENT) return false;
            throw e;
        }
        try {
            while (true) {
                String stat;
                try {
                    stat = FsThread.readFrom(fd, path);
                } catch (SpawnError e) {
                    if (e.errno == Constants.ESRCH) return false;
                    throw e;
                }
                int paren = stat.lastIndexOf(')');
                if (paren < 0 || paren + 2 >= stat.length()) return false; // it has gone
                char state = stat.charAt(paren + 2);
                if (state == 'S') return true;
                if (state == 'Z' || state == 'X' || returned.isDone()) return false;
                LockSupport.parkNanos(POLL_NANOS);
            }
        } finally {
            Native.libc.close(fd);
        }
    }

    private static int setLimits(long pid, SpawnPlan plan) {
        try (NativeBlock mem = new NativeBlock(16)) {
            Pointer rlimit = mem.reserve(16);
            for (ResourceLimit limit : plan.rlimits) {
                rlimit.putLong(0, limit.soft);
                rlimit.putLong(8, limit.hard);
                if (Native.extra().prlimit(pid, limit.resource, rlimit, null) != 0) return Native.errno();
            }
        }
        return 0;
    }

    /**
     * Opens the FIFO for writing (and closes it), which releases the child blocked opening it for reading;
     * under {@link #WRITER}, so that no further child of the spawn arrives meanwhile.
     */
    private void open(Future<Void> returned) throws SpawnError {
        WRITER.lock();
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(fifo.length + 1))) {
            Pointer path = mem.cString(fifo);
            while (!returned.isDone()) {
                int fd = Native.libc.open(path, Constants.O_WRONLY | Constants.O_NONBLOCK | Constants.O_CLOEXEC, 0);
                if (fd >= 0) {
                    Native.libc.close(fd);
                    return;
                }
                int err = Native.errno();
                // ENXIO: the child is not in its open (any more). Anything else is ours to report.
                if (err != Constants.ENXIO && err != Constants.EINTR) throw SpawnError.errno(err, "open of the rlimit gate");
                LockSupport.parkNanos(POLL_NANOS);
            }
        } finally {
            WRITER.unlock();
        }
    }

    /**
     * Kills and reaps the spawn's last child {@code pid} (-1: none yet) and every further child it makes
     * until it returns (each held at the gate, which nobody opens now).
     */
    private static void abandon(long pid, FsThread fs, Set<Long> known, Future<Void> returned) {
        try {
            for (long held = pid < 0 ? heldChild(fs, known, returned) : pid; held >= 0; held = heldChild(fs, known, returned)) {
                known.add(held);
                Native.extra().kill(held, Constants.SIGKILL);
                Spawner.reap(held);
            }
        } catch (SpawnError ignored) {
            // /proc unreadable now: the lifeline kills what is left once the spawn's ends close
        }
    }

    /** Waits for the spawn's end when its outcome is moot: a child was killed on purpose, the caller's error is the one to report. */
    private static void awaitQuietly(Future<Long> spawned) {
        try {
            FsThread.await(spawned);
        } catch (SpawnError | RuntimeException ignored) {
            // see above
        }
    }

    /**
     * Whether posix_spawn reports an exec's failure: a spawn of "" (ENOENT from execve) fails with it where the
     * call waits for its child (glibc's and musl's CLONE_VFORK), and returns a pid, of a child that exits 127,
     * where it does not (qemu-user); that child is reaped here.
     */
    private static boolean spawnWaitsForExec() {
        List<byte[]> argv = Collections.singletonList(new byte[0]);
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(8) + NativeBlock.align(1) + NativeBlock.sizeOfArray(argv) + NativeBlock.sizeOfArray(Collections.emptyList()))) {
            Pointer pid = mem.reserve(8);
            int err = Native.libc.posix_spawn(pid, mem.cString(new byte[0]), null, null, mem.cStringArray(argv),
                    mem.cStringArray(Collections.emptyList()));
            if (err != 0) return true;
            Spawner.reap(pid.getInt(0));
            return false;
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /**
     * The FIFO in a private directory, removed when the JVM exits; or the error that prevented it, for every spawn
     * that needs it, as where posix_spawn does not wait for its child's exec: the gate is opened only while the
     * spawn has not returned, so there a held child would wait at it for ever.
     */
    private static ResourceLimitGate create() {
        if (!spawnWaitsForExec()) {
            return new ResourceLimitGate(null, SpawnError.unsupported(":rlimit_* needs a posix_spawn that returns only once its child"
                    + " has exec'd or failed (CLONE_VFORK); here it returns before (an emulator such as qemu-user runs vfork as fork)"));
        }
        try {
            Path dir = Files.createTempDirectory("posix-spawn-jruby-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            // deleteOnExit deletes in the reverse order of registration: the FIFO first, then its (then empty) directory.
            dir.toFile().deleteOnExit();
            File fifo = dir.resolve("gate").toFile();
            byte[] path = fifo.getPath().getBytes(StandardCharsets.UTF_8);
            try (NativeBlock mem = new NativeBlock(NativeBlock.align(path.length + 1))) {
                if (Native.extra().mkfifo(mem.cString(path), 0600) != 0) return new ResourceLimitGate(null, SpawnError.errno(Native.errno(), "mkfifo " + fifo));
            }
            fifo.deleteOnExit();
            return new ResourceLimitGate(path, null);
        } catch (IOException e) {
            return new ResourceLimitGate(null, SpawnError.unsupported("cannot create the rlimit gate: " + e.getMessage()));
        }
    }
}

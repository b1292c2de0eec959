package org.posixspawn.jruby.os.spawn;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

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
 * Each child the spawn makes passes the gate (a script without #! makes a second one, for /bin/sh). argv0,
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
            Future<Long> spawned = fs.submit(() -> {
                try {
                    before.complete(fs.children());
                } finally {
                    before.complete(null); // it failed first (say no descriptor left for /proc): the caller learns it from spawned
                }
                fs.prepare(plan);
                return spawnThroughGate.spawn(fifo, lifeline.writeEnd());
            });
            Set<Long> known = FsThread.await(before);
            if (known != null) {
                long held;
                while ((held = heldChild(fs, known, spawned)) >= 0) {
                    known.add(held);
                    release(held, end, plan, spawned);
                }
            }
            long pid = FsThread.await(spawned);
            // Disarmed before the ends close: exec releases the vfork parent before it closes the child's
            // close-on-exec descriptors, so the child may still hold its read end, and the write end's close
            // would kill it (seen: 1 in 15 under load, with close_others: false). A spawn that fails keeps it armed.
            Native.libc.fcntl(end, Constants.F_SETFL, Fds.statusFlags(end) & ~Constants.O_ASYNC);
            return pid;
        }
    }

    /** Arms the lifeline for {@code pid}, waits for it at the gate, sets its limits and opens the gate; kills it on any failure. */
    private void release(long pid, int lifeline, SpawnPlan plan, Future<Long> spawned) throws SpawnError {
        boolean released = false;
        try {
            if (Native.libc.fcntl(lifeline, Constants.F_SETOWN, (int) pid) != 0) throw SpawnError.errno(Native.errno(), "fcntl of the rlimit gate's lifeline");
            if (!atGate(pid, spawned)) {
                released = true; // it ended before the gate: spawned says how
                return;
            }
            while (holding && !spawned.isDone()) LockSupport.parkNanos(1_000_000);
            int refused = setLimits(pid, plan);
            if (refused != 0) {
                kill(pid, spawned);
                released = true;
                throw SpawnError.inChild(refused, PathName.of("setrlimit"));
            }
            open(spawned);
            released = true;
        } finally {
            if (!released) kill(pid, spawned);
        }
    }

    /**
     * The next child of the FS thread not in {@code known}, once it exists, or -1 once the spawn has returned.
     */
    private static long heldChild(FsThread fs, Set<Long> known, Future<Long> spawned) throws SpawnError {
        while (true) {
            Set<Long> now = fs.children();
            now.removeAll(known);
            if (!now.isEmpty()) return now.iterator().next();
            if (spawned.isDone()) return -1;
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /**
     * Whether {@code pid} has come to sleep in its open of the FIFO (its descriptor taken): the one place its
     * code before exec can sleep (state S in /proc/PID/stat); false if it ended first.
     */
    private static boolean atGate(long pid, Future<Long> spawned) throws SpawnError {
        String path = "/proc/" + pid + "/stat";
        int fd = FsThread.openProcFile(path);
        try {
            while (true) {
                String stat = FsThread.readFrom(fd, path);
                int paren = stat.lastIndexOf(')');
                if (paren < 0 || paren + 2 >= stat.length()) return false; // it has gone
                char state = stat.charAt(paren + 2);
                if (state == 'S') return true;
                if (state == 'Z' || state == 'X' || spawned.isDone()) return false;
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

    /** Opens the FIFO for writing, which releases the child blocked opening it for reading. */
    private void open(Future<Long> spawned) throws SpawnError {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(fifo.length + 1))) {
            Pointer path = mem.cString(fifo);
            while (true) {
                int fd = Native.libc.open(path, Constants.O_WRONLY | Constants.O_NONBLOCK | Constants.O_CLOEXEC, 0);
                if (fd >= 0) {
                    Native.libc.close(fd);
                    return;
                }
                int err = Native.errno();
                // ENXIO: the child is not in its open (any more). Anything else is ours to report.
                if (err != Constants.ENXIO && err != Constants.EINTR) throw SpawnError.errno(err, "open of the rlimit gate");
                if (spawned.isDone()) return;
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    /** Kills and reaps a child the spawn abandons, and lets the FS thread's posix_spawn return. */
    private static void kill(long pid, Future<Long> spawned) {
        Native.extra().kill(pid, Constants.SIGKILL);
        while (Native.extra().waitpid(pid, null, 0) < 0 && Native.errno() == Constants.EINTR) {
            // retry
        }
        try {
            FsThread.await(spawned);
        } catch (SpawnError ignored) {
            // the child was killed on purpose; the caller's error is the one to report
        }
    }

    /** The FIFO in a private directory, removed when the JVM exits; or the error that prevented it, for every spawn that needs it. */
    private static ResourceLimitGate create() {
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

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
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
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
 * child is found as that thread's one new child in /proc; the caller sets its limits with prlimit(2), then
 * opens the FIFO for writing, which lets the child go on to its other actions and exec. argv0, the
 * environment and exec errors stay exactly as in any other spawn; a limit the kernel refuses kills the held
 * child and raises, as MRI's "setrlimit" error. Linux only.
 */
final class ResourceLimitGate {
    private static final long POLL_NANOS = 20_000;
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

    /** The spawn the gate holds: posix_spawn with {@code gate} (a FIFO's path) as the child's first file action. */
    interface GatedSpawn {
        long spawn(byte[] gate) throws SpawnError;
    }

    /**
     * Runs {@code spawnThroughGate} on {@code fs} (prepared for the plan), sets the plan's limits on the held
     * child, opens the gate and returns the child's pid.
     */
    long spawn(FsThread fs, SpawnPlan plan, GatedSpawn spawnThroughGate) throws SpawnError {
        if (unavailable != null) throw unavailable;
        CompletableFuture<Set<Long>> before = new CompletableFuture<>();
        Future<Long> spawned = fs.submit(() -> {
            try {
                before.complete(fs.children());
            } finally {
                before.complete(null); // it failed first (say no descriptor left for /proc): the caller learns it from spawned
            }
            fs.prepare(plan);
            return spawnThroughGate.spawn(fifo);
        });
        Set<Long> known = FsThread.await(before);
        if (known == null) return FsThread.await(spawned);
        long pid = heldChild(fs, known, spawned);
        if (pid < 0) return FsThread.await(spawned); // the child failed before reaching the gate
        int refused = setLimits(pid, plan);
        if (refused != 0) {
            Native.extra().kill(pid, Constants.SIGKILL);
            reap(pid);
            try {
                FsThread.await(spawned);
            } catch (SpawnError ignored) {
                // the child was killed on purpose; the limit's error is the one to report
            }
            throw SpawnError.inChild(refused, PathName.of("setrlimit"));
        }
        open(pid, spawned);
        return FsThread.await(spawned);
    }

    private static long heldChild(FsThread fs, Set<Long> known, Future<Long> spawned) throws SpawnError {
        while (true) {
            Set<Long> now = fs.children();
            now.removeAll(known);
            if (!now.isEmpty()) return now.iterator().next();
            if (spawned.isDone()) return -1;
            LockSupport.parkNanos(POLL_NANOS);
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
    private void open(long pid, Future<Long> spawned) throws SpawnError {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(fifo.length + 1))) {
            Pointer path = mem.cString(fifo);
            while (true) {
                int fd = Native.libc.open(path, Constants.O_WRONLY | Constants.O_NONBLOCK | Constants.O_CLOEXEC, 0);
                if (fd >= 0) {
                    Native.libc.close(fd);
                    return;
                }
                int err = Native.errno();
                // ENXIO: the child has not reached its open yet. Anything else is ours to report.
                if (err != Constants.ENXIO && err != Constants.EINTR) {
                    Native.extra().kill(pid, Constants.SIGKILL);
                    reap(pid);
                    throw SpawnError.errno(err, "open of the rlimit gate");
                }
                if (spawned.isDone()) return;
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    private static void reap(long pid) {
        while (Native.extra().waitpid(pid, null, 0) < 0 && Native.errno() == Constants.EINTR) {
            // retry
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

package org.posixspawn.jruby.os;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jnr.constants.platform.Errno;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.plan.ResourceLimit;

/**
 * Applies :rlimit_* to a child between its creation and its exec, where posix_spawn has no attribute for
 * them and setrlimit in the parent would change the limits of the whole JVM.
 *
 * <p>The child's first file action opens a FIFO for reading, which blocks it before it runs anything
 * else. The spawn runs on the {@link FsThread}, so the child is found as that thread's one new child in
 * /proc; the caller sets its limits with prlimit(2), then opens the FIFO for writing, which lets the
 * child go on to its other actions and exec. argv0, the environment and exec errors stay exactly as in
 * any other spawn; a limit the kernel refuses kills the held child and raises, as MRI's "setrlimit"
 * error. Linux only.
 */
final class ResourceLimitGate {
    private static final long POLL_NANOS = 20_000;
    private final byte[] fifo;

    private ResourceLimitGate(byte[] fifo) {
        this.fifo = fifo;
    }

    private static final class Holder {
        static final ResourceLimitGate INSTANCE = create();
    }

    static ResourceLimitGate get() {
        return Holder.INSTANCE;
    }

    private static ResourceLimitGate create() {
        try {
            Path dir = Files.createTempDirectory("posix-spawn-jruby-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            File fifo = dir.resolve("gate").toFile();
            byte[] path = fifo.getPath().getBytes(StandardCharsets.UTF_8);
            try (NativeBlock mem = new NativeBlock(NativeBlock.align(path.length + 1))) {
                if (Native.libc.mkfifo(mem.cString(path), 0600) != 0) {
                    throw new IllegalStateException("mkfifo " + fifo + ": " + Errno.valueOf(Native.errno()));
                }
            }
            fifo.deleteOnExit();
            dir.toFile().deleteOnExit();
            return new ResourceLimitGate(path);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the rlimit gate: " + e.getMessage(), e);
        }
    }

    /** The FIFO the child opens first; pass to the spawn as its gate. */
    byte[] path() {
        return fifo;
    }

    /**
     * Runs {@code spawnWithGate} on {@code thread} (it must call posix_spawn with this gate as the first
     * file action, after handing over the thread's current children through {@code before}), sets
     * {@code limits} on the held child, opens the gate and returns the child's pid.
     */
    long spawn(FsThread thread, List<ResourceLimit> limits, GatedSpawn spawnWithGate) throws SpawnFailure {
        SynchronousQueue<Set<Long>> before = new SynchronousQueue<>();
        Future<Long> spawned = thread.submit(() -> spawnWithGate.call(before));
        Set<Long> known = handedOver(before, spawned);
        if (known == null) return FsThread.await(spawned); // the task failed before spawning: report its error
        long pid = heldChild(thread, known, spawned);
        if (pid < 0) return FsThread.await(spawned); // the child failed before reaching the gate
        int refused = setLimits(pid, limits);
        if (refused != 0) {
            Native.libc.kill(pid, Native.SIGKILL);
            reap(pid);
            try {
                FsThread.await(spawned);
            } catch (SpawnFailure ignored) {
                // the child was killed on purpose; the limit's error is the one to report
            }
            throw SpawnFailure.inChild(refused, "setrlimit");
        }
        open(pid, spawned);
        return FsThread.await(spawned);
    }

    /** The spawn run on the FsThread: publishes the thread's children, then spawns through the gate. */
    interface GatedSpawn {
        Long call(SynchronousQueue<Set<Long>> before) throws Exception;
    }

    private static long heldChild(FsThread thread, Set<Long> known, Future<Long> spawned) throws SpawnFailure {
        while (true) {
            Set<Long> now = thread.children();
            now.removeAll(known);
            if (!now.isEmpty()) return now.iterator().next();
            if (spawned.isDone()) return -1;
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private static int setLimits(long pid, List<ResourceLimit> limits) {
        try (NativeBlock mem = new NativeBlock(16)) {
            Pointer rlimit = mem.reserve(16);
            for (ResourceLimit limit : limits) {
                rlimit.putLong(0, limit.soft);
                rlimit.putLong(8, limit.hard);
                if (Native.libc.prlimit(pid, limit.resource, rlimit, null) != 0) return Native.errno();
            }
        }
        return 0;
    }

    /** Opens the FIFO for writing, which releases the child blocked opening it for reading. */
    private void open(long pid, Future<Long> spawned) throws SpawnFailure {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(fifo.length + 1))) {
            Pointer path = mem.cString(fifo);
            while (true) {
                int fd = Native.libc.open(path, Native.O_WRONLY | Native.O_NONBLOCK | Native.O_CLOEXEC, 0);
                if (fd >= 0) {
                    Native.libc.close(fd);
                    return;
                }
                int err = Native.errno();
                // ENXIO: the child has not reached its open yet. Anything else is ours to report.
                if (err != Errno.ENXIO.intValue() && err != Native.EINTR) {
                    Native.libc.kill(pid, Native.SIGKILL);
                    reap(pid);
                    throw new SpawnFailure(err, "open of the rlimit gate");
                }
                if (spawned.isDone()) return;
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    private static void reap(long pid) {
        while (Native.libc.waitpid(pid, null, 0) < 0 && Native.errno() == Native.EINTR) {
            // retry
        }
    }

    /**
     * The children the task hands over before it spawns, or null when it ended without (it failed first,
     * say listing /proc with no descriptor left): waiting on the queue alone would then wait forever.
     */
    private static Set<Long> handedOver(SynchronousQueue<Set<Long>> queue, Future<Long> spawned) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    Set<Long> known = queue.poll(POLL_NANOS, TimeUnit.NANOSECONDS);
                    if (known != null) return known;
                    if (spawned.isDone()) return queue.poll();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}

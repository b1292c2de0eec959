package org.posixspawn.jruby.os.spawn;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * A thread with a working directory and umask of its own (Linux: {@code unshare(CLONE_FS)}), so that a
 * child spawned from it can start with a given umask, or in a given directory where libc has no
 * addchdir_np, while every other thread of the JVM keeps the process's. posix_spawn's child copies its
 * creating thread's cwd and umask; setting them here changes nothing anyone else can see.
 */
final class FsThread {
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "posix-spawn-fs");
        t.setDaemon(true);
        return t;
    });
    private final int unshareErrno;
    /**
     * The thread's own /proc children list, opened once: re-reading it while a child is held at the rlimit
     * gate must not need a new descriptor, which a full table would refuse, leaving the child held. Opened
     * by the first call that finds it missing: a failure (EMFILE) is that call's error, not the JVM's.
     */
    private volatile int childrenFd = -1;
    /** Set once /proc/thread-self/children is found absent (kernel before 3.17): that much is for good. */
    private volatile boolean noChildrenList;

    private FsThread() {
        int err;
        try {
            err = executor.submit(() -> Native.extra().unshare(Constants.CLONE_FS) == 0 ? 0 : Native.errno()).get();
        } catch (InterruptedException | ExecutionException e) {
            err = -1;
        }
        unshareErrno = err;
    }

    private static final class Holder {
        static final FsThread INSTANCE = Native.PROFILE != null && Native.PROFILE.fsThread ? new FsThread() : null;
    }

    /**
     * The thread, or null where it cannot exist (not Linux, unshare refused, no /proc children list).
     * Throws the errno of a failure that may pass (EMFILE opening the children list) for this call only.
     */
    static FsThread get() throws SpawnError {
        FsThread t = Holder.INSTANCE;
        if (t == null || t.unshareErrno != 0 || t.noChildrenList) return null;
        if (t.childrenFd < 0) t.openChildrenList();
        return t.noChildrenList ? null : t;
    }

    private synchronized void openChildrenList() throws SpawnError {
        if (childrenFd >= 0) return;
        try {
            childrenFd = call(() -> openProcFile("/proc/thread-self/children"));
        } catch (SpawnError e) {
            if (e.errno != Constants.ENOENT) throw e;
            noChildrenList = true;
        }
    }

    /** On this thread: give it the plan's directory and umask (or the process's), which the child inherits. */
    void prepare(SpawnPlan plan) throws SpawnError {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(plan.cwd.length + 1))) {
            if (Native.extra().chdir(mem.cString(plan.cwd)) != 0) throw SpawnError.inChild(Native.errno(), plan.directoryCulprit());
        }
        Native.extra().umask(plan.umask >= 0 ? plan.umask : processUmask());
    }

    /** The process's umask, read without changing it: from the main thread's /proc status. */
    private static int processUmask() throws SpawnError {
        for (String line : readProcFile("/proc/self/status").split("\n")) {
            if (line.startsWith("Umask:")) return Integer.parseInt(line.substring(6).trim(), 8);
        }
        throw SpawnError.unsupported("no Umask line in /proc/self/status (Linux before 4.7): the FS thread cannot give a child the process's umask");
    }

    /** The pids of the live (or unreaped) children this thread spawned. */
    Set<Long> children() throws SpawnError {
        Set<Long> pids = new HashSet<>();
        String list = readFrom(childrenFd, "/proc/thread-self/children");
        for (String pid : list.trim().split(" ")) if (!pid.isEmpty()) pids.add(Long.parseLong(pid));
        return pids;
    }

    /**
     * A /proc file's text, read with libc rather than java.nio so that a failure carries its errno: with
     * the descriptor table full it is Errno::EMFILE for the caller, not a Java exception.
     */
    private static String readProcFile(String path) throws SpawnError {
        int fd = openProcFile(path);
        try {
            return readAll(fd, path);
        } finally {
            Native.libc.close(fd);
        }
    }

    static int openProcFile(String path) throws SpawnError {
        byte[] name = path.getBytes(StandardCharsets.US_ASCII);
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(name.length + 1))) {
            int fd = Native.libc.open(mem.cString(name), Constants.O_RDONLY | Constants.O_CLOEXEC, 0);
            if (fd < 0) throw SpawnError.errno(Native.errno(), path);
            return fd;
        }
    }

    /** The whole text of the /proc file open on {@code fd}, read again from its start. */
    static String readFrom(int fd, String path) throws SpawnError {
        if (Native.extra().lseek(fd, 0, Constants.SEEK_SET) < 0) throw SpawnError.errno(Native.errno(), path);
        return readAll(fd, path);
    }

    private static String readAll(int fd, String path) throws SpawnError {
        int chunk = 4096;
        try (NativeBlock mem = new NativeBlock(chunk)) {
            Pointer buffer = mem.reserve(chunk);
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            long n;
            while ((n = Native.extra().read(fd, buffer, chunk)) != 0) {
                if (n < 0 && Native.errno() == Constants.EINTR) continue;
                if (n < 0) throw SpawnError.errno(Native.errno(), path);
                byte[] bytes = new byte[(int) n];
                buffer.get(0, bytes, 0, bytes.length);
                text.write(bytes, 0, bytes.length);
            }
            return new String(text.toByteArray(), StandardCharsets.US_ASCII);
        }
    }

    <T> Future<T> submit(Callable<T> task) {
        return executor.submit(task);
    }

    /**
     * Runs {@code task} on this thread. Waits through interrupts (the child must be known before anyone
     * leaves, or it would become a zombie) and restores the interrupt flag afterwards.
     */
    <T> T call(Callable<T> task) throws SpawnError {
        return await(executor.submit(task));
    }

    /** The result of {@code future}, waiting through interrupts (restored afterwards): every wait for this thread's work. */
    static <T> T await(Future<T> future) throws SpawnError {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return future.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof SpawnError) throw (SpawnError) cause;
                    if (cause instanceof RuntimeException) throw (RuntimeException) cause;
                    if (cause instanceof Error) throw (Error) cause;
                    throw new IllegalStateException(cause);
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}

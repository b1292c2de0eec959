package org.posixspawn.jruby.os.child;

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

import jnr.ffi.Pointer;

import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.LinuxCalls;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;

/**
 * The thread that holds the pidfd of every child the {@link Reaper} owns (Linux 5.3+), in one epoll, and reaps
 * each as it ends. Its pidfds are in a descriptor table of its own ({@code unshare(CLONE_FILES)}), not the
 * process's: every posix_spawn copies the process's table into its child and closes the copy at exec, so a
 * pidfd there made each later spawn slower by the number of children alive (issue #47: 10,000 Handles
 * cost each spawn what 10,000 open files cost it, 1.5x). Right after the unshare the thread closes its copies
 * of every other descriptor but 0-2, so it holds no pipe or socket of the JVM open.
 * <p>
 * Being of another table, this thread runs nothing but the few calls below: no Ruby, no listener (the
 * reaper's thread runs those), no class that is not loaded before the unshare (a class read from a jar
 * then would be read through a descriptor number this table does not have).
 */
final class PidfdWatch {
    private static final int MAX_EVENTS = 256;

    /** Children handed over, for this thread to open a pidfd for. */
    private final Queue<OwnedChild> added = new ConcurrentLinkedQueue<>();
    private final Map<Integer, OwnedChild> byPidfd = new HashMap<>(); // this thread's alone
    private final int wakeRead, wakeWrite; // in both tables: the wake-up pipe is made before the unshare
    private final int keep; // another descriptor of the process's this thread writes to (the reaper's wake-up)
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile int startErrno = -1;
    private int epoll = -1;
    private Pointer status; // this thread's, for waitpid

    private PidfdWatch(int wakeRead, int wakeWrite, int keep) {
        this.wakeRead = wakeRead;
        this.wakeWrite = wakeWrite;
        this.keep = keep;
    }

    /**
     * The thread, started, or null where it cannot be (unshare or epoll refused, no /proc): the reaper
     * then polls waitpid for every child. {@code keep} is a descriptor the thread must keep (the reaper's
     * wake-up pipe, which {@link Reaper#queue} writes to).
     */
    static PidfdWatch start(int keep) throws SpawnError {
        int wakeRead, wakeWrite;
        try (Pipe wake = Pipe.openNonBlocking()) {
            wakeRead = wake.takeRead();
            wakeWrite = wake.takeWrite();
        }
        PidfdWatch watch = new PidfdWatch(wakeRead, wakeWrite, keep);
        Thread thread = new Thread(watch::run, "posix-spawn-pidfds");
        thread.setDaemon(true);
        thread.start();
        boolean interrupted = false;
        while (true) {
            try {
                watch.started.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        if (watch.startErrno == 0) return watch;
        Native.libc.close(wakeRead);
        Native.libc.close(wakeWrite);
        return null;
    }

    /** Watches {@code child} from now on: its pidfd is opened on this thread, soon. */
    void add(OwnedChild child) {
        added.add(child);
        Reaper.wake(wakeWrite);
    }

    private void run() {
        Pointer events = Native.allocate((long) MAX_EVENTS * Constants.EPOLL_EVENT_SIZE); // for the JVM's life, as the thread
        status = Native.allocate(8);
        startErrno = warmUp(events);
        if (startErrno == 0) startErrno = unshareAndClose();
        if (startErrno == 0) {
            epoll = LinuxCalls.Bound.LINUX.epoll_create1(Constants.EPOLL_CLOEXEC);
            startErrno = epoll < 0 ? LinuxCalls.Bound.errno() : Reaper.watch(epoll, wakeRead);
        }
        started.countDown();
        if (startErrno != 0) { // this thread ends, and its table with it
            Native.libc.free(events);
            Native.libc.free(status);
            return;
        }
        while (true) {
            int n = LinuxCalls.Bound.LINUX.epoll_wait(epoll, events, MAX_EVENTS, -1);
            for (int i = 0; i < n; i++) {
                int fd = (int) events.getLong((long) i * Constants.EPOLL_EVENT_SIZE + Constants.EPOLL_EVENT_DATA);
                if (fd == wakeRead) {
                    drain();
                    continue;
                }
                OwnedChild child = byPidfd.get(fd);
                // Readable: it has exited (or was reaped by a capture, or by someone else's wait). Closing the
                // pidfd takes it out of the epoll: no other table holds it.
                if (child != null && child.reapOnWatch(status)) {
                    byPidfd.remove(fd);
                    Native.libc.close(fd);
                }
            }
            for (OwnedChild child; (child = added.poll()) != null; ) open(child);
        }
    }

    /** Opens and watches {@code child}'s pidfd, or hands it to the reaper's polling (EMFILE, ENOMEM). */
    private void open(OwnedChild child) {
        int pidfd = (int) LinuxCalls.Bound.LINUX.syscall(Constants.PIDFD_OPEN_SYSCALL, child.pid, 0, 0, 0);
        if (pidfd < 0 && LinuxCalls.Bound.errno() == Constants.ESRCH) {
            // Already reaped (a capture's own pidfd saw it first, or someone else's wait took it).
            child.decideRoute(ExitRoute.PIDFD);
            child.reapOnWatch(status);
            return;
        }
        if (pidfd >= 0 && Reaper.watch(epoll, pidfd) == 0) {
            byPidfd.put(pidfd, child);
            child.decideRoute(ExitRoute.PIDFD);
            return;
        }
        if (pidfd >= 0) Native.libc.close(pidfd);
        child.decideRoute(ExitRoute.WAITPID_POLL);
        Reaper.poll(child);
    }

    private void drain() {
        while (Native.extra().read(wakeRead, status, 8) > 0) { /* drained */ }
    }

    /** Every call the loop makes, once, while a class still loads from the process's descriptors; 0, or why pidfds cannot be had. */
    private int warmUp(Pointer events) {
        int e = LinuxCalls.Bound.LINUX.epoll_create1(Constants.EPOLL_CLOEXEC);
        if (e >= 0) {
            Reaper.watch(e, wakeRead);
            LinuxCalls.Bound.LINUX.epoll_wait(e, events, MAX_EVENTS, 0);
            Native.libc.close(e);
        }
        int self = (int) LinuxCalls.Bound.LINUX.syscall(Constants.PIDFD_OPEN_SYSCALL, Native.extra().getpid(), 0, 0, 0);
        if (self < 0) return LinuxCalls.Bound.errno(); // ENOSYS: a kernel before 5.3
        Native.libc.close(self);
        drain();
        added.poll();
        byPidfd.remove(-1);
        OwnedChild.class.getName();
        Reaper.warmUp();
        Reaper.wake(-1);
        return 0;
    }

    /** 0, or the errno of the unshare; the copies of the process's descriptors are then closed, all but 0-2 and ours. */
    private int unshareAndClose() {
        if (Native.extra().unshare(Constants.CLONE_FILES) != 0) return Native.errno();
        String[] open = new File("/proc/thread-self/fd").list(); // this thread's table now
        if (open == null) return Constants.ENOENT;
        for (String name : open) {
            int fd = Integer.parseInt(name);
            if (fd > 2 && fd != wakeRead && fd != wakeWrite && fd != keep) Native.libc.close(fd);
        }
        return 0;
    }
}

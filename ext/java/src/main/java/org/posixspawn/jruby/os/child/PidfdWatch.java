package org.posixspawn.jruby.os.child;

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

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
    private static final int MAX_EVENTS = 256, SINK = 64;

    /** Children handed over, for this thread to open a pidfd for. */
    private final Queue<OwnedChild> added = new ConcurrentLinkedQueue<>();
    /** A wake-up byte is on its way and the queue will be looked at after it: an add need not write another. */
    private final AtomicBoolean woken = new AtomicBoolean();
    private final Map<Integer, OwnedChild> byPidfd = new HashMap<>(); // this thread's alone
    private final int wakeRead, wakeWrite; // in both tables: the wake-up pipe is made before the unshare
    private final int keep; // another descriptor of the process's this thread writes to (the reaper's wake-up)
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile int startErrno = -1;
    private int epoll = -1;
    private Pointer status, event, sink; // this thread's: waitpid's status, epoll_ctl's event, the wake-up bytes drained

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
        if (!woken.getAndSet(true)) Reaper.wake(wakeWrite); // children started in a burst share one wake-up
    }

    private void run() {
        Pointer events = Native.allocate((long) MAX_EVENTS * Constants.EPOLL_EVENT_SIZE); // for the JVM's life, as the thread
        status = Native.allocate(8);
        event = Native.allocate(Constants.EPOLL_EVENT_SIZE);
        sink = Native.allocate(SINK);
        startErrno = warmUp(events);
        if (startErrno == 0) startErrno = unshareAndClose();
        if (startErrno == 0) {
            epoll = LinuxCalls.Bound.LINUX.epoll_create1(Constants.EPOLL_CLOEXEC);
            startErrno = epoll < 0 ? LinuxCalls.Bound.errno() : watch(epoll, wakeRead);
        }
        started.countDown();
        if (startErrno != 0) { // this thread ends, and its table with it
            Native.libc.free(events);
            Native.libc.free(status);
            Native.libc.free(event);
            Native.libc.free(sink);
            return;
        }
        while (true) {
            int n = LinuxCalls.Bound.LINUX.epoll_wait(epoll, events, MAX_EVENTS, -1);
            for (int i = 0; i < n; i++) {
                int fd = (int) events.getLong((long) i * Constants.EPOLL_EVENT_SIZE + Constants.EPOLL_EVENT_DATA);
                if (fd == wakeRead) {
                    // Drained first, then cleared, then the queue read (below): an add before the clear is in the
                    // queue read, one after it writes a byte the drain has not taken. Cleared before the drain, an
                    // add's byte could be drained with the flag left set, and every later add would skip its write.
                    drain();
                    woken.set(false);
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
        if (pidfd >= 0 && watch(epoll, pidfd) == 0) {
            byPidfd.put(pidfd, child);
            child.decideRoute(ExitRoute.PIDFD);
            return;
        }
        if (pidfd >= 0) Native.libc.close(pidfd);
        child.decideRoute(ExitRoute.WAITPID_POLL);
        Reaper.poll(child);
    }

    /** Adds {@code fd} to the epoll set; 0, or the errno. */
    private int watch(int epoll, int fd) {
        event.putInt(0, Constants.EPOLLIN);
        event.putLong(Constants.EPOLL_EVENT_DATA, fd);
        return LinuxCalls.Bound.LINUX.epoll_ctl(epoll, Constants.EPOLL_CTL_ADD, fd, event) == 0 ? 0 : LinuxCalls.Bound.errno();
    }

    /** Empties the wake-up pipe: one read unless a full sink's worth was waiting. */
    private void drain() {
        while (Native.extra().read(wakeRead, sink, SINK) == SINK) { /* more */ }
    }

    /** Every call the loop makes, once, while a class still loads from the process's descriptors; 0, or why pidfds cannot be had. */
    private int warmUp(Pointer events) {
        int e = LinuxCalls.Bound.LINUX.epoll_create1(Constants.EPOLL_CLOEXEC);
        if (e >= 0) {
            watch(e, wakeRead);
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

package org.posixspawn.jruby.os.libc;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The gem's pipe ends, O_NONBLOCK as MRI 3's IO.pipe and popen ends are, and MRI's rule for a child's stdio
 * (process.c, stdfd_clear_nonblock): its 0, 1 and 2 lose O_NONBLOCK, since many programs cannot read or write a
 * non-blocking stdio. O_NONBLOCK belongs to the open file, which the parent shares: an end given to a child's
 * stdio is blocking in the parent too afterwards, as in MRI, and its IO is told so. Only the gem's own ends:
 * JRuby's channels (sockets, its IO.pipe) keep the mode they rely on.
 */
public final class NonBlockingEnds {
    /** Each end by descriptor, with what to run when a spawn clears its O_NONBLOCK. */
    private static final ConcurrentHashMap<Integer, Runnable> ENDS = new ConcurrentHashMap<>();

    private NonBlockingEnds() {}

    static void watch(int fd, Runnable madeBlocking) {
        ENDS.put(fd, madeBlocking);
    }

    static void forget(int fd) {
        ENDS.remove(fd);
    }

    /**
     * Clears O_NONBLOCK on {@code fd}, which a child is about to get as its 0, 1 or 2, when it is one of the
     * gem's ends: done before the spawn, where MRI's forked child does it after its dup2s, with the same
     * effect on the shared open file.
     */
    public static void clearForChildStdio(int fd) {
        Runnable madeBlocking = ENDS.get(fd);
        if (madeBlocking == null) return;
        int flags = Fds.statusFlags(fd);
        if (flags != -1 && (flags & Constants.O_NONBLOCK) != 0) Fds.setStatusFlags(fd, flags & ~Constants.O_NONBLOCK);
        madeBlocking.run();
    }
}

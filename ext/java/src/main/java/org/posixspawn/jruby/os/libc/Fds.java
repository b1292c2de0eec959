package org.posixspawn.jruby.os.libc;

import java.nio.ByteBuffer;

/**
 * The descriptor calls the layers above share (libuv's uv__dup, uv__nonblock): duplicate close-on-exec,
 * enlarge a pipe, read and restore status flags, ask readiness, read and write a buffer, close. Failures are
 * {@link SpawnError}s naming what was done.
 */
public final class Fds {
    /**
     * Pipe capacity asked for where one can be resized (Linux, F_SETPIPE_SZ): fewer, larger reads and writes
     * than the default 64 KiB; 1 MiB is the default /proc/sys/fs/pipe-max-size.
     */
    private static final int PIPE_SIZE = 1 << 20;

    private Fds() {}

    /** A close-on-exec copy of {@code fd}, numbered {@code lowest} or above; {@code what} names the copy in an error. */
    public static int dupCloexec(int fd, int lowest, String what) throws SpawnError {
        int copy = Native.libc.fcntl(fd, Constants.F_DUPFD_CLOEXEC, lowest);
        if (copy < 0) throw SpawnError.errno(Native.errno(), what);
        return copy;
    }

    /** Asks for a {@link #PIPE_SIZE} pipe behind {@code fd}; best effort: elsewhere, or refused, only speed is lost. */
    public static void enlargePipe(int fd) {
        if (Constants.F_SETPIPE_SZ >= 0) Native.libc.fcntl(fd, Constants.F_SETPIPE_SZ, PIPE_SIZE);
    }

    /** The open file's status flags (F_GETFL), to give back with {@link #setStatusFlags}. */
    public static int statusFlags(int fd) {
        return Native.libc.fcntl(fd, Constants.F_GETFL, 0);
    }

    public static void setStatusFlags(int fd, int flags) {
        Native.libc.fcntl(fd, Constants.F_SETFL, flags);
    }

    /** What a write to a pipe that {@link #writable} found possible takes without blocking: PIPE_BUF (POSIX's least is 512). */
    public static final int PIPE_ATOMIC = jnr.ffi.Platform.getNativePlatform().getOS() == jnr.ffi.Platform.OS.LINUX ? 4096 : 512;

    /** Whether a read of {@code fd} would not block now ({@link #ready}). */
    public static boolean readable(int fd) {
        return ready(fd, Constants.POLLIN);
    }

    /** {@link #readable}, waiting up to {@code millis} for it (poll(2): no descriptor of its own, so it works with the table full). */
    public static boolean readable(int fd, int millis) {
        return ready(fd, Constants.POLLIN, millis);
    }

    /** Whether a write to {@code fd} would not block now ({@link #ready}). */
    public static boolean writable(int fd) {
        return ready(fd, Constants.POLLOUT);
    }

    /** Whether a {@link #read} or {@link #write} result is EAGAIN: someone else made the open file non-blocking. */
    public static boolean wouldBlock(long result) {
        return result == -Constants.EAGAIN;
    }

    /** Whether a {@link #poll} result is -EBADF: a descriptor not open. */
    public static boolean badDescriptor(int result) {
        return result == -Constants.EBADF;
    }

    /**
     * Whether a read (POLLIN) or write (POLLOUT) on {@code fd} would not block now: poll(2) with no wait. An end
     * of file, a hang-up, an error or a descriptor that is not open count as ready: the read or write tells.
     */
    private static boolean ready(int fd, short events) {
        return ready(fd, events, 0);
    }

    private static boolean ready(int fd, short events, int millis) {
        try (PollSet one = new PollSet(1)) {
            one.watch(fd, events);
            int n;
            do n = one.poll(millis); while (n < 0 && Native.errno() == Constants.EINTR);
            return n != 0;
        }
    }

    /** What {@link #poll} asks for: a read, a write, select(2)'s exceptional condition (its exceptfds). */
    public static final short POLL_READ = Constants.POLLIN, POLL_WRITE = Constants.POLLOUT, POLL_PRIORITY = Constants.POLLPRI;

    /**
     * One poll(2) of {@code fds[i]} for {@code events[i]}, up to {@code millis} (-1: no limit); ORs each entry's
     * revents into {@code revents[i]} (POLLERR and POLLHUP may come unasked: the read or write tells). The count
     * with any revents, 0 at the limit or on EINTR (the caller decides whether to go on), or minus the errno:
     * -EBADF when any descriptor is not open (POLLNVAL), as select(2) fails.
     */
    public static int poll(int[] fds, short[] events, short[] revents, int millis) {
        try (PollSet set = new PollSet(fds.length)) {
            for (int i = 0; i < fds.length; i++) set.watch(fds[i], events[i]);
            int n = set.poll(millis);
            if (n < 0) return Native.errno() == Constants.EINTR ? 0 : -Native.errno();
            for (int i = 0; i < fds.length; i++) if (set.invalid(i)) return -Constants.EBADF;
            for (int i = 0; i < fds.length; i++) revents[i] |= set.revents(i);
            return n;
        }
    }

    /** read(2) into {@code into} from its position, which moves on; the count, 0 at end of file, or minus the errno. */
    public static long read(int fd, ByteBuffer into) {
        long n;
        do n = Native.extra().read(fd, into, into.remaining()); while (n < 0 && Native.errno() == Constants.EINTR);
        if (n < 0) return -Native.errno();
        into.position(into.position() + (int) n);
        return n;
    }

    /** write(2) of up to {@code max} bytes of {@code from} from its position, which moves on; the count, or minus the errno. */
    public static long write(int fd, ByteBuffer from, int max) {
        long n;
        do n = Native.extra().write(fd, from, Math.min(max, from.remaining())); while (n < 0 && Native.errno() == Constants.EINTR);
        if (n < 0) return -Native.errno();
        from.position(from.position() + (int) n);
        return n;
    }

    /**
     * A new close-on-exec pipe, [read end, write end], both the caller's to close, both O_NONBLOCK as MRI 3's
     * IO.pipe ends are ({@link NonBlockingEnds}).
     */
    public static int[] pipe() throws SpawnError {
        try (Pipe pipe = Pipe.openNonBlocking()) {
            return new int[] { pipe.takeRead(), pipe.takeWrite() };
        }
    }

    /** Runs {@code madeBlocking} when a spawn clears {@code fd}'s O_NONBLOCK for a child's stdio, until {@link #unwatch}. */
    public static void watchNonBlocking(int fd, Runnable madeBlocking) {
        NonBlockingEnds.watch(fd, madeBlocking);
    }

    /** Ends {@link #watchNonBlocking} for {@code fd}, before it is closed (its number may be reused). */
    public static void unwatch(int fd) {
        NonBlockingEnds.forget(fd);
    }

    /** close(2) of a descriptor no IO owns; never retried, as on Linux the descriptor is gone even after EINTR. */
    public static void close(int fd) {
        Native.libc.close(fd);
    }
}

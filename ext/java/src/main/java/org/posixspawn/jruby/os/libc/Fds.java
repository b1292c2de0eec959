package org.posixspawn.jruby.os.libc;

/**
 * The descriptor calls the layers above share (libuv's uv__dup, uv__nonblock): duplicate close-on-exec,
 * enlarge a pipe, read and restore status flags, close. Failures are {@link SpawnError}s naming what was done.
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

    /** close(2) of a descriptor no IO owns; never retried, as on Linux the descriptor is gone even after EINTR. */
    public static void close(int fd) {
        Native.libc.close(fd);
    }
}

package org.posixspawn.jruby.os.libc;

import java.util.concurrent.locks.ReentrantReadWriteLock;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.platform.Strategy;

/**
 * One close-on-exec pipe, pipe2(O_CLOEXEC) or (no pipe2: macOS) pipe then FD_CLOEXEC: its two ends, each
 * closed at most once, unless taken over by someone else.
 */
public final class Pipe implements AutoCloseable {
    /**
     * Without pipe2 a new pipe is inheritable until FD_CLOEXEC is set on it: a pipe in that state holds the
     * write side, and a spawn that would let it through (close_others: false, or close actions from a
     * listing made before the call) the read side, so no child inherits another thread's capture pipe.
     */
    public static final ReentrantReadWriteLock CLOEXEC_GAP = new ReentrantReadWriteLock();

    private int read, write;

    private Pipe(int read, int write) {
        this.read = read;
        this.write = write;
    }

    public static Pipe open() throws SpawnError {
        return open(false);
    }

    /**
     * A pipe with both ends non-blocking: for waking a poll loop (any thread writes it, the loop drains it), and
     * for the gem's pipe IOs, as MRI 3's IO.pipe.
     */
    public static Pipe openNonBlocking() throws SpawnError {
        return open(true);
    }

    private static Pipe open(boolean nonBlocking) throws SpawnError {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(8))) {
            Pointer pair = mem.reserve(8);
            if (Features.pipe2()) { // one call where pipe2 takes O_NONBLOCK too, instead of four fcntl after it
                if (Native.extra().pipe2(pair, Constants.O_CLOEXEC | (nonBlocking ? Constants.O_NONBLOCK : 0)) != 0) {
                    throw SpawnError.errno(Native.errno(), "pipe2");
                }
                Trace.record(Trace.Concern.PIPES, Strategy.Pipes.PIPE2);
            } else {
                CLOEXEC_GAP.writeLock().lock();
                try {
                    if (Native.extra().pipe(pair) != 0) throw SpawnError.errno(Native.errno(), "pipe");
                    Native.libc.fcntl(pair.getInt(0), Constants.F_SETFD, Constants.FD_CLOEXEC);
                    Native.libc.fcntl(pair.getInt(4), Constants.F_SETFD, Constants.FD_CLOEXEC);
                } finally {
                    CLOEXEC_GAP.writeLock().unlock();
                }
                Trace.record(Trace.Concern.PIPES, Strategy.Pipes.PIPE_THEN_FD_CLOEXEC);
                if (nonBlocking) {
                    setNonBlockingFresh(pair.getInt(0));
                    setNonBlockingFresh(pair.getInt(4));
                }
            }
            return new Pipe(pair.getInt(0), pair.getInt(4));
        }
    }

    public int readEnd() {
        return read;
    }

    public int writeEnd() {
        return write;
    }

    /** The read end, now the caller's to close. */
    public int takeRead() {
        int fd = read;
        read = -1;
        return fd;
    }

    /** The write end, now the caller's to close. */
    public int takeWrite() {
        int fd = write;
        write = -1;
        return fd;
    }

    /** {@link #setNonBlocking} for an end this thread has just made: one fcntl, it has no other status flag to keep. */
    public static void setNonBlockingFresh(int fd) {
        Native.libc.fcntl(fd, Constants.F_SETFL, Constants.O_NONBLOCK);
    }

    public static void setNonBlocking(int fd) {
        Native.libc.fcntl(fd, Constants.F_SETFL, Native.libc.fcntl(fd, Constants.F_GETFL, 0) | Constants.O_NONBLOCK);
    }

    /** Closes the ends not taken. */
    @Override
    public void close() {
        if (read >= 0) Native.libc.close(read);
        if (write >= 0) Native.libc.close(write);
        read = write = -1;
    }
}

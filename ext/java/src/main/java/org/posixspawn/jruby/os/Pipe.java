package org.posixspawn.jruby.os;

import jnr.ffi.Pointer;

/** One pipe2(O_CLOEXEC): its two ends, each closed at most once, unless taken over by someone else. */
final class Pipe implements AutoCloseable {
    private int read, write;

    private Pipe(int read, int write) {
        this.read = read;
        this.write = write;
    }

    static Pipe open() throws SpawnError {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(8))) {
            Pointer pair = mem.reserve(8);
            if (Native.libc.pipe2(pair, Constants.O_CLOEXEC) != 0) throw SpawnError.errno(Native.errno(), "pipe2");
            return new Pipe(pair.getInt(0), pair.getInt(4));
        }
    }

    int readEnd() {
        return read;
    }

    int writeEnd() {
        return write;
    }

    /** The read end, now the caller's to close. */
    int takeRead() {
        int fd = read;
        read = -1;
        return fd;
    }

    /** The write end, now the caller's to close. */
    int takeWrite() {
        int fd = write;
        write = -1;
        return fd;
    }

    static void setNonBlocking(int fd) {
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

package org.posixspawn.jruby.os.pty;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.PtyCalls;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.PathName;

/**
 * Pseudo-terminals: a master opened close-on-exec with its slave's name, the slave opened in the parent
 * (never as a controlling terminal), the window size set on the master, and reads of the master that tell
 * the slave's hang-up (EIO) from "nothing yet", which JRuby's own IO on such a descriptor cannot.
 */
public final class Pty {
    private static final PtyCalls libc = LibraryLoader.create(PtyCalls.class).load(Platform.getNativePlatform().getStandardCLibraryName());
    /** {@link #read}: nothing to read yet. */
    public static final int WOULD_BLOCK = -1;

    private Pty() {}

    /** A master descriptor and its slave's path. */
    public static final class Terminal {
        public final int master;
        public final byte[] slavePath;

        Terminal(int master, byte[] slavePath) {
            this.master = master;
            this.slavePath = slavePath;
        }
    }

    // MRI: get_device_once (its posix_openpt branch)
    /** A new master, close-on-exec and not this process's controlling terminal; every descriptor closed on failure. */
    public static Terminal open() throws SpawnError {
        int master = libc.posix_openpt(Constants.O_RDWR | Constants.O_NOCTTY | Constants.O_CLOEXEC);
        if (master < 0) throw SpawnError.errno(Native.errno(), "posix_openpt");
        try {
            if (libc.grantpt(master) != 0) throw SpawnError.errno(Native.errno(), "grantpt");
            if (libc.unlockpt(master) != 0) throw SpawnError.errno(Native.errno(), "unlockpt");
            try (NativeBlock mem = new NativeBlock(4096)) {
                Pointer name = mem.reserve(4096);
                int err = libc.ptsname_r(master, name, 4096);
                if (err != 0) throw SpawnError.errno(err, "ptsname_r");
                byte[] path = name.getString(0).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                return new Terminal(master, path);
            }
        } catch (SpawnError | RuntimeException e) {
            Native.libc.close(master);
            throw e;
        }
    }

    /** The slave, opened in this process close-on-exec and with O_NOCTTY, so it never becomes the JVM's terminal. */
    public static int openSlave(byte[] path) throws SpawnError {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(path.length + 1))) {
            int fd = Native.libc.open(mem.cString(path), Constants.O_RDWR | Constants.O_NOCTTY | Constants.O_CLOEXEC, 0);
            if (fd < 0) throw SpawnError.errno(Native.errno(), new PathName(path, "ASCII-8BIT"));
            return fd;
        }
    }

    /** TIOCSWINSZ on the master: what the slave's side reads with TIOCGWINSZ (`stty size`). */
    public static void setWindowSize(int fd, int rows, int cols) throws SpawnError {
        try (NativeBlock mem = new NativeBlock(16)) {
            Pointer size = mem.reserve(8); // struct winsize: rows, cols, xpixel, ypixel (unsigned short each)
            size.putShort(0, (short) rows);
            size.putShort(2, (short) cols);
            size.putShort(4, (short) 0);
            size.putShort(6, (short) 0);
            if (libc.ioctl(fd, Constants.TIOCSWINSZ, size) != 0) throw SpawnError.errno(Native.errno(), "TIOCSWINSZ");
        }
    }

    /** A close-on-exec copy of {@code fd} (IO#dup's is not close-on-exec on JRuby). */
    public static int dupCloexec(int fd) throws SpawnError {
        return Fds.dupCloexec(fd, 3, "dup");
    }

    /**
     * Up to {@code max} bytes from the master without blocking: the bytes, an empty array at end of file,
     * or null when there is nothing yet ({@link #WOULD_BLOCK}). The slave's hang-up with nothing left to
     * read is EIO (Linux), thrown as the failure it is.
     */
    public static byte[] read(int fd, int max) throws SpawnError {
        ByteBuffer poll = ByteBuffer.allocate(Constants.POLLFD_SIZE).order(ByteOrder.nativeOrder()); // struct pollfd: fd, events, revents
        poll.putInt(0, fd).putShort(4, Constants.POLLIN);
        int ready = libc.poll(poll, 1, 0);
        if (ready < 0) {
            int errno = Native.errno();
            if (errno == Constants.EINTR) return null;
            throw SpawnError.errno(errno, "poll");
        }
        if (ready == 0) return null; // nothing, and no hang-up: read(2) would block
        ByteBuffer buf = ByteBuffer.allocate(max);
        long n;
        do {
            n = libc.read(fd, buf, max);
        } while (n < 0 && Native.errno() == Constants.EINTR);
        if (n < 0) {
            int errno = Native.errno();
            if (errno == Constants.EAGAIN) return null;
            throw SpawnError.errno(errno, "read");
        }
        return n == max ? buf.array() : Arrays.copyOf(buf.array(), (int) n);
    }
}

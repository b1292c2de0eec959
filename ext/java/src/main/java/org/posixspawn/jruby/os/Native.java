package org.posixspawn.jruby.os;

import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.posixspawn.jruby.os.platform.PlatformProfile;

/** The bound C library, its platform constants, and which optional calls this libc has. */
public final class Native {
    public static final LibC libc = LibraryLoader.create(LibC.class).load(Platform.getNativePlatform().getStandardCLibraryName());
    public static final Runtime runtime = Runtime.getRuntime(libc);
    public static final boolean LINUX = Platform.getNativePlatform().getOS() == Platform.OS.LINUX;
    /** This platform's profile; null where there is none, and then {@link #requireProfile} refuses every spawn. */
    public static final PlatformProfile PROFILE = PlatformProfile.currentOrNull();

    public static final int O_RDONLY = OpenFlags.O_RDONLY.intValue();
    public static final int O_WRONLY = OpenFlags.O_WRONLY.intValue();
    public static final int O_NONBLOCK = OpenFlags.O_NONBLOCK.intValue();
    public static final int O_DIRECTORY = OpenFlags.O_DIRECTORY.intValue();
    /** Not Linux's everywhere: FreeBSD's is 0x100000 (0x1000000, macOS's, is O_DSYNC there). */
    public static final int O_CLOEXEC = PROFILE != null ? PROFILE.O_CLOEXEC : -1;
    public static final int F_GETFD = 1, F_GETFL = 3, F_SETFL = 4;
    public static final int F_SETPIPE_SZ = 1031; // Linux
    public static final int ENOENT = Errno.ENOENT.intValue();
    public static final int ENOEXEC = Errno.ENOEXEC.intValue();
    public static final int EINTR = Errno.EINTR.intValue();
    public static final int EAGAIN = Errno.EAGAIN.intValue();
    public static final int ECHILD = Errno.ECHILD.intValue();
    public static final int EPIPE = Errno.EPIPE.intValue();
    public static final int SIGKILL = 9, SIGTERM = 15;
    public static final int X_OK = 1;

    /** posix_spawnattr flags, the profile's: FreeBSD's SETSIGDEF and SETSIGMASK are 0x10 and 0x20 (0x04 and 0x08 are its scheduler flags). */
    static final short POSIX_SPAWN_SETPGROUP = PROFILE != null ? PROFILE.POSIX_SPAWN_SETPGROUP : 0,
            POSIX_SPAWN_SETSIGDEF = PROFILE != null ? PROFILE.POSIX_SPAWN_SETSIGDEF : 0,
            POSIX_SPAWN_SETSIGMASK = PROFILE != null ? PROFILE.POSIX_SPAWN_SETSIGMASK : 0;
    /** glibc 2.26+ and musl: 0x80; macOS 10.15+: 0x400; none on FreeBSD (see Features.setsid). */
    static final short POSIX_SPAWN_SETSID = PROFILE != null ? PROFILE.POSIX_SPAWN_SETSID : 0;

    private Native() {}

    /** UnsupportedPlatformException (NotImplementedError in Ruby) naming this platform where it has no profile. */
    static void requireProfile() {
        if (PROFILE == null) PlatformProfile.current();
    }

    public static int errno() {
        return LastError.getLastError(runtime);
    }

    /** Whether this process's C library exports {@code symbol}. */
    static boolean hasSymbol(String symbol) {
        return com.kenai.jffi.Library.getDefault().getSymbolAddress(symbol) != 0L;
    }

    /** access(2) on one path after another, through one native buffer: a PATH search's probes. */
    public static final class AccessProbe implements AutoCloseable {
        private final NativeBlock mem;
        private final Pointer path;
        private final int capacity;

        /** A probe for paths of up to {@code longest} bytes. */
        public AccessProbe(int longest) {
            capacity = longest;
            mem = new NativeBlock(NativeBlock.align(longest + 1));
            path = mem.reserve(longest + 1);
        }

        /** Whether {@code file} is there with {@code mode} for this process. */
        public boolean test(byte[] file, int mode) {
            if (file.length > capacity) throw new IllegalArgumentException("path longer than the probe's buffer");
            path.put(0, file, 0, file.length);
            path.putByte(file.length, (byte) 0);
            return libc.access(path, mode) == 0;
        }

        @Override
        public void close() {
            mem.close();
        }
    }

    public static Pointer allocate(long size) {
        Pointer p = libc.malloc(size);
        if (p == null || p.address() == 0) throw new OutOfMemoryError("malloc(" + size + ") failed");
        return p;
    }
}

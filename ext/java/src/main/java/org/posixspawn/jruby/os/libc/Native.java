package org.posixspawn.jruby.os.libc;

import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import org.posixspawn.jruby.os.platform.PlatformProfile;

/** The bound C library: {@link LibC} at once, {@link LibCExtra} on first use (constants: {@link Constants}; optional calls: {@link Features}). */
public final class Native {
    public static final LibC libc = new BoundLibC();
    public static final Runtime runtime = Runtime.getSystemRuntime();
    /** This platform's profile; null where there is none, and then {@link #requireProfile} refuses every spawn. */
    public static final PlatformProfile PROFILE = PlatformProfile.current();

    private Native() {}

    /** The calls beyond a spawn, bound on first use ({@link LibCExtra}). */
    public static LibCExtra extra() {
        return Extra.LIBC;
    }

    private static final class Extra {
        static final LibCExtra LIBC = LibraryLoader.create(LibCExtra.class).load(Platform.getNativePlatform().getStandardCLibraryName());
    }

    /** Refuses (NotImplementedError in Ruby) where this platform has no profile, naming it. */
    public static void requireProfile() throws SpawnError {
        if (PROFILE == null) throw SpawnError.unsupported(PlatformProfile.refusalHere());
    }

    public static int errno() {
        return LastError.getLastError(runtime);
    }

    /** Whether this process's C library exports {@code symbol}. */
    static boolean hasSymbol(String symbol) {
        return com.kenai.jffi.Library.getDefault().getSymbolAddress(symbol) != 0L;
    }

    /** malloc, or OutOfMemoryError: small blocks for one call, like the JVM's own allocations; each has one owner that frees it (doc/native-memory.md). */
    public static Pointer allocate(long size) {
        Pointer p = libc.malloc(size);
        if (p == null || p.address() == 0) throw new OutOfMemoryError("malloc(" + size + ") failed");
        return p;
    }
}

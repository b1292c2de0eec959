package org.posixspawn.jruby.os.libc;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.platform.Strategy;

/**
 * The optional calls the spawner and {@code Capture} prefer, each with the fallback used where it is missing:
 * <ul>
 * <li>{@code posix_spawn_file_actions_addchdir_np} (glibc 2.29, musl 1.1.24, macOS 10.15): else the spawn
 * runs on the {@code FsThread}, whose own working directory the child inherits;</li>
 * <li>{@code posix_spawn_file_actions_addclosefrom_np} (glibc 2.34, FreeBSD 13.1): else each open descriptor
 * listed in /proc/self/fd (or FreeBSD's /dev/fd, where fdescfs is mounted) gets its own close action; macOS
 * takes neither (POSIX_SPAWN_CLOEXEC_DEFAULT, {@code Closing});</li>
 * <li>{@code POSIX_SPAWN_SETSID} (glibc 2.26, musl, macOS 10.15), a flag rather than a call: this libc's
 * own posix_spawnattr_setflags is asked whether it takes it (glibc before 2.26 and FreeBSD refuse it with
 * EINVAL); there is no fallback, so {@code setsid: true} raises NotImplementedError where it is missing;</li>
 * <li>{@code pidfd_open} (Linux 5.3, a system call; its number is the profile's): else the {@code Reaper}
 * asks waitpid about the child every {@code Reaper.POLL_MILLIS} ms;</li>
 * <li>{@code pipe2} (Linux, FreeBSD; not macOS): else pipe, then FD_CLOEXEC on each end ({@link Pipe});</li>
 * <li>{@code mremap} (Linux only): else a capture buffer grows by a new mapping and one copy ({@code CaptureBuffer}).</li>
 * </ul>
 * Each is used only where this platform's profile has a strategy that uses it.
 * {@link #pretendMissing} makes a present call look missing, so tests (and users working around a broken
 * libc) can run the fallbacks on a machine that does not need them.
 */
public final class Features {
    public static final String ADDCHDIR = "posix_spawn_file_actions_addchdir_np";
    public static final String ADDCLOSEFROM = "posix_spawn_file_actions_addclosefrom_np";
    public static final String PIDFD_OPEN = "pidfd_open";
    public static final String SETSID = "POSIX_SPAWN_SETSID";
    public static final String PIPE2 = "pipe2";
    public static final String MREMAP = "mremap";
    public static final String SETSID_MISSING = "setsid option needs POSIX_SPAWN_SETSID (glibc 2.26+, musl, macOS 10.15+), which this libc's posix_spawn does not have";

    private static final boolean HAS_ADDCHDIR = Native.hasSymbol(ADDCHDIR);
    private static final boolean HAS_ADDCLOSEFROM = Native.PROFILE != null && Native.PROFILE.closeOthers != Strategy.CloseOthers.CLOEXEC_DEFAULT
            && Native.hasSymbol(ADDCLOSEFROM);
    private static final boolean HAS_PIDFD_OPEN = Native.PROFILE != null && Native.PROFILE.exitWait == Strategy.ExitWait.PIDFD_ELSE_WAITPID_POLL
            && Constants.PIDFD_OPEN_SYSCALL >= 0;
    /** FreeBSD has no such flag (0 in its profile), and setflags(0) would succeed. */
    private static final boolean HAS_SETSID = Constants.POSIX_SPAWN_SETSID != 0 && setflagsTakesSetsid();
    private static final boolean HAS_MREMAP = Native.PROFILE != null && Native.PROFILE.captureBuffer == Strategy.CaptureBuffer.MREMAP
            && Native.hasSymbol(MREMAP);
    private static final boolean HAS_PIPE2 = Native.PROFILE != null && Native.PROFILE.pipes == Strategy.Pipes.PIPE2 && Native.hasSymbol(PIPE2);
    private static final Set<String> pretendMissing = ConcurrentHashMap.newKeySet();

    private Features() {}

    public static boolean addchdir() {
        return HAS_ADDCHDIR && !pretendMissing.contains(ADDCHDIR);
    }

    public static boolean addclosefrom() {
        return HAS_ADDCLOSEFROM && !pretendMissing.contains(ADDCLOSEFROM);
    }

    /** Worth trying: an older kernel (or a sandbox) still fails it, and the caller falls back then too. */
    public static boolean pidfdOpen() {
        return HAS_PIDFD_OPEN && !pretendMissing.contains(PIDFD_OPEN);
    }

    public static boolean setsid() {
        return HAS_SETSID && !pretendMissing.contains(SETSID);
    }

    public static boolean pipe2() {
        return HAS_PIPE2 && !pretendMissing.contains(PIPE2);
    }

    public static boolean mremap() {
        return HAS_MREMAP && !pretendMissing.contains(MREMAP);
    }

    /** Whether {@code symbol} is there and it is not being pretended missing. */
    public static boolean available(String symbol) {
        switch (symbol) {
            case ADDCHDIR: return addchdir();
            case ADDCLOSEFROM: return addclosefrom();
            case PIDFD_OPEN: return pidfdOpen();
            case SETSID: return setsid();
            case PIPE2: return pipe2();
            case MREMAP: return mremap();
            default: throw new IllegalArgumentException("not an optional call: " + symbol);
        }
    }

    /** Makes the spawner behave as if libc lacked {@code symbol} (true) or use it again (false). */
    public static void pretendMissing(String symbol, boolean missing) {
        available(symbol); // rejects unknown names
        if (missing) pretendMissing.add(symbol);
        else pretendMissing.remove(symbol);
    }

    private static boolean setflagsTakesSetsid() {
        try (NativeBlock mem = new NativeBlock(1024)) {
            Pointer attr = mem.reserve(1024);
            if (Native.libc.posix_spawnattr_init(attr) != 0) return false;
            try {
                return Native.libc.posix_spawnattr_setflags(attr, Constants.POSIX_SPAWN_SETSID) == 0;
            } finally {
                Native.libc.posix_spawnattr_destroy(attr);
            }
        }
    }
}

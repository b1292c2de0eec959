package org.posixspawn.jruby.os;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The optional libc calls the spawner prefers, each with the fallback used where it is missing:
 * <ul>
 * <li>{@code posix_spawn_file_actions_addchdir_np} (glibc 2.29, musl 1.1.24, macOS 10.15): else the spawn
 * runs on the {@link FsThread}, whose own working directory the child inherits;</li>
 * <li>{@code posix_spawn_file_actions_addclosefrom_np} (glibc 2.34): else each open descriptor listed in
 * /proc/self/fd (or /dev/fd) gets its own close action.</li>
 * </ul>
 * {@link #pretendMissing} makes a present call look missing, so tests (and users working around a broken
 * libc) can run the fallbacks on a machine that does not need them.
 */
public final class Features {
    public static final String ADDCHDIR = "posix_spawn_file_actions_addchdir_np";
    public static final String ADDCLOSEFROM = "posix_spawn_file_actions_addclosefrom_np";

    private static final boolean HAS_ADDCHDIR = Native.hasSymbol(ADDCHDIR);
    private static final boolean HAS_ADDCLOSEFROM = Native.hasSymbol(ADDCLOSEFROM);
    private static final Set<String> pretendMissing = ConcurrentHashMap.newKeySet();

    private Features() {}

    static boolean addchdir() {
        return HAS_ADDCHDIR && !pretendMissing.contains(ADDCHDIR);
    }

    static boolean addclosefrom() {
        return HAS_ADDCLOSEFROM && !pretendMissing.contains(ADDCLOSEFROM);
    }

    /** Whether libc has {@code symbol} and it is not being pretended missing. */
    public static boolean available(String symbol) {
        switch (symbol) {
            case ADDCHDIR: return addchdir();
            case ADDCLOSEFROM: return addclosefrom();
            default: throw new IllegalArgumentException("not an optional call: " + symbol);
        }
    }

    /** Makes the spawner behave as if libc lacked {@code symbol} (true) or use it again (false). */
    public static void pretendMissing(String symbol, boolean missing) {
        available(symbol); // rejects unknown names
        if (missing) pretendMissing.add(symbol);
        else pretendMissing.remove(symbol);
    }
}

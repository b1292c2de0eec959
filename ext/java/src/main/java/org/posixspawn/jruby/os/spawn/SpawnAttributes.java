package org.posixspawn.jruby.os.spawn;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.LibC;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.platform.PlatformProfile;
import org.posixspawn.jruby.plan.SpawnPlan;

/** The posix_spawnattr_t of a plan: each attribute the child starts with, set in turn, with the profile's flags. */
final class SpawnAttributes {
    private SpawnAttributes() {}

    /** Whether {@code plan} sets nothing but what every plan sets: then its attributes are {@link PlainSetup}'s. Reads each field {@link #set} reads. */
    static boolean plain(SpawnPlan plan) {
        return plan.pgroup < 0 && !plan.setsid;
    }

    /**
     * The signals the child gets at their default even when this process ignores them, as bits of a sigset_t
     * (bit n-1 is signal n): SIGPIPE, which MRI's child resets (process.c: disable_child_handler_fork_child),
     * and signals 32 and 33 where the set has them, libc's internal ones (glibc's SIGCANCEL and SIGSETXID,
     * FreeBSD's SIGTHR and SIGLIBRT), which glibc's posix_spawn would otherwise set to SIG_IGN in the child.
     * Bits, not sigaddset: glibc's refuses its internal signals.
     */
    static byte[] defaulted(PlatformProfile profile) {
        byte[] set = new byte[profile.SIZEOF_SIGSET];
        int[] signals = profile.SIZEOF_SIGSET * 8 > 33 ? new int[] {profile.SIGPIPE, 32, 33} : new int[] {profile.SIGPIPE};
        for (int signal : signals) set[(signal - 1) / 8] |= (byte) (1 << ((signal - 1) % 8));
        return set;
    }

    /** Sets {@code attr} (initialised) for {@code plan}; the signal sets are carved from {@code mem}. */
    static void set(LibC libc, PlatformProfile profile, Pointer attr, SpawnPlan plan, Closing closing, NativeBlock mem) throws SpawnError {
        short flags = 0;
        // The child starts with no signal blocked. Its dispositions are MRI's child's: a signal this process
        // handles is at its default (libc's posix_spawn resets it in the child), one it ignores stays ignored
        // (POSIX's rule across exec: nohup's SIGHUP, a background job's SIGINT), but for those {@link #defaulted} names.
        Pointer none = mem.reserve(Constants.SIGSET_SIZE), defaulted = mem.reserve(Constants.SIGSET_SIZE);
        libc.sigemptyset(none);
        defaulted.put(0, defaulted(profile), 0, profile.SIZEOF_SIGSET);
        SpawnFailure.check(libc.posix_spawnattr_setsigmask(attr, none), plan);
        SpawnFailure.check(libc.posix_spawnattr_setsigdefault(attr, defaulted), plan);
        flags |= profile.POSIX_SPAWN_SETSIGMASK | profile.POSIX_SPAWN_SETSIGDEF;
        if (plan.setsid) flags |= profile.POSIX_SPAWN_SETSID;
        if (closing == Closing.CLOEXEC_DEFAULT) flags |= profile.POSIX_SPAWN_CLOEXEC_DEFAULT;
        if (plan.pgroup >= 0) {
            SpawnFailure.check(libc.posix_spawnattr_setpgroup(attr, plan.pgroup), plan);
            flags |= profile.POSIX_SPAWN_SETPGROUP;
        }
        SpawnFailure.check(libc.posix_spawnattr_setflags(attr, flags), plan);
    }
}

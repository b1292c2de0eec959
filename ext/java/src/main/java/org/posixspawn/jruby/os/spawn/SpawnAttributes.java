package org.posixspawn.jruby.os.spawn;

import java.util.Arrays;

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

    /** Sets {@code attr} (initialised) for {@code plan}; the signal sets are carved from {@code mem}. */
    static void set(LibC libc, PlatformProfile profile, Pointer attr, SpawnPlan plan, Closing closing, NativeBlock mem) throws SpawnError {
        short flags = 0;
        // The child starts with no signal blocked and every signal at its default action, whatever the JVM set.
        Pointer none = mem.reserve(Constants.SIGSET_SIZE), all = mem.reserve(Constants.SIGSET_SIZE);
        libc.sigemptyset(none);
        // Every bit, not sigfillset: glibc's leaves out its internal signals (32 and 33), which its
        // posix_spawn then sets to SIG_IGN in the child, and exec keeps them ignored.
        byte[] everySignal = new byte[Constants.SIGSET_SIZE];
        Arrays.fill(everySignal, (byte) 0xff);
        all.put(0, everySignal, 0, everySignal.length);
        SpawnFailure.check(libc.posix_spawnattr_setsigmask(attr, none), plan);
        SpawnFailure.check(libc.posix_spawnattr_setsigdefault(attr, all), plan);
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

package org.posixspawn.jruby.os;

import java.util.Arrays;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.plan.SpawnPlan;

/** The posix_spawnattr_t of a plan: each attribute the child starts with, set in turn. */
final class SpawnAttributes {
    private SpawnAttributes() {}

    /** Sets {@code attr} (initialised) for {@code plan}; the signal sets are carved from {@code mem}. */
    static void set(Pointer attr, SpawnPlan plan, NativeBlock mem) throws SpawnError {
        short flags = 0;
        // The child starts with no signal blocked and every signal at its default action, whatever the JVM set.
        Pointer none = mem.reserve(Constants.SIGSET_SIZE), all = mem.reserve(Constants.SIGSET_SIZE);
        Native.libc.sigemptyset(none);
        // Every bit, not sigfillset: glibc's leaves out its internal signals (32 and 33), which its
        // posix_spawn then sets to SIG_IGN in the child, and exec keeps them ignored.
        byte[] everySignal = new byte[Constants.SIGSET_SIZE];
        Arrays.fill(everySignal, (byte) 0xff);
        all.put(0, everySignal, 0, everySignal.length);
        check(Native.libc.posix_spawnattr_setsigmask(attr, none), plan);
        check(Native.libc.posix_spawnattr_setsigdefault(attr, all), plan);
        flags |= Constants.POSIX_SPAWN_SETSIGMASK | Constants.POSIX_SPAWN_SETSIGDEF;
        if (plan.setsid) flags |= Constants.POSIX_SPAWN_SETSID;
        if (plan.pgroup >= 0) {
            check(Native.libc.posix_spawnattr_setpgroup(attr, plan.pgroup), plan);
            flags |= Constants.POSIX_SPAWN_SETPGROUP;
        }
        check(Native.libc.posix_spawnattr_setflags(attr, flags), plan);
    }

    private static void check(int err, SpawnPlan plan) throws SpawnError {
        if (err != 0) throw Spawner.failure(err, plan);
    }
}

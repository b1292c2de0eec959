package org.posixspawn.jruby.os.spawn;

import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.Trace;
import org.posixspawn.jruby.os.platform.Strategy;
import org.posixspawn.jruby.plan.SpawnPlan;

/** How the child's other descriptors are closed (close_others); traced ({@code Trace.Concern.CLOSING}). */
public enum Closing {
    /** One posix_spawn_file_actions_addclosefrom_np (glibc 2.34+, FreeBSD 13.1+): close_range in the child. */
    CLOSEFROM,
    /**
     * Linux without it: a close action for every number from 3 to {@code FileActions.OPENED_MEANWHILE} above
     * the highest listed in /proc/self/fd, open or not (glibc and musl ignore a close of one that is not): a
     * descriptor another thread opens between the listing and the spawn takes the lowest free number, a hole
     * in the listing or one just above it, and is closed too.
     */
    LISTED_AND_ABOVE,
    /**
     * One close action per descriptor still open after listing: FreeBSD's /dev/fd where fdescfs is mounted
     * (with no trustworthy listing close_others is refused), and Linux under :rlimit_*, whose actions after
     * the gate run under the child's new limits, where glibc fails a close of a number not open.
     */
    EACH_LISTED,
    /**
     * macOS: POSIX_SPAWN_CLOEXEC_DEFAULT, so the child inherits only what the file actions name, and an
     * addinherit_np action for each kept descriptor no other action names (libuv's way).
     */
    CLOEXEC_DEFAULT,
    /** close_others: false: inheritable descriptors reach the child. */
    NONE;

    static Closing choose(SpawnPlan plan) {
        if (!plan.closeOthers) return NONE;
        if (Native.PROFILE.closeOthers == Strategy.CloseOthers.CLOEXEC_DEFAULT) return CLOEXEC_DEFAULT;
        if (Features.addclosefrom()) return CLOSEFROM;
        boolean linux = Native.PROFILE.closeOthers == Strategy.CloseOthers.CLOSEFROM_ELSE_PROC_FD;
        return linux && plan.rlimits.isEmpty() ? LISTED_AND_ABOVE : EACH_LISTED;
    }

    /** Whether a spawn closing this way must hold {@code Pipe.CLOEXEC_GAP}'s read side: it would let a pipe in the gap through. */
    boolean waitsForTheCloexecGap() {
        return !Features.pipe2() && (this == NONE || this == EACH_LISTED || this == LISTED_AND_ABOVE);
    }

    void record() {
        Trace.record(Trace.Concern.CLOSING, this);
    }

    /** Why close_others cannot be done here: no addclosefrom_np and no listing of open descriptors to trust. */
    static String unavailable() {
        return "close_others (the default) needs posix_spawn_file_actions_addclosefrom_np or a listing of the open descriptors in "
                + Native.PROFILE.descriptorDirectory + " (on FreeBSD: fdescfs mounted there), and this " + Native.PROFILE.name
                + " has neither; pass close_others: false to let the inheritable descriptors through";
    }
}

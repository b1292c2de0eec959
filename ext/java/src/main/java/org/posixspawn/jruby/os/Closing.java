package org.posixspawn.jruby.os;

import org.posixspawn.jruby.plan.SpawnPlan;

/** How the child's other descriptors are closed (close_others); recorded per thread so tests can see which way ran. */
public enum Closing {
    /** One posix_spawn_file_actions_addclosefrom_np (glibc 2.34+): close_range in the child. */
    CLOSEFROM,
    /** Without it: one close action per descriptor listed in /proc/self/fd (or /dev/fd) at the spawn. */
    EACH_LISTED,
    /** close_others: false: inheritable descriptors reach the child. */
    NONE;

    private static final ThreadLocal<Closing> LAST = new ThreadLocal<>();

    static Closing choose(SpawnPlan plan) {
        if (!plan.closeOthers) return NONE;
        return Features.addclosefrom() ? CLOSEFROM : EACH_LISTED;
    }

    void record() {
        LAST.set(this);
    }

    /** How this thread's last successful spawn closed descriptors, or null. */
    public static Closing last() {
        return LAST.get();
    }
}

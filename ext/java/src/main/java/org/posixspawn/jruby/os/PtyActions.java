package org.posixspawn.jruby.os;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * The file actions that give a child its controlling terminal. POSIX_SPAWN_SETSID runs before the file
 * actions (glibc's and musl's __spawni_child: setsid, setpgid, then the actions), so the child is a session
 * leader without a terminal when it opens the slave; opened without O_NOCTTY, the slave becomes its
 * controlling terminal (Linux's tty_open, as any session leader's first terminal). As in MRI's PTY.spawn
 * the slave is 0, 1 and 2 before the redirects, which may replace them.
 */
final class PtyActions {
    private PtyActions() {}

    static void add(Pointer actions, Pointer slavePath, SpawnPlan plan) throws SpawnError {
        check(Native.libc.posix_spawn_file_actions_addopen(actions, 0, slavePath, Constants.O_RDWR, 0), plan);
        check(Native.libc.posix_spawn_file_actions_adddup2(actions, 0, 1), plan);
        check(Native.libc.posix_spawn_file_actions_adddup2(actions, 0, 2), plan);
    }

    private static void check(int err, SpawnPlan plan) throws SpawnError {
        if (err != 0) throw Spawner.failure(err, plan);
    }
}

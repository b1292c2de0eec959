package org.posixspawn.jruby.os.spawn;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.LibC;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * The file actions that give a child its controlling terminal. POSIX_SPAWN_SETSID runs before the file
 * actions (glibc's and musl's __spawni_child: setsid, setpgid, then the actions), so the child is a session
 * leader without a terminal when it opens the slave; opened without O_NOCTTY, the slave becomes its
 * controlling terminal (Linux's tty_open, as any session leader's first terminal). As in MRI's PTY.spawn
 * the slave is 0, 1 and 2 before the redirects, which may replace them.
 */
final class TerminalActions {
    private TerminalActions() {}

    static void add(LibC libc, Pointer actions, Pointer slavePath, SpawnPlan plan) throws SpawnError {
        SpawnFailure.check(libc.posix_spawn_file_actions_addopen(actions, 0, slavePath, Constants.O_RDWR, 0), plan);
        SpawnFailure.check(libc.posix_spawn_file_actions_adddup2(actions, 0, 1), plan);
        SpawnFailure.check(libc.posix_spawn_file_actions_adddup2(actions, 0, 2), plan);
    }
}

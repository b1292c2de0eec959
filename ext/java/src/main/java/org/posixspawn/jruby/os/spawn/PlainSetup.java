package org.posixspawn.jruby.os.spawn;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * The attributes and file actions of a plain spawn, the common case: no process group, session or terminal, no
 * redirect, :close, [:child, fd] or inherited descriptor, descriptors from 3 up closed with closefrom, no directory
 * change or gate.
 * Every such spawn would set up the very same two objects, so they are set up once, from the first plain plan,
 * by the same code as any other spawn's, and then shared read-only by every thread (posix_spawn takes both
 * as const): no per-thread copies, no lock. They live as long as the JVM.
 */
final class PlainSetup {
    /** posix_spawnattr_t and posix_spawn_file_actions_t, once set up. */
    private static volatile Pointer[] shared;

    private PlainSetup() {}

    /** Whether {@code plan}, spawned this way, has exactly the shared attributes and actions. */
    static boolean applies(SpawnPlan plan, Closing closing, boolean chdirAction, byte[] gate) {
        return gate == null && !chdirAction && closing == Closing.CLOSEFROM && plan.terminal == null && SpawnAttributes.plain(plan)
                && FileActions.plain(plan);
    }

    /** {attr, actions} for a plan that {@link #applies}, set up from it the first time; null if that failed (the caller then sets up its own, and reports the error). */
    static Pointer[] get(SpawnPlan plan, RedirectFiles files) {
        Pointer[] s = shared;
        return s != null ? s : setUp(plan, files);
    }

    private static synchronized Pointer[] setUp(SpawnPlan plan, RedirectFiles files) {
        if (shared != null) return shared;
        NativeBlock mem = new NativeBlock(Constants.SPAWNATTR_SIZE + Constants.FILE_ACTIONS_SIZE + 2L * Constants.SIGSET_SIZE);
        Pointer attr = mem.reserve(Constants.SPAWNATTR_SIZE), actions = mem.reserve(Constants.FILE_ACTIONS_SIZE);
        boolean attrReady = false, actionsReady = false;
        try {
            attrReady = Native.libc.posix_spawnattr_init(attr) == 0;
            actionsReady = attrReady && Native.libc.posix_spawn_file_actions_init(actions) == 0;
            if (actionsReady) {
                SpawnAttributes.set(Native.libc, Native.PROFILE, attr, plan, Closing.CLOSEFROM, mem);
                FileActions.add(Native.libc, actions, plan, files, Closing.CLOSEFROM, null, -1, null, null);
                shared = new Pointer[] { attr, actions };
                return shared;
            }
        } catch (SpawnError e) {
            // falls through: freed below
        }
        if (actionsReady) Native.libc.posix_spawn_file_actions_destroy(actions);
        if (attrReady) Native.libc.posix_spawnattr_destroy(attr);
        mem.close();
        return null;
    }
}

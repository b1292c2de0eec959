package org.posixspawn.jruby;

import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.posixspawn.jruby.os.spawn.RedirectFiles;
import org.posixspawn.jruby.plan.AfterOpening;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * Spawn arguments to a plan, for every Native function that takes them: MRI's rb_execarg_new, then the
 * checks its rb_execarg_parent_start makes once it has opened the redirect files before them (so the
 * files a bad call names are created or truncated, and an error opening one wins, as in MRI).
 */
final class Plans {
    private Plans() {}

    /** Process.spawn's arguments to a plan. */
    static SpawnPlan parse(ThreadContext context, IRubyObject[] args) {
        try {
            return SpawnArguments.parse(context, args);
        } catch (AfterOpening failure) {
            throw raise(context, failure);
        }
    }

    /** IO.popen's spawn arguments and its separate env Hash to a plan ({@link SpawnArguments#parseForPopen}). */
    static SpawnPlan parseForPopen(ThreadContext context, IRubyObject[] args, IRubyObject popenEnv) {
        try {
            return SpawnArguments.parseForPopen(context, args, popenEnv);
        } catch (AfterOpening failure) {
            throw raise(context, failure);
        }
    }

    /** The files MRI opens before {@code failure}'s error, opened and closed again; then that error (or the open's). */
    static RuntimeException raise(ThreadContext context, AfterOpening failure) {
        Errors.call(context, () -> {
            RedirectFiles.openAndClose(failure.openFirst);
            return null;
        });
        throw failure.error;
    }
}

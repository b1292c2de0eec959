package org.posixspawn.jruby.os.spawn;

import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.Trace;
import org.posixspawn.jruby.plan.SpawnPlan;

/** Which thread carries out a plan: the one place that decides, with each reason. Traced ({@code Trace.Concern.SPAWN_ROUTE}). */
public enum SpawnRoute {
    /** posix_spawn from the calling thread, every step a file action or attribute. */
    POSIX_SPAWN,
    /** posix_spawn from the {@link FsThread}: its private cwd/umask serve :umask, or :chdir without addchdir_np; its gate :rlimit_*. */
    FS_THREAD;

    /** The route for {@code plan}; {@code needsChdir}: the child starts elsewhere than the process's directory. */
    static SpawnRoute choose(SpawnPlan plan, boolean needsChdir) {
        if (!plan.rlimits.isEmpty()) return FS_THREAD; // no posix_spawn attribute: ResourceLimitGate
        if (plan.umask >= 0) return FS_THREAD;         // no posix_spawn attribute: the thread's own umask
        if (needsChdir && !Features.addchdir()) return FS_THREAD; // the thread's own cwd instead of the file action
        return POSIX_SPAWN;
    }

    void record() {
        Trace.record(Trace.Concern.SPAWN_ROUTE, this);
    }
}

package org.posixspawn.jruby.os;

/** How the spawner carried out a plan; recorded per thread so tests can see which way ran. */
public enum Route {
    /** posix_spawn from the calling thread, every step a file action or attribute. */
    POSIX_SPAWN,
    /** posix_spawn from the {@link FsThread}: its private cwd/umask serve :umask, or :chdir without addchdir_np. */
    FS_THREAD;

    private static final ThreadLocal<Route> LAST = new ThreadLocal<>();

    static void record(Route route) {
        LAST.set(route);
    }

    /** The route of this thread's last successful spawn, or null. */
    public static Route last() {
        return LAST.get();
    }
}

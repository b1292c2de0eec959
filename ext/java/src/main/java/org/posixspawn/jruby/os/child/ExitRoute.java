package org.posixspawn.jruby.os.child;

/** How the {@link Reaper} learns of a child's end; per child, and recorded per thread so tests can see which ran. */
public enum ExitRoute {
    /** The child's pidfd, in the reaper's epoll set (Linux 5.3+). */
    PIDFD,
    /** waitpid(WNOHANG) every {@link Reaper#POLL_MILLIS} ms: no pidfd_open, or it failed. */
    WAITPID_POLL;

    private static final ThreadLocal<ExitRoute> LAST = new ThreadLocal<>();

    void record() {
        LAST.set(this);
    }

    /** The route of the last child this thread gave the reaper, or null. */
    public static ExitRoute last() {
        return LAST.get();
    }
}

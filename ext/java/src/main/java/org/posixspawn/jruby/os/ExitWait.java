package org.posixspawn.jruby.os;

/** How a {@link ChildExit} waits for its child's exit; recorded per thread so tests can see which way ran. */
public enum ExitWait {
    /** poll on a pidfd (Linux 5.3+), with whatever else the caller polls. */
    PIDFD,
    /** waitpid(WNOHANG) every {@link ChildExit#EXIT_POLL_MILLIS} ms: no pidfd_open, or it failed. */
    WAITPID_POLL;

    private static final ThreadLocal<ExitWait> LAST = new ThreadLocal<>();

    void record() {
        LAST.set(this);
    }

    /** How this thread's last started wait waits, or null. */
    public static ExitWait last() {
        return LAST.get();
    }
}

package org.posixspawn.jruby.os.child;

/** How the {@link Reaper} learns of a child's end; per child, and traced ({@code Trace.Concern.EXIT_ROUTE}). */
public enum ExitRoute {
    /** The child's pidfd, in the reaper's epoll set (Linux 5.3+). */
    PIDFD,
    /** waitpid(WNOHANG) every {@link Reaper#POLL_MILLIS} ms: no pidfd_open, or it failed. */
    WAITPID_POLL;

}

package org.posixspawn.jruby.os.libc;

import org.posixspawn.jruby.os.platform.PlatformProfile;

/**
 * The C constants of the platform layer, read once from this platform's profile (os/platform: from
 * jnr-constants' classes for the OS, or from the OS's table beside its header), so that the value checked
 * against the headers is the value run. Where there is no profile each is 0 or -1, and
 * {@link Native#requireProfile} refuses every spawn before any is used.
 */
public final class Constants {
    private static final PlatformProfile P = Native.PROFILE;
    private static final boolean HERE = P != null;

    private Constants() {}

    public static final int O_RDONLY = HERE ? P.O_RDONLY : 0, O_WRONLY = HERE ? P.O_WRONLY : 0, O_RDWR = HERE ? P.O_RDWR : 0,
            O_NOCTTY = HERE ? P.O_NOCTTY : 0, O_NONBLOCK = HERE ? P.O_NONBLOCK : 0;
    /** Not Linux's everywhere: FreeBSD's is 0x100000 (0x1000000, macOS's, is O_DSYNC there). */
    public static final int O_CLOEXEC = HERE ? P.O_CLOEXEC : -1;
    public static final int F_GETFL = HERE ? P.F_GETFL : -1, F_SETFL = HERE ? P.F_SETFL : -1, F_GETFD = HERE ? P.F_GETFD : -1,
            F_SETFD = HERE ? P.F_SETFD : -1, FD_CLOEXEC = HERE ? P.FD_CLOEXEC : 0;
    /** -1 where a pipe cannot be resized. */
    public static final int F_SETPIPE_SZ = HERE ? P.F_SETPIPE_SZ : -1;
    /** 1030 on Linux, 67 on macOS, 17 on FreeBSD. */
    public static final int F_DUPFD_CLOEXEC = HERE ? P.F_DUPFD_CLOEXEC : -1;
    /** ioctl(2) setting a terminal's window size. */
    public static final long TIOCSWINSZ = HERE ? P.TIOCSWINSZ : -1;
    public static final int F_OK = HERE ? P.F_OK : 0, X_OK = HERE ? P.X_OK : 0;

    public static final int ENOENT = HERE ? P.ENOENT : -1, ENOTDIR = HERE ? P.ENOTDIR : -1, EACCES = HERE ? P.EACCES : -1,
            EBADF = HERE ? P.EBADF : -1, EPERM = HERE ? P.EPERM : -1, ENOEXEC = HERE ? P.ENOEXEC : -1, EINTR = HERE ? P.EINTR : -1,
            EAGAIN = HERE ? P.EAGAIN : -1, ECHILD = HERE ? P.ECHILD : -1, EPIPE = HERE ? P.EPIPE : -1, ENXIO = HERE ? P.ENXIO : -1,
            ESRCH = HERE ? P.ESRCH : -1, ENOMEM = HERE ? P.ENOMEM : -1, EINVAL = HERE ? P.EINVAL : -1, ENAMETOOLONG = HERE ? P.ENAMETOOLONG : -1;

    public static final int SIGKILL = HERE ? P.SIGKILL : -1, SIGTERM = HERE ? P.SIGTERM : -1, SIGPIPE = HERE ? P.SIGPIPE : -1;
    public static final int WNOHANG = HERE ? P.WNOHANG : 0, WUNTRACED = HERE ? P.WUNTRACED : 0, WCONTINUED = HERE ? P.WCONTINUED : 0;
    /** waitid(2): its options (no WUNTRACED: WSTOPPED), idtype_t values, and the parts of siginfo_t it fills for a child. */
    public static final int WEXITED = HERE ? P.WEXITED : 0, WSTOPPED = HERE ? P.WSTOPPED : 0, WNOWAIT = HERE ? P.WNOWAIT : 0,
            P_ALL = HERE ? P.P_ALL : -1, P_PID = HERE ? P.P_PID : -1, P_PGID = HERE ? P.P_PGID : -1, SI_CODE = HERE ? P.OFFSETOF_SI_CODE : -1, SI_PID = HERE ? P.OFFSETOF_SI_PID : -1,
            CLD_EXITED = HERE ? P.CLD_EXITED : -1, CLD_KILLED = HERE ? P.CLD_KILLED : -1, CLD_DUMPED = HERE ? P.CLD_DUMPED : -1;
    /** Room carved for a siginfo_t: the profile's size (128 bytes on Linux) with a margin, as for the spawn structures below. */
    public static final int SIGINFO_SIZE = Math.max(HERE ? P.SIZEOF_SIGINFO : 0, 256);

    /** 0 where this libc has none (FreeBSD); see Features.setsid. */
    public static final short POSIX_SPAWN_SETSID = HERE ? P.POSIX_SPAWN_SETSID : 0;
    /**
     * Room carved for posix_spawnattr_t, posix_spawn_file_actions_t and sigset_t: the profile's sizes (336, 80
     * and 128 bytes on glibc) with a margin, so a libc that grows one (or a table that is wrong) overruns nothing.
     */
    public static final int SPAWNATTR_SIZE = Math.max(HERE ? P.SIZEOF_SPAWNATTR : 0, 1024),
            FILE_ACTIONS_SIZE = Math.max(HERE ? P.SIZEOF_FILE_ACTIONS : 0, 512), SIGSET_SIZE = Math.max(HERE ? P.SIZEOF_SIGSET : 0, 256);

    /** poll(2): struct pollfd { int fd; short events; short revents; } (8 bytes in every libc); revents may also carry POLLERR, POLLHUP, POLLNVAL. */
    public static final short POLLIN = HERE ? P.POLLIN : 0, POLLOUT = HERE ? P.POLLOUT : 0, POLLPRI = HERE ? P.POLLPRI : 0,
            POLLNVAL = HERE ? P.POLLNVAL : 0;
    public static final int POLLFD_SIZE = 8;

    /** Memory mapping: Linux's 0x22 would be MAP_PRIVATE | MAP_RENAME on macOS and FreeBSD. MREMAP, HUGEPAGE: Linux's, -1 elsewhere. */
    public static final int PROT_READ_WRITE = HERE ? P.PROT_READ_WRITE : 0, MAP_PRIVATE_ANONYMOUS = HERE ? P.MAP_PRIVATE_ANONYMOUS : 0,
            MADV_FREE = HERE ? P.MADV_FREE : 0, MREMAP_MAYMOVE = HERE ? P.MREMAP_MAYMOVE : -1, MADV_HUGEPAGE = HERE ? P.MADV_HUGEPAGE : -1;
    /** The output size from which a capture buffer asks for huge pages: a hint's threshold (2 MiB, x86_64's and aarch64's), not a C constant. */
    public static final long HUGE_PAGE = 2 << 20;
    /** lseek(2)'s whence: 0 in POSIX and every libc. */
    public static final int SEEK_SET = 0;

    /** Linux: unshare(2)'s flag for a thread of its own cwd and umask; -1 elsewhere. */
    public static final int CLONE_FS = HERE ? P.CLONE_FS : -1, CLONE_FILES = HERE ? P.CLONE_FILES : -1;
    public static final int F_SETOWN = HERE ? P.F_SETOWN : -1, F_SETSIG = HERE ? P.F_SETSIG : -1, O_ASYNC = HERE ? P.O_ASYNC : -1;
    /** pidfd_open(2) and pidfd_send_signal(2) (Linux x86_64 and aarch64), or -1. */
    public static final long PIDFD_OPEN_SYSCALL = HERE ? P.SYS_PIDFD_OPEN : -1, PIDFD_SEND_SIGNAL_SYSCALL = HERE ? P.SYS_PIDFD_SEND_SIGNAL : -1;
    /** epoll (Linux), for the reaper. */
    public static final int EPOLL_CLOEXEC = HERE ? P.EPOLL_CLOEXEC : -1, EPOLL_CTL_ADD = HERE ? P.EPOLL_CTL_ADD : -1,
            EPOLL_CTL_DEL = HERE ? P.EPOLL_CTL_DEL : -1, EPOLLIN = HERE ? P.EPOLLIN : -1,
            EPOLL_EVENT_SIZE = HERE ? P.SIZEOF_EPOLL_EVENT : -1, EPOLL_EVENT_DATA = HERE ? P.OFFSETOF_EPOLL_DATA : -1;
    /** inotify (Linux), for the PATH watch. */
    public static final int IN_NONBLOCK = HERE ? P.IN_NONBLOCK : -1, IN_CLOEXEC = HERE ? P.IN_CLOEXEC : -1, IN_ATTRIB = HERE ? P.IN_ATTRIB : -1,
            IN_MOVED_FROM = HERE ? P.IN_MOVED_FROM : -1, IN_MOVED_TO = HERE ? P.IN_MOVED_TO : -1, IN_CREATE = HERE ? P.IN_CREATE : -1,
            IN_DELETE = HERE ? P.IN_DELETE : -1, IN_DELETE_SELF = HERE ? P.IN_DELETE_SELF : -1, IN_MOVE_SELF = HERE ? P.IN_MOVE_SELF : -1,
            IN_Q_OVERFLOW = HERE ? P.IN_Q_OVERFLOW : -1, IN_IGNORED = HERE ? P.IN_IGNORED : -1, IN_ONLYDIR = HERE ? P.IN_ONLYDIR : -1,
            IN_DONT_FOLLOW = HERE ? P.IN_DONT_FOLLOW : -1;
    /** Room for any path readlink(2) gives (Linux's; the PATH watch's buffer). */
    public static final int PATH_MAX = HERE ? P.PATH_MAX : -1;
}

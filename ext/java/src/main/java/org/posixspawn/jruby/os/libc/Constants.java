package org.posixspawn.jruby.os.libc;

import jnr.constants.platform.Access;
import jnr.constants.platform.Errno;
import jnr.constants.platform.Fcntl;
import jnr.constants.platform.OpenFlags;
import jnr.constants.platform.Signal;
import jnr.constants.platform.WaitFlags;

/**
 * The C constants of the platform layer, in one place: from jnr-constants (this platform's values) wherever
 * it has them, from the platform profile where values differ between the platforms (0 where there is no
 * profile, and then {@link Native#requireProfile} refuses every spawn), else written here with the platform
 * they hold for.
 */
public final class Constants {
    private Constants() {}

    public static final int O_RDONLY = OpenFlags.O_RDONLY.intValue();
    public static final int O_WRONLY = OpenFlags.O_WRONLY.intValue();
    public static final int O_RDWR = OpenFlags.O_RDWR.intValue();
    public static final int O_NOCTTY = OpenFlags.O_NOCTTY.intValue();
    public static final int O_NONBLOCK = OpenFlags.O_NONBLOCK.intValue();
    /** Not Linux's everywhere: FreeBSD's is 0x100000 (0x1000000, macOS's, is O_DSYNC there). */
    public static final int O_CLOEXEC = Native.PROFILE != null ? Native.PROFILE.O_CLOEXEC : -1;
    public static final int F_GETFL = Fcntl.F_GETFL.intValue(), F_SETFL = Fcntl.F_SETFL.intValue(), F_GETFD = Fcntl.F_GETFD.intValue(),
            F_SETFD = Fcntl.F_SETFD.intValue();
    /** The profile's (1 on all three). */
    public static final int FD_CLOEXEC = Native.PROFILE != null ? Native.PROFILE.FD_CLOEXEC : 0;
    /** Linux's (jnr-constants); -1 where a pipe cannot be resized. */
    public static final int F_SETPIPE_SZ = Native.PROFILE != null ? Native.PROFILE.F_SETPIPE_SZ : -1;
    /** The profile's: 1030 on Linux, 67 on macOS, 17 on FreeBSD. */
    public static final int F_DUPFD_CLOEXEC = Native.PROFILE != null ? Native.PROFILE.F_DUPFD_CLOEXEC : -1;
    /** ioctl(2) setting a terminal's window size, the profile's. */
    public static final long TIOCSWINSZ = Native.PROFILE != null ? Native.PROFILE.TIOCSWINSZ : -1;
    public static final int F_OK = Access.F_OK.intValue(), X_OK = Access.X_OK.intValue();
    public static final int SEEK_SET = 0;

    public static final int ENOENT = Errno.ENOENT.intValue();
    public static final int ENOTDIR = Errno.ENOTDIR.intValue();
    public static final int EACCES = Errno.EACCES.intValue();
    public static final int EBADF = Errno.EBADF.intValue();
    public static final int EPERM = Errno.EPERM.intValue();
    public static final int ENOEXEC = Errno.ENOEXEC.intValue();
    public static final int EINTR = Errno.EINTR.intValue();
    public static final int EAGAIN = Errno.EAGAIN.intValue();
    public static final int ECHILD = Errno.ECHILD.intValue();
    public static final int EPIPE = Errno.EPIPE.intValue();
    public static final int ENXIO = Errno.ENXIO.intValue();
    public static final int ENOMEM = Errno.ENOMEM.intValue();
    public static final int EINVAL = Errno.EINVAL.intValue();
    public static final int ENAMETOOLONG = Errno.ENAMETOOLONG.intValue();
    /** Linux's (and macOS's 1024 is smaller): room for any path readlink(2) gives. */
    public static final int PATH_MAX = 4096;

    public static final int SIGKILL = Signal.SIGKILL.intValue(), SIGTERM = Signal.SIGTERM.intValue();
    public static final int WNOHANG = WaitFlags.WNOHANG.intValue();

    /** glibc 2.26+ and musl: 0x80; macOS 10.15+: 0x400; none on FreeBSD (see Features.setsid). */
    public static final short POSIX_SPAWN_SETSID = Native.PROFILE != null ? Native.PROFILE.POSIX_SPAWN_SETSID : 0;
    /** Generous upper bounds of posix_spawnattr_t (336 bytes on glibc), posix_spawn_file_actions_t (80) and sigset_t (128). */
    public static final int SPAWNATTR_SIZE = 1024, FILE_ACTIONS_SIZE = 512, SIGSET_SIZE = 256;

    /** poll(2): struct pollfd { int fd; short events; short revents; }; revents may also carry POLLERR, POLLHUP. */
    public static final short POLLIN = 0x1, POLLPRI = 0x2, POLLOUT = 0x4;
    public static final int POLLFD_SIZE = 8;

    /** Memory mapping, the profile's: Linux's 0x22 would be MAP_PRIVATE | MAP_RENAME on macOS and FreeBSD. MREMAP, HUGEPAGE: Linux. */
    public static final int PROT_READ_WRITE = Native.PROFILE != null ? Native.PROFILE.PROT_READ_WRITE : 0,
            MAP_PRIVATE_ANONYMOUS = Native.PROFILE != null ? Native.PROFILE.MAP_PRIVATE_ANONYMOUS : 0,
            MADV_FREE = Native.PROFILE != null ? Native.PROFILE.MADV_FREE : 0;
    /** Linux's; -1 elsewhere (no mremap, no huge-page hint). */
    public static final int MREMAP_MAYMOVE = Native.PROFILE != null ? Native.PROFILE.MREMAP_MAYMOVE : -1,
            MADV_HUGEPAGE = Native.PROFILE != null ? Native.PROFILE.MADV_HUGEPAGE : -1;
    public static final long HUGE_PAGE = 2 << 20;

    /** Linux: unshare(2)'s flag for a thread of its own cwd and umask (the profile's; -1 elsewhere). */
    public static final int CLONE_FS = Native.PROFILE != null ? Native.PROFILE.CLONE_FS : -1;
    /** pidfd_open(2)'s number (the profile's: Linux x86_64 and aarch64), or -1. */
    public static final long PIDFD_OPEN_SYSCALL = Native.PROFILE != null ? Native.PROFILE.SYS_PIDFD_OPEN : -1;
}

package org.posixspawn.jruby.os.platform;

import java.util.Locale;

import jnr.constants.Constant;
import jnr.ffi.Platform;

/**
 * Everything the os layer needs to know about the C library and kernel it runs on: the constants, the sizes
 * of the structs it allocates, and which {@link Strategy} serves each concern. One profile per OS (Linux,
 * glibc and musl alike; Darwin; FreeBSD), chosen once when the class loads; any other platform (another OS,
 * another CPU, a 32-bit JVM) has none: {@link #refusal} says why, and every spawn raises that as
 * NotImplementedError (a SpawnError of the os layer, mapped with the others by the bridge).
 * <p>
 * Open flags, fcntl commands, errno, signals and wait flags come from jnr-constants' class for that OS (and
 * CPU, where jnr-constants has one: Linux aarch64 has its own O_DIRECTORY); the rest comes from the OS's
 * {@link Table}, each value beside the header it was read from.
 */
public final class PlatformProfile {
    /** "Linux x86_64", "Darwin aarch64": what the user is told when something is refused. */
    public final String name;
    public final Platform.OS os;
    public final Platform.CPU cpu;
    /** The values jnr-constants lacks, with their sources. */
    public final Table table;

    // From jnr-constants' per-OS classes.
    public final int O_RDONLY, O_WRONLY, O_RDWR, O_NOCTTY, O_NONBLOCK, O_DIRECTORY, O_CLOEXEC;
    public final int F_OK, X_OK;
    public final int F_GETFD, F_SETFD, F_GETFL, F_SETFL;
    /** -1 where the OS cannot resize a pipe. */
    public final int F_SETPIPE_SZ;
    public final int WNOHANG, WUNTRACED, WEXITED, WSTOPPED, WCONTINUED, WNOWAIT;
    public final int SIGKILL, SIGTERM, SIGPIPE;
    public final int ENOENT, ENOEXEC, EINTR, EAGAIN, ECHILD, EPIPE, EBADF, ENOTDIR, EACCES, EPERM, ENXIO, ESRCH, ENOMEM, EINVAL, ENAMETOOLONG;

    // From the table; -1 (or 0 for a flag) where the OS has no such thing.
    public final short POSIX_SPAWN_SETPGROUP, POSIX_SPAWN_SETSIGDEF, POSIX_SPAWN_SETSIGMASK;
    /** 0 where the OS has none (FreeBSD). */
    public final short POSIX_SPAWN_SETSID;
    /** Darwin's: only what the file actions name is inherited. 0 elsewhere. */
    public final short POSIX_SPAWN_CLOEXEC_DEFAULT;
    public final int FD_CLOEXEC, F_DUPFD_CLOEXEC;
    public final long TIOCSWINSZ;
    public final int PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, MREMAP_MAYMOVE, MADV_FREE, MADV_HUGEPAGE;
    /** POLLNVAL: poll's answer for a descriptor not open (select's EBADF). */
    public final short POLLIN, POLLOUT, POLLNVAL;
    public final int CLONE_FS, CLONE_FILES;
    /** Linux: a signal the kernel sends a descriptor's owner (F_SETOWN, F_SETSIG, O_ASYNC), the rlimit gate's lifeline. */
    public final int F_SETOWN, F_SETSIG, O_ASYNC;
    public final long SYS_PIDFD_OPEN;
    /** Bytes of sigset_t, posix_spawnattr_t and posix_spawn_file_actions_t (a pointer where libc allocates the real one). */
    public final int SIZEOF_SIGSET, SIZEOF_SPAWNATTR, SIZEOF_FILE_ACTIONS;
    /** waitid(2)'s: the idtype_t values for any child and a process group, and what siginfo_t says of a child. */
    public final int P_ALL, P_PID, P_PGID, SIZEOF_SIGINFO, OFFSETOF_SI_CODE, OFFSETOF_SI_PID, CLD_EXITED, CLD_KILLED, CLD_DUMPED;
    // Linux's alone (the reaper's epoll and pidfd calls, the PATH watch's inotify and mount table); -1 elsewhere.
    public final short POLLPRI;
    public final long SYS_PIDFD_SEND_SIGNAL;
    public final int EPOLL_CLOEXEC, EPOLL_CTL_ADD, EPOLL_CTL_DEL, EPOLLIN;
    /** struct epoll_event: packed on x86_64 (12 bytes, data at 4), naturally aligned on aarch64 (16, at 8). */
    public final int SIZEOF_EPOLL_EVENT, OFFSETOF_EPOLL_DATA;
    public final int IN_NONBLOCK, IN_CLOEXEC, IN_ATTRIB, IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE, IN_DELETE_SELF,
            IN_MOVE_SELF, IN_Q_OVERFLOW, IN_IGNORED, IN_ONLYDIR, IN_DONT_FOLLOW;
    /** The readlink buffer of the PATH watch. */
    public final int PATH_MAX;

    public final Strategy.CloseOthers closeOthers;
    public final Strategy.Chdir chdir;
    public final Strategy.Pipes pipes;
    public final Strategy.CaptureBuffer captureBuffer;
    public final Strategy.ExitWait exitWait;
    public final Strategy.PathCache pathCache;
    /** Whether :umask and :rlimit_* can be served: a thread with its own umask (CLONE_FS) and prlimit on a held child. */
    public final boolean fsThread;
    /** Where this process's open descriptors are listed, for the close fallbacks and the test support. */
    public final String descriptorDirectory;
    /**
     * macOS: with addchdir_np, a relative program ("./tool", "bin/tool") starts, but posix_spawn returns
     * ENOENT (Rust's std avoids it: library/std/src/sys/pal/unix/process/process_unix.rs); the parent joins
     * it to the new directory itself, which names the file the child's exec would find.
     */
    public final boolean joinsRelativeProgramToChdir;

    private static final PlatformProfile CURRENT = selectCurrent();

    PlatformProfile(Platform.OS os, Platform.CPU cpu, String constantsPackage, Table table, Strategy.CloseOthers closeOthers,
            Strategy.Chdir chdir, Strategy.Pipes pipes, Strategy.CaptureBuffer captureBuffer, Strategy.ExitWait exitWait,
            Strategy.PathCache pathCache, boolean fsThread, String descriptorDirectory, boolean joinsRelativeProgramToChdir) {
        this.os = os;
        this.cpu = cpu;
        this.name = osName(os) + " " + cpu.toString().toLowerCase(Locale.ROOT);
        this.table = table;
        JnrConstants c = new JnrConstants(constantsPackage);
        O_RDONLY = c.get("OpenFlags", "O_RDONLY");
        O_WRONLY = c.get("OpenFlags", "O_WRONLY");
        O_RDWR = c.get("OpenFlags", "O_RDWR");
        O_NOCTTY = c.get("OpenFlags", "O_NOCTTY");
        O_NONBLOCK = c.get("OpenFlags", "O_NONBLOCK");
        O_DIRECTORY = c.get("OpenFlags", "O_DIRECTORY");
        O_CLOEXEC = c.get("OpenFlags", "O_CLOEXEC");
        F_OK = c.get("Access", "F_OK");
        X_OK = c.get("Access", "X_OK");
        F_GETFD = c.get("Fcntl", "F_GETFD");
        F_GETFL = c.get("Fcntl", "F_GETFL");
        F_SETFL = c.get("Fcntl", "F_SETFL");
        F_SETFD = c.get("Fcntl", "F_SETFD");
        F_SETPIPE_SZ = c.optional("Fcntl", "F_SETPIPE_SZ");
        WNOHANG = c.get("WaitFlags", "WNOHANG");
        WUNTRACED = c.get("WaitFlags", "WUNTRACED");
        WEXITED = c.get("WaitFlags", "WEXITED");
        WSTOPPED = c.get("WaitFlags", "WSTOPPED");
        WCONTINUED = c.get("WaitFlags", "WCONTINUED");
        WNOWAIT = c.get("WaitFlags", "WNOWAIT");
        SIGKILL = c.get("Signal", "SIGKILL");
        SIGTERM = c.get("Signal", "SIGTERM");
        SIGPIPE = c.get("Signal", "SIGPIPE");
        ENOENT = c.get("Errno", "ENOENT");
        ENOEXEC = c.get("Errno", "ENOEXEC");
        EINTR = c.get("Errno", "EINTR");
        EAGAIN = c.get("Errno", "EAGAIN");
        ECHILD = c.get("Errno", "ECHILD");
        EPIPE = c.get("Errno", "EPIPE");
        EBADF = c.get("Errno", "EBADF");
        ENOTDIR = c.get("Errno", "ENOTDIR");
        EACCES = c.get("Errno", "EACCES");
        EPERM = c.get("Errno", "EPERM");
        ENXIO = c.get("Errno", "ENXIO");
        ESRCH = c.get("Errno", "ESRCH");
        ENOMEM = c.get("Errno", "ENOMEM");
        EINVAL = c.get("Errno", "EINVAL");
        ENAMETOOLONG = c.get("Errno", "ENAMETOOLONG");

        POSIX_SPAWN_SETPGROUP = (short) table.get("POSIX_SPAWN_SETPGROUP");
        POSIX_SPAWN_SETSIGDEF = (short) table.get("POSIX_SPAWN_SETSIGDEF");
        POSIX_SPAWN_SETSIGMASK = (short) table.get("POSIX_SPAWN_SETSIGMASK");
        POSIX_SPAWN_SETSID = (short) Math.max(0, table.get("POSIX_SPAWN_SETSID"));
        POSIX_SPAWN_CLOEXEC_DEFAULT = (short) Math.max(0, table.get("POSIX_SPAWN_CLOEXEC_DEFAULT"));
        FD_CLOEXEC = (int) table.get("FD_CLOEXEC");
        F_DUPFD_CLOEXEC = (int) table.get("F_DUPFD_CLOEXEC");
        TIOCSWINSZ = table.get("TIOCSWINSZ");
        PROT_READ_WRITE = (int) table.get("PROT_READ|PROT_WRITE");
        MAP_PRIVATE_ANONYMOUS = (int) table.get("MAP_PRIVATE|MAP_ANONYMOUS");
        MREMAP_MAYMOVE = (int) table.get("MREMAP_MAYMOVE");
        MADV_FREE = (int) table.get("MADV_FREE");
        MADV_HUGEPAGE = (int) table.get("MADV_HUGEPAGE");
        POLLIN = (short) table.get("POLLIN");
        POLLOUT = (short) table.get("POLLOUT");
        POLLNVAL = (short) table.get("POLLNVAL");
        CLONE_FS = (int) table.get("CLONE_FS");
        CLONE_FILES = (int) table.get("CLONE_FILES");
        F_SETOWN = (int) table.get("F_SETOWN");
        F_SETSIG = (int) table.get("F_SETSIG");
        O_ASYNC = (int) table.get("O_ASYNC");
        SYS_PIDFD_OPEN = table.get("SYS_pidfd_open");
        SIZEOF_SIGSET = (int) table.get("sizeof(sigset_t)");
        SIZEOF_SPAWNATTR = (int) table.get("sizeof(posix_spawnattr_t)");
        SIZEOF_FILE_ACTIONS = (int) table.get("sizeof(posix_spawn_file_actions_t)");
        P_ALL = (int) table.get("P_ALL");
        P_PID = (int) table.get("P_PID");
        P_PGID = (int) table.get("P_PGID");
        SIZEOF_SIGINFO = (int) table.get("sizeof(siginfo_t)");
        OFFSETOF_SI_CODE = (int) table.get("offsetof(siginfo_t, si_code)");
        OFFSETOF_SI_PID = (int) table.get("offsetof(siginfo_t, si_pid)");
        CLD_EXITED = (int) table.get("CLD_EXITED");
        CLD_KILLED = (int) table.get("CLD_KILLED");
        CLD_DUMPED = (int) table.get("CLD_DUMPED");
        POLLPRI = (short) table.get("POLLPRI");
        SYS_PIDFD_SEND_SIGNAL = table.get("SYS_pidfd_send_signal");
        EPOLL_CLOEXEC = (int) table.get("EPOLL_CLOEXEC");
        EPOLL_CTL_ADD = (int) table.get("EPOLL_CTL_ADD");
        EPOLL_CTL_DEL = (int) table.get("EPOLL_CTL_DEL");
        EPOLLIN = (int) table.get("EPOLLIN");
        SIZEOF_EPOLL_EVENT = (int) table.get("sizeof(struct epoll_event)");
        OFFSETOF_EPOLL_DATA = (int) table.get("offsetof(struct epoll_event, data)");
        IN_NONBLOCK = (int) table.get("IN_NONBLOCK");
        IN_CLOEXEC = (int) table.get("IN_CLOEXEC");
        IN_ATTRIB = (int) table.get("IN_ATTRIB");
        IN_MOVED_FROM = (int) table.get("IN_MOVED_FROM");
        IN_MOVED_TO = (int) table.get("IN_MOVED_TO");
        IN_CREATE = (int) table.get("IN_CREATE");
        IN_DELETE = (int) table.get("IN_DELETE");
        IN_DELETE_SELF = (int) table.get("IN_DELETE_SELF");
        IN_MOVE_SELF = (int) table.get("IN_MOVE_SELF");
        IN_Q_OVERFLOW = (int) table.get("IN_Q_OVERFLOW");
        IN_IGNORED = (int) table.get("IN_IGNORED");
        IN_ONLYDIR = (int) table.get("IN_ONLYDIR");
        IN_DONT_FOLLOW = (int) table.get("IN_DONT_FOLLOW");
        PATH_MAX = (int) table.get("PATH_MAX");

        this.closeOthers = closeOthers;
        this.chdir = chdir;
        this.pipes = pipes;
        this.captureBuffer = captureBuffer;
        this.exitWait = exitWait;
        this.pathCache = pathCache;
        this.fsThread = fsThread;
        this.descriptorDirectory = descriptorDirectory;
        this.joinsRelativeProgramToChdir = joinsRelativeProgramToChdir;
    }

    /** This process's profile, or null where there is none ({@link #refusalHere} says why). */
    public static PlatformProfile current() {
        return CURRENT;
    }

    /** Why this process has no profile (the message of the NotImplementedError every spawn raises), or null. */
    public static String refusalHere() {
        Platform p = Platform.getNativePlatform();
        return refusal(p.getOS(), p.getCPU(), p.addressSize());
    }

    private static PlatformProfile selectCurrent() {
        Platform p = Platform.getNativePlatform();
        return select(p.getOS(), p.getCPU(), p.addressSize());
    }

    /** The profile for an OS, CPU and address size (bits), or null where {@link #refusal} says why there is none. */
    public static PlatformProfile select(Platform.OS os, Platform.CPU cpu, int addressSize) {
        if (refusal(os, cpu, addressSize) != null) return null;
        switch (os) {
            case LINUX: return LinuxTable.profile(cpu);
            case DARWIN: return DarwinTable.profile(cpu);
            default: return FreeBsdTable.profile(cpu);
        }
    }

    /** Why an OS, CPU and address size (bits) has no profile, naming them; null where it has one. */
    public static String refusal(Platform.OS os, Platform.CPU cpu, int addressSize) {
        String platform = osName(os) + " " + cpu.toString().toLowerCase(Locale.ROOT);
        if (addressSize != 64) return "posix-spawn-jruby needs a 64-bit JVM; this one is " + addressSize + "-bit (" + platform + ")";
        if (cpu != Platform.CPU.X86_64 && cpu != Platform.CPU.AARCH64) return "posix-spawn-jruby supports x86_64 and aarch64, not " + platform;
        if (os != Platform.OS.LINUX && os != Platform.OS.DARWIN && os != Platform.OS.FREEBSD) {
            return "posix-spawn-jruby supports Linux, macOS and FreeBSD, not " + platform;
        }
        return null;
    }

    private static String osName(Platform.OS os) {
        switch (os) {
            case LINUX: return "Linux";
            case DARWIN: return "Darwin";
            case FREEBSD: return "FreeBSD";
            default: return os.toString();
        }
    }

    /** Reads one OS's jnr-constants classes (jnr.constants.platform.darwin.OpenFlags...), which load on any OS. */
    private static final class JnrConstants {
        private final String pkg;

        JnrConstants(String pkg) {
            this.pkg = "jnr.constants.platform." + pkg + ".";
        }

        /** The value; jnr-constants must have it for that OS. */
        int get(String type, String name) {
            int value = optional(type, name);
            if (value == -1) throw new IllegalStateException("jnr-constants has no " + name + " for " + pkg);
            return value;
        }

        /** The value, or -1 where jnr-constants has no such constant for that OS. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        int optional(String type, String name) {
            Class<? extends Enum> cls;
            try {
                cls = (Class<? extends Enum>) Class.forName(pkg + type);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("jnr-constants has no " + pkg + type, e);
            }
            for (Enum e : cls.getEnumConstants()) {
                if (e.name().equals(name)) return ((Constant) e).defined() ? ((Constant) e).intValue() : -1;
            }
            return -1;
        }
    }
}

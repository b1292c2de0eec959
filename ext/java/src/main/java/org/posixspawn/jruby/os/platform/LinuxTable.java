package org.posixspawn.jruby.os.platform;

import jnr.ffi.Platform;

/**
 * Linux, glibc and musl alike (the values below are the same in both; the musl probe test checks them
 * against both compilers). Sources: glibc 2.36's installed headers (Debian 12, x86_64 paths) and musl at
 * 86373b4 (bminor/musl). The syscall number differs in header but not in value between x86_64 and aarch64.
 */
final class LinuxTable {
    private LinuxTable() {}

    static PlatformProfile profile(Platform.CPU cpu) {
        boolean packed = cpu == Platform.CPU.X86_64;
        Table t = new Table()
                .put("POSIX_SPAWN_SETPGROUP", 0x02, "glibc spawn.h:54; musl include/spawn.h:19")
                .put("POSIX_SPAWN_SETSIGDEF", 0x04, "glibc spawn.h:55; musl include/spawn.h:20")
                .put("POSIX_SPAWN_SETSIGMASK", 0x08, "glibc spawn.h:56; musl include/spawn.h:21")
                .put("POSIX_SPAWN_SETSID", 0x80, "glibc spawn.h:61; musl include/spawn.h:25")
                .put("FD_CLOEXEC", 1, "glibc bits/fcntl-linux.h:219; musl include/fcntl.h:58")
                .put("F_DUPFD_CLOEXEC", 1030, "glibc bits/fcntl-linux.h:214; linux include/uapi/linux/fcntl.h:18 (F_LINUX_SPECIFIC_BASE + 6)")
                .put("TIOCSWINSZ", 0x5414, "linux include/uapi/asm-generic/ioctls.h:39; musl arch/x86_64/bits/ioctl.h:30")
                .put("PROT_READ|PROT_WRITE", 0x1 | 0x2, "glibc bits/mman-linux.h:32-33; musl include/sys/mman.h:58-59")
                .put("MAP_PRIVATE|MAP_ANONYMOUS", 0x02 | 0x20, "glibc bits/mman-linux.h:43,57; musl include/sys/mman.h:22,26")
                .put("MREMAP_MAYMOVE", 1, "glibc bits/mman-shared.h:25; musl include/sys/mman.h:103")
                .put("MADV_FREE", 8, "glibc bits/mman-linux.h:77; musl include/sys/mman.h:84")
                .put("MADV_HUGEPAGE", 14, "glibc bits/mman-linux.h:83; musl include/sys/mman.h:90")
                .put("POLLIN", 0x001, "glibc bits/poll.h:25; musl include/poll.h:12")
                .put("POLLOUT", 0x004, "glibc bits/poll.h:27; musl include/poll.h:14")
                .put("POLLPRI", 0x002, "glibc bits/poll.h:26; musl include/poll.h:13")
                .put("POLLNVAL", 0x020, "glibc bits/poll.h:49; musl include/poll.h:17")
                .put("CLONE_FS", 0x200, "glibc bits/sched.h:44; musl include/sched.h:54")
                .put("CLONE_FILES", 0x400, "glibc bits/sched.h:45; musl include/sched.h:55")
                .put("F_SETOWN", 8, "glibc bits/fcntl-linux.h:174; linux include/uapi/asm-generic/fcntl.h:110")
                .put("F_SETSIG", 10, "glibc bits/fcntl-linux.h:184; linux include/uapi/asm-generic/fcntl.h:114")
                .put("O_ASYNC", 0x2000, "glibc bits/fcntl-linux.h:72 (020000); linux include/uapi/asm-generic/fcntl.h:45 (FASYNC)")
                .put("SYS_pidfd_open", 434, cpu == Platform.CPU.AARCH64
                        ? "linux asm-generic/unistd.h:845; musl arch/aarch64/bits/syscall.h.in:290"
                        : "linux asm/unistd_64.h:349; musl arch/x86_64/bits/syscall.h.in:346")
                .put("sizeof(sigset_t)", 128, "glibc bits/types/__sigset_t.h:4 (1024 bits); musl include/alltypes.h.in:76")
                .put("sizeof(posix_spawnattr_t)", 336, "glibc spawn.h:29-38; musl include/spawn.h:27-34")
                .put("sizeof(posix_spawn_file_actions_t)", 80, "glibc spawn.h:43-49; musl include/spawn.h:36-40")
                .put("SYS_pidfd_send_signal", 424, cpu == Platform.CPU.AARCH64
                        ? "linux asm-generic/unistd.h (__NR_pidfd_send_signal 424)"
                        : "linux asm/unistd_64.h:339; musl arch/x86_64/bits/syscall.h.in:336")
                .put("EPOLL_CLOEXEC", 0x80000, "glibc bits/epoll.h:25 (02000000); musl include/sys/epoll.h:16 (O_CLOEXEC)")
                .put("EPOLL_CTL_ADD", 1, "glibc sys/epoll.h:71; musl include/sys/epoll.h:37")
                .put("EPOLL_CTL_DEL", 2, "glibc sys/epoll.h:72; musl include/sys/epoll.h:38")
                .put("EPOLLIN", 0x001, "glibc sys/epoll.h:37; musl include/sys/epoll.h:20")
                .put("sizeof(struct epoll_event)", packed ? 12 : 16, "glibc bits/epoll.h:29 (__EPOLL_PACKED, x86_64), sys/epoll.h:84-88; musl include/sys/epoll.h:48-54")
                .put("offsetof(struct epoll_event, data)", packed ? 4 : 8, "glibc sys/epoll.h:84-88; musl include/sys/epoll.h:48-54")
                .put("IN_NONBLOCK", 0x800, "glibc bits/inotify.h:27 (00004000); musl include/sys/inotify.h:18 (O_NONBLOCK)")
                .put("IN_CLOEXEC", 0x80000, "glibc bits/inotify.h:25 (02000000); musl include/sys/inotify.h:17 (O_CLOEXEC)")
                .put("IN_ATTRIB", 0x4, "glibc sys/inotify.h:41; musl include/sys/inotify.h:22")
                .put("IN_MOVED_FROM", 0x40, "glibc sys/inotify.h:46; musl include/sys/inotify.h:27")
                .put("IN_MOVED_TO", 0x80, "glibc sys/inotify.h:47; musl include/sys/inotify.h:28")
                .put("IN_CREATE", 0x100, "glibc sys/inotify.h:49; musl include/sys/inotify.h:30")
                .put("IN_DELETE", 0x200, "glibc sys/inotify.h:50; musl include/sys/inotify.h:31")
                .put("IN_DELETE_SELF", 0x400, "glibc sys/inotify.h:51; musl include/sys/inotify.h:32")
                .put("IN_MOVE_SELF", 0x800, "glibc sys/inotify.h:52; musl include/sys/inotify.h:33")
                .put("IN_Q_OVERFLOW", 0x4000, "glibc sys/inotify.h:56; musl include/sys/inotify.h:37")
                .put("IN_IGNORED", 0x8000, "glibc sys/inotify.h:57; musl include/sys/inotify.h:38")
                .put("IN_ONLYDIR", 0x1000000, "glibc sys/inotify.h:64; musl include/sys/inotify.h:40")
                .put("IN_DONT_FOLLOW", 0x2000000, "glibc sys/inotify.h:66; musl include/sys/inotify.h:41")
                .put("P_ALL", 0, "glibc bits/types/idtype_t.h:7; musl include/sys/wait.h:14")
                .put("P_PID", 1, "glibc bits/types/idtype_t.h:8; musl include/sys/wait.h:15")
                .put("P_PGID", 2, "glibc bits/types/idtype_t.h:9; musl include/sys/wait.h:16")
                .put("sizeof(siginfo_t)", 128, "glibc bits/types/siginfo_t.h:8 (__SI_MAX_SIZE); musl include/signal.h:102-147")
                .put("offsetof(siginfo_t, si_code)", 8, "glibc bits/types/siginfo_t.h:42; musl include/signal.h:103")
                .put("offsetof(siginfo_t, si_pid)", 16, "glibc bits/types/siginfo_t.h:58 (in the union, 8-aligned on LP64); musl include/signal.h:110")
                .put("CLD_EXITED", 1, "glibc bits/siginfo-consts.h:178; musl include/signal.h:87")
                .put("CLD_KILLED", 2, "glibc bits/siginfo-consts.h:180; musl include/signal.h:88")
                .put("CLD_DUMPED", 3, "glibc bits/siginfo-consts.h:182; musl include/signal.h:89")
                .put("PATH_MAX", 4096, "linux include/uapi/linux/limits.h:13; musl include/limits.h:47");
        return new PlatformProfile(Platform.OS.LINUX, cpu, cpu == Platform.CPU.AARCH64 ? "linux.aarch64" : "linux", t,
                Strategy.CloseOthers.CLOSEFROM_ELSE_PROC_FD, Strategy.Chdir.ADDCHDIR_ELSE_FS_THREAD, Strategy.Pipes.PIPE2,
                Strategy.CaptureBuffer.MREMAP, Strategy.ExitWait.PIDFD_ELSE_WAITPID_POLL, Strategy.PathCache.INOTIFY, true, "/proc/self/fd", false);
    }
}

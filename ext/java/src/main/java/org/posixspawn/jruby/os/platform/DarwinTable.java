package org.posixspawn.jruby.os.platform;

import jnr.ffi.Platform;

/**
 * macOS (x86_64 and arm64 share these values). Source: apple-oss-distributions/xnu at xnu-11417.101.15
 * (e3723e1). No pipe2, no mremap, no MADV_HUGEPAGE, no pidfd, no per-thread umask: the strategies say what
 * is done instead.
 */
final class DarwinTable {
    private DarwinTable() {}

    static PlatformProfile profile(Platform.CPU cpu) {
        Table t = new Table()
                .put("POSIX_SPAWN_SETPGROUP", 0x0002, "xnu bsd/sys/spawn.h:46")
                .put("POSIX_SPAWN_SETSIGDEF", 0x0004, "xnu bsd/sys/spawn.h:47")
                .put("POSIX_SPAWN_SETSIGMASK", 0x0008, "xnu bsd/sys/spawn.h:48")
                .put("POSIX_SPAWN_SETSID", 0x0400, "xnu bsd/sys/spawn.h:65")
                .put("POSIX_SPAWN_CLOEXEC_DEFAULT", 0x4000, "xnu bsd/sys/spawn.h:73")
                .put("FD_CLOEXEC", 1, "xnu bsd/sys/fcntl.h:450")
                .put("F_DUPFD_CLOEXEC", 67, "xnu bsd/sys/fcntl.h F_DUPFD_CLOEXEC")
                // _IOW('t', 103, struct winsize): IOC_IN 0x80000000 | sizeof 8 << 16 | 't' << 8 | 103
                .put("TIOCSWINSZ", 0x80087467L, "xnu bsd/sys/ttycom.h TIOCSWINSZ")
                .put("PROT_READ|PROT_WRITE", 0x01 | 0x02, "xnu bsd/sys/mman.h:102-103")
                // Not Linux's 0x22: 0x0020 is MAP_RENAME here (bsd/sys/mman.h:121).
                .put("MAP_PRIVATE|MAP_ANONYMOUS", 0x0002 | 0x1000, "xnu bsd/sys/mman.h:111,133")
                .put("MADV_FREE", 5, "xnu bsd/sys/mman.h:218")
                .put("POLLIN", 0x0001, "xnu bsd/sys/poll.h:68")
                .put("POLLOUT", 0x0004, "xnu bsd/sys/poll.h:70")
                .put("POLLNVAL", 0x0020, "xnu bsd/sys/poll.h POLLNVAL")
                .put("sizeof(sigset_t)", 4, "xnu bsd/sys/_types.h:96 (__uint32_t)")
                .put("sizeof(posix_spawnattr_t)", 8, "xnu libsyscall/wrappers/spawn/spawn.h:51 (void *)")
                .put("sizeof(posix_spawn_file_actions_t)", 8, "xnu libsyscall/wrappers/spawn/spawn.h:52 (void *)")
                .put("P_ALL", 0, "xnu bsd/sys/wait.h idtype_t")
                .put("P_PID", 1, "xnu bsd/sys/wait.h idtype_t")
                .put("P_PGID", 2, "xnu bsd/sys/wait.h idtype_t")
                .put("sizeof(siginfo_t)", 104, "xnu bsd/sys/signal.h struct __siginfo (six ints, si_addr, si_value, si_band, __pad[7])")
                .put("offsetof(siginfo_t, si_code)", 8, "xnu bsd/sys/signal.h struct __siginfo")
                .put("offsetof(siginfo_t, si_pid)", 12, "xnu bsd/sys/signal.h struct __siginfo")
                .put("CLD_EXITED", 1, "xnu bsd/sys/signal.h CLD_EXITED")
                .put("CLD_KILLED", 2, "xnu bsd/sys/signal.h CLD_KILLED")
                .put("CLD_DUMPED", 3, "xnu bsd/sys/signal.h CLD_DUMPED");
        return new PlatformProfile(Platform.OS.DARWIN, cpu, "darwin", t,
                Strategy.CloseOthers.CLOEXEC_DEFAULT, Strategy.Chdir.ADDCHDIR, Strategy.Pipes.PIPE_THEN_FD_CLOEXEC,
                Strategy.CaptureBuffer.MMAP_COPY, Strategy.ExitWait.WAITPID_POLL, Strategy.PathCache.NONE, false, "/dev/fd", true);
    }
}

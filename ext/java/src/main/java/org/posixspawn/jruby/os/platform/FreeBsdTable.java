package org.posixspawn.jruby.os.platform;

import jnr.ffi.Platform;

/**
 * FreeBSD (amd64 and aarch64 share these values). Source: freebsd/freebsd-src, the commit beside each file.
 * Its spawn flags are not Linux's: 0x04 and 0x08 are SETSCHEDPARAM and SETSCHEDULER here; there is no
 * POSIX_SPAWN_SETSID (posix_spawnattr_setflags refuses unknown flags with EINVAL, lib/libc/gen/posix_spawn.c).
 */
final class FreeBsdTable {
    private FreeBsdTable() {}

    static PlatformProfile profile(Platform.CPU cpu) {
        Table t = new Table()
                .put("POSIX_SPAWN_SETPGROUP", 0x02, "freebsd include/spawn.h:57 (b44edb8)")
                .put("POSIX_SPAWN_SETSIGDEF", 0x10, "freebsd include/spawn.h:60 (b44edb8)")
                .put("POSIX_SPAWN_SETSIGMASK", 0x20, "freebsd include/spawn.h:61 (b44edb8)")
                .put("FD_CLOEXEC", 1, "freebsd sys/sys/fcntl.h FD_CLOEXEC (0069e95)")
                // Not macOS's 67.
                .put("F_DUPFD_CLOEXEC", 17, "freebsd sys/sys/fcntl.h F_DUPFD_CLOEXEC")
                .put("TIOCSWINSZ", 0x80087467L, "freebsd sys/sys/ttycom.h TIOCSWINSZ (_IOW('t', 103, struct winsize))")
                .put("PROT_READ|PROT_WRITE", 0x01 | 0x02, "freebsd sys/sys/mman.h PROT_READ, PROT_WRITE (039ea81)")
                // Not Linux's 0x22: 0x0020 is MAP_RENAME here too.
                .put("MAP_PRIVATE|MAP_ANONYMOUS", 0x0002 | 0x1000, "freebsd sys/sys/mman.h MAP_PRIVATE, MAP_ANON (039ea81)")
                .put("MADV_FREE", 5, "freebsd sys/sys/mman.h MADV_FREE (039ea81)")
                .put("POLLIN", 0x0001, "freebsd sys/sys/poll.h POLLIN (039ea81)")
                .put("POLLOUT", 0x0004, "freebsd sys/sys/poll.h POLLOUT (039ea81)")
                .put("POLLNVAL", 0x0020, "freebsd sys/sys/poll.h POLLNVAL (039ea81)")
                .put("sizeof(sigset_t)", 16, "freebsd sys/sys/_sigset.h _SIG_WORDS 4 x unsigned int (0270d57)")
                .put("sizeof(posix_spawnattr_t)", 8, "freebsd include/spawn.h:53 (a pointer; b44edb8)")
                .put("sizeof(posix_spawn_file_actions_t)", 8, "freebsd include/spawn.h:54 (a pointer; b44edb8)")
                // Not Linux's and macOS's: P_PID is first here, P_ALL eighth.
                .put("P_ALL", 7, "freebsd sys/sys/wait.h idtype_t (P_PID, P_PPID, P_PGID, P_SID, P_CID, P_UID, P_GID, P_ALL)")
                .put("P_PID", 0, "freebsd sys/sys/wait.h idtype_t")
                .put("P_PGID", 2, "freebsd sys/sys/wait.h idtype_t")
                .put("sizeof(siginfo_t)", 80, "freebsd sys/sys/signal.h struct __siginfo (six ints, si_addr, si_value, the _reason union)")
                .put("offsetof(siginfo_t, si_code)", 8, "freebsd sys/sys/signal.h struct __siginfo")
                .put("offsetof(siginfo_t, si_pid)", 12, "freebsd sys/sys/signal.h struct __siginfo")
                .put("CLD_EXITED", 1, "freebsd sys/sys/signal.h CLD_EXITED")
                .put("CLD_KILLED", 2, "freebsd sys/sys/signal.h CLD_KILLED")
                .put("CLD_DUMPED", 3, "freebsd sys/sys/signal.h CLD_DUMPED");
        return new PlatformProfile(Platform.OS.FREEBSD, cpu, cpu == Platform.CPU.AARCH64 ? "freebsd.aarch64" : "freebsd", t,
                Strategy.CloseOthers.CLOSEFROM_ELSE_FDESCFS, Strategy.Chdir.ADDCHDIR, Strategy.Pipes.PIPE2,
                Strategy.CaptureBuffer.MMAP_COPY, Strategy.ExitWait.WAITPID_POLL, Strategy.PathCache.NONE, false, "/dev/fd", false);
    }
}

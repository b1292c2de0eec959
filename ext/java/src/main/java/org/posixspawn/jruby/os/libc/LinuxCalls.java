package org.posixspawn.jruby.os.libc;

import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.annotations.Variadic;

/**
 * The Linux-only calls of the {@code Reaper}: epoll, and the pidfd system calls glibc 2.36 has no wrapper
 * for on every distribution. Bound on first use, so other platforms never look these symbols up.
 */
public interface LinuxCalls {
    @SaveError int epoll_create1(int flags);
    @SaveError int epoll_ctl(int epfd, int op, int fd, Pointer event);
    @SaveError int epoll_wait(int epfd, Pointer events, int maxEvents, int timeoutMillis);
    @SaveError @Variadic(fixedCount = 1) long syscall(long number, long a1, long a2, long a3, long a4);

    /** pidfd_send_signal(2): the same number on x86_64 and aarch64, the platforms with pidfd_open's ({@link Constants#PIDFD_OPEN_SYSCALL}). */
    long PIDFD_SEND_SIGNAL = 424;
    int EPOLL_CLOEXEC = 0x80000, EPOLL_CTL_ADD = 1, EPOLL_CTL_DEL = 2, EPOLLIN = 0x1;
    /** struct epoll_event is packed on x86_64 (12 bytes), naturally aligned elsewhere (16). */
    boolean PACKED = Platform.getNativePlatform().getCPU() == Platform.CPU.X86_64;
    int EVENT_SIZE = PACKED ? 12 : 16, EVENT_DATA = PACKED ? 4 : 8;

    final class Bound {
        public static final LinuxCalls LINUX = LibraryLoader.create(LinuxCalls.class).load(Platform.getNativePlatform().getStandardCLibraryName());

        private Bound() {}

        public static int errno() {
            return LastError.getLastError(jnr.ffi.Runtime.getRuntime(LINUX));
        }
    }
}

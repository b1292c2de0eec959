package org.posixspawn.jruby.os.libc;

import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.annotations.Variadic;

/**
 * The Linux-only calls of the {@code Reaper}: epoll, and the pidfd system calls glibc 2.36 has no wrapper
 * for on every distribution (their numbers: {@link Constants}). Bound on first use, so other platforms never look these symbols up.
 */
public interface LinuxCalls {
    @SaveError int epoll_create1(int flags);
    @SaveError int epoll_ctl(int epfd, int op, int fd, Pointer event);
    @SaveError int epoll_wait(int epfd, Pointer events, int maxEvents, int timeoutMillis);
    @SaveError @Variadic(fixedCount = 1) long syscall(long number, long a1, long a2, long a3, long a4);

    final class Bound {
        public static final LinuxCalls LINUX = LibraryLoader.create(LinuxCalls.class).load(Platform.getNativePlatform().getStandardCLibraryName());

        private Bound() {}

        public static int errno() {
            return LastError.getLastError(jnr.ffi.Runtime.getRuntime(LINUX));
        }
    }
}

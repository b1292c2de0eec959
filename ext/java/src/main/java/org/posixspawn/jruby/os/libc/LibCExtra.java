package org.posixspawn.jruby.os.libc;

import java.nio.ByteBuffer;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.In;
import jnr.ffi.annotations.Out;
import jnr.ffi.annotations.Pinned;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.annotations.Variadic;
import jnr.ffi.types.pid_t;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The C library calls beyond the spawn itself ({@link LibC}): pipes, reads and writes, poll, the capture
 * buffer's mappings, waits and signals, the FS thread's and the rlimit gate's calls. Bound on first use
 * ({@link Native#extra}), so that a program that only spawns never pays for their stubs.
 */
public interface LibCExtra {
    @SaveError Pointer mmap(Pointer address, @size_t long length, int protection, int flags, int fd, long offset);
    /** Linux. */
    @SaveError @Variadic(fixedCount = 4) Pointer mremap(Pointer address, @size_t long oldLength, @size_t long newLength, int flags);
    @SaveError int munmap(Pointer address, @size_t long length);
    @SaveError int madvise(Pointer address, @size_t long length, int advice);
    @SaveError int pipe(Pointer fds);
    /** Linux, FreeBSD. */
    @SaveError int pipe2(Pointer fds, int flags);
    @SaveError @ssize_t long read(int fd, Pointer buf, @size_t long count);
    @SaveError @ssize_t long write(int fd, Pointer buf, @size_t long count);
    /** read(2) straight into a Java array (a heap buffer, from its position), pinned rather than copied. */
    @SaveError @ssize_t long read(int fd, @Out @Pinned ByteBuffer buf, @size_t long count);
    /** write(2) straight from a Java array (a heap buffer, from its position), pinned rather than copied. */
    @SaveError @ssize_t long write(int fd, @In @Pinned ByteBuffer buf, @size_t long count);
    @SaveError int poll(Pointer fds, long nfds, int timeoutMillis);
    @SaveError int chdir(Pointer path);
    @SaveError long lseek(int fd, long offset, int whence);
    int umask(int mask);
    @SaveError int mkfifo(Pointer path, int mode);
    @SaveError int unshare(int flags);
    @pid_t long getpid();
    @SaveError @pid_t long waitpid(@pid_t long pid, Pointer status, int options);
    @SaveError int waitid(int idtype, int id, Pointer info, int options);
    @SaveError @pid_t long getpgid(@pid_t long pid);
    @SaveError int kill(@pid_t long pid, int signal);
    @SaveError int prlimit(@pid_t long pid, int resource, Pointer newLimit, Pointer oldLimit);
    @SaveError @Variadic(fixedCount = 1) long syscall(long number, long a1, long a2);
}

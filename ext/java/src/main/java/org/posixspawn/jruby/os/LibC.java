package org.posixspawn.jruby.os;

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
 * The C library calls the spawner and the capture loop make, bound with jnr-ffi (inside JRuby).
 * posix_spawn and friends return their error code instead of setting errno; the rest report
 * through errno, which {@link SaveError} keeps for {@code LastError}. Variadic functions (open, fcntl,
 * mremap, syscall) are bound as variadic, as jnr-posix binds them: on macOS arm64 variadic arguments go on
 * the stack, where a fixed-arity call would leave them in registers the callee never reads (jruby/jruby#6983).
 */
public interface LibC {
    Pointer malloc(@size_t long size);
    @SaveError Pointer mmap(Pointer address, @size_t long length, int protection, int flags, int fd, long offset);
    /** Linux. */
    @SaveError @Variadic(fixedCount = 4) Pointer mremap(Pointer address, @size_t long oldLength, @size_t long newLength, int flags);
    @SaveError int munmap(Pointer address, @size_t long length);
    @SaveError int madvise(Pointer address, @size_t long length, int advice);
    void free(Pointer p);

    int posix_spawn(Pointer pid, Pointer path, Pointer fileActions, Pointer attr, Pointer argv, Pointer envp);
    int posix_spawn_file_actions_init(Pointer actions);
    int posix_spawn_file_actions_destroy(Pointer actions);
    int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newfd);
    int posix_spawn_file_actions_addclose(Pointer actions, int fd);
    int posix_spawn_file_actions_addopen(Pointer actions, int fd, Pointer path, int flags, int mode);
    /** glibc 2.29+, musl 1.1.24+, macOS 10.15+: looked up before use. */
    int posix_spawn_file_actions_addchdir_np(Pointer actions, Pointer path);
    /** glibc 2.34+, FreeBSD 13.1+: looked up before use. */
    int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from);
    /** macOS 10.7+: with POSIX_SPAWN_CLOEXEC_DEFAULT, {@code fd} is inherited as it is. */
    int posix_spawn_file_actions_addinherit_np(Pointer actions, int fd);
    int posix_spawnattr_init(Pointer attr);
    int posix_spawnattr_destroy(Pointer attr);
    int posix_spawnattr_setflags(Pointer attr, short flags);
    int posix_spawnattr_setpgroup(Pointer attr, @pid_t long pgroup);
    int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset);
    int posix_spawnattr_setsigdefault(Pointer attr, Pointer sigset);
    int sigemptyset(Pointer sigset);

    @SaveError @Variadic(fixedCount = 2) int open(Pointer path, int flags, int mode);
    @SaveError int close(int fd);
    @SaveError int pipe(Pointer fds);
    /** Linux, FreeBSD. */
    @SaveError int pipe2(Pointer fds, int flags);
    @SaveError @Variadic(fixedCount = 2) int fcntl(int fd, int cmd, int arg);
    @SaveError @ssize_t long read(int fd, Pointer buf, @size_t long count);
    @SaveError @ssize_t long write(int fd, Pointer buf, @size_t long count);
    /** read(2) straight into a Java array (a heap buffer, from its position), pinned rather than copied. */
    @SaveError @ssize_t long read(int fd, @Out @Pinned ByteBuffer buf, @size_t long count);
    /** write(2) straight from a Java array (a heap buffer, from its position), pinned rather than copied. */
    @SaveError @ssize_t long write(int fd, @In @Pinned ByteBuffer buf, @size_t long count);
    @SaveError int poll(Pointer fds, long nfds, int timeoutMillis);
    @SaveError int chdir(Pointer path);
    @SaveError Pointer getcwd(Pointer buffer, @size_t long size);
    @SaveError long lseek(int fd, long offset, int whence);
    @SaveError int access(Pointer path, int mode);
    int umask(int mask);
    @SaveError int mkfifo(Pointer path, int mode);
    @SaveError int unshare(int flags);
    @SaveError @pid_t long waitpid(@pid_t long pid, Pointer status, int options);
    @SaveError int kill(@pid_t long pid, int signal);
    @SaveError int prlimit(@pid_t long pid, int resource, Pointer newLimit, Pointer oldLimit);
    @SaveError @Variadic(fixedCount = 1) long syscall(long number, long a1, long a2);
}

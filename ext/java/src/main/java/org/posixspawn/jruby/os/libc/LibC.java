package org.posixspawn.jruby.os.libc;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.annotations.Variadic;
import jnr.ffi.types.pid_t;
import jnr.ffi.types.size_t;

/**
 * The C library calls a spawn makes, bound with jnr-ffi (inside JRuby) when {@link Native} is first used;
 * every other call is in {@link LibCExtra}, bound on first use: jnr-ffi generates a stub for every function
 * of an interface when it binds it, so the first spawn of a JVM pays only for these. posix_spawn and
 * friends return their error code instead of setting errno; the rest report through errno, which
 * {@link SaveError} keeps for {@code LastError}. Variadic functions (open, fcntl here; mremap, syscall in
 * LibCExtra) are bound as variadic, as jnr-posix binds them: on macOS arm64 variadic arguments go on the
 * stack, where a fixed-arity call would leave them in registers the callee never reads (jruby/jruby#6983).
 */
public interface LibC {
    Pointer malloc(@size_t long size);
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
    @SaveError @Variadic(fixedCount = 2) int fcntl(int fd, int cmd, int arg);
    @SaveError int access(Pointer path, int mode);
    @SaveError Pointer getcwd(Pointer buffer, @size_t long size);
}

package org.posixspawn.jruby.os.libc;

import jnr.ffi.Pointer;

/**
 * The C library calls a spawn makes, bound by hand through jffi when {@link Native} is first used
 * ({@link BoundLibC}); every other call is in {@link LibCExtra}, bound with jnr-ffi on first use. posix_spawn
 * and friends return their error code instead of setting errno; the rest report through errno, kept for
 * {@link Native#errno}. An interface, so that a test can record the calls a plan makes (RecordingLibC).
 */
public interface LibC {
    Pointer malloc(long size);
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
    int posix_spawnattr_setpgroup(Pointer attr, long pgroup);
    int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset);
    int posix_spawnattr_setsigdefault(Pointer attr, Pointer sigset);
    int sigemptyset(Pointer sigset);

    int open(Pointer path, int flags, int mode);
    int close(int fd);
    int fcntl(int fd, int cmd, int arg);
    int access(Pointer path, int mode);
    Pointer getcwd(Pointer buffer, long size);
}

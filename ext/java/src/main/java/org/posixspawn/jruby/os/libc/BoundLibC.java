package org.posixspawn.jruby.os.libc;

import static com.kenai.jffi.Type.POINTER;
import static com.kenai.jffi.Type.SINT;
import static com.kenai.jffi.Type.SINT16;
import static com.kenai.jffi.Type.SINT32;
import static com.kenai.jffi.Type.ULONG;
import static com.kenai.jffi.Type.VOID;
import static org.posixspawn.jruby.os.libc.CFunction.address;

import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * {@link LibC} through jffi, a {@link CFunction} each: a fresh JVM's first spawn found jnr-ffi's binding of
 * the interface (a generated class of 25 stubs, 10-25 ms) still under way on the require's background thread
 * (issue #26); these take a symbol lookup each. pid_t is an int and size_t an unsigned long on every profile.
 */
final class BoundLibC implements LibC {
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();

    static final CFunction MALLOC = CFunction.of("malloc", POINTER, ULONG);
    static final CFunction FREE = CFunction.of("free", VOID, POINTER);
    static final CFunction SPAWN = CFunction.of("posix_spawn", SINT, POINTER, POINTER, POINTER, POINTER, POINTER, POINTER);
    static final CFunction ACTIONS_INIT = CFunction.of("posix_spawn_file_actions_init", SINT, POINTER);
    static final CFunction ACTIONS_DESTROY = CFunction.of("posix_spawn_file_actions_destroy", SINT, POINTER);
    static final CFunction ADDDUP2 = CFunction.of("posix_spawn_file_actions_adddup2", SINT, POINTER, SINT, SINT);
    static final CFunction ADDCLOSE = CFunction.of("posix_spawn_file_actions_addclose", SINT, POINTER, SINT);
    static final CFunction ADDOPEN = CFunction.of("posix_spawn_file_actions_addopen", SINT, POINTER, SINT, POINTER, SINT, SINT);
    static final CFunction ADDCHDIR = CFunction.of("posix_spawn_file_actions_addchdir_np", SINT, POINTER, POINTER);
    static final CFunction ADDCLOSEFROM = CFunction.of("posix_spawn_file_actions_addclosefrom_np", SINT, POINTER, SINT);
    static final CFunction ADDINHERIT = CFunction.of("posix_spawn_file_actions_addinherit_np", SINT, POINTER, SINT);
    static final CFunction ATTR_INIT = CFunction.of("posix_spawnattr_init", SINT, POINTER);
    static final CFunction ATTR_DESTROY = CFunction.of("posix_spawnattr_destroy", SINT, POINTER);
    static final CFunction SETFLAGS = CFunction.of("posix_spawnattr_setflags", SINT, POINTER, SINT16);
    static final CFunction SETPGROUP = CFunction.of("posix_spawnattr_setpgroup", SINT, POINTER, SINT32);
    static final CFunction SETSIGMASK = CFunction.of("posix_spawnattr_setsigmask", SINT, POINTER, POINTER);
    static final CFunction SETSIGDEFAULT = CFunction.of("posix_spawnattr_setsigdefault", SINT, POINTER, POINTER);
    static final CFunction SIGEMPTYSET = CFunction.of("sigemptyset", SINT, POINTER);
    static final CFunction OPEN = CFunction.variadicWithErrno("open", 2, SINT, POINTER, SINT, SINT);
    static final CFunction CLOSE = CFunction.withErrno("close", SINT, SINT);
    static final CFunction FCNTL = CFunction.variadicWithErrno("fcntl", 2, SINT, SINT, SINT, SINT);
    static final CFunction ACCESS = CFunction.withErrno("access", SINT, POINTER, SINT);
    static final CFunction GETCWD = CFunction.withErrno("getcwd", POINTER, POINTER, ULONG);

    private static Pointer pointer(long address) {
        return address == 0L ? null : Pointer.wrap(RUNTIME, address);
    }

    @Override public Pointer malloc(long size) { return pointer(MALLOC.call(size)); }
    @Override public void free(Pointer p) { FREE.call(address(p)); }

    @Override public int posix_spawn(Pointer pid, Pointer path, Pointer fileActions, Pointer attr, Pointer argv, Pointer envp) {
        return (int) SPAWN.call(address(pid), address(path), address(fileActions), address(attr), address(argv), address(envp));
    }
    @Override public int posix_spawn_file_actions_init(Pointer actions) { return (int) ACTIONS_INIT.call(address(actions)); }
    @Override public int posix_spawn_file_actions_destroy(Pointer actions) { return (int) ACTIONS_DESTROY.call(address(actions)); }
    @Override public int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newfd) { return (int) ADDDUP2.call(address(actions), fd, newfd); }
    @Override public int posix_spawn_file_actions_addclose(Pointer actions, int fd) { return (int) ADDCLOSE.call(address(actions), fd); }
    @Override public int posix_spawn_file_actions_addopen(Pointer actions, int fd, Pointer path, int flags, int mode) {
        return (int) ADDOPEN.call(address(actions), fd, address(path), flags, mode);
    }
    @Override public int posix_spawn_file_actions_addchdir_np(Pointer actions, Pointer path) { return (int) ADDCHDIR.call(address(actions), address(path)); }
    @Override public int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from) { return (int) ADDCLOSEFROM.call(address(actions), from); }
    @Override public int posix_spawn_file_actions_addinherit_np(Pointer actions, int fd) { return (int) ADDINHERIT.call(address(actions), fd); }
    @Override public int posix_spawnattr_init(Pointer attr) { return (int) ATTR_INIT.call(address(attr)); }
    @Override public int posix_spawnattr_destroy(Pointer attr) { return (int) ATTR_DESTROY.call(address(attr)); }
    @Override public int posix_spawnattr_setflags(Pointer attr, short flags) { return (int) SETFLAGS.call(address(attr), flags); }
    @Override public int posix_spawnattr_setpgroup(Pointer attr, long pgroup) { return (int) SETPGROUP.call(address(attr), pgroup); }
    @Override public int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset) { return (int) SETSIGMASK.call(address(attr), address(sigset)); }
    @Override public int posix_spawnattr_setsigdefault(Pointer attr, Pointer sigset) { return (int) SETSIGDEFAULT.call(address(attr), address(sigset)); }
    @Override public int sigemptyset(Pointer sigset) { return (int) SIGEMPTYSET.call(address(sigset)); }

    @Override public int open(Pointer path, int flags, int mode) { return (int) OPEN.call(address(path), flags, mode); }
    @Override public int close(int fd) { return (int) CLOSE.call(fd); }
    @Override public int fcntl(int fd, int cmd, int arg) { return (int) FCNTL.call(fd, cmd, arg); }
    @Override public int access(Pointer path, int mode) { return (int) ACCESS.call(address(path), mode); }
    @Override public Pointer getcwd(Pointer buffer, long size) { return pointer(GETCWD.call(address(buffer), size)); }
}

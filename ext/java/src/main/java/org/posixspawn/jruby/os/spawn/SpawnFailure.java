package org.posixspawn.jruby.os.spawn;

import java.util.Arrays;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.PathName;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * Which step of a spawn an error code belongs to. posix_spawn reports one errno for every step (attributes,
 * file actions, exec), so the culprit MRI would name is worked out here, in the parent, after the fact.
 */
final class SpawnFailure {
    /** The process's working directory: the JVM never changes it. */
    private static final byte[] PROCESS_CWD = processCwd();

    private SpawnFailure() {}

    /** Whether a child in {@code dir} starts elsewhere than the process's own directory. */
    static boolean changesDirectory(byte[] dir) {
        return !Arrays.equals(dir, PROCESS_CWD);
    }

    /** Throws {@link #of}{@code (err, plan)} unless {@code err} is 0: every posix_spawn* call's result goes through here. */
    static void check(int err, SpawnPlan plan) throws SpawnError {
        if (err != 0) throw of(err, plan);
    }

    /**
     * When the child was to change directory and that directory is not usable, the error is the directory's
     * (as MRI names :chdir in its message); otherwise it is the program's.
     */
    static SpawnError of(int err, SpawnPlan plan) {
        if (err == Constants.EBADF) return SpawnError.inChild(err, PathName.of("dup2")); // a redirect source that is not open, as MRI says
        if (err == Constants.EPERM && plan.pgroup > 0) return SpawnError.inChild(err, PathName.of("setpgid")); // a group to join that is not ours
        SpawnError directory = directoryFault(plan);
        return directory != null ? directory : SpawnError.inChild(err, plan.program);
    }

    /** The error of the child's :chdir, naming the directory as MRI does, when it changes directory and cannot; else null. */
    static SpawnError directoryFault(SpawnPlan plan) {
        int err = changesDirectory(plan.cwd) ? directoryError(plan.cwd) : 0;
        return err != 0 ? SpawnError.inChild(err, plan.directoryCulprit()) : null;
    }

    /** Why {@code dir} cannot be a child's directory (ENOENT, ENOTDIR, EACCES...), or 0. */
    private static int directoryError(byte[] dir) {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(dir.length + 2))) {
            Pointer path = mem.reserve(dir.length + 2);
            path.put(0, dir, 0, dir.length);
            path.putByte(dir.length, (byte) 0);
            if (Native.libc.access(path, Constants.F_OK) != 0) return Native.errno();
            path.putByte(dir.length, (byte) '/'); // with a trailing slash, only a directory is found (else ENOTDIR)
            path.putByte(dir.length + 1, (byte) 0);
            if (Native.libc.access(path, Constants.F_OK) != 0) return Native.errno();
            return Native.libc.access(path, Constants.X_OK) != 0 ? Native.errno() : 0;
        }
    }

    private static byte[] processCwd() {
        int size = 4096;
        try (NativeBlock mem = new NativeBlock(size)) {
            Pointer buffer = mem.reserve(size);
            Pointer got = Native.libc.getcwd(buffer, size);
            if (got == null || got.address() == 0) return new byte[0]; // too long, or removed: every spawn then changes directory
            int n = 0;
            while (n < size && buffer.getByte(n) != 0) n++;
            byte[] cwd = new byte[n];
            buffer.get(0, cwd, 0, n);
            return cwd;
        }
    }
}

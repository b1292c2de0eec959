package org.posixspawn.jruby.os;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;

/**
 * Finds a command on PATH once, in the parent, as MRI's dln_find_exe_r does, beside the spawn that uses it
 * (as libuv does): the child is then started with posix_spawn on a full path, instead of posix_spawnp
 * trying every PATH entry with a failing execve. Bytes throughout: the entries and the name are never decoded.
 *
 * <p>Searched afresh every time, so a program installed in an earlier PATH directory, or removed, is found or
 * missed at once, as MRI finds it. The search is its access(2) calls and nothing else: each candidate is
 * written into a native buffer of the calling thread's, reused, and only the file found is copied out.
 */
final class ProgramLookup {
    /** Freed by jnr-ffi once its thread (and so the buffer) is gone. A subclass, not withInitial's lambda: no bootstrap on the first spawn. */
    private static final ThreadLocal<Probe> PROBE = new ThreadLocal<Probe>() {
        @Override
        protected Probe initialValue() {
            return new Probe();
        }
    };

    private ProgramLookup() {}

    /**
     * The file to execute for {@code name}: the name itself when it holds a slash, else the first entry of
     * {@code path} (relative ones, and an empty one meaning ".", against {@code pwd}) holding an executable
     * non-directory of that name; null if none (or no PATH).
     */
    static byte[] find(byte[] name, byte[] path, byte[] pwd) {
        if (name.length == 0) return null;
        for (byte b : name) if (b == '/') return name;
        if (path == null) return null;
        // The longest candidate: pwd/./entry/name, and a trailing slash and NUL.
        Pointer probe = PROBE.get().atLeast(pwd.length + path.length + name.length + 5);
        for (int start = 0, end; start <= path.length; start = end + 1) {
            end = start;
            while (end < path.length && path[end] != ':') end++;
            int at = 0;
            if (start == end || path[start] != '/') {
                probe.put(0, pwd, 0, pwd.length);
                at = pwd.length;
                probe.putByte(at++, (byte) '/');
            }
            if (start == end) probe.putByte(at++, (byte) '.');
            probe.put(at, path, start, end - start);
            at += end - start;
            probe.putByte(at++, (byte) '/');
            probe.put(at, name, 0, name.length);
            at += name.length;
            // access(2) first: one cheap system call rules out the entries that do not have it; then, with a
            // trailing slash, only a directory passes.
            probe.putByte(at, (byte) 0);
            if (Native.libc.access(probe, Constants.X_OK) != 0) continue;
            probe.putByte(at, (byte) '/');
            probe.putByte(at + 1, (byte) 0);
            if (Native.libc.access(probe, Constants.F_OK) == 0) continue;
            byte[] file = new byte[at];
            probe.get(0, file, 0, at);
            return file;
        }
        return null;
    }

    /** A thread's probe buffer, grown as needed. */
    private static final class Probe {
        private Pointer buffer;
        private int capacity;

        Pointer atLeast(int size) {
            if (size > capacity) {
                capacity = Math.max(size, 1024);
                buffer = Memory.allocateDirect(Native.runtime, capacity);
            }
            return buffer;
        }
    }
}

package org.posixspawn.jruby.os;

import java.io.ByteArrayOutputStream;

import jnr.ffi.Pointer;

/**
 * Finds a command on PATH once, in the parent, as MRI's dln_find_exe_r does, beside the spawn that uses it
 * (as libuv does): the child is then started with posix_spawn on a full path, instead of posix_spawnp
 * trying every PATH entry with a failing execve. Bytes throughout: the entries and the name are never decoded.
 */
final class ProgramLookup {
    private static final int F_OK = 0, X_OK = 1;

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
        // dir/name for each entry in turn, built only as far as the search goes, and probed through one
        // buffer big enough for any of them (and a trailing slash).
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(pwd.length + path.length + name.length + 5))) {
            Pointer probe = mem.reserve(pwd.length + path.length + name.length + 5);
            ByteArrayOutputStream candidate = new ByteArrayOutputStream();
            for (int start = 0, end; start <= path.length; start = end + 1) {
                end = start;
                while (end < path.length && path[end] != ':') end++;
                candidate.reset();
                if (start == end || path[start] != '/') {
                    candidate.write(pwd, 0, pwd.length);
                    candidate.write('/');
                }
                if (start == end) candidate.write('.');
                candidate.write(path, start, end - start);
                candidate.write('/');
                candidate.write(name, 0, name.length);
                byte[] file = candidate.toByteArray();
                // access(2) first: one cheap system call rules out the entries that do not have it.
                if (access(probe, file, false, X_OK) && !access(probe, file, true, F_OK)) return file;
            }
        }
        return null;
    }

    /** access(2) on {@code file} (with a trailing slash: only a directory passes), through the probe buffer. */
    private static boolean access(Pointer probe, byte[] file, boolean asDirectory, int mode) {
        probe.put(0, file, 0, file.length);
        int end = file.length;
        if (asDirectory) probe.putByte(end++, (byte) '/');
        probe.putByte(end, (byte) 0);
        return Native.libc.access(probe, mode) == 0;
    }
}

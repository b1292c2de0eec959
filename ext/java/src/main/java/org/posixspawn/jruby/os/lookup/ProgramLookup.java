package org.posixspawn.jruby.os.lookup;

import java.util.Arrays;
import java.util.List;

import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.platform.Strategy;

/**
 * Finds a command on PATH once, in the parent, as MRI's dln_find_exe_r does, beside the spawn that uses it
 * (as libuv does): the child is then started with posix_spawn on a full path, instead of posix_spawnp
 * trying every PATH entry with a failing execve. Bytes throughout: the entries and the name are never decoded.
 *
 * <p>A program installed in an earlier PATH directory, or removed, is found or missed at once, as MRI finds
 * it: searched afresh every time, or (Linux) answered by {@link ProgramCache} while nothing the search went
 * through has changed. The search is its access(2) calls and nothing else: each candidate is built in
 * buffers of the calling thread's, reused, and only the file found is copied out.
 */
public final class ProgramLookup {
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
     * non-directory of that name; null if none (or no PATH). Linux keeps the answers ({@link ProgramCache}).
     */
    public static byte[] find(byte[] name, byte[] path, byte[] pwd) {
        if (name.length == 0) return null;
        for (byte b : name) if (b == '/') return name;
        if (path == null) return null;
        return Native.PROFILE.pathCache == Strategy.PathCache.INOTIFY ? ProgramCache.find(name, path, pwd) : search(name, path, pwd, null);
    }

    /**
     * The search itself: {@link #find} for a name without a slash and a PATH. Each candidate it probes, up to
     * the file found, is added to {@code probed} unless that is null (what {@link ProgramCache} has watched).
     */
    static byte[] search(byte[] name, byte[] path, byte[] pwd, List<byte[]> probed) {
        Probe probe = PROBE.get();
        for (int start = 0, end; start <= path.length; start = end + 1) {
            end = start;
            while (end < path.length && path[end] != ':') end++;
            int at = probe.candidate(name, path, start, end, pwd);
            if (probed != null) probed.add(Arrays.copyOf(probe.bytes, at));
            // access(2) first: one cheap system call rules out the entries that do not have it; then, with a
            // trailing slash, only a directory passes.
            probe.buffer.putByte(at, (byte) 0);
            if (Native.libc.access(probe.buffer, Constants.X_OK) != 0) continue;
            probe.buffer.putByte(at, (byte) '/');
            probe.buffer.putByte(at + 1, (byte) 0);
            if (Native.libc.access(probe.buffer, Constants.F_OK) == 0) continue;
            return Arrays.copyOf(probe.bytes, at);
        }
        return null;
    }

    /**
     * A thread's probe: the candidate built in a Java array, then copied in one call into a native buffer
     * for access(2); both grown as needed.
     */
    private static final class Probe {
        byte[] bytes = new byte[1024];
        Pointer buffer;
        private int capacity;

        /** Builds entry/name (pwd/entry/name for a relative entry, pwd/./name for an empty one) in both; returns its length. */
        int candidate(byte[] name, byte[] path, int start, int end, byte[] pwd) {
            // The longest candidate: pwd/./entry/name, and a trailing slash and NUL.
            int longest = pwd.length + (end - start) + name.length + 5;
            if (longest > bytes.length) bytes = new byte[Math.max(longest, 2 * bytes.length)];
            int at = 0;
            if (start == end || path[start] != '/') {
                System.arraycopy(pwd, 0, bytes, 0, pwd.length);
                at = pwd.length;
                bytes[at++] = '/';
            }
            if (start == end) bytes[at++] = '.';
            System.arraycopy(path, start, bytes, at, end - start);
            at += end - start;
            bytes[at++] = '/';
            System.arraycopy(name, 0, bytes, at, name.length);
            at += name.length;
            if (longest > capacity) {
                capacity = Math.max(longest, 1024);
                buffer = Memory.allocateDirect(Native.runtime, capacity);
            }
            buffer.put(0, bytes, 0, at);
            return at;
        }
    }
}

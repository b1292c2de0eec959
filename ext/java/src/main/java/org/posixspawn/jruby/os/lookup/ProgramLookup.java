package org.posixspawn.jruby.os.lookup;

import java.util.Arrays;
import java.util.List;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.platform.Strategy;

/**
 * Finds a command on PATH once, in the parent, as MRI's dln_find_exe_r does, beside the spawn that uses it
 * (as libuv does): the child is then started with posix_spawn on a full path, instead of posix_spawnp
 * trying every PATH entry with a failing execve. Bytes throughout: the entries and the name are never decoded.
 *
 * <p>A program installed in an earlier PATH directory, or removed, is found or missed at once, as MRI finds
 * it: searched afresh every time, or (Linux) answered by {@link ProgramCache} while nothing the search went
 * through has changed. The search is its access(2) calls and nothing else: each candidate is built in a
 * Java array and copied into one native block of the search's own (freed when it returns), both sized for
 * the longest candidate, and only the file found is copied out.
 */
public final class ProgramLookup {
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
        // The longest candidate: pwd/./entry/name, and a trailing slash and NUL.
        int longest = pwd.length + path.length + name.length + 5;
        byte[] candidate = new byte[longest];
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(longest))) {
            Pointer buffer = mem.reserve(longest);
            for (int start = 0, end; start <= path.length; start = end + 1) {
                end = start;
                while (end < path.length && path[end] != ':') end++;
                int at = build(candidate, name, path, start, end, pwd);
                if (probed != null) probed.add(Arrays.copyOf(candidate, at));
                // access(2) first: one cheap system call rules out the entries that do not have it; then, with a
                // trailing slash, only a directory passes.
                buffer.put(0, candidate, 0, at);
                buffer.putByte(at, (byte) 0);
                if (Native.libc.access(buffer, Constants.X_OK) != 0) continue;
                buffer.putByte(at, (byte) '/');
                buffer.putByte(at + 1, (byte) 0);
                if (Native.libc.access(buffer, Constants.F_OK) == 0) continue;
                return Arrays.copyOf(candidate, at);
            }
        }
        return null;
    }

    /** Builds entry/name (pwd/entry/name for a relative entry, pwd/./name for an empty one) in {@code into}; returns its length. */
    private static int build(byte[] into, byte[] name, byte[] path, int start, int end, byte[] pwd) {
        int at = 0;
        if (start == end || path[start] != '/') {
            System.arraycopy(pwd, 0, into, 0, pwd.length);
            at = pwd.length;
            into[at++] = '/';
        }
        if (start == end) into[at++] = '.';
        System.arraycopy(path, start, into, at, end - start);
        at += end - start;
        into[at++] = '/';
        System.arraycopy(name, 0, into, at, name.length);
        return at + name.length;
    }
}

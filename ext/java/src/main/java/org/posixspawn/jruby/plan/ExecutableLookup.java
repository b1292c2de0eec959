package org.posixspawn.jruby.plan;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jruby.util.ByteList;
import org.posixspawn.jruby.os.Native;

/**
 * Finds a command on PATH once, in the parent, as MRI's dln_find_exe_r does, so the child is started with
 * posix_spawn on a full path instead of posix_spawnp trying every PATH entry with a failing execve.
 */
final class ExecutableLookup {
    private ExecutableLookup() {}

    /**
     * The file to execute for {@code name}: the name itself when it holds a slash, else the first PATH entry
     * (relative ones against {@code cwd}) holding an executable non-directory of that name; null if none.
     */
    static byte[] find(byte[] name, ByteList path, String cwd) {
        if (name.length == 0) return null;
        for (byte b : name) if (b == '/') return name;
        if (path == null) return null;
        List<byte[]> candidates = candidates(name, path, cwd.getBytes(StandardCharsets.UTF_8));
        int longest = 0;
        for (byte[] candidate : candidates) longest = Math.max(longest, candidate.length);
        try (Native.AccessProbe probe = new Native.AccessProbe(longest)) {
            for (byte[] candidate : candidates) {
                // access(2) first: one cheap system call rules out the entries that do not have it.
                if (probe.test(candidate, Native.X_OK) && !new File(new String(candidate, StandardCharsets.UTF_8)).isDirectory()) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** dir/name for every PATH entry, in order; an empty entry is the current directory. */
    private static List<byte[]> candidates(byte[] name, ByteList path, byte[] cwd) {
        List<byte[]> candidates = new ArrayList<>();
        byte[] entries = path.bytes();
        int start = 0;
        while (start <= entries.length) {
            int end = start;
            while (end < entries.length && entries[end] != ':') end++;
            ByteArrayOutputStream candidate = new ByteArrayOutputStream(cwd.length + end - start + name.length + 3);
            if (start == end || entries[start] != '/') {
                candidate.write(cwd, 0, cwd.length);
                candidate.write('/');
            }
            if (start == end) candidate.write('.');
            candidate.write(entries, start, end - start);
            candidate.write('/');
            candidate.write(name, 0, name.length);
            candidates.add(candidate.toByteArray());
            start = end + 1;
        }
        return candidates;
    }
}

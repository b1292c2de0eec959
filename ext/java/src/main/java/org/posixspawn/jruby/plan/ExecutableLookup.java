package org.posixspawn.jruby.plan;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;

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
        byte[] dirs = path.bytes(), base = cwd.getBytes(StandardCharsets.UTF_8);
        // dir/name for each PATH entry in turn (relative ones, and an empty one meaning ".", against cwd),
        // built only as far as the search goes, and probed through one buffer big enough for any of them.
        try (Native.AccessProbe probe = new Native.AccessProbe(base.length + dirs.length + name.length + 3)) {
            ByteArrayOutputStream candidate = new ByteArrayOutputStream();
            for (int start = 0, end; start <= dirs.length; start = end + 1) {
                end = start;
                while (end < dirs.length && dirs[end] != ':') end++;
                candidate.reset();
                if (start == end || dirs[start] != '/') {
                    candidate.write(base, 0, base.length);
                    candidate.write('/');
                }
                if (start == end) candidate.write('.');
                candidate.write(dirs, start, end - start);
                candidate.write('/');
                candidate.write(name, 0, name.length);
                byte[] file = candidate.toByteArray();
                // access(2) first: one cheap system call rules out the entries that do not have it.
                if (probe.test(file, Native.X_OK) && !new File(new String(file, StandardCharsets.UTF_8)).isDirectory()) return file;
            }
        }
        return null;
    }
}

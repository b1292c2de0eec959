package org.posixspawn.jruby.plan;

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
        String fileName = new String(name, StandardCharsets.UTF_8);
        String entries = path.toString();
        int start = 0;
        while (start <= entries.length()) {
            int end = entries.indexOf(':', start);
            if (end < 0) end = entries.length();
            String dir = start == end ? "." : entries.substring(start, end);
            String candidate = (dir.startsWith("/") ? dir : cwd + "/" + dir) + "/" + fileName;
            // access(2) first: one cheap system call rules out the entries that do not have it.
            if (Native.access(candidate, Native.X_OK) && !new File(candidate).isDirectory()) {
                return new File(candidate).getPath().getBytes(StandardCharsets.UTF_8);
            }
            start = end + 1;
        }
        return null;
    }
}

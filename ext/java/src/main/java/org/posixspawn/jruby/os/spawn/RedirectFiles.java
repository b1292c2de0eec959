package org.posixspawn.jruby.os.spawn;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.FileToOpen;
import org.posixspawn.jruby.plan.Redirect;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * The plan's redirect files, opened in the parent with O_CLOEXEC before the spawn, so that their errors
 * name the path (MRI: rb_execarg_parent_start1); each once, however many child fds it serves. Closed
 * (in the parent) after the spawn, whatever its outcome.
 */
public final class RedirectFiles implements AutoCloseable {
    private final Map<FileToOpen, Integer> opened = new IdentityHashMap<>();

    private RedirectFiles() {}

    static RedirectFiles open(SpawnPlan plan) throws SpawnError {
        RedirectFiles files = new RedirectFiles();
        try {
            for (Redirect r : plan.redirects) if (r.file != null) files.add(r.file);
            return files;
        } catch (SpawnError e) {
            files.close();
            throw e;
        }
    }

    /** Opens {@code files} in order and closes them again: what MRI has done to them when it raises an error it meets after them. */
    public static void openAndClose(List<FileToOpen> files) throws SpawnError {
        try (RedirectFiles opened = new RedirectFiles()) {
            for (FileToOpen file : files) opened.add(file);
        }
    }

    private void add(FileToOpen file) throws SpawnError {
        if (opened.containsKey(file)) return;
        int fd = openCloexec(file);
        if (fd < 0) throw SpawnError.errno(Native.errno(), file.asGiven);
        opened.put(file, fd);
    }

    /** The parent's descriptor the child's fd of {@code r} is copied from. */
    int sourceOf(Redirect r) {
        return r.file != null ? opened.get(r.file) : r.parentFd;
    }

    private static int openCloexec(FileToOpen file) {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(file.path.length + 1))) {
            Pointer path = mem.cString(file.path);
            int fd;
            do {
                fd = Native.libc.open(path, file.flags | Constants.O_CLOEXEC, file.perm);
            } while (fd < 0 && Native.errno() == Constants.EINTR);
            return fd;
        }
    }

    @Override
    public void close() {
        for (int fd : opened.values()) Native.libc.close(fd);
        opened.clear();
    }
}

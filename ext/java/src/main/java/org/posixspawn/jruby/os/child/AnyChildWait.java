package org.posixspawn.jruby.os.child;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import jnr.ffi.Pointer;

import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.SpawnError;

/**
 * A wait for any child, or any of a process group (Process.wait with no pid, 0 or -pgid; Process.waitall),
 * that never takes a child the {@link Reaper} owns: a waitpid(-1) would reap a Handle's child before the
 * reaper saw it end, and the Handle would never learn its status. It looks with waitid(WNOWAIT), which
 * reaps nothing; a child of the reaper's that has ended is left to the reaper (its stop or continue report
 * is taken and dropped: a Handle has no use for one), and the first other child ready is named, for the
 * caller's own waitpid of that one pid (JRuby's, which sets $?).
 */
public final class AnyChildWait {
    private AnyChildWait() {}

    /** How long a reaper's child that waitid found ended may take to be reaped, before it is looked at again. */
    private static final long REAP_NANOS = 100_000_000L;

    /**
     * The pid of a child of {@code pid}'s selection (-1 any, 0 this process's group, -pgid that group) that the
     * reaper does not own and that a waitpid with {@code flags} reports now; 0 when {@code flags} has WNOHANG
     * and none does yet; -1 when there is no such child, or (Linux) only the reaper's are left: as if its
     * children were not this process's (waitpid's ECHILD). Without WNOHANG it blocks until one is ready, as
     * waitpid would, and as JRuby's own Process.wait cannot be interrupted meanwhile.
     */
    public static long next(long pid, int flags) throws SpawnError {
        int idtype = pid == -1 ? Constants.P_ALL : Constants.P_PGID;
        long group = pid < -1 ? -pid : pid == 0 ? Native.extra().getpgid(0) : 0;
        int options = Constants.WEXITED | Constants.WNOWAIT
                | ((flags & Constants.WUNTRACED) != 0 ? Constants.WSTOPPED : 0) | (flags & Constants.WCONTINUED);
        boolean nohang = (flags & Constants.WNOHANG) != 0, block = false;
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(Constants.SIGINFO_SIZE))) {
            Pointer info = mem.reserve(Constants.SIGINFO_SIZE);
            while (true) {
                info.putInt(Constants.SI_PID, 0); // left 0 by a WNOHANG call that finds none ready
                if (Native.extra().waitid(idtype, (int) group, info, block ? options : options | Constants.WNOHANG) != 0) {
                    if (Native.errno() == Constants.EINTR) continue;
                    if (Native.errno() == Constants.ECHILD) return -1;
                    throw SpawnError.errno(Native.errno(), "waitid");
                }
                long found = info.getInt(Constants.SI_PID);
                if (found == 0) {
                    if (onlyOwnedChildren(pid, group)) return -1;
                    if (nohang) return 0;
                    block = true;
                    continue;
                }
                block = false;
                OwnedChild owned = Reaper.owned(found);
                if (owned == null) return found;
                int code = info.getInt(Constants.SI_CODE);
                if (code == Constants.CLD_EXITED || code == Constants.CLD_KILLED || code == Constants.CLD_DUMPED) awaitReaped(owned);
                else Native.extra().waitid(Constants.P_PID, (int) found, info, options & ~(Constants.WEXITED | Constants.WNOWAIT) | Constants.WNOHANG);
            }
        }
    }

    /** Lets the reaper take an ended child of its own (its pidfd is readable, or the next poll sees it). */
    private static void awaitReaped(OwnedChild child) {
        try {
            child.awaitEnd(System.nanoTime() + REAP_NANOS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // for the caller's thread to see; the wait looks again
        }
    }

    /**
     * Whether every child of the selection is one the reaper owns, read from each thread's list of children
     * (Linux: /proc/self/task/TID/children); false where those lists cannot be read, so the wait blocks.
     */
    private static boolean onlyOwnedChildren(long pid, long group) {
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) return false;
        for (File task : tasks) {
            String children;
            try {
                children = new String(Files.readAllBytes(new File(task, "children").toPath()), StandardCharsets.US_ASCII).trim();
            } catch (IOException e) {
                if (new File(task, "stat").exists()) return false; // a live thread whose list cannot be read: cannot tell
                continue; // the thread ended meanwhile: its children went to another
            }
            if (children.isEmpty()) continue;
            for (String child : children.split(" ")) {
                long c = Long.parseLong(child);
                if (Reaper.owned(c) == null && (pid == -1 || Native.extra().getpgid(c) == group)) return false;
            }
        }
        return true;
    }
}

package org.posixspawn.jruby.os;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JVM exiting (System.exit, or SIGINT, TERM or HUP with no Ruby trap: JRuby's default exits with
 * 128+signal) would orphan the children still being waited for: a shutdown hook gives each TERM, and KILL
 * to those still running after the grace period. Nobody is left to reap them: init does.
 */
public final class JvmExitHook {
    private static final Set<ChildExit> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(JvmExitHook::killAll, "posix-spawn-child-killer"));
    }

    private JvmExitHook() {}

    /** From now until {@link #forget}, {@code child} is ended if the JVM exits. */
    public static void watch(ChildExit child) {
        RUNNING.add(child);
    }

    public static void forget(ChildExit child) {
        RUNNING.remove(child);
    }

    private static void killAll() {
        List<ChildExit> running = new ArrayList<>(RUNNING);
        for (ChildExit c : running) Native.libc.kill(c.ownGroup ? -c.pid : c.pid, Constants.SIGTERM);
        long until = System.nanoTime() + ChildExit.GRACE_NANOS;
        while (System.nanoTime() < until && running.stream().anyMatch(c -> isRunning(c.pid))) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                break;
            }
        }
        for (ChildExit c : running) {
            if (c.ownGroup || isRunning(c.pid)) Native.libc.kill(c.ownGroup ? -c.pid : c.pid, Constants.SIGKILL);
        }
    }

    /** Alive and not a zombie, asked without reaping (the waiting thread may be reaping it). */
    private static boolean isRunning(long pid) {
        try {
            String stat = new String(Files.readAllBytes(Paths.get("/proc/" + pid + "/stat")), StandardCharsets.US_ASCII);
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return Native.libc.kill(pid, 0) == 0; // no /proc: a zombie counts as running, which only costs the grace period
        }
    }
}

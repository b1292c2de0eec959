package org.posixspawn.jruby.os.libc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.TreeMap;

/**
 * Leak checks on this process's descriptors, by set: which descriptor (and what it points at) is open now
 * that was not before. The JVM opens and closes its own at any time (its cgroup reads, jars); those it
 * closes are not our concern, and one it holds for a moment is gone when read again, so a change is read
 * again for up to a second before it counts.
 */
public final class Descriptors {
    /** Where the JVM's container support reads cgroup limits, on its own schedule; nothing here opens such a file. */
    private static final String JVM_CGROUP_READS = "/sys/fs/cgroup/";

    /** The directory a listing of this process's descriptors opens: its descriptor is the listing's own. */
    private static final String OWN_LISTING = "/proc/" + ownPid() + "/fd";

    private Descriptors() {}

    private static String ownPid() {
        try {
            return Files.readSymbolicLink(Paths.get("/proc/self")).toString();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self", e);
        }
    }

    /** This process's open descriptors: fd -> what it points at. */
    public static Map<Integer, String> open() {
        Map<Integer, String> fds = new TreeMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Paths.get("/proc/self/fd"))) {
            for (Path fd : dir) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    // The listing's own descriptor takes the lowest free number, so it moves as others come and go.
                    if (!target.startsWith(JVM_CGROUP_READS) && !target.equals(OWN_LISTING)) fds.put(Integer.parseInt(fd.getFileName().toString()), target);
                } catch (IOException e) {
                    // closed while listed: one of the JVM's
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc/self/fd", e);
        }
        return fds;
    }

    /** Fails naming each descriptor open now (settled for up to a second) that was not in {@code before}. */
    public static void assertNoneOpenedSince(Map<Integer, String> before) throws InterruptedException {
        Map<Integer, String> opened = openedSince(before);
        for (int i = 0; i < 10 && !opened.isEmpty(); i++) {
            Thread.sleep(100);
            opened = openedSince(before);
        }
        assertEquals(Map.of(), opened, "descriptors opened and not closed");
    }

    private static Map<Integer, String> openedSince(Map<Integer, String> before) {
        Map<Integer, String> opened = new TreeMap<>(open());
        opened.entrySet().removeIf(e -> e.getValue().equals(before.get(e.getKey())));
        return opened;
    }
}

package org.posixspawn.jruby.os.spawn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescriptorListingTest {
    /** A descriptor is open here when /proc/self/fd still has it (the test's stand-in for fcntl(F_GETFD)). */
    private static boolean openNow(int fd) {
        return new File("/proc/self/fd/" + fd).exists();
    }

    @Test
    void listsWhatIsOpenHereIncludingADescriptorJustOpened(@TempDir Path dir) throws Exception {
        Path marker = Files.createFile(dir.resolve("marker"));
        try (FileInputStream held = new FileInputStream(marker.toFile())) {
            Set<Integer> fds = DescriptorListing.open("/proc/self/fd", DescriptorListingTest::openNow);
            assertNotNull(fds);
            assertTrue(fds.containsAll(Set.of(0, 1, 2)));
            assertTrue(fds.contains(fdOf(marker)), "the held file's descriptor " + fdOf(marker) + " is not in " + fds);
        }
    }

    @Test
    void keepsOnlyWhatIsStillOpenAfterTheListingAsTheListingsOwnIsNot(@TempDir Path fdDir) throws Exception {
        for (String n : new String[] {"0", "1", "2", "3", "9"}) Files.createFile(fdDir.resolve(n));
        assertEquals(Set.of(0, 1, 2, 3), DescriptorListing.open(fdDir.toString(), fd -> fd != 9));
    }

    private static int fdOf(Path file) throws Exception {
        for (File fd : new File("/proc/self/fd").listFiles()) {
            try {
                if (Files.readSymbolicLink(fd.toPath()).equals(file)) return Integer.parseInt(fd.getName());
            } catch (java.nio.file.NoSuchFileException closedMeanwhile) {
                // the JVM's own, or this listing's
            }
        }
        return -1;
    }

    @Test
    void aDevFdWithOnlyTheFirstThreeIsNotTrusted(@TempDir Path devfs) throws Exception {
        // FreeBSD's /dev/fd without fdescfs (sys/kern/kern_descrip.c fildesc_drvinit: fd/0, fd/1, fd/2 only)
        for (String n : new String[] {"0", "1", "2"}) Files.createFile(devfs.resolve(n));
        assertNull(DescriptorListing.open(devfs.toString(), fd -> true));
        Files.createFile(devfs.resolve("7"));
        assertEquals(Set.of(0, 1, 2, 7), DescriptorListing.open(devfs.toString(), fd -> true));
    }

    @Test
    void aMissingDirectoryIsNoListing() {
        assertNull(DescriptorListing.open("/nonexistent/fd", fd -> true));
        assertFalse(new File("/nonexistent/fd").exists());
    }
}

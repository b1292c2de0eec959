package org.posixspawn.jruby.os.spawn;

import java.io.File;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * This process's open descriptors, read from the profile's descriptor directory (/proc/self/fd, /dev/fd),
 * for the close-others fallback. The listing holds a descriptor of its own while it reads, closed by the
 * time it returns: a listed number is kept only if {@code stillOpen} says so afterwards (xnu and FreeBSD
 * fail a spawn on a close action for a descriptor that is not open; glibc and musl ignore one).
 */
final class DescriptorListing {
    private DescriptorListing() {}

    /**
     * The descriptors listed in {@code directory} that are still open, or null where the listing cannot be
     * trusted: FreeBSD's devfs lists only 0, 1 and 2 under /dev/fd unless fdescfs is mounted there
     * (sys/kern/kern_descrip.c, fildesc_drvinit), and a listing without even its own descriptor (always
     * above 2 in a JVM) is that one; or no directory at all (/proc not mounted).
     */
    static Set<Integer> open(String directory, IntPredicate stillOpen) {
        String[] names = new File(directory).list();
        if (names == null) return null;
        Set<Integer> fds = new TreeSet<>();
        boolean beyondStandard = false;
        for (String name : names) {
            int fd;
            try {
                fd = Integer.parseInt(name);
            } catch (NumberFormatException notADescriptor) {
                continue;
            }
            beyondStandard |= fd > 2;
            if (stillOpen.test(fd)) fds.add(fd);
        }
        return beyondStandard ? fds : null;
    }
}

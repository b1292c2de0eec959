package org.posixspawn.jruby.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Relative paths made absolute as bytes: joined to the directory as MRI does, never decoded or normalised. */
class PathNameTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] against(String path, String dir) {
        return new PathName(bytes(path), "ASCII-8BIT").against(bytes(dir));
    }

    @Test
    void joinsARelativePathToTheDirectoryByteForByte() {
        assertArrayEquals(bytes("/tmp/d\u00ff/f\u00fey"), against("f\u00fey", "/tmp/d\u00ff"));
        assertArrayEquals(bytes("/tmp/a/../b/"), against("../b/", "/tmp/a"));
    }

    @Test
    void addsNoSecondSlash() {
        assertArrayEquals(bytes("/lib"), against("lib", "/"));
        assertArrayEquals(bytes("/usr/lib"), against("lib", "/usr/"));
    }

    @Test
    void keepsAnAbsolutePathAsItIs() {
        assertArrayEquals(bytes("/etc/x"), against("/etc/x", "/usr"));
    }
}

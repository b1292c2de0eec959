package org.posixspawn.jruby.os.lookup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PATH search, on real files: MRI's dln_find_exe_r rules. */
class ProgramLookupTest {
    @TempDir
    Path root;
    private Path plain, withTool, withDirectory, withUnexecutable;

    @BeforeEach
    void makeDirectories() throws IOException {
        plain = Files.createDirectory(root.resolve("plain"));
        withTool = Files.createDirectory(root.resolve("tool"));
        withDirectory = Files.createDirectory(root.resolve("dir"));
        withUnexecutable = Files.createDirectory(root.resolve("noexec"));
        Files.createFile(withTool.resolve("t"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.createDirectory(withDirectory.resolve("t"));
        Files.createFile(withUnexecutable.resolve("t"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    }

    private byte[] find(String name, String path, String cwd) {
        return ProgramLookup.find(bytes(name), bytes(path), bytes(cwd));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void takesTheFirstEntryWithAnExecutableFileSkippingDirectoriesAndUnexecutableFiles() {
        String path = String.join(":", plain.toString(), withDirectory.toString(), withUnexecutable.toString(), withTool.toString());
        assertArrayEquals(bytes(withTool + "/t"), find("t", path, "/"));
    }

    @Test
    void resolvesRelativeAndEmptyEntriesAgainstTheGivenDirectory() {
        assertArrayEquals(bytes(root + "/tool/t"), find("t", "plain:tool", root.toString()));
        assertArrayEquals(bytes(withTool + "/./t"), find("t", "::", withTool.toString()));
        assertArrayEquals(bytes(withTool + "/./t"), find("t", plain + ":", withTool.toString()));
    }

    @Test
    void givesNullWhenNoEntryHasIt() {
        assertNull(find("t", String.join(":", plain.toString(), withDirectory.toString(), withUnexecutable.toString()), "/"));
        assertNull(find("", withTool.toString(), "/"));
    }

    @Test
    void takesANameWithASlashAsItIs() {
        assertArrayEquals(bytes("sub/t"), find("sub/t", withTool.toString(), "/"));
    }
}

package org.posixspawn.jruby.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class SpawnArgumentsTest {
    private static List<String> strings(List<byte[]> bytes) {
        return bytes.stream().map(b -> new String(b, StandardCharsets.UTF_8)).collect(Collectors.toList());
    }

    @Test
    void argvFormIsExecutedDirectlyWithPathForTheLookup() {
        SpawnPlan plan = RubyFixture.plan("ENV['PATH'] = '/usr/bin:/bin'; ['echo', 'a b', '$(x)']");
        assertEquals(List.of("echo", "a b", "$(x)"), strings(plan.argv));
        assertArrayEquals("echo".getBytes(), plan.program.bytes);
        assertArrayEquals("/usr/bin:/bin".getBytes(), plan.searchPath);
    }

    @Test
    void commandLineWithMetaCharactersGoesToTheShell() {
        SpawnPlan plan = RubyFixture.plan("['echo a | tr a b']");
        assertArrayEquals("/bin/sh".getBytes(), plan.program.bytes);
        assertEquals(List.of("sh", "-c", "echo a | tr a b"), strings(plan.argv));
    }

    @Test
    void plainCommandLineIsSplitOnBlanks() {
        assertEquals(List.of("echo", "a", "b"), strings(RubyFixture.plan("[\"echo  a\\tb\"]").argv));
    }

    @Test
    void pathsKeepTheirBytesAndEncodingWhateverTheEncoding() {
        SpawnPlan plan = RubyFixture.plan("[{'PATH' => \"/d\\xFF\".b}, [\"pr\\xE9\".force_encoding('ISO-8859-1'), 'x'], {chdir: \"/c\\x80\".force_encoding('Windows-1252')}]");
        assertArrayEquals(new byte[] {'p', 'r', (byte) 0xE9}, plan.program.bytes);
        assertEquals("ISO-8859-1", plan.program.encoding);
        assertArrayEquals(new byte[] {'/', 'd', (byte) 0xFF}, plan.searchPath);
        assertArrayEquals(new byte[] {'/', 'c', (byte) 0x80}, plan.cwd);
        assertEquals("Windows-1252", plan.chdirAsGiven.encoding);
    }
}

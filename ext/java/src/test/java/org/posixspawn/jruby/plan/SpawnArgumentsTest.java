package org.posixspawn.jruby.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class SpawnArgumentsTest {
    private static List<String> strings(List<byte[]> bytes) {
        return bytes.stream().map(b -> new String(b, StandardCharsets.UTF_8)).collect(Collectors.toList());
    }

    @Test
    void argvFormIsExecutedDirectlyWithTheProgramFoundOnPath() {
        SpawnPlan plan = RubyFixture.plan("['echo', 'a b', '$(x)']");
        assertEquals(List.of("echo", "a b", "$(x)"), strings(plan.argv));
        assertTrue(new String(plan.executable).endsWith("/echo"), new String(plan.executable));
        assertTrue(plan.executableFound);
    }

    @Test
    void commandLineWithMetaCharactersGoesToTheShell() {
        SpawnPlan plan = RubyFixture.plan("['echo a | tr a b']");
        assertArrayEquals("/bin/sh".getBytes(), plan.executable);
        assertEquals(List.of("sh", "-c", "echo a | tr a b"), strings(plan.argv));
    }

    @Test
    void plainCommandLineIsSplitOnBlanks() {
        assertEquals(List.of("echo", "a", "b"), strings(RubyFixture.plan("[\"echo  a\\tb\"]").argv));
    }

    @Test
    void missingProgramIsMarkedNotFound() {
        SpawnPlan plan = RubyFixture.plan("['no-such-program-here']");
        assertFalse(plan.executableFound);
        assertEquals("no-such-program-here", plan.commandName);
    }
}

package org.posixspawn.jruby.os.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jnr.ffi.Platform;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Linux profile against what a C compiler sees: src/test/c/linux_profile_probe.c built with {@code cc}
 * (glibc here) and with {@code musl-gcc} (Debian's musl-tools; bin/dev test installs it when it can) prints
 * sizes, constants and which symbols the C library has. Each compiler's case is skipped, saying why, where
 * that compiler is missing or this is not Linux.
 */
class LinuxProbeTest {
    private static final Path SOURCE = Paths.get("src", "test", "c", "linux_profile_probe.c");
    /** What the Linux profile calls with no fallback. */
    private static final List<String> REQUIRED = Arrays.asList("posix_spawn", "posix_spawnattr_setsigdefault",
            "posix_spawn_file_actions_adddup2", "pipe2", "mremap", "madvise", "prlimit", "unshare", "syscall");
    /** Each has a fallback route (Strategy.Chdir, Strategy.CloseOthers). */
    private static final Map<String, String> OPTIONAL = new LinkedHashMap<>();

    static {
        OPTIONAL.put("posix_spawn_file_actions_addchdir_np", ":chdir on the FS thread");
        OPTIONAL.put("posix_spawn_file_actions_addclosefrom_np", "a close action per descriptor in /proc/self/fd");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cc", "musl-gcc"})
    void theLinuxProfileIsWhatThisCompilerSees(String compiler) throws Exception {
        Platform here = Platform.getNativePlatform();
        Assumptions.assumeTrue(here.getOS() == Platform.OS.LINUX, "skipped: the probe describes Linux, this is " + here.getOS());
        Assumptions.assumeTrue(onPath(compiler), "skipped: no " + compiler + " on PATH"
                + (compiler.equals("musl-gcc") ? " (apt-get install musl-tools)" : ""));
        PlatformProfile linux = PlatformProfile.select(Platform.OS.LINUX, here.getCPU(), 64);

        Path binary = Paths.get("target", "linux-probe", compiler.replace('-', '_'));
        Files.createDirectories(binary.getParent());
        run(compiler, "-o", binary.toString(), SOURCE.toString());
        int checked = 0;
        for (String line : run(binary.toString())) {
            String[] kindAndRest = line.split(" ", 2);
            String name = kindAndRest[1].substring(0, kindAndRest[1].lastIndexOf('='));
            long value = Long.parseLong(kindAndRest[1].substring(name.length() + 1));
            if (kindAndRest[0].equals("symbol")) {
                if (REQUIRED.contains(name)) assertEquals(1, value, compiler + ": the Linux profile needs " + name);
                else if (value == 0) System.out.println(compiler + ": no " + name + ", so " + OPTIONAL.get(name));
                else assertTrue(OPTIONAL.containsKey(name), "unknown symbol line: " + line);
            } else if (name.equals("sizeof(void *)")) {
                assertEquals(8, value, compiler + ": argv and envp slots are 8 bytes");
            } else {
                assertEquals(value, profileValue(linux, name), compiler + ": " + name);
            }
            checked++;
        }
        assertTrue(checked > 40, "the probe printed only " + checked + " lines");
    }

    /** A table entry, or else a profile field of that name. */
    private static long profileValue(PlatformProfile p, String name) throws Exception {
        Table.Entry e = p.table.entries().get(name);
        if (e != null) return e.value;
        try {
            return ((Number) PlatformProfile.class.getField(name).get(p)).longValue();
        } catch (NoSuchFieldException missing) {
            fail("the probe prints " + name + ", which the profile does not have");
            return 0;
        }
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(dir, program).canExecute()) return true;
        }
        return false;
    }

    private static List<String> run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) lines.add(line);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + lines);
        return lines;
    }
}

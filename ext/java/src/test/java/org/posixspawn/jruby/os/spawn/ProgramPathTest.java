package org.posixspawn.jruby.os.spawn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;

import jnr.ffi.Platform;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.junit.jupiter.api.Test;
import org.posixspawn.jruby.os.platform.PlatformProfile;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * What macOS and FreeBSD get where Linux has its FsThread, checked with their profiles: a relative program
 * under :chdir joined to the directory in the parent (macOS's posix_spawn returns ENOENT for one with
 * addchdir_np), and :umask, :rlimit_* and :chdir without addchdir_np refused naming the option and platform.
 */
class ProgramPathTest {
    private static final Ruby RUBY = Ruby.newInstance();
    private static final PlatformProfile DARWIN = PlatformProfile.select(Platform.OS.DARWIN, Platform.CPU.X86_64, 64);
    private static final PlatformProfile FREEBSD = PlatformProfile.select(Platform.OS.FREEBSD, Platform.CPU.AARCH64, 64);
    private static final PlatformProfile LINUX = PlatformProfile.select(Platform.OS.LINUX, Platform.CPU.X86_64, 64);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static SpawnPlan plan(String arguments) {
        return SpawnArguments.parse(RUBY.getCurrentContext(), ((RubyArray<?>) RUBY.evalScriptlet(arguments)).toJavaArray());
    }

    @Test
    void onDarwinARelativeProgramUnderChdirIsJoinedToTheDirectory() {
        assertArrayEquals(b("/work/dir/./tool"), Spawner.programPath(b("./tool"), b("/work/dir"), true, DARWIN));
        assertArrayEquals(b("/work/dir/../bin/tool"), Spawner.programPath(b("../bin/tool"), b("/work/dir"), true, DARWIN));
    }

    @Test
    void anAbsoluteProgramNoChdirOrAnotherOsLeavesItAsItIs() {
        assertArrayEquals(b("/bin/tool"), Spawner.programPath(b("/bin/tool"), b("/work/dir"), true, DARWIN));
        assertArrayEquals(b("./tool"), Spawner.programPath(b("./tool"), b("/work/dir"), false, DARWIN));
        assertArrayEquals(b("./tool"), Spawner.programPath(b("./tool"), b("/work/dir"), true, LINUX)); // glibc and musl chdir before exec
        assertArrayEquals(b("./tool"), Spawner.programPath(b("./tool"), b("/work/dir"), true, FREEBSD));
        assertNull(Spawner.programPath(null, b("/work/dir"), true, DARWIN));
    }

    @Test
    void whatNeedsLinuxIsRefusedNamingTheOptionAndThePlatform() {
        assertEquals(":umask needs Linux (a thread with its own umask); this is Darwin x86_64",
                Spawner.refusal(plan("['true', {umask: 0o22}]"), DARWIN));
        assertEquals(":rlimit_* needs Linux (prlimit on a held child); this is FreeBSD aarch64",
                Spawner.refusal(plan("['true', {rlimit_core: 0}]"), FREEBSD));
        assertEquals(":chdir needs posix_spawn_file_actions_addchdir_np (macOS 10.15+, FreeBSD 13.1+), which this FreeBSD aarch64 lacks",
                Spawner.refusal(plan("['true', {chdir: '/tmp'}]"), FREEBSD));
    }
}

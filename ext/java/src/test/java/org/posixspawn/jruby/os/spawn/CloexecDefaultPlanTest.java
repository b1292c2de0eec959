package org.posixspawn.jruby.os.spawn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.junit.jupiter.api.Test;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.platform.PlatformProfile;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * macOS's way of closing the other descriptors, checked here against a recording libc (Linux has neither
 * the flag nor addinherit_np): POSIX_SPAWN_CLOEXEC_DEFAULT, and an inherit action for each kept descriptor
 * no other action names, so that nothing else reaches the child without a close action for a descriptor
 * that may not be open (xnu fails the whole spawn on one: bsd/kern/kern_exec.c exec_handle_file_actions).
 */
class CloexecDefaultPlanTest {
    private static final Ruby RUBY = Ruby.newInstance();
    private static final PlatformProfile DARWIN = PlatformProfile.select(Platform.OS.DARWIN, Platform.CPU.AARCH64, 64);

    private static List<String> actionsFor(String arguments, Closing closing) throws SpawnError {
        SpawnPlan plan = SpawnArguments.parse(RUBY.getCurrentContext(), ((RubyArray<?>) RUBY.evalScriptlet(arguments)).toJavaArray());
        RecordingLibC recording = new RecordingLibC(Native.libc);
        try (RedirectFiles files = RedirectFiles.open(plan); NativeBlock mem = new NativeBlock(8192)) {
            Pointer attr = mem.reserve(Constants.SPAWNATTR_SIZE), actions = mem.reserve(Constants.FILE_ACTIONS_SIZE);
            Native.libc.posix_spawnattr_init(attr);
            try {
                SpawnAttributes.set(recording.libc, DARWIN, attr, plan, closing, mem);
                FileActions.add(recording.libc, actions, plan, files, closing, null, -1, null, null);
            } finally {
                Native.libc.posix_spawnattr_destroy(attr);
            }
        }
        return recording.calls;
    }

    @Test
    void aPlainSpawnInheritsTheStandardThreeAndNothingElse() throws Exception {
        // SETSIGMASK 0x08 | SETSIGDEF 0x04 | CLOEXEC_DEFAULT 0x4000 (xnu bsd/sys/spawn.h)
        assertEquals(List.of("setflags 0x400c", "addinherit_np 0", "addinherit_np 1", "addinherit_np 2"),
                actionsFor("['true', {close_others: true}]", Closing.CLOEXEC_DEFAULT));
    }

    @Test
    void dup2TargetsAreInheritedAsSuchAndADescriptorKeptAsItIsIsNamedByAnInheritAction() throws Exception {
        assertEquals(List.of("setflags 0x400e", "adddup2 2 1", "adddup2 2 5", "addclose 0", "addinherit_np 2"),
                actionsFor("['true', {1 => 2, 5 => 2, 0 => :close, pgroup: true, close_others: true}]", Closing.CLOEXEC_DEFAULT));
        // dup2 onto itself would leave FD_CLOEXEC set on xnu, and CLOEXEC_DEFAULT would close it
        assertEquals(List.of("setflags 0x400c", "addinherit_np 2", "addinherit_np 0", "addinherit_np 1"),
                actionsFor("['true', {2 => 2, close_others: true}]", Closing.CLOEXEC_DEFAULT));
    }

    @Test
    void closeOthersFalseInheritsAsUsualWithoutTheFlag() throws Exception {
        assertEquals(List.of("setflags 0xc"), actionsFor("['true', {close_others: false}]", Closing.NONE));
    }

    @Test
    void theRefusalWithoutATrustworthyListingSaysWhatToDo() {
        String why = Closing.unavailable();
        assertTrue(why.contains("addclosefrom_np") && why.contains(Native.PROFILE.name) && why.contains("close_others: false"), why);
    }
}

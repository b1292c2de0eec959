package org.posixspawn.jruby.os.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jnr.ffi.Platform;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each OS's profile against jnr-constants' class for that OS (they load on Linux) and against the values
 * read in that OS's headers (restated here from the sources cited in each table, so a slip in either shows),
 * plus one test per defect that a single Linux-only set of values caused elsewhere.
 */
class PlatformProfileTest {
    private static final PlatformProfile LINUX = PlatformProfile.select(Platform.OS.LINUX, Platform.CPU.X86_64, 64);
    private static final PlatformProfile LINUX_ARM = PlatformProfile.select(Platform.OS.LINUX, Platform.CPU.AARCH64, 64);
    private static final PlatformProfile DARWIN = PlatformProfile.select(Platform.OS.DARWIN, Platform.CPU.AARCH64, 64);
    private static final PlatformProfile FREEBSD = PlatformProfile.select(Platform.OS.FREEBSD, Platform.CPU.X86_64, 64);

    // --- jnr-constants: each profile reads its own OS's (and CPU's) classes ---

    @Test
    void linuxTakesJnrConstantsForLinux() {
        assertEquals(jnr.constants.platform.linux.OpenFlags.O_CLOEXEC.intValue(), LINUX.O_CLOEXEC);
        assertEquals(jnr.constants.platform.linux.OpenFlags.O_DIRECTORY.intValue(), LINUX.O_DIRECTORY);
        assertEquals(jnr.constants.platform.linux.OpenFlags.O_NONBLOCK.intValue(), LINUX.O_NONBLOCK);
        assertEquals(jnr.constants.platform.linux.Fcntl.F_SETPIPE_SZ.intValue(), LINUX.F_SETPIPE_SZ);
        assertEquals(jnr.constants.platform.linux.WaitFlags.WNOHANG.intValue(), LINUX.WNOHANG);
        assertEquals(jnr.constants.platform.linux.Errno.EAGAIN.intValue(), LINUX.EAGAIN);
        assertEquals(jnr.constants.platform.linux.Signal.SIGTERM.intValue(), LINUX.SIGTERM);
        // aarch64 has its own O_DIRECTORY (040000 against x86_64's 0200000)
        assertEquals(jnr.constants.platform.linux.aarch64.OpenFlags.O_DIRECTORY.intValue(), LINUX_ARM.O_DIRECTORY);
        assertNotEquals(LINUX.O_DIRECTORY, LINUX_ARM.O_DIRECTORY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"darwin", "freebsd"})
    void bsdProfilesTakeJnrConstantsForTheirOs(String os) throws ReflectiveOperationException {
        PlatformProfile profile = os.equals("darwin") ? DARWIN : FREEBSD;
        assertEquals(jnrConstant(os, "OpenFlags", "O_CLOEXEC"), profile.O_CLOEXEC);
        assertEquals(jnrConstant(os, "OpenFlags", "O_NONBLOCK"), profile.O_NONBLOCK);
        assertEquals(jnrConstant(os, "OpenFlags", "O_DIRECTORY"), profile.O_DIRECTORY);
        assertEquals(jnrConstant(os, "Fcntl", "F_SETFL"), profile.F_SETFL);
        assertEquals(jnrConstant(os, "Errno", "EAGAIN"), profile.EAGAIN);
        assertEquals(jnrConstant(os, "WaitFlags", "WNOHANG"), profile.WNOHANG);
        assertEquals(jnrConstant(os, "WaitFlags", "WNOWAIT"), profile.WNOWAIT);
        assertEquals(jnrConstant(os, "WaitFlags", "WEXITED"), profile.WEXITED);
        assertEquals(-1, profile.F_SETPIPE_SZ, "no F_SETPIPE_SZ on " + os);
    }

    /** The value of jnr-constants' constant NAME in its class KIND for OS (jnr.constants.platform.OS.KIND). */
    private static int jnrConstant(String os, String kind, String name) throws ReflectiveOperationException {
        Class<?> type = Class.forName("jnr.constants.platform." + os + "." + kind);
        return ((jnr.constants.Constant) type.getField(name).get(null)).intValue();
    }

    @Test
    void thisMachinesProfileAgreesWithWhatJnrConstantsResolvesHere() {
        PlatformProfile here = PlatformProfile.current();
        assertEquals(Platform.getNativePlatform().getOS(), here.os);
        assertEquals(jnr.constants.platform.OpenFlags.O_CLOEXEC.intValue(), here.O_CLOEXEC);
        assertEquals(jnr.constants.platform.OpenFlags.O_DIRECTORY.intValue(), here.O_DIRECTORY);
        assertEquals(jnr.constants.platform.Fcntl.F_SETFL.intValue(), here.F_SETFL);
        assertEquals(jnr.constants.platform.Errno.ECHILD.intValue(), here.ECHILD);
    }

    // --- the headers: values read in the sources each table cites ---

    @Test
    void jnrConstantsAgreeWithTheHeadersForTheOpenFlagsThatMatter() {
        assertEquals(02000000, LINUX.O_CLOEXEC);       // musl arch/generic/bits/fcntl.h:12, arch/aarch64/bits/fcntl.h:12
        assertEquals(02000000, LINUX_ARM.O_CLOEXEC);
        assertEquals(040000, LINUX_ARM.O_DIRECTORY);   // musl arch/aarch64/bits/fcntl.h:10
        assertEquals(0x01000000, DARWIN.O_CLOEXEC);    // xnu bsd/sys/fcntl.h:170
        assertEquals(0x00000004, DARWIN.O_NONBLOCK);   // xnu bsd/sys/fcntl.h:115
        assertEquals(0x00100000, FREEBSD.O_CLOEXEC);   // freebsd sys/sys/fcntl.h O_CLOEXEC
        assertEquals(0x0004, FREEBSD.O_NONBLOCK);      // freebsd sys/sys/fcntl.h O_NONBLOCK
    }

    @Test
    void linuxTableIsWhatGlibcAndMuslDefine() {
        assertTable(LINUX, entries(
                "POSIX_SPAWN_SETPGROUP", 0x02, "POSIX_SPAWN_SETSIGDEF", 0x04, "POSIX_SPAWN_SETSIGMASK", 0x08,
                "POSIX_SPAWN_SETSID", 0x80, "FD_CLOEXEC", 1, "F_DUPFD_CLOEXEC", 1030, "TIOCSWINSZ", 0x5414, "PROT_READ|PROT_WRITE", 3, "MAP_PRIVATE|MAP_ANONYMOUS", 0x22, "MREMAP_MAYMOVE", 1,
                "MADV_FREE", 8, "MADV_HUGEPAGE", 14, "POLLIN", 1, "POLLOUT", 4, "POLLNVAL", 0x20, "CLONE_FS", 0x200, "CLONE_FILES", 0x400, "F_SETOWN", 8, "F_SETSIG", 10, "O_ASYNC", 0x2000, "SYS_pidfd_open", 434,
                "sizeof(sigset_t)", 128, "sizeof(posix_spawnattr_t)", 336, "sizeof(posix_spawn_file_actions_t)", 80,
                "POLLPRI", 2, "SYS_pidfd_send_signal", 424, "EPOLL_CLOEXEC", 0x80000, "EPOLL_CTL_ADD", 1, "EPOLL_CTL_DEL", 2, "EPOLLIN", 1,
                "sizeof(struct epoll_event)", 12, "offsetof(struct epoll_event, data)", 4, "IN_NONBLOCK", 0x800, "IN_CLOEXEC", 0x80000,
                "IN_ATTRIB", 0x4, "IN_MOVED_FROM", 0x40, "IN_MOVED_TO", 0x80, "IN_CREATE", 0x100, "IN_DELETE", 0x200,
                "IN_DELETE_SELF", 0x400, "IN_MOVE_SELF", 0x800, "IN_Q_OVERFLOW", 0x4000, "IN_IGNORED", 0x8000,
                "IN_ONLYDIR", 0x1000000, "IN_DONT_FOLLOW", 0x2000000, "P_ALL", 0, "P_PID", 1, "P_PGID", 2, "sizeof(siginfo_t)", 128,
                "offsetof(siginfo_t, si_code)", 8, "offsetof(siginfo_t, si_pid)", 16, "CLD_EXITED", 1, "CLD_KILLED", 2, "CLD_DUMPED", 3,
                "PATH_MAX", 4096));
        assertEquals(LINUX.table.entries().keySet(), LINUX_ARM.table.entries().keySet());
        // aarch64's struct epoll_event is not packed
        assertEquals(List.of(16, 8), List.of(LINUX_ARM.SIZEOF_EPOLL_EVENT, LINUX_ARM.OFFSETOF_EPOLL_DATA));
    }

    @Test
    void darwinTableIsWhatXnuDefines() {
        assertTable(DARWIN, entries(
                "POSIX_SPAWN_SETPGROUP", 0x02, "POSIX_SPAWN_SETSIGDEF", 0x04, "POSIX_SPAWN_SETSIGMASK", 0x08,
                "POSIX_SPAWN_SETSID", 0x0400, "POSIX_SPAWN_CLOEXEC_DEFAULT", 0x4000, "FD_CLOEXEC", 1, "F_DUPFD_CLOEXEC", 67,
                "TIOCSWINSZ", 0x80087467L, "PROT_READ|PROT_WRITE", 3,
                "MAP_PRIVATE|MAP_ANONYMOUS", 0x1002, "MADV_FREE", 5, "POLLIN", 1, "POLLOUT", 4, "POLLNVAL", 0x20,
                "sizeof(sigset_t)", 4, "sizeof(posix_spawnattr_t)", 8, "sizeof(posix_spawn_file_actions_t)", 8,
                "P_ALL", 0, "P_PID", 1, "P_PGID", 2, "sizeof(siginfo_t)", 104, "offsetof(siginfo_t, si_code)", 8,
                "offsetof(siginfo_t, si_pid)", 12, "CLD_EXITED", 1, "CLD_KILLED", 2, "CLD_DUMPED", 3));
    }

    @Test
    void freebsdTableIsWhatFreebsdDefines() {
        assertTable(FREEBSD, entries(
                "POSIX_SPAWN_SETPGROUP", 0x02, "POSIX_SPAWN_SETSIGDEF", 0x10, "POSIX_SPAWN_SETSIGMASK", 0x20,
                "FD_CLOEXEC", 1, "F_DUPFD_CLOEXEC", 17, "TIOCSWINSZ", 0x80087467L, "PROT_READ|PROT_WRITE", 3,
                "MAP_PRIVATE|MAP_ANONYMOUS", 0x1002, "MADV_FREE", 5, "POLLIN", 1, "POLLOUT", 4, "POLLNVAL", 0x20,
                "sizeof(sigset_t)", 16, "sizeof(posix_spawnattr_t)", 8, "sizeof(posix_spawn_file_actions_t)", 8,
                "P_ALL", 7, "P_PID", 0, "P_PGID", 2, "sizeof(siginfo_t)", 80, "offsetof(siginfo_t, si_code)", 8,
                "offsetof(siginfo_t, si_pid)", 12, "CLD_EXITED", 1, "CLD_KILLED", 2, "CLD_DUMPED", 3));
    }

    @ParameterizedTest
    @EnumSource(value = Platform.OS.class, names = {"LINUX", "DARWIN", "FREEBSD"}, mode = EnumSource.Mode.EXCLUDE)
    void everyOtherOsIsRefusedByName(Platform.OS os) {
        assertNull(PlatformProfile.select(os, Platform.CPU.X86_64, 64));
        String why = PlatformProfile.refusal(os, Platform.CPU.X86_64, 64);
        assertTrue(why.contains(os.toString()) && why.contains("x86_64"), why);
    }

    @Test
    void a32BitJvmIsRefusedItsPointersAreNotTheEightBytesArgvSlotsAssume() {
        assertNull(PlatformProfile.select(Platform.OS.LINUX, Platform.CPU.I386, 32));
        String why = PlatformProfile.refusal(Platform.OS.LINUX, Platform.CPU.I386, 32);
        assertTrue(why.contains("64-bit") && why.contains("32-bit") && why.contains("Linux i386"), why);
        assertNull(PlatformProfile.select(Platform.OS.LINUX, Platform.CPU.ARM, 32));
    }

    @Test
    void otherCpusAreRefusedByName() {
        assertNull(PlatformProfile.select(Platform.OS.LINUX, Platform.CPU.PPC64LE, 64));
        assertTrue(PlatformProfile.refusal(Platform.OS.LINUX, Platform.CPU.PPC64LE, 64).contains("Linux ppc64le"));
    }

    @Test
    void theThreeAreNotRefusedAndThisMachineHasItsProfile() {
        for (Platform.OS os : new Platform.OS[] {Platform.OS.LINUX, Platform.OS.DARWIN, Platform.OS.FREEBSD}) {
            assertNull(PlatformProfile.refusal(os, Platform.CPU.AARCH64, 64), os.toString());
        }
        assertNull(PlatformProfile.refusalHere());
        assertNotNull(PlatformProfile.current());
    }

    private static Map<String, Long> entries(Object... nameValue) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) m.put((String) nameValue[i], ((Number) nameValue[i + 1]).longValue());
        return m;
    }

    private static void assertTable(PlatformProfile p, Map<String, Long> expected) {
        Map<String, Long> actual = new LinkedHashMap<>();
        p.table.entries().forEach((name, e) -> actual.put(name, e.value));
        assertEquals(expected, actual, p.name);
    }
}

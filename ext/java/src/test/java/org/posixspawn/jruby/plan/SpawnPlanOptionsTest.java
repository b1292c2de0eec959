package org.posixspawn.jruby.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

import jnr.constants.platform.OpenFlags;
import jnr.constants.platform.RLIMIT;
import org.jruby.exceptions.RaiseException;
import org.junit.jupiter.api.Test;

/** What SpawnArguments makes of each option: the plan the spawner will carry out, checked without spawning. */
class SpawnPlanOptionsTest {
    private static List<String> envp(SpawnPlan plan) {
        return plan.envp.stream().map(b -> new String(b, StandardCharsets.UTF_8)).collect(Collectors.toList());
    }

    /** What a bad call raises: at once, or (a descriptor-table error, MRI's order) once its files are open. */
    private static String raised(String source) {
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> RubyFixture.plan(source));
        RaiseException e = thrown instanceof AfterOpening ? ((AfterOpening) thrown).error : (RaiseException) thrown;
        return e.getException().getMetaClass().getName() + ": " + e.getException().message(RubyFixture.context());
    }

    @Test
    void environmentStartsFromEnvAndAppliesTheHash() {
        RubyFixture.RUBY.evalScriptlet("ENV['PLAN_TEST_GONE'] = 'x'");
        List<String> env = envp(RubyFixture.plan("[{'NEW' => '1', 'PLAN_TEST_GONE' => nil}, 'true']"));
        assertTrue(env.contains("NEW=1"));
        assertTrue(env.stream().noneMatch(e -> e.startsWith("PLAN_TEST_GONE=")));
        assertTrue(env.stream().anyMatch(e -> e.startsWith("PATH=")));
        assertEquals(List.of("ONLY=1"), envp(RubyFixture.plan("[{'ONLY' => '1'}, 'true', {unsetenv_others: true}]")));
    }

    @Test
    void chdirIsResolvedAgainstDirPwdAndRemembered() {
        SpawnPlan plan = RubyFixture.plan("Dir.chdir('/usr'); ['true', {chdir: 'lib'}]");
        assertEquals("/usr/lib", new String(plan.cwd, StandardCharsets.UTF_8));
        assertEquals("lib", plan.chdirAsGiven.toString());
        SpawnPlan plain = RubyFixture.plan("['true']");
        assertEquals("/usr", new String(plain.cwd, StandardCharsets.UTF_8));
        assertNull(plain.chdirAsGiven);
    }

    @Test
    void attributesAreRecorded() {
        SpawnPlan plan = RubyFixture.plan("['true', {umask: 0o1777, pgroup: true, close_others: false, rlimit_nofile: [10, 20], rlimit_core: 0}]");
        assertEquals(0777, plan.umask); // what umask(2) keeps
        assertEquals(0, plan.pgroup);
        assertFalse(plan.closeOthers);
        assertEquals(2, plan.rlimits.size());
        ResourceLimit nofile = plan.rlimits.get(0);
        assertEquals(RLIMIT.RLIMIT_NOFILE.intValue(), nofile.resource);
        assertEquals(10, nofile.soft);
        assertEquals(20, nofile.hard);
        assertEquals(-1, RubyFixture.plan("['true', {pgroup: nil}]").pgroup);
        assertTrue(RubyFixture.plan("['true']").closeOthers);
    }

    @Test
    void rlimInfinityKeepsAllSixtyFourBits() {
        SpawnPlan plan = RubyFixture.plan("['true', {rlimit_cpu: Process::RLIM_INFINITY}]");
        assertEquals(-1L, plan.rlimits.get(0).soft);
    }

    @Test
    void redirectsKeepTheParentsDescriptorsAndOrder() {
        SpawnPlan plan = RubyFixture.plan("['true', {1 => 2, 2 => 1, 3 => :close, 4 => [:child, 1]}]");
        assertEquals("[1<=2, 2<=1]", plan.redirects.toString());
        assertEquals(List.of(3), plan.closes);
        assertEquals(1, plan.childDups.size());
        assertEquals(4, plan.childDups.get(0).childFd);
        assertEquals(1, plan.childDups.get(0).sourceFd);
    }

    @Test
    void childDupChainsResolveToTheRedirectedFd() {
        SpawnPlan plan = RubyFixture.plan("['true', {1 => 2, 3 => [:child, 1], 4 => [:child, 3]}]");
        assertEquals(1, plan.childDups.get(1).sourceFd); // 4 -> 3 -> 1
    }

    @Test
    void anArrayKeySharesOneOpenedFileWithMrisDefaultModes() {
        SpawnPlan plan = RubyFixture.plan("Dir.chdir('/tmp'); ['true', {[:out, :err] => 'log', in: 'input', 5 => 'five'}]");
        FileToOpen log = plan.redirects.get(0).file;
        assertNotNull(log);
        assertSame(log, plan.redirects.get(1).file);
        assertEquals("/tmp/log", new String(log.path, StandardCharsets.UTF_8));
        assertEquals("log", log.asGiven.toString());
        assertEquals(OpenFlags.O_WRONLY.intValue() | OpenFlags.O_CREAT.intValue() | OpenFlags.O_TRUNC.intValue(), log.flags);
        assertEquals(0644, log.perm);
        assertEquals(OpenFlags.O_RDONLY.intValue(), plan.redirects.get(2).file.flags);
        assertEquals(OpenFlags.O_RDONLY.intValue(), plan.redirects.get(3).file.flags); // fd 5 => path reads, as in MRI
    }

    @Test
    void openModeStringsAndPermissions() {
        FileToOpen append = RubyFixture.plan("['true', {out: ['/tmp/x', 'a', 0o600]}]").redirects.get(0).file;
        assertEquals(OpenFlags.O_WRONLY.intValue() | OpenFlags.O_CREAT.intValue() | OpenFlags.O_APPEND.intValue(), append.flags);
        assertEquals(0600, append.perm);
    }

    @Test
    void withStdioReplacesWhateverTheCallerSaidAboutThoseFds() {
        SpawnPlan plan = RubyFixture.plan("['true', {in: :close, 4 => :close, 1 => '/dev/null', 2 => [:child, 1]}]").withStdio(new int[] {40, 41, 42}, false);
        assertEquals("[0<=40, 1<=41, 2<=42]", plan.redirects.toString());
        assertEquals(List.of(4), plan.closes);
        assertEquals(List.of(), plan.childDups);
        assertEquals(-1, plan.pgroup);
        assertEquals(0, RubyFixture.plan("['true']").withStdio(new int[] {40, 41, 42}, true).pgroup);
        assertEquals(-1, RubyFixture.plan("['true', {setsid: true}]").withStdio(new int[] {40, 41, 42}, true).pgroup);
    }

    @Test
    void badOptionsRaiseMrisErrors() {
        assertEquals("ArgumentError: wrong exec option symbol: foo", raised("['true', {foo: 1}]"));
        assertEquals("ArgumentError: fd 1 specified twice", raised("['true', {out: '/dev/null', 1 => 2}]"));
        assertEquals("ArgumentError: cyclic child fd redirection from 1", raised("['true', {2 => [:child, 1], 1 => [:child, 2]}]"));
        assertEquals("ArgumentError: child fd 5 is not redirected", raised("['true', {2 => [:child, 5]}]"));
        assertEquals("ArgumentError: negative process group ID : -1", raised("['true', {pgroup: -1}]"));
        assertEquals("ArgumentError: environment name contains a equal : A=B", raised("[{'A=B' => '1'}, 'true']"));
        assertEquals("TypeError: no implicit conversion of Integer into String", raised("['true', 1]"));
        assertEquals("ArgumentError: string contains null byte", raised("[\"tr\\0ue\"]"));
    }
}

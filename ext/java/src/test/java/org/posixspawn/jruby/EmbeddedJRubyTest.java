package org.posixspawn.jruby;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Collections;

import org.jruby.embed.LocalContextScope;
import org.jruby.embed.LocalVariableBehavior;
import org.jruby.embed.ScriptingContainer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gem in a JRuby embedded in a Java program (a ScriptingContainer, as application servers and JSR-223
 * hosts run it): started without the jruby launcher's --add-opens (surefire's JVM has none), so JRuby's own
 * IOs have made-up filenos. Runs after the jar is built (pom.xml: the package phase) and requires the gem from
 * lib/ and lib/posix_spawn_jruby.jar, as a user's program does.
 */
class EmbeddedJRubyTest {
    private static final File LIB = new File(new File(System.getProperty("basedir", ".")).getAbsoluteFile().getParentFile().getParentFile(), "lib");
    private static ScriptingContainer ruby;

    @BeforeAll
    static void start() {
        ruby = new ScriptingContainer(LocalContextScope.SINGLETHREAD, LocalVariableBehavior.TRANSIENT);
        ruby.setLoadPaths(Collections.singletonList(LIB.getPath()));
        ruby.runScriptlet("require 'posix/spawn/kernel'; require 'open3'");
    }

    @AfterAll
    static void stop() {
        ruby.terminate();
    }

    private static String eval(String script) {
        return String.valueOf(ruby.runScriptlet(script));
    }

    @Test
    void thisJRubyHasMadeUpFilenosAndTheDropInIsInstalledFromTheBuiltJar() {
        assertTrue(Integer.parseInt(eval("r, w = IO.pipe; n = r.fileno; r.close; w.close; n")) >= 100000,
                "JRuby's IO.pipe should have a made-up fileno here (no --add-opens)");
        assertEquals("true", eval("POSIX::Spawn::Kernel.installed?"));
        assertEquals("[true]", eval("$LOADED_FEATURES.grep(/posix_spawn_jruby\\.jar/).map { |f| File.expand_path(f) == "
                + "File.expand_path('posix_spawn_jruby.jar', '" + LIB.getPath() + "') }.inspect"));
    }

    @Test
    void open3Capture3GivesOutputErrorAndStatus() {
        assertEquals("[\"out\\n\", \"err\\n\", 3]",
                eval("o, e, s = Open3.capture3('sh', '-c', 'echo out; echo err >&2; exit 3'); [o, e, s.exitstatus].inspect"));
    }

    @Test
    void backtickGivesOutputAndSetsStatus() {
        assertEquals("[\"hi\\n\", 4]", eval("[`echo hi; exit 4`, $?.exitstatus].inspect"));
        assertEquals("[\"module\\n\", true]", eval("[POSIX::Spawn.`('echo module'), $?.success?].inspect"));
    }

    @Test
    void ioPopenReadsAndWritesTheChild() {
        assertEquals("[\"dup\", 0]",
                eval("out = IO.popen(['cat'], 'r+') { |io| io.write('dup'); io.close_write; io.read }; [out, $?.exitstatus].inspect"));
        assertEquals("[\"pop\\n\", true]", eval("[IO.popen('echo pop', &:read), $?.success?].inspect"));
    }

    @Test
    void popenIoIsSelectableAndThreadRaiseReachesItsRead() {
        assertEquals("[true, \"woke\"]", eval("io = IO.popen('sleep 30'); ready = IO.select([io], nil, nil, 0.1).nil?; "
                + "t = Thread.new { begin; io.read; rescue => e; e.message; end }; sleep 0.2 until t.status == 'sleep'; "
                + "t.raise(RuntimeError, 'woke'); got = t.value; Process.kill(:KILL, io.pid); io.close; [ready, got].inspect"));
    }

    @Test
    void aPipeOfJRubysOwnIsRefusedAsARedirectNamingTheFlagsToAdd() {
        String message = eval("r, w = IO.pipe; begin; spawn('true', out: w); rescue ArgumentError => e; e.message; ensure r.close; w.close; end");
        assertTrue(message.startsWith("IO #<IO:fd ") && message.contains(" has no operating-system file descriptor")
                && message.contains("--add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED"), message);
    }

    @Test
    void childGivesOutputAndStatus() {
        assertEquals("[\"child\\n\", \"\", 2]",
                eval("c = POSIX::Spawn::Child.new('sh', '-c', 'echo child; exit 2'); [c.out, c.err, c.status.exitstatus].inspect"));
    }
}

package org.posixspawn.jruby;

import org.jruby.Ruby;
import org.jruby.RubyModule;
import org.jruby.runtime.load.BasicLibraryService;

/**
 * Loaded by lib/posix/spawn.rb with JRuby::Util.load_ext: defines POSIX::Spawn::Native and binds the plain
 * spawn's C calls in the background; the reaper and the gem's other threads start with the first call that
 * needs them, and POSIX::Spawn::Handle is defined by {@link HandleLibrary} (spec/loading_spec.rb checks it).
 */
public final class PosixSpawnLibrary implements BasicLibraryService {
    @Override
    public boolean basicLoad(Ruby runtime) {
        RubyModule spawn = runtime.getOrCreateModule("POSIX").defineModuleUnder("Spawn");
        RubyModule functions = spawn.defineModuleUnder("Native").getSingletonClass();
        new NativeMethods.Table().defineAll(functions);
        new CaptureMethods.Table().defineAll(functions);
        new HandleMethods.Table().defineAll(functions);
        new DescriptorMethods.Table().defineAll(functions);
        new PopenMethods.Table().defineAll(functions);
        new PtyMethods.Table().defineAll(functions);
        new DiagnosticsMethods.Table().defineAll(functions);
        bindInBackground();
        return true;
    }

    /**
     * Loads and initialises the plain spawn's classes (some 30, with {@code Native}'s C functions looked up)
     * on a short-lived daemon thread, while the rest of the gem's files load and the program goes on: a first
     * spawn soon after the require then finds them ready (in a fresh JRuby 10, 30 against 41 ms without),
     * or waits only for the rest. What fails here is left for the first spawn to meet and report.
     */
    private static void bindInBackground() {
        Thread thread = new Binder();
        thread.setDaemon(true);
        thread.start();
    }

    /** The binding thread: a class of its own, since a lambda's bootstrap cost the require 1-2 ms in a fresh JVM. */
    private static final class Binder extends Thread {
        Binder() {
            super("posix-spawn-bind");
        }

        @Override
        public void run() {
            try {
                for (String name : PLAIN_SPAWN_CLASSES) Class.forName(name, true, PosixSpawnLibrary.class.getClassLoader());
            } catch (Throwable t) {
                // the first spawn initialises them itself, and raises what this met
            }
        }
    }

    /** The classes a plain spawn initialises, in the order it does (-verbose:class); PosixSpawnLibraryTest loads each. */
    static final String[] PLAIN_SPAWN_CLASSES = {
        "org.posixspawn.jruby.NativeMethods", "org.posixspawn.jruby.os.libc.Native", "org.posixspawn.jruby.os.libc.Constants", "org.posixspawn.jruby.os.libc.Features",
        "org.posixspawn.jruby.Plans", "org.posixspawn.jruby.plan.SpawnArguments", "org.posixspawn.jruby.plan.SpawnArguments$Parsed", "org.posixspawn.jruby.plan.SpawnPlan",
        "org.posixspawn.jruby.plan.SpawnPlan$Builder", "org.posixspawn.jruby.plan.Conversions", "org.posixspawn.jruby.plan.Redirects",
        "org.posixspawn.jruby.plan.ExecOptions", "org.posixspawn.jruby.plan.Environment", "org.posixspawn.jruby.plan.EnvironmentSnapshot",
        "org.posixspawn.jruby.plan.CommandLine", "org.posixspawn.jruby.plan.PathName", "org.posixspawn.jruby.plan.InheritableIOs",
        "org.posixspawn.jruby.plan.FdTable", "org.posixspawn.jruby.os.spawn.Spawner", "org.posixspawn.jruby.os.spawn.SpawnFailure", "org.posixspawn.jruby.os.spawn.RedirectFiles",
        "org.posixspawn.jruby.os.lookup.ProgramLookup", "org.posixspawn.jruby.os.lookup.ProgramCache", "org.posixspawn.jruby.os.spawn.SpawnRoute",
        "org.posixspawn.jruby.os.spawn.Closing", "org.posixspawn.jruby.os.spawn.SpawnAttributes", "org.posixspawn.jruby.os.spawn.FileActions",
        "org.posixspawn.jruby.os.spawn.PlainSetup", "org.posixspawn.jruby.os.spawn.NativeEnvironment", "org.posixspawn.jruby.os.libc.NativeBlock", "org.posixspawn.jruby.os.libc.Trace",
    };
}

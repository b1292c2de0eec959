package org.posixspawn.jruby;

import java.lang.reflect.Method;

import org.jruby.Ruby;
import org.jruby.RubyModule;
import org.jruby.internal.runtime.methods.InvokeDynamicMethodFactory;
import org.jruby.runtime.MethodFactory;
import org.jruby.runtime.load.BasicLibraryService;

/**
 * Loaded by lib/posix/spawn.rb with JRuby::Util.load_ext: defines POSIX::Spawn::Native. Nothing else happens
 * at load: the C library is bound, and the reaper and other threads started, by the first call that needs
 * them, and POSIX::Spawn::Handle by {@link HandleLibrary} (spec/loading_spec.rb checks it).
 */
public final class PosixSpawnLibrary implements BasicLibraryService {
    @Override
    public boolean basicLoad(Ruby runtime) {
        RubyModule spawn = runtime.getOrCreateModule("POSIX").defineModuleUnder("Spawn");
        RubyModule nativeModule = spawn.defineModuleUnder("Native");
        for (Class<?> group : new Class<?>[] { NativeMethods.class, CaptureMethods.class, HandleMethods.class, DescriptorMethods.class,
                                                PopenMethods.class, PtyMethods.class, DiagnosticsMethods.class }) {
            define(nativeModule, group);
        }
        return true;
    }

    /**
     * The annotated methods of {@code type} on {@code target}, each bound by a method handle made on its first
     * call. JRuby's own defineAnnotatedMethods (no populator of ours is on its class loader) generates a class a
     * method with ASM instead: about half of the require's time for the gem's 38.
     */
    static void define(RubyModule target, Class<?> type) {
        MethodFactory factory = new InvokeDynamicMethodFactory(PosixSpawnLibrary.class.getClassLoader());
        for (Method method : type.getDeclaredMethods()) target.defineAnnotatedMethod(method, factory);
    }
}

package org.posixspawn.jruby;

import org.jruby.Ruby;
import org.jruby.RubyModule;
import org.jruby.runtime.load.BasicLibraryService;

/** Loaded by lib/posix/spawn.rb with JRuby::Util.load_ext: defines POSIX::Spawn::Native. */
public final class PosixSpawnLibrary implements BasicLibraryService {
    @Override
    public boolean basicLoad(Ruby runtime) {
        RubyModule spawn = runtime.getOrCreateModule("POSIX").defineModuleUnder("Spawn");
        RubyModule nativeModule = spawn.defineModuleUnder("Native");
        nativeModule.defineAnnotatedMethods(NativeMethods.class);
        nativeModule.defineAnnotatedMethods(ChildMethods.class);
        nativeModule.defineAnnotatedMethods(DescriptorMethods.class);
        nativeModule.defineAnnotatedMethods(PopenMethods.class);
        nativeModule.defineAnnotatedMethods(PtyMethods.class);
        Handle.define(runtime, spawn, nativeModule);
        return true;
    }
}

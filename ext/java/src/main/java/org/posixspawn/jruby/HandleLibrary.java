package org.posixspawn.jruby;

import org.jruby.Ruby;
import org.jruby.RubyModule;
import org.jruby.runtime.load.BasicLibraryService;

/** Loaded by lib/posix/spawn/handle.rb (on first use of Handle or start) with JRuby::Util.load_ext: defines POSIX::Spawn::Handle's core. */
public final class HandleLibrary implements BasicLibraryService {
    @Override
    public boolean basicLoad(Ruby runtime) {
        Handle.define(runtime, (RubyModule) runtime.getModule("POSIX").getConstantAt("Spawn"));
        return true;
    }
}

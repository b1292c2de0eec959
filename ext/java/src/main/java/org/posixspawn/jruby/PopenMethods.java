package org.posixspawn.jruby;

import org.jruby.RubyIO;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.io.OpenFile;
import org.posixspawn.jruby.os.Constants;
import org.posixspawn.jruby.os.Native;
import org.posixspawn.jruby.plan.RealDescriptors;

/** POSIX::Spawn::Native's primitives for the pipes of the drop-in's IO.popen and ` (lib/posix/spawn/kernel/popen.rb). */
public final class PopenMethods {
    private PopenMethods() {}

    /** Pipe capacity asked for on a popen's output pipe: fewer, larger reads (as Child's, os/Capture). */
    private static final int PIPE_SIZE = 1 << 20;

    /**
     * Native.tie_for_writing(reader, writer) -> reader: reader becomes one duplex IO that reads from its
     * own descriptor and writes to writer's, whose close_write closes writer alone and whose close closes
     * both. JRuby's IO has no public way to build one; this is what its own popen does.
     */
    // MRI: pipe_open (io.c), the FMODE_DUPLEX port with tied_io_for_writing = write_port
    @JRubyMethod(module = true)
    public static IRubyObject tie_for_writing(ThreadContext context, IRubyObject self, IRubyObject reader, IRubyObject writer) {
        OpenFile read = toIO(context, reader).getOpenFileChecked();
        OpenFile write = toIO(context, writer).getOpenFileChecked();
        write.setMode(write.getMode() | OpenFile.SYNC);
        read.setMode(read.getMode() | OpenFile.DUPLEX | OpenFile.SYNC);
        read.tiedIOForWriting = (RubyIO) writer;
        return reader;
    }

    /**
     * Native.enlarge_pipe(io) -> io: asks Linux for a 1 MiB pipe behind io (F_SETPIPE_SZ), so a large output
     * arrives in 1 MiB reads instead of 64 KiB ones. Best effort: elsewhere, or when refused, nothing changes.
     */
    @JRubyMethod(module = true)
    public static IRubyObject enlarge_pipe(ThreadContext context, IRubyObject self, IRubyObject io) {
        if (Constants.F_SETPIPE_SZ >= 0) Native.libc.fcntl(RealDescriptors.of(toIO(context, io)), Constants.F_SETPIPE_SZ, PIPE_SIZE);
        return io;
    }

    private static RubyIO toIO(ThreadContext context, IRubyObject io) {
        if (!(io instanceof RubyIO)) throw context.runtime.newTypeError(io, context.runtime.getIO());
        return (RubyIO) io;
    }
}

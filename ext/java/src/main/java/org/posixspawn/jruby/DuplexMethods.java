package org.posixspawn.jruby;

import org.jruby.RubyIO;
import org.jruby.anno.JRubyMethod;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.io.OpenFile;

/** POSIX::Spawn::Native.tie_for_writing: the duplex IO of IO.popen(cmd, "r+") (lib/posix/spawn/kernel/popen.rb). */
public final class DuplexMethods {
    private DuplexMethods() {}

    /**
     * Native.tie_for_writing(reader, writer) -> reader: reader becomes one duplex IO that reads from its
     * own descriptor and writes to writer's, whose close_write closes writer alone and whose close closes
     * both. JRuby's IO has no public way to build one; this is what its own popen does.
     */
    // MRI: pipe_open (io.c), the FMODE_DUPLEX port with tied_io_for_writing = write_port
    @JRubyMethod(module = true)
    public static IRubyObject tie_for_writing(ThreadContext context, IRubyObject self, IRubyObject reader, IRubyObject writer) {
        if (!(reader instanceof RubyIO) || !(writer instanceof RubyIO)) {
            throw context.runtime.newTypeError("tie_for_writing takes two IOs, not " + reader.getMetaClass() + " and " + writer.getMetaClass());
        }
        OpenFile read = ((RubyIO) reader).getOpenFileChecked();
        OpenFile write = ((RubyIO) writer).getOpenFileChecked();
        write.setMode(write.getMode() | OpenFile.SYNC);
        read.setMode(read.getMode() | OpenFile.DUPLEX | OpenFile.SYNC);
        read.tiedIOForWriting = (RubyIO) writer;
        return reader;
    }
}

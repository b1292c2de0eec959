package org.posixspawn.jruby;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.spi.AbstractSelectableChannel;

import jnr.constants.platform.Errno;
import jnr.enxio.channels.NativeSelectableChannel;
import jnr.enxio.channels.NativeSelectorProvider;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyIO;
import org.jruby.runtime.ThreadContext;
import org.jruby.util.io.OpenFile;
import org.posixspawn.jruby.os.libc.Fds;

/**
 * One end of a pipe the gem made, as the channel of a real JRuby IO. JRuby reads the IO's fileno from
 * {@link NativeSelectableChannel}, without reflection, so it is the real descriptor also in a JRuby started
 * without its --add-opens (java -cp, ScriptingContainer), where JRuby's own IO.pipe has made-up filenos.
 * IO.select selects it on jnr-enxio's selector. The descriptor stays blocking (a child may get this very
 * end): readiness is asked of poll(2) first, and a blocking read or write that would wait waits in JRuby's
 * RubyThread#select instead, which Thread#raise, Thread#kill, Timeout and a close in another thread wake,
 * as they wake JRuby's own pipes. So no read or write of a blocking IO waits in the kernel.
 */
abstract class PipeChannel extends AbstractSelectableChannel implements NativeSelectableChannel {
    private final Ruby runtime;
    private final int fd;
    private OpenFile owner; // the IO's, for RubyThread#select's list of threads a close wakes

    private PipeChannel(Ruby runtime, int fd) {
        super(NativeSelectorProvider.getInstance());
        this.runtime = runtime;
        this.fd = fd;
    }

    /** [reader, writer]: a new close-on-exec pipe as two IOs of {@code klass}; the writer is sync, as IO.pipe's. */
    static RubyIO[] open(ThreadContext context, RubyClass klass) {
        int[] ends = Errors.call(context, Fds::pipe);
        RubyIO reader = null;
        try {
            reader = io(klass, new Reader(context.runtime, ends[0]));
            RubyIO writer = io(klass, new Writer(context.runtime, ends[1]));
            writer.getOpenFile().setSync(true);
            return new RubyIO[] { reader, writer };
        } catch (RuntimeException | Error e) {
            if (reader == null) Fds.close(ends[0]); else reader.close();
            Fds.close(ends[1]);
            throw e;
        }
    }

    private static RubyIO io(RubyClass klass, PipeChannel channel) {
        RubyIO io = new RubyIO(klass.getRuntime(), klass, channel);
        channel.owner = io.getOpenFile();
        return io;
    }

    @Override
    public final int getFD() {
        return fd;
    }

    /**
     * Waits until poll(2) finds the descriptor ready for {@code op} (OP_READ, OP_WRITE); false at once when the IO is
     * non-blocking (read_nonblock, write_nonblock: JRuby then waits itself if it must). The IO's mode, not the
     * channel's: JRuby's IO.select leaves a channel it selected non-blocking.
     */
    final boolean await(int op) throws IOException {
        while (!(op == SelectionKey.OP_READ ? Fds.readable(fd) : Fds.writable(fd))) {
            if (!owner.isBlocking()) return false;
            if (!isOpen()) throw new ClosedChannelException();
            runtime.getCurrentContext().getThread().select(this, owner, op); // a pending raise or kill fires in here
        }
        return true;
    }

    /** The IOException JRuby turns into the Errno of {@code errno} (it goes by the message: "Broken pipe"...). */
    static IOException failure(int errno) {
        return new IOException(Errno.valueOf(errno).description());
    }

    @Override
    protected void implCloseSelectableChannel() {
        Fds.close(fd);
    }

    @Override
    protected void implConfigureBlocking(boolean block) {
        // JRuby's own choice, kept by AbstractSelectableChannel: the descriptor itself stays blocking
    }

    static final class Reader extends PipeChannel implements ReadableByteChannel {
        Reader(Ruby runtime, int fd) {
            super(runtime, fd);
        }

        @Override
        public int validOps() {
            return SelectionKey.OP_READ;
        }

        /** The bytes read, -1 at end of file, 0 when non-blocking and nothing is there. */
        @Override
        public int read(ByteBuffer into) throws IOException {
            if (!into.hasRemaining()) return 0;
            if (!await(SelectionKey.OP_READ)) return 0;
            long n = Fds.read(getFD(), into);
            if (n < 0) {
                if (Fds.wouldBlock(n)) return 0; // another reader took it
                throw failure((int) -n);
            }
            return n == 0 ? -1 : (int) n;
        }
    }

    static final class Writer extends PipeChannel implements WritableByteChannel {
        Writer(Ruby runtime, int fd) {
            super(runtime, fd);
        }

        @Override
        public int validOps() {
            return SelectionKey.OP_WRITE;
        }

        /**
         * What the pipe takes now, 0 when it is full. Never waits: JRuby's write loop waits for the rest in
         * RubyThread#select (an exception raised in here would reach Ruby as an unnamed SystemCallError).
         */
        @Override
        public int write(ByteBuffer from) throws IOException {
            int start = from.position();
            while (from.hasRemaining() && Fds.writable(getFD())) {
                long n = Fds.write(getFD(), from, Fds.PIPE_ATOMIC);
                if (n < 0 && !Fds.wouldBlock(n)) {
                    if (from.position() > start) break; // report what went; the next write gets the error
                    throw failure((int) -n);
                }
            }
            return from.position() - start;
        }
    }
}

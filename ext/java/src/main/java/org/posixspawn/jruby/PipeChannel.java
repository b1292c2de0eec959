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
import org.jruby.exceptions.RaiseException;
import org.jruby.runtime.ThreadContext;
import org.jruby.util.io.ChannelFD;
import org.jruby.util.io.OpenFile;
import org.posixspawn.jruby.os.libc.Fds;

/**
 * One end of a pipe the gem made, as the channel of a real JRuby IO. JRuby reads the IO's fileno from
 * {@link NativeSelectableChannel}, without reflection, so it is the real descriptor also in a JRuby started
 * without its --add-opens (java -cp, ScriptingContainer), where JRuby's own IO.pipe has made-up filenos.
 * IO.select selects it on jnr-enxio's selector. The descriptor is O_NONBLOCK, as MRI 3's pipe ends: a read
 * or write is the one call, and one that would wait (EAGAIN) waits in JRuby's RubyThread#select, which
 * Thread#raise, Thread#kill, Timeout and a close in another thread wake, as they wake JRuby's own pipes.
 * An end a spawn gave to a child's stdio is blocking from then on (MRI's rule, os/libc/NonBlockingEnds):
 * readiness is then asked of poll(2) first, so that no read or write of it waits in the kernel either.
 */
abstract class PipeChannel extends AbstractSelectableChannel implements NativeSelectableChannel {
    private final Ruby runtime;
    private final int fd;
    private OpenFile owner; // the IO's, for RubyThread#select's list of threads a close wakes
    private volatile boolean nonBlocking = true; // the open file's O_NONBLOCK, until a spawn clears it for a child's stdio

    private PipeChannel(Ruby runtime, int fd) {
        super(NativeSelectorProvider.getInstance());
        this.runtime = runtime;
        this.fd = fd;
        Fds.watchNonBlocking(fd, () -> nonBlocking = false);
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
            if (reader == null) {
                Fds.unwatch(ends[0]);
                Fds.close(ends[0]);
            } else {
                reader.close();
            }
            Fds.unwatch(ends[1]);
            Fds.close(ends[1]);
            throw e;
        }
    }

    /**
     * After JRuby's IO#initialize_copy of an IO over one of these channels: the copy's descriptor (JRuby's dup
     * of the original's) gets the same kind of channel, where JRuby's own would take the shared open file's
     * EAGAIN for an end of file. Whether it did.
     */
    static boolean adoptCopy(RubyIO copy, RubyIO orig) {
        OpenFile file = copy.getOpenFile();
        ChannelFD from = orig.getOpenFile() == null ? null : orig.getOpenFile().fd(), to = file == null ? null : file.fd();
        if (from == null || to == null || !(from.ch instanceof PipeChannel) || to.ch instanceof PipeChannel || to.realFileno < 0) return false;
        PipeChannel source = (PipeChannel) from.ch;
        PipeChannel channel = source instanceof Reader ? new Reader(source.runtime, to.realFileno) : new Writer(source.runtime, to.realFileno);
        channel.nonBlocking = source.nonBlocking;
        channel.owner = file;
        file.setFD(new ChannelFD(channel, source.runtime.getPosix(), source.runtime.getFilenoUtil()));
        return true;
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

    /** Whether the open file is still O_NONBLOCK: no spawn has given it to a child's stdio. */
    final boolean nonBlocking() {
        return nonBlocking;
    }

    /** MRI's Errno::X for {@code errno}, message and all, raised from inside JRuby's read as it is. */
    final RaiseException errno(int errno) {
        return Errors.errno(runtime.getCurrentContext(), errno);
    }

    /** The IOException JRuby turns into the Errno of {@code errno} (it goes by the message: "Broken pipe"...). */
    static IOException failure(int errno) {
        return new IOException(Errno.valueOf(errno).description());
    }

    @Override
    protected void implCloseSelectableChannel() {
        Fds.unwatch(fd);
        Fds.close(fd);
    }

    @Override
    protected void implConfigureBlocking(boolean block) {
        // JRuby's own choice, kept by AbstractSelectableChannel: the descriptor's O_NONBLOCK is MRI's (NonBlockingEnds)
    }

    static final class Reader extends PipeChannel implements ReadableByteChannel {
        Reader(Ruby runtime, int fd) {
            super(runtime, fd);
        }

        @Override
        public int validOps() {
            return SelectionKey.OP_READ;
        }

        /**
         * The bytes read, -1 at end of file, 0 when non-blocking and nothing is there. A failure is MRI's
         * Errno with its message (JRuby's, from an IOException, would add its own text or an EOFError).
         */
        @Override
        public int read(ByteBuffer into) throws IOException {
            if (!into.hasRemaining()) return 0;
            if (!nonBlocking() && !await(SelectionKey.OP_READ)) return 0;
            while (true) {
                long n = Fds.read(getFD(), into);
                if (n > 0) return (int) n;
                if (n == 0) return -1;
                if (!Fds.wouldBlock(n)) throw errno((int) -n);
                if (!await(SelectionKey.OP_READ)) return 0; // EAGAIN, or another reader took it
            }
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
            if (nonBlocking()) {
                long n = Fds.write(getFD(), from, from.remaining()); // as much as fits
                if (n >= 0 || Fds.wouldBlock(n)) return (int) Math.max(n, 0);
                throw failure((int) -n);
            }
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

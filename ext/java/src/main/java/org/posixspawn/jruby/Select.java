package org.posixspawn.jruby;

import jnr.enxio.channels.NativeSelectableChannel;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyFixnum;
import org.jruby.RubyFloat;
import org.jruby.RubyIO;
import org.jruby.RubyString;
import org.jruby.ext.socket.RubyBasicSocket;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.io.ChannelFD;
import org.jruby.util.io.OpenFile;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.libc.Trace;

/**
 * IO.select on one poll(2) (lib/posix/spawn/kernel/select.rb), for IOs whose channel is only a descriptor:
 * jnr-enxio's (the gem's pipes, its terminals' masters, IO.new(fd), files, stdio). JRuby's own select puts
 * each call through jnr-enxio's or the JDK's selector, several times what MRI spends on an exchange with a
 * child. Anything else is JRuby's select's to answer, and {@link #call} says so with false: an argument it
 * would convert or reject, an error set with an IO not also in the read set, nothing to wait on, or an IO that
 * is closed (its IOError), a socket or a JDK channel (IO.pipe: state of their own around the descriptor), or
 * with data in JRuby's read buffer (ready at once, as in MRI, which JRuby's select knows). Traced
 * ({@code Trace.Concern.SELECT}).
 */
final class Select {
    private Select() {}

    /** Which select answered this thread's last IO.select. */
    enum Answer { POLL, JRUBY }

    /** The deadline for no timeout; NONE for a timeout only JRuby's select takes (a Rational) or rejects. */
    private static final long FOREVER = Long.MAX_VALUE, NONE = Long.MIN_VALUE;

    /** The String a PtyMaster reads ahead into (lib/posix/spawn/pty_master.rb): JRuby's buffer is not used there. */
    private static final String PTY_BUFFER = "@pty_buffer";

    /** Native.io_select(reads, writes, errors, timeout) -> what IO.select returns, or false for JRuby's to answer. */
    static IRubyObject call(ThreadContext context, IRubyObject reads, IRubyObject writes, IRubyObject errors, IRubyObject timeout) {
        long deadline = deadline(timeout);
        RubyArray<?> r = set(reads), w = set(writes), e = set(errors);
        int n = r == null || w == null ? 0 : r.size() + w.size();
        if (deadline == NONE || e == null || n == 0) return fallBack(context);
        int[] fds = new int[n];
        boolean[] write = new boolean[n], ahead = new boolean[n];
        short[] events = new short[n], revents = new short[n];
        RubyIO[] ios = new RubyIO[n];
        OpenFile[] files = new OpenFile[n];
        boolean pending = false;
        for (int i = 0; i < n; i++) {
            write[i] = i >= r.size();
            IRubyObject item = write[i] ? w.eltInternal(i - r.size()) : r.eltInternal(i);
            if (!(item instanceof RubyIO)) return fallBack(context);
            ios[i] = (RubyIO) item;
            RubyIO polled = write[i] ? ios[i].GetWriteIO() : ios[i];
            files[i] = polled.getOpenFile();
            fds[i] = pollable(polled, files[i], write[i]);
            if (fds[i] < 0) return fallBack(context);
            events[i] = write[i] ? Fds.POLL_WRITE : Fds.POLL_READ;
            ahead[i] = !write[i] && readAhead(polled);
            pending |= ahead[i];
        }
        int[] exceptional = exceptional(e, r.size(), fds, events);
        if (exceptional == null) return fallBack(context);
        // as MRI's select: what is read ahead is ready, and then the others are only asked, not waited for;
        // otherwise the waiting poll alone, which answers at once for what is ready
        int got = pending || deadline == 0 ? Fds.poll(fds, events, revents, 0)
                : Interrupts.awaitAny(context, fds, events, revents, deadline, () -> anyClosed(files));
        Trace.record(Trace.Concern.SELECT, Answer.POLL); // the poll answered, also with the errors below
        if (anyClosed(files)) throw context.runtime.newIOError("closed stream"); // closed by another thread meanwhile, as MRI
        if (Fds.badDescriptor(got)) throw Errors.errno(context, -got); // a descriptor closed beneath its IO, as MRI's select(2)
        if (got < 0) return fallBack(context); // any other failure: JRuby's error
        Ruby runtime = context.runtime;
        RubyArray<?> readable = RubyArray.newArray(runtime), writable = RubyArray.newArray(runtime), raised = RubyArray.newArray(runtime);
        for (int i = 0; i < n; i++) {
            // select(2)'s sets from poll's revents: a read is ready on anything but POLLPRI alone (a hang-up or
            // error: the read tells), a write on anything, an error set's IO on POLLPRI only
            if (write[i] ? revents[i] != 0 : ahead[i] || (revents[i] & ~Fds.POLL_PRIORITY) != 0) (write[i] ? writable : readable).append(ios[i]);
        }
        for (int k = 0; k < exceptional.length; k++) if ((revents[exceptional[k]] & Fds.POLL_PRIORITY) != 0) raised.append(e.eltInternal(k));
        if (readable.isEmpty() && writable.isEmpty() && raised.isEmpty()) return context.nil;
        return RubyArray.newArray(runtime, readable, writable, raised);
    }

    /**
     * For each IO of the error set, the entry of the read set on its descriptor, which then also asks for POLLPRI
     * (what select(2)'s exceptfds report); null when one is not also read (JRuby's select answers: poll reports a
     * hang-up to an entry that asked only for POLLPRI, which select(2) would ignore and go on waiting).
     */
    private static int[] exceptional(RubyArray<?> e, int reads, int[] fds, short[] events) {
        int[] entries = new int[e.size()];
        for (int k = 0; k < entries.length; k++) {
            IRubyObject item = e.eltInternal(k);
            if (!(item instanceof RubyIO)) return null;
            OpenFile file = ((RubyIO) item).getOpenFile();
            int fd = file == null || !file.isOpen() || file.fd() == null || !(file.fd().ch instanceof NativeSelectableChannel)
                    ? -1 : ((NativeSelectableChannel) file.fd().ch).getFD();
            entries[k] = -1;
            for (int i = 0; i < reads && entries[k] < 0; i++) if (fds[i] == fd) entries[k] = i;
            if (entries[k] < 0) return null;
            events[entries[k]] |= Fds.POLL_PRIORITY;
        }
        return entries;
    }

    private static IRubyObject fallBack(ThreadContext context) {
        Trace.record(Trace.Concern.SELECT, Answer.JRUBY);
        return context.fals;
    }

    /** System.nanoTime() at which timeout (nil, or a non-negative Integer or Float of seconds) passes; 0 for no wait. */
    private static long deadline(IRubyObject timeout) {
        if (timeout.isNil()) return FOREVER;
        double seconds;
        if (timeout instanceof RubyFixnum) seconds = ((RubyFixnum) timeout).getLongValue();
        else if (timeout instanceof RubyFloat) seconds = ((RubyFloat) timeout).getDoubleValue();
        else return NONE;
        if (!(seconds >= 0) || seconds > 1e9) return NONE; // negative and NaN raise there; a huge one is JRuby's to read
        if (seconds == 0) return 0;
        long at = System.nanoTime() + (long) (seconds * 1e9);
        return at == 0 || at == FOREVER || at == NONE ? at + 1 : at;
    }

    /** An Array of IOs to poll, an empty one for nil; null for anything else (JRuby's select converts or rejects it). */
    private static RubyArray<?> set(IRubyObject ios) {
        if (ios.isNil()) return RubyArray.newEmptyArray(ios.getRuntime());
        return ios instanceof RubyArray ? (RubyArray<?>) ios : null;
    }

    /** The real descriptor poll(2) can answer for alone, or -1. */
    private static int pollable(RubyIO io, OpenFile file, boolean forWrite) {
        if (io instanceof RubyBasicSocket) return -1; // UNIXSocket's channel is jnr's too, with a socket's state around it
        if (file == null || !file.isOpen()) return -1;
        if (!forWrite && (file.READ_DATA_PENDING() || file.READ_CHAR_PENDING())) return -1;
        ChannelFD fd = file.fd();
        return fd != null && fd.ch instanceof NativeSelectableChannel ? ((NativeSelectableChannel) fd.ch).getFD() : -1;
    }

    /** Whether io is a PtyMaster holding bytes it read ahead (a gets' rest), which MRI's select counts as ready. */
    private static boolean readAhead(RubyIO io) {
        Object buffer = io.getInstanceVariables().getInstanceVariable(PTY_BUFFER);
        return buffer instanceof RubyString && ((RubyString) buffer).size() > 0;
    }

    private static boolean anyClosed(OpenFile[] files) {
        for (OpenFile file : files) if (!file.isOpen()) return true;
        return false;
    }
}

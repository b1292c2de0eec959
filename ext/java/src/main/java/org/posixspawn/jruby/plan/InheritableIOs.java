package org.posixspawn.jruby.plan;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.jruby.RubyIO;
import org.jruby.util.io.ChannelFD;
import org.jruby.util.io.OpenFile;

/**
 * The Ruby IOs whose {@code close_on_exec} the program set to false: what a child inherits by default.
 *
 * <p>In MRI every descriptor is close-on-exec from birth, so its default (close_others: false) hands a child
 * exactly what the program marked inheritable. The JVM's own descriptors (jars, selectors, sockets) are not
 * close-on-exec, so the kernel cannot tell them apart; the program's choice is recorded here instead, by the
 * IO#close_on_exec= of lib/posix/spawn/io.rb. Keyed by real descriptor, holding the IO weakly: an IO that was
 * closed or collected drops out, so a number the JVM reuses afterwards is not handed on.
 */
public final class InheritableIOs {
    private static final Map<Integer, WeakReference<RubyIO>> MARKED = new ConcurrentHashMap<>();

    private InheritableIOs() {}

    /** Records that the program set io's close_on_exec to {@code !inheritable} (both descriptors of a duplex IO). */
    public static void mark(RubyIO io, boolean inheritable) {
        RubyIO writer = io.GetWriteIO();
        for (RubyIO each : writer == io ? new RubyIO[] { io } : new RubyIO[] { io, writer }) {
            int fd = realFd(each);
            if (fd < 0) continue;
            if (inheritable) MARKED.put(fd, new WeakReference<>(each));
            else MARKED.remove(fd);
        }
    }

    /** The real descriptors of the marked IOs still open now. */
    public static Set<Integer> descriptors() {
        Set<Integer> fds = new TreeSet<>();
        for (Map.Entry<Integer, WeakReference<RubyIO>> e : MARKED.entrySet()) {
            RubyIO io = e.getValue().get();
            if (io != null && realFd(io) == e.getKey()) fds.add(e.getKey());
            else MARKED.remove(e.getKey(), e.getValue());
        }
        return fds;
    }

    /** io's real descriptor, or -1 when it is closed or JRuby has none. */
    private static int realFd(RubyIO io) {
        OpenFile file = io.getOpenFile();
        ChannelFD fd = file == null ? null : file.fd();
        return fd == null || io.isClosed() ? -1 : fd.realFileno;
    }
}

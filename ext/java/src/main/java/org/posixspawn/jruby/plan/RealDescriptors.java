package org.posixspawn.jruby.plan;

import org.jruby.RubyIO;
import org.jruby.util.io.ChannelFD;

/**
 * The operating system's descriptor behind a Ruby IO. JRuby hands out made-up filenos for channels whose
 * real descriptor it cannot see; redirecting one of those would silently connect the child to whatever
 * the real descriptor of that number is, so it is an error instead. JRuby sees the descriptor of its own
 * pipes, sockets and files (the JDK's sun.nio.ch channels) only through reflection, which a JVM started
 * without the jruby launcher's --add-opens (java -cp, an embedding) refuses: the error then says what to add.
 */
public final class RealDescriptors {
    private RealDescriptors() {}

    /** The real descriptor of {@code io}; IOError when closed, ArgumentError when JRuby has none. */
    public static int of(RubyIO io) {
        ChannelFD fd = io.getOpenFileChecked().fd();
        if (fd == null || fd.realFileno < 0) {
            throw io.getRuntime().newArgumentError(
                    "IO " + io.inspect() + " has no operating-system file descriptor (fileno " + io.getOpenFileChecked().getFileno()
                    + " is JRuby's own number), so it cannot be redirected" + (fd != null && isJdkChannel(fd) ? ADD_OPENS : ""));
        }
        return fd.realFileno;
    }

    static final String ADD_OPENS = "; JRuby sees its descriptor when the JVM is started with "
            + "--add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED "
            + "(the jruby launcher and java -jar jruby-complete.jar add them)";

    /** A channel of the JDK's own (IO.pipe, a socket, a file) rather than one over a Java stream, which never has a descriptor. */
    private static boolean isJdkChannel(ChannelFD fd) {
        return fd.ch.getClass().getName().startsWith("sun.nio.ch.");
    }
}

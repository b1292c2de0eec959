package org.posixspawn.jruby.plan;

import org.jruby.RubyIO;
import org.jruby.util.io.ChannelFD;

/**
 * The operating system's descriptor behind a Ruby IO. JRuby hands out made-up filenos for channels whose
 * real descriptor it cannot see; redirecting one of those would silently connect the child to whatever
 * the real descriptor of that number is, so it is an error instead.
 */
public final class RealDescriptors {
    private RealDescriptors() {}

    /** The real descriptor of {@code io}; IOError when closed, ArgumentError when JRuby has none. */
    public static int of(RubyIO io) {
        ChannelFD fd = io.getOpenFileChecked().fd();
        if (fd == null || fd.realFileno < 0) {
            throw io.getRuntime().newArgumentError(
                    "IO " + io.inspect() + " has no operating-system file descriptor (fileno " + io.getOpenFileChecked().getFileno()
                    + " is JRuby's own number), so it cannot be redirected");
        }
        return fd.realFileno;
    }
}

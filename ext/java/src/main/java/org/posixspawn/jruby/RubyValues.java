package org.posixspawn.jruby;

import java.nio.ByteBuffer;

import org.jcodings.Encoding;
import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyHash;
import org.jruby.RubyIO;
import org.jruby.RubyNumeric;
import org.jruby.RubyString;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.posixspawn.jruby.plan.PathName;

/** The Ruby values the bridge's methods take and give, converted one way everywhere. */
final class RubyValues {
    /** No deadline: far beyond any run, and far below overflow when added to System.nanoTime(). */
    static final long NO_DEADLINE = Long.MAX_VALUE;

    private RubyValues() {}

    /** An ASCII-8BIT String that takes over the array (no copy). */
    static RubyString binaryString(Ruby runtime, byte[] bytes) {
        return RubyString.newStringNoCopy(runtime, new ByteList(bytes, ASCIIEncoding.INSTANCE, false));
    }

    /** A path or program name as the caller's String held it: its bytes in its encoding (ASCII-8BIT when Ruby has no such encoding). */
    static RubyString string(Ruby runtime, PathName name) {
        Encoding encoding = runtime.getEncodingService().getEncodingFromString(name.encoding);
        return RubyString.newString(runtime, new ByteList(name.bytes, encoding != null ? encoding : ASCIIEncoding.INSTANCE, true));
    }

    /** The String's bytes where they are, not copied (as with IO#write, another thread changing it meanwhile races the run). */
    static ByteBuffer bytesOf(RubyString string) {
        ByteList bytes = string.getByteList();
        return ByteBuffer.wrap(bytes.unsafeBytes(), bytes.begin(), bytes.realSize());
    }

    /** {@code io} as an IO, or TypeError naming its class. */
    static RubyIO toIO(ThreadContext context, IRubyObject io) {
        if (!(io instanceof RubyIO)) throw context.runtime.newTypeError(io, context.runtime.getIO());
        return (RubyIO) io;
    }

    /** Seconds (a Numeric, negative is 0) as nanoseconds, capped far below overflow. */
    static long nanos(ThreadContext context, IRubyObject seconds) {
        return (long) Math.min(Math.max(0, RubyNumeric.num2dbl(context, seconds)) * 1e9, Long.MAX_VALUE / 4);
    }

    /** The System.nanoTime() {@code seconds} from {@code now}, or {@link #NO_DEADLINE} for nil. */
    static long deadline(ThreadContext context, long now, IRubyObject seconds) {
        return seconds.isNil() ? NO_DEADLINE : now + nanos(context, seconds);
    }

    /** options[name] of a Hash with Symbol keys, nil when absent. */
    static IRubyObject option(ThreadContext context, RubyHash options, String name) {
        IRubyObject value = options.fastARef(context.runtime.newSymbol(name));
        return value == null ? context.nil : value;
    }
}

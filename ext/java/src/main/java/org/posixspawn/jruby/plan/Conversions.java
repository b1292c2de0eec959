package org.posixspawn.jruby.plan;

import java.io.File;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.jruby.Ruby;
import org.jruby.RubyBignum;
import org.jruby.RubyFixnum;
import org.jruby.RubyIO;
import org.jruby.RubyInteger;
import org.jruby.RubyNumeric;
import org.jruby.RubyString;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;
import org.jruby.util.JRubyFile;
import org.jruby.util.TypeConverter;

/** MRI's conversion macros for spawn arguments, each raising what MRI raises; and Ruby Strings to the plan's bytes. */
final class Conversions {
    private Conversions() {}

    /** MRI: StringValueCStr: a String (TypeError otherwise) with no NUL byte (ArgumentError). */
    static RubyString cString(Ruby runtime, IRubyObject v) {
        RubyString s = v.convertToString();
        if (s.getByteList().indexOf(0) >= 0) throw runtime.newArgumentError("string contains null byte");
        return s;
    }

    /**
     * MRI: FilePathValue (rb_get_path_check_convert): a String or to_path (TypeError otherwise), in an
     * ASCII-compatible encoding (Encoding::CompatibilityError), with no NUL byte (ArgumentError). Not
     * RubyFile.get_path, whose NUL check has the message of a plain String's.
     */
    static RubyString filePath(ThreadContext context, IRubyObject v) {
        IRubyObject named = !(v instanceof RubyString) && v.respondsTo("to_path") ? v.callMethod(context, "to_path") : v;
        RubyString path = named.convertToString();
        if (!path.getEncoding().isAsciiCompatible()) {
            throw context.runtime.newEncodingCompatibilityError(
                    "path name must be ASCII-compatible (" + path.getEncoding() + "): " + path.inspect());
        }
        if (path.getByteList().indexOf(0) >= 0) throw context.runtime.newArgumentError("path name contains null byte");
        return path;
    }

    /** MRI: rb_io_check_io: the IO itself, its to_io, or nil (also when to_io gives nil). */
    static IRubyObject checkIO(ThreadContext context, IRubyObject v) {
        if (v instanceof RubyIO) return v;
        if (!v.respondsTo("to_io")) return context.nil;
        IRubyObject io = v.callMethod(context, "to_io");
        if (io.isNil() || io instanceof RubyIO) return io;
        // MRI: convert_type_err's wording (rb_check_convert_type_with_id)
        String type = v.getMetaClass().getRealClass().getName();
        throw context.runtime.newTypeError("can't convert " + type + " to IO (" + type + "#to_io gives " + io.getMetaClass().getRealClass().getName() + ")");
    }

    /** MRI: FIXNUM_P on 64 bits: an Integer from -2**62 to 2**62-1; a larger one is a Bignum there (JRuby's Fixnum is a long). */
    static boolean isFixnum(IRubyObject v) {
        if (!(v instanceof RubyFixnum)) return false;
        long n = ((RubyFixnum) v).getLongValue();
        return n >= -(1L << 62) && n < (1L << 62);
    }

    /** MRI: NUM2LONG: an Integer, a Float (truncated) or something with to_int; nil has its own message. */
    static long toLong(IRubyObject v) {
        return RubyNumeric.num2long(v);
    }

    /** MRI: NUM2INT (rb_num2int): NUM2LONG, then the range of a C int, as pid_t, fds and open flags are. */
    static int toInt(Ruby runtime, IRubyObject v) {
        return toInt(runtime, toLong(v));
    }

    /** MRI: rb_num2int's range check (FIX2INT's too): {@code n} as a C int, or RangeError. */
    static int toInt(Ruby runtime, long n) {
        if (n > Integer.MAX_VALUE) throw runtime.newRangeError("integer " + n + " too big to convert to " + quoted(runtime, "int"));
        if (n < Integer.MIN_VALUE) throw runtime.newRangeError("integer " + n + " too small to convert to " + quoted(runtime, "int"));
        return (int) n;
    }

    /**
     * MRI: NUM2UINT (rb_num2uint), as mode_t is (NUM2MODET: :umask, a redirect's permission): NUM2ULONG, then
     * the range of a C unsigned int, where a negative value down to INT_MIN wraps as in C.
     */
    static int toUInt(Ruby runtime, IRubyObject v) {
        long n = v instanceof RubyBignum ? unsignedLong(runtime, (RubyBignum) v) : toLong(v);
        boolean negative = !(v instanceof RubyBignum) && n < 0; // a negative Bignum is below a long: unsignedLong raised
        if (negative && n < Integer.MIN_VALUE) {
            throw runtime.newRangeError("integer " + n + " too small to convert to " + quoted(runtime, "unsigned int"));
        }
        if (!negative && Long.compareUnsigned(n, 0xffffffffL) > 0) {
            throw runtime.newRangeError("integer " + Long.toUnsignedString(n) + " too big to convert to " + quoted(runtime, "unsigned int"));
        }
        return (int) n;
    }

    /** MRI: NUM2RLIM (NUM2ULONG: rlim_t is an unsigned long): an Integer up to 2**64-1 (RLIM_INFINITY), kept as unsigned bits. */
    static long toRlim(Ruby runtime, IRubyObject v) {
        RubyInteger i = v instanceof RubyInteger ? (RubyInteger) v : (RubyInteger) TypeConverter.convertToType(v, runtime.getInteger(), "to_int");
        return i instanceof RubyBignum ? unsignedLong(runtime, (RubyBignum) i) : i.getLongValue();
    }

    /** MRI: rb_big2ulong: a Bignum that fits 64 bits, and if negative a C long, as the bits of an unsigned long. */
    private static long unsignedLong(Ruby runtime, RubyBignum v) {
        BigInteger big = v.getValue();
        if (big.abs().bitLength() > 64) throw runtime.newRangeError("bignum too big to convert into " + quoted(runtime, "unsigned long"));
        if (big.signum() < 0 && big.bitLength() > 63) throw runtime.newRangeError("bignum out of range of unsigned long");
        return big.longValue();
    }

    /** A C type as MRI's conversion messages quote it: `int' up to Ruby 3.3, 'int' from 3.4 (JRuby 10). */
    private static String quoted(Ruby runtime, String type) {
        // RUBY_VERSION as this JRuby reports it (the Java constant would be the one compiled against)
        boolean like34 = runtime.getObject().getConstant("RUBY_VERSION").toString().compareTo("3.4") >= 0;
        return (like34 ? "'" : "`") + type + "'";
    }

    /** MRI: TO_BOOL: true, false or nil, or "expected true or false as NAME: VALUE". */
    static boolean toBoolean(Ruby runtime, IRubyObject v, String name) {
        if (v == runtime.getTrue()) return true;
        if (v == runtime.getFalse() || v.isNil()) return false;
        throw runtime.newArgumentError("expected true or false as " + name + ": " + v.inspect());
    }

    /** A String's bytes, copied. */
    static byte[] bytes(RubyString s) {
        return bytes(s.getByteList());
    }

    static byte[] bytes(ByteList b) {
        return Arrays.copyOfRange(b.unsafeBytes(), b.begin(), b.begin() + b.realSize());
    }

    /** A String as a path name: its bytes and its encoding's name. */
    static PathName pathName(RubyString s) {
        return new PathName(bytes(s), s.getEncoding().toString());
    }

    /**
     * The directory relative paths are taken from and a child starts in without :chdir: JRuby's Dir.pwd
     * (which JRuby never applies to the process), as the bytes of its UTF-8 String; but when Dir.pwd is a
     * directory only JRuby knows (in the class loader, uri:classloader:/..., or inside a jar, app.jar!/dir,
     * as in warbler apps), the process's directory, where JRuby's own Process.spawn runs such children.
     */
    static byte[] pwd(Ruby runtime) {
        String pwd = runtime.getCurrentDirectory();
        if (isVirtual(runtime, pwd)) pwd = new File("").getAbsolutePath(); // user.dir: the JVM never changes its directory
        return pwd.getBytes(StandardCharsets.UTF_8);
    }

    /** JRuby's virtual paths all name a scheme (uri:, classpath:, file:) or a jar (!); a plain path is asked nothing more. */
    private static boolean isVirtual(Ruby runtime, String path) {
        if (path.indexOf(':') < 0 && path.indexOf('!') < 0) return false;
        return !JRubyFile.isResourceRegularFile(JRubyFile.createResource(runtime, path));
    }
}

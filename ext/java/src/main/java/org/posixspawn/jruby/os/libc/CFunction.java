package org.posixspawn.jruby.os.libc;

import com.kenai.jffi.CallContext;
import com.kenai.jffi.CallingConvention;
import com.kenai.jffi.Invoker;
import com.kenai.jffi.Library;
import com.kenai.jffi.Type;
import jnr.ffi.Pointer;

/**
 * One C function called through jffi (the layer under jnr-ffi, inside JRuby): its symbol's address and its
 * call's types, arguments and result passed as longs. Binding one costs a symbol lookup, where jnr-ffi's
 * LibraryLoader generates and loads a class of stubs for a whole interface (10-25 ms in a fresh JVM).
 */
final class CFunction {
    private static final Invoker INVOKER = Invoker.getInstance();

    final String name;
    /** For a variadic function, the count of its fixed parameters (the others go as C's varargs); -1 if none. */
    final int fixedCount;
    private final long address;
    private final CallContext context;

    private CFunction(String name, int fixedCount, boolean saveErrno, Type result, Type... parameters) {
        this.name = name;
        this.fixedCount = fixedCount;
        this.address = Library.getDefault().getSymbolAddress(name);
        this.context = fixedCount < 0
                ? CallContext.getCallContext(result, parameters, CallingConvention.DEFAULT, saveErrno)
                : CallContext.getCallContext(result, fixedCount, parameters, CallingConvention.DEFAULT, saveErrno);
    }

    /** A function that reports by its result (posix_spawn and friends): errno is not kept. */
    static CFunction of(String name, Type result, Type... parameters) {
        return new CFunction(name, -1, false, result, parameters);
    }

    /** A function that reports through errno, kept for {@link Native#errno}. */
    static CFunction withErrno(String name, Type result, Type... parameters) {
        return new CFunction(name, -1, true, result, parameters);
    }

    /** A variadic one that reports through errno: on macOS arm64 its varargs go on the stack (jruby/jruby#6983). */
    static CFunction variadicWithErrno(String name, int fixedCount, Type result, Type... parameters) {
        return new CFunction(name, fixedCount, true, result, parameters);
    }

    long call(long a) {
        return INVOKER.invokeN1(context, address(), a);
    }

    long call(long a, long b) {
        return INVOKER.invokeN2(context, address(), a, b);
    }

    long call(long a, long b, long c) {
        return INVOKER.invokeN3(context, address(), a, b, c);
    }

    long call(long a, long b, long c, long d, long e) {
        return INVOKER.invokeN5(context, address(), a, b, c, d, e);
    }

    long call(long a, long b, long c, long d, long e, long f) {
        return INVOKER.invokeN6(context, address(), a, b, c, d, e, f);
    }

    static long address(Pointer p) {
        return p == null ? 0L : p.address();
    }

    /** An optional function (addchdir_np) is looked up before use (Features): this guards a call without. */
    private long address() {
        if (address == 0L) throw new UnsatisfiedLinkError("the C library has no " + name);
        return address;
    }
}

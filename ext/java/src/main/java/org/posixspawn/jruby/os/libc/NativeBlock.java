package org.posixspawn.jruby.os.libc;

import java.util.List;

import jnr.ffi.Pointer;

/**
 * One malloc'd block carved into the C strings, arrays and structs of a single spawn, released with one
 * free in {@link #close}, whatever path the spawn takes.
 */
public final class NativeBlock implements AutoCloseable {
    private static final int ALIGN = 16;
    private final Pointer base;
    private final long size;
    private long used;

    public NativeBlock(long size) {
        this.size = size;
        this.base = Native.allocate(size);
    }

    /** Bytes needed for {@link #cStringArray} of {@code strings}. */
    public static long sizeOfArray(List<byte[]> strings) {
        long n = align((strings.size() + 1) * 8L);
        for (byte[] s : strings) n += align(s.length + 1);
        return n;
    }

    public static long align(long n) {
        return (n + ALIGN - 1) & -ALIGN;
    }

    public Pointer reserve(long bytes) {
        long at = used;
        used += align(bytes);
        if (used > size) throw new IllegalStateException("native block overflow: " + used + " > " + size);
        return base.slice(at, bytes);
    }

    public Pointer cString(byte[] s) {
        Pointer p = reserve(s.length + 1);
        p.put(0, s, 0, s.length);
        p.putByte(s.length, (byte) 0);
        return p;
    }

    /** A NULL-terminated char*[] of copies of {@code strings}. */
    public Pointer cStringArray(List<byte[]> strings) {
        Pointer array = reserve((strings.size() + 1) * 8L);
        for (int i = 0; i < strings.size(); i++) array.putAddress(i * 8L, cString(strings.get(i)).address());
        array.putAddress(strings.size() * 8L, 0L);
        return array;
    }

    @Override
    public void close() {
        Native.libc.free(base);
    }
}

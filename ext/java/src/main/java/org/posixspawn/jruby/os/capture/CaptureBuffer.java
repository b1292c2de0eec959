package org.posixspawn.jruby.os.capture;

import java.util.concurrent.atomic.AtomicReference;

import com.kenai.jffi.MemoryIO;
import jnr.constants.platform.Errno;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.libc.Trace;
import org.posixspawn.jruby.os.platform.Strategy;

/**
 * One captured output (stdout or stderr): gathered in an anonymous memory mapping that grows by remapping
 * its pages, never by copying them (mremap; where there is none, macOS and FreeBSD, by a new mapping and one copy), asks for huge pages (one page fault per 2 MiB instead of per
 * 4 KiB) and puts nothing on the Java heap; then copied once, when the run is closed, into an array of
 * exactly the captured length, which becomes the Ruby String as it is. Measured (doc/child.md):
 * growing Java arrays (copied, or kept as a list of chunks) and malloc/realloc were all slower, mostly
 * through garbage collections of large arrays and page faults.
 * <p>
 * A finished run's mapping (its first {@link #KEPT_MAPPING} bytes) is kept as the spare for the next run,
 * whose reads then find its pages in place instead of having the kernel fault in and zero new ones: about
 * 2 ms less per 16 MiB captured. One is kept per JVM (concurrent runs map their own), at the cost of that
 * much memory staying mapped (lazily freed: see {@link #finish}), and a small one beside it for the other output.
 * <p>
 * A streamed output ({@link #stream}) hands each read to the caller ({@link #takeChunk}) instead of gathering it.
 */
public final class CaptureBuffer {
    private static final long FIRST_MAPPING = 64 << 10;
    private static final long KEPT_MAPPING = 32 << 20;
    /** Java's largest array: no Ruby String can hold more. */
    private static final long LARGEST_OUTPUT = Integer.MAX_VALUE - 8;
    private static final AtomicReference<Mapping> SPARE = new AtomicReference<>();
    /**
     * A second spare of {@link #FIRST_MAPPING} bytes, for the run's other output (stderr, mostly empty): an
     * mmap and a munmap fewer per run, and a munmap in a process with threads on other CPUs costs them a TLB
     * shoot-down each.
     */
    private static final AtomicReference<Mapping> SMALL_SPARE = new AtomicReference<>();

    /** A mapping and its size. */
    private static final class Mapping {
        final Pointer address;
        final long capacity;

        Mapping(Pointer address, long capacity) {
            this.address = address;
            this.capacity = capacity;
        }
    }

    private Pointer buffer;
    private long capacity, length;
    /** The address of the mapping this buffer wrote into, kept after it is handed on (tests see reuse by it). */
    private long mappedAt;
    private byte[] bytes;
    private boolean streamed;
    private boolean written; // a read went into the mapping: its pages are dirty

    CaptureBuffer() {}

    /** The address of the spare mapping waiting for the next run, or 0 when there is none. */
    static long spareAddress() {
        Mapping spare = SPARE.get();
        return spare == null ? 0 : spare.address.address();
    }

    /** The address of the mapping this buffer wrote into, or 0 when it read nothing. */
    long mappedAt() {
        return mappedAt;
    }

    /**
     * Hands what is read to the caller chunk by chunk ({@link #takeChunk}) instead of gathering it; the
     * captured bytes then stay empty. Set before the first {@link Capture#run}.
     */
    public void stream() {
        streamed = true;
    }

    boolean hasChunk() {
        return streamed && length > 0;
    }

    /** The bytes read since the last call (a streamed output's chunk), or null if none. */
    public byte[] takeChunk() {
        if (!hasChunk()) return null;
        byte[] chunk = copy();
        length = 0;
        return chunk;
    }

    /** The captured bytes, once the run is closed. */
    public byte[] bytes() {
        return bytes;
    }

    /** Room at the end of the buffer, growing it (doubling) when there is none: at least 1 byte. */
    long makeRoom() throws SpawnError {
        if (buffer == null) {
            Mapping spare = SPARE.getAndSet(null);
            if (spare == null) spare = SMALL_SPARE.getAndSet(null);
            if (spare != null) use(spare.address, spare.capacity);
        }
        if (length == capacity) {
            if (length >= LARGEST_OUTPUT) throw SpawnError.noMemory("child output larger than a Ruby String can hold (" + LARGEST_OUTPUT + " bytes)");
            long size = Math.min(LARGEST_OUTPUT, Math.max(FIRST_MAPPING, 2 * capacity));
            boolean remap = buffer != null && Features.mremap();
            Pointer grown = remap
                    ? Native.extra().mremap(buffer, capacity, size, Constants.MREMAP_MAYMOVE)
                    : Native.extra().mmap(null, size, Constants.PROT_READ_WRITE, Constants.MAP_PRIVATE_ANONYMOUS, -1, 0);
            if (grown == null || grown.address() == -1L) {
                throw SpawnError.noMemory("cannot map " + size + " bytes for the child's output: " + Errno.valueOf(Native.errno()));
            }
            if (buffer != null) {
                if (!remap) { // the bytes so far move to the new mapping in one copy
                    MemoryIO.getInstance().copyMemory(buffer.address(), grown.address(), length);
                    Native.extra().munmap(buffer, capacity);
                }
                Trace.record(Trace.Concern.BUFFER_GROWTH, remap ? Strategy.CaptureBuffer.MREMAP : Strategy.CaptureBuffer.MMAP_COPY);
            }
            // A hint (Linux), ignored where unsupported.
            if (size >= Constants.HUGE_PAGE && Constants.MADV_HUGEPAGE >= 0) Native.extra().madvise(grown, size, Constants.MADV_HUGEPAGE);
            use(grown, size);
        }
        return capacity - length;
    }

    private void use(Pointer mapping, long size) {
        buffer = mapping;
        capacity = size;
        mappedAt = mapping.address();
    }

    /** Where the next read goes: {@link #makeRoom} first. */
    Pointer end() {
        return buffer.slice(length);
    }

    /** {@code n} bytes were read into {@link #end}. */
    void advance(long n) {
        length += n;
        written = true;
    }

    /** Forgets the last {@code n} bytes read (those past :max). */
    void dropLast(long n) {
        length -= n;
    }

    /** The buffer's bytes in a new array. */
    private byte[] copy() {
        byte[] copy = new byte[(int) length];
        // Through a direct ByteBuffer (JDK code) rather than jnr's Pointer.get (JNI), which takes twice as long
        // on Java 25: measured for 16 MiB, 1.1 against 2.2 ms on Java 25, 1.1 against 0.9 ms on Java 17.
        if (length > 0) MemoryIO.getInstance().newDirectByteBuffer(buffer.address(), copy.length).get(copy);
        return copy;
    }

    /** The run is over: the bytes into their array, and the mapping kept as the spare (or unmapped, if there is one). */
    void finish() {
        if (streamed) length = 0; // a chunk not taken (the run was interrupted) is dropped, not captured
        bytes = copy();
        if (buffer == null) return;
        if (capacity > KEPT_MAPPING) {
            Native.extra().munmap(buffer.slice(KEPT_MAPPING), capacity - KEPT_MAPPING);
            capacity = KEPT_MAPPING;
        }
        // Kept, but lazily freed: under memory pressure the kernel takes the pages back (the next run then
        // faults them in again), so the spare costs memory only where memory is plentiful. Before the
        // hand-over: once it is the spare, another run may be writing into it. A run that read nothing (a
        // command with no output) dirtied no page, and the last run's advice still holds.
        if (written) Native.extra().madvise(buffer, capacity, Constants.MADV_FREE);
        Mapping kept = new Mapping(buffer, capacity);
        if (!SPARE.compareAndSet(null, kept) && (capacity != FIRST_MAPPING || !SMALL_SPARE.compareAndSet(null, kept))) {
            Native.extra().munmap(buffer, capacity);
        }
        buffer = null;
    }
}

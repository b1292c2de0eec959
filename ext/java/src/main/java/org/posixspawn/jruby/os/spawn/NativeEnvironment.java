package org.posixspawn.jruby.os.spawn;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.NativeBlock;

/**
 * The envp last written to native memory, kept for the next spawn of the same list (the plan layer hands
 * out one list while ENV is unchanged, see plan.EnvironmentSnapshot), so that a plain spawn does not write
 * ENV's hundred-odd strings again. Shared by every thread without a lock: a count of the spawns using it,
 * plus one while it is the kept one; it is freed when that count drops to zero, so never while a spawn
 * uses it. A spawn of another list replaces it.
 */
final class NativeEnvironment implements AutoCloseable {
    private static final AtomicReference<NativeEnvironment> KEPT = new AtomicReference<>();

    private final List<byte[]> source;
    private final NativeBlock mem;
    /** The NULL-terminated char*[] posix_spawn takes. */
    final Pointer envp;
    private final AtomicInteger users = new AtomicInteger(2); // the caller's use, and KEPT's

    private NativeEnvironment(List<byte[]> source) {
        this.source = source;
        mem = new NativeBlock(NativeBlock.sizeOfArray(source));
        envp = mem.cStringArray(source);
    }

    /** The native copy of {@code envp} for one spawn, to be closed after it: the kept one when it is of this very list. */
    static NativeEnvironment of(List<byte[]> envp) {
        NativeEnvironment kept = KEPT.get();
        if (kept != null && kept.source == envp && kept.use()) return kept;
        NativeEnvironment made = new NativeEnvironment(envp);
        NativeEnvironment replaced = KEPT.getAndSet(made);
        if (replaced != null) replaced.close();
        return made;
    }

    /** One more user, unless it has been freed meanwhile. */
    private boolean use() {
        for (int n = users.get(); n > 0; n = users.get()) {
            if (users.compareAndSet(n, n + 1)) return true;
        }
        return false;
    }

    @Override
    public void close() {
        if (users.decrementAndGet() == 0) mem.close();
    }
}

package org.posixspawn.jruby.os.libc;

import java.util.Arrays;

/**
 * What ran, per thread, for diagnostics (the specs', a user's checking which fallback a machine takes): the
 * way each decision of the thread's last spawn, pipe, PATH search, buffer growth, reaper watch and IO.select went.
 * Recorded only while {@link #turn tracing is on}; off, the default, a decision costs one volatile read.
 */
public final class Trace {
    /** The decisions recorded, each as the enum constant of the way taken. */
    public enum Concern { SPAWN_ROUTE, CLOSING, PROGRAM_LOOKUP, PIPES, BUFFER_GROWTH, EXIT_ROUTE, SELECT }

    private static volatile boolean on;
    private static final ThreadLocal<Enum<?>[]> LAST = new ThreadLocal<Enum<?>[]>() {
        @Override
        protected Enum<?>[] initialValue() {
            return new Enum<?>[Concern.values().length];
        }
    };

    private Trace() {}

    public static void record(Concern concern, Enum<?> way) {
        if (on) LAST.get()[concern.ordinal()] = way;
    }

    /** The way this thread's last {@code concern} went while tracing was on, or null. */
    public static Enum<?> last(Concern concern) {
        return LAST.get()[concern.ordinal()];
    }

    /** Starts or stops recording, forgetting what this thread recorded so far. */
    public static void turn(boolean enabled) {
        on = enabled;
        Arrays.fill(LAST.get(), null);
    }
}

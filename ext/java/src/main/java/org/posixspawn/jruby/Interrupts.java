package org.posixspawn.jruby;

import java.util.function.BooleanSupplier;

import org.jruby.RubyThread;
import org.jruby.runtime.ThreadContext;
import org.posixspawn.jruby.os.capture.Capture;
import org.posixspawn.jruby.os.child.ChildWait;
import org.posixspawn.jruby.os.child.OwnedChild;
import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.libc.SpawnError;

/**
 * Every blocking call of the bridge, run in JRuby's executeTask: another thread's Thread#raise, Thread#kill
 * (and so Timeout.timeout and Ctrl-C) wake it, and the pending event is delivered here, in the waiting thread.
 */
final class Interrupts {
    private Interrupts() {}

    /** A capture's poll loop; the result is run's (a Boolean), or the SpawnError it raised, which a Task cannot throw. */
    private static final RubyThread.Task<Capture, Object> RUN = new RubyThread.Task<Capture, Object>() {
        @Override
        public Object run(ThreadContext context, Capture capture) {
            try {
                return capture.run();
            } catch (SpawnError e) {
                return e;
            }
        }

        @Override
        public void wakeup(RubyThread thread, Capture capture) {
            capture.wakeup();
        }
    };

    /**
     * Runs a capture until it is over. After each round {@code stop} hands on what a streamed output has
     * waiting; true stops the run early. Returns whether it did.
     */
    static boolean runToEnd(ThreadContext context, Capture capture, BooleanSupplier stop) {
        while (true) {
            Object ran = null;
            try {
                ran = context.getThread().executeTask(context, capture, RUN);
            } catch (InterruptedException e) {
                // a Java interrupt: handled like a wake-up
            }
            if (ran instanceof SpawnError) throw Errors.toRuby(context, (SpawnError) ran);
            boolean over = Boolean.TRUE.equals(ran);
            boolean stopped = stop.getAsBoolean();
            if (!over) context.pollThreadEvents(); // woken: a pending raise or kill fires here, else keep going
            if (over || stopped) return stopped;
        }
    }

    /** Waits until {@code child} has ended (true) or System.nanoTime() passes {@code deadline} (false). */
    static boolean awaitEnd(ThreadContext context, OwnedChild child, long deadline) {
        AwaitEnd task = new AwaitEnd(deadline);
        while (!child.ended()) {
            if (System.nanoTime() - deadline >= 0) return false;
            try {
                context.getThread().executeTask(context, child, task);
            } catch (InterruptedException e) {
                // woken by Thread#raise or #kill: delivered just below
            }
            context.pollThreadEvents();
        }
        return true;
    }

    /**
     * Waits until a read of {@code fd} would not block (data, end of file, hang-up or error: the read tells).
     * poll(2) in slices of {@link #SLICE_MILLIS}, so that an interrupt needs no wake-up descriptor (none may
     * be left: JRuby's IO.select, which opens a selector, leaked a pipe with the table full).
     */
    static void awaitReadable(ThreadContext context, int fd) {
        while (true) {
            Object ready = null;
            try {
                ready = context.getThread().executeTask(context, fd, new AwaitReadable());
            } catch (InterruptedException e) {
                // a Java interrupt: handled like a wake-up
            }
            context.pollThreadEvents(); // a pending raise or kill fires here
            if (Boolean.TRUE.equals(ready)) return;
        }
    }

    /**
     * Waits until poll(2) finds one of {@code fds} ready ({@link Fds#poll}), System.nanoTime() passes
     * {@code deadline} (Long.MAX_VALUE: never) or, between slices of {@link #SLICE_MILLIS} as in
     * {@link #awaitReadable}, {@code gone} is true (their IOs closed by another thread, which wakes no poll).
     * The count ready, 0 at the deadline or when gone, or minus poll's errno.
     */
    static int awaitAny(ThreadContext context, int[] fds, short[] events, short[] revents, long deadline, BooleanSupplier gone) {
        while (true) {
            Object got = null;
            try {
                got = context.getThread().executeTask(context, deadline, new AwaitAny(fds, events, revents, gone));
            } catch (InterruptedException e) {
                // a Java interrupt: handled like a wake-up
            }
            context.pollThreadEvents(); // a pending raise or kill fires here
            if (got != null) return (Integer) got;
        }
    }

    /** One round of {@link #awaitAny}: the count, or null when woken before anything was ready. */
    private static final class AwaitAny implements RubyThread.Task<Long, Integer> {
        private final int[] fds;
        private final short[] events, revents;
        private final BooleanSupplier gone;
        private volatile boolean woken;

        AwaitAny(int[] fds, short[] events, short[] revents, BooleanSupplier gone) {
            this.fds = fds;
            this.events = events;
            this.revents = revents;
            this.gone = gone;
        }

        @Override
        public Integer run(ThreadContext context, Long deadline) {
            while (!woken) {
                long slice = SLICE_MILLIS;
                if (deadline != Long.MAX_VALUE) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) return 0;
                    slice = Math.min(slice, (left + 999_999) / 1_000_000);
                }
                int n = Fds.poll(fds, events, revents, (int) slice);
                if (n != 0) return n;
                if (gone.getAsBoolean()) return 0;
            }
            return null;
        }

        @Override
        public void wakeup(RubyThread thread, Long deadline) {
            woken = true;
        }
    }

    static final int SLICE_MILLIS = 20;

    /** One round of {@link #awaitReadable}: a task each, so a wake-up that came before its poll is never missed. */
    private static final class AwaitReadable implements RubyThread.Task<Integer, Boolean> {
        private volatile boolean woken;

        @Override
        public Boolean run(ThreadContext context, Integer fd) {
            while (!woken) {
                if (Fds.readable(fd, SLICE_MILLIS)) return true;
            }
            return false;
        }

        @Override
        public void wakeup(RubyThread thread, Integer fd) {
            woken = true;
        }
    }

    private static final class AwaitEnd implements RubyThread.Task<OwnedChild, Boolean> {
        private final long deadline;

        AwaitEnd(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public Boolean run(ThreadContext context, OwnedChild child) throws InterruptedException {
            return child.awaitEnd(deadline);
        }

        @Override
        public void wakeup(RubyThread thread, OwnedChild child) {
            thread.getNativeThread().interrupt();
        }
    }

    /** A wait for a child nobody else owns: its wait status, or -1 when woken; a SpawnError is returned, as RUN's. */
    private static final RubyThread.Task<ChildWait, Object> WAIT = new RubyThread.Task<ChildWait, Object>() {
        @Override
        public Object run(ThreadContext context, ChildWait wait) throws InterruptedException {
            try {
                return wait.run();
            } catch (SpawnError e) {
                return e;
            }
        }

        @Override
        public void wakeup(RubyThread thread, ChildWait wait) {
            wait.wakeup(thread.getNativeThread());
        }
    };

    /** waitpid(pid, 0) that Thread#raise, Thread#kill and Timeout interrupt (the child left unreaped then): the wait status. */
    static int waitChild(ThreadContext context, long pid) {
        try (ChildWait wait = new ChildWait(pid)) {
            while (true) {
                Object ended = -1;
                try {
                    ended = context.getThread().executeTask(context, wait, WAIT);
                } catch (InterruptedException e) {
                    // woken by Thread#raise or #kill: delivered just below
                }
                if (ended instanceof SpawnError) {
                    SpawnError error = (SpawnError) ended; // ECHILD with Process.wait's message, no call named
                    throw ChildWait.noChild(error) ? context.runtime.newErrnoECHILDError() : Errors.toRuby(context, error);
                }
                if ((Integer) ended >= 0) return (Integer) ended;
                context.pollThreadEvents();
            }
        }
    }
}

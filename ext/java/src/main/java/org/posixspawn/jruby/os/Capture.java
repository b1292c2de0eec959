package org.posixspawn.jruby.os;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;

import com.kenai.jffi.MemoryIO;
import jnr.constants.platform.Errno;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * One child run to completion with its stdin fed and its stdout and stderr captured, by one thread and
 * one poll(2) loop: no thread per stream, so nothing can deadlock however much flows each way.
 * <p>
 * The child's ends of the three pipes are blocking (programs expect that); the parent's are
 * non-blocking, so a full or empty pipe only ever sends the loop back to poll. Output is read straight
 * into growable native buffers ({@link Output}), copied once into the arrays that become the Ruby Strings.
 * A wake-up pipe lets another thread ({@link #wakeup}: Thread#raise, Thread#kill, Timeout, a trapped
 * Ctrl-C) break the poll; {@link #close} then kills (TERM, a grace period, KILL) and reaps a child that
 * is still running, and closes every descriptor. After the pipes close, a pidfd (Linux 5.3+) in the
 * same poll reports the exit, so the deadline covers the wait for it too; without one, waitpid is asked
 * every few milliseconds.
 * <p>
 * An output can be streamed instead of captured ({@link Output#stream}): {@link #run} then returns after each
 * read from it, and the caller takes the bytes with {@link Output#takeChunk}.
 * <p>
 * Used as: {@link #start}, then {@link #run} until it returns true (false means woken, or a chunk of a streamed
 * output is waiting), then {@link #close}.
 */
public final class Capture implements AutoCloseable {
    /** How a run ended. */
    public enum Outcome { EXITED, TIMED_OUT, OUTPUT_EXCEEDED }

    /** How a run waits for its child's exit; recorded per thread so tests can see which way ran. */
    public enum ExitWait {
        /** poll on a pidfd, with the pipes and the wake-up pipe. */
        PIDFD,
        /** waitpid(WNOHANG) every {@link Capture#EXIT_POLL_MILLIS} ms: no pidfd_open, or it failed. */
        WAITPID_POLL;

        private static final ThreadLocal<ExitWait> LAST = new ThreadLocal<>();

        /** How this thread's last started run waits for its child's exit, or null. */
        public static ExitWait last() {
            return LAST.get();
        }
    }

    /** How long a child has between TERM and KILL. */
    static final long GRACE_NANOS = 1_000_000_000L;
    /**
     * Pipe capacity asked for on stdout and stdin (Linux, F_SETPIPE_SZ): fewer, larger reads and writes and
     * fewer context switches than the default 64 KiB; 1 MiB is the default /proc/sys/fs/pipe-max-size.
     */
    static final int PIPE_SIZE = 1 << 20;
    private static final long HUGE_PAGE = 2 << 20;
    /** The profile's: Linux's 0x22 would be MAP_PRIVATE | MAP_RENAME on macOS and FreeBSD. */
    private static final int PROT_READ_WRITE = Native.PROFILE == null ? 0 : Native.PROFILE.PROT_READ_WRITE,
            MAP_PRIVATE_ANONYMOUS = Native.PROFILE == null ? 0 : Native.PROFILE.MAP_PRIVATE_ANONYMOUS,
            MREMAP_MAYMOVE = 1, MADV_HUGEPAGE = 14, MADV_FREE = Native.PROFILE == null ? 0 : Native.PROFILE.MADV_FREE; // MREMAP, HUGEPAGE: Linux
    private static final long FIRST_BUFFER = 64 << 10;
    /** Java's largest array: no Ruby String can hold more. */
    private static final long LARGEST_OUTPUT = Integer.MAX_VALUE - 8;
    /** Without pidfd, how often the wait for exit asks waitpid. */
    private static final int EXIT_POLL_MILLIS = 5;
    /** pidfd_open(2)'s number, the same on x86_64 and aarch64 ({@link Features#pidfdOpen} checks the platform). */
    static final long PIDFD_OPEN_SYSCALL = 434;
    private static final short POLLIN = 0x1, POLLOUT = 0x4; // revents may also carry POLLERR, POLLHUP: handled alike
    private static final int POLLFD_SIZE = 8; // struct pollfd { int fd; short events; short revents; }
    private static final int WNOHANG = 1;

    private final long pid;
    private final boolean ownGroup;
    /** False for a handle's pipes ({@link #over}): the reaper owns the child; the run ends with the pipes. */
    private final boolean reaps;
    private long deadline; // System.nanoTime(), or Long.MAX_VALUE
    private long waitDelay = -1; // nanoseconds the pipes are still read once the child has exited, or -1: to their end
    private long drainUntil = Long.MAX_VALUE; // System.nanoTime() when waitDelay's time is up
    private java.util.function.BooleanSupplier ended; // over(): the reaper's word that the child has ended
    private final long max;      // bytes of stdout + stderr, or -1
    private final ByteBuffer input;
    private final Pointer pollfds = Native.allocate(5L * POLLFD_SIZE);
    private final Pointer status = Native.allocate(8);
    private final Output out = new Output(), err = new Output();
    private final Object wakeLock = new Object();
    private int stdin, stdout, stderr, wakeRead, wakeWrite, pidfd;
    private boolean reaped, closed;
    private boolean moved; // the last round read or wrote something
    private long outputTotal; // bytes read from stdout and stderr, streamed or captured
    private int rawStatus = -1;
    private Outcome outcome;

    private Capture(long pid, boolean ownGroup, boolean reaps, long deadline, long max, ByteBuffer input, int[] parentEnds, int[] wake) {
        this.pid = pid;
        this.ownGroup = ownGroup;
        this.reaps = reaps;
        this.deadline = deadline;
        this.max = max;
        this.input = input;
        stdin = parentEnds[0];
        stdout = parentEnds[1];
        stderr = parentEnds[2];
        wakeRead = wake[0];
        wakeWrite = wake[1];
        pidfd = reaps && Features.pidfdOpen() ? (int) Native.libc.syscall(PIDFD_OPEN_SYSCALL, pid, 0) : -1;
        if (reaps) ExitWait.LAST.set(pidfd >= 0 ? ExitWait.PIDFD : ExitWait.WAITPID_POLL);
    }

    /**
     * Starts the child the plan describes with pipes on 0, 1 and 2 (replacing any redirect of them).
     *
     * @param input     bytes for stdin from position to limit, or null to close stdin at once
     * @param deadline  System.nanoTime() after which the run times out, or Long.MAX_VALUE
     * @param max       bytes of stdout and stderr together beyond which the run stops, or -1
     * @param ownGroup  start the child in a new process group and signal the whole group
     */
    public static Capture start(SpawnPlan plan, ByteBuffer input, long deadline, long max, boolean ownGroup) throws SpawnFailure {
        Native.requireProfile();
        int[] fds = {-1, -1, -1, -1, -1, -1, -1, -1}; // stdin r/w, stdout r/w, stderr r/w, wake r/w
        try {
            for (int i = 0; i < fds.length; i += 2) openPipe(fds, i);
            setNonBlocking(fds[1]);
            setNonBlocking(fds[2]);
            setNonBlocking(fds[4]);
            setNonBlocking(fds[6]);
            setNonBlocking(fds[7]);
            if (Native.LINUX) {
                Native.libc.fcntl(fds[2], Native.F_SETPIPE_SZ, PIPE_SIZE); // best effort: a smaller pipe only costs speed
                if (input != null && input.remaining() > 0) Native.libc.fcntl(fds[1], Native.F_SETPIPE_SZ, PIPE_SIZE);
            }
            SpawnPlan piped = plan.withRedirect(0, fds[0]).withRedirect(1, fds[3]).withRedirect(2, fds[5]);
            if (ownGroup) piped = piped.withNewProcessGroup();
            long pid = Spawner.spawn(piped);
            closeAll(fds[0], fds[3], fds[5]);
            fds[0] = fds[3] = fds[5] = -1;
            if (input == null || input.remaining() == 0) {
                Native.libc.close(fds[1]);
                fds[1] = -1;
            }
            Capture capture = new Capture(pid, ownGroup, true, deadline, max, input, new int[] {fds[1], fds[2], fds[4]}, new int[] {fds[6], fds[7]});
            fds = null;
            OnJvmExit.RUNNING.add(capture);
            return capture;
        } finally {
            if (fds != null) closeAll(fds);
        }
    }

    /**
     * A run over the parent's ends of a handle's pipes (each -1 where not piped), which it takes over and
     * closes: it feeds and reads them to the end, and neither waits for, signals nor reaps the child (the
     * {@link Reaper} does). {@link #run} returns true once every pipe is closed, or at the deadline.
     */
    public static Capture over(long pid, int stdin, int stdout, int stderr, ByteBuffer input) throws SpawnFailure {
        int[] wake = {-1, -1};
        openPipe(wake, 0);
        for (int fd : new int[] {stdin, stdout, stderr, wake[0], wake[1]}) if (fd >= 0) setNonBlocking(fd);
        if (stdin >= 0 && (input == null || input.remaining() == 0)) {
            Native.libc.close(stdin);
            stdin = -1;
        }
        return new Capture(pid, false, false, Long.MAX_VALUE, -1, input, new int[] {stdin, stdout, stderr}, wake);
    }

    /** Moves the deadline (System.nanoTime(), or Long.MAX_VALUE) and clears a timeout, for a resumed {@link #over} run. */
    public void resume(long deadline) {
        this.deadline = deadline;
        if (outcome == Outcome.TIMED_OUT) outcome = null;
    }

    /**
     * Reads the pipes for at most {@code nanos} once the child has exited, then closes them (wait_delay: a
     * background process holding the child's stdout open no longer holds up the run). For an {@link #over}
     * run, {@code ended} says when the child has ended, and a {@link #wakeup} should follow its end.
     */
    public void waitDelay(long nanos, java.util.function.BooleanSupplier ended) {
        this.waitDelay = nanos;
        this.ended = ended;
    }

    private boolean childExited() {
        if (!reaps) return ended != null && ended.getAsBoolean();
        return pidfd >= 0 ? Reaper.readable(pidfd) : reapIfExited();
    }

    /** Bytes of the input not written yet. */
    public int inputLeft() {
        return input == null ? 0 : input.remaining();
    }

    public long pid() {
        return pid;
    }

    /** The outcome once {@link #run} has returned true, else null. */
    public Outcome outcome() {
        return outcome;
    }

    /** The raw wait status (as waitpid gives it) once reaped, or -1 (not reaped, or reaped by someone else). */
    public int rawStatus() {
        return rawStatus;
    }

    public Output out() {
        return out;
    }

    public Output err() {
        return err;
    }

    /**
     * Feeds, reads and waits until the run is over (true; see {@link #outcome}), {@link #wakeup} was called, or
     * a streamed output has a chunk (false: the caller handles what woke it, takes the chunks, and calls run again).
     */
    public boolean run() {
        while (outcome == null) {
            boolean waitingForExit = stdin < 0 && stdout < 0 && stderr < 0;
            if (waitingForExit && (!reaps || reapIfExited())) {
                outcome = Outcome.EXITED;
                break;
            }
            if (!waitingForExit && waitDelay >= 0) {
                if (drainUntil == Long.MAX_VALUE && childExited()) drainUntil = System.nanoTime() + waitDelay;
                if (drainUntil != Long.MAX_VALUE && System.nanoTime() - drainUntil >= 0) {
                    closeAll(stdin, stdout, stderr); // what a background process writes after this is not ours
                    stdin = stdout = stderr = -1;
                    continue;
                }
            }
            long left = deadline == Long.MAX_VALUE ? -1 : deadline - System.nanoTime();
            if (deadline != Long.MAX_VALUE && left <= 0) {
                outcome = Outcome.TIMED_OUT;
                break;
            }
            int timeout = left < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
            int n = 0;
            n = watch(n, wakeRead, POLLIN);
            n = watch(n, stdin, POLLOUT);
            n = watch(n, stdout, POLLIN);
            n = watch(n, stderr, POLLIN);
            if (waitingForExit) {
                if (pidfd >= 0) n = watch(n, pidfd, POLLIN);
                else timeout = timeout < 0 ? EXIT_POLL_MILLIS : Math.min(timeout, EXIT_POLL_MILLIS);
            } else if (waitDelay >= 0) {
                int until = drainUntil == Long.MAX_VALUE ? -1 : (int) Math.max(0, (drainUntil - System.nanoTime() + 999_999) / 1_000_000);
                if (until < 0 && reaps && pidfd >= 0) n = watch(n, pidfd, POLLIN);
                else if (until < 0 && reaps) until = EXIT_POLL_MILLIS;
                if (until >= 0) timeout = timeout < 0 ? until : Math.min(timeout, until);
            }
            // Data just moved: look again without sleeping. Sleeping in poll after each read, to be woken by the
            // child's next write, made a 16 MiB capture about a third slower (also in C: Linux 6.18 on a VM).
            if (moved) timeout = 0;
            moved = false;
            if (Native.libc.poll(pollfds, n, timeout) < 0) {
                int errno = Native.errno();
                if (errno == Native.EINTR) continue;
                throw new IllegalStateException("poll: " + Errno.valueOf(errno));
            }
            boolean woken = false;
            for (int i = 0; i < n; i++) {
                if (pollfds.getShort(i * POLLFD_SIZE + 6) == 0) continue;
                int fd = pollfds.getInt(i * POLLFD_SIZE);
                if (fd == wakeRead) woken = true;
                else if (fd == stdin) feed();
                else if (fd == stdout) stdout = drain(stdout, out);
                else if (fd == stderr) stderr = drain(stderr, err);
                // a readable pidfd only ends the poll: the next round reaps
            }
            if (woken) drainWakeups();
            if (woken || out.hasChunk() || err.hasChunk()) return false;
        }
        return true;
    }

    /** Makes a {@link #run} in progress (or the next one) return false soon. Any thread may call it. */
    public void wakeup() {
        synchronized (wakeLock) {
            if (wakeWrite < 0) return; // closed: the fd number may belong to someone else by now
            try (NativeBlock one = new NativeBlock(NativeBlock.align(1))) {
                Native.libc.write(wakeWrite, one.reserve(1), 1); // a full pipe (EAGAIN) is woken already
            }
        }
    }

    /**
     * Ends the run: a child not yet reaped (timed out, too much output, interrupted, or an exception) gets
     * TERM, and KILL if it is still there after {@link #GRACE_NANOS} (with a process group, the group gets
     * KILL either way, so no grandchild outlives the run), and is reaped. Every descriptor is closed.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        closeAll(stdin, stdout, stderr);
        stdin = stdout = stderr = -1;
        if (!reaped && reaps) terminate();
        OnJvmExit.RUNNING.remove(this);
        synchronized (wakeLock) {
            closeAll(wakeRead, wakeWrite, pidfd);
            wakeRead = wakeWrite = pidfd = -1;
        }
        Native.libc.free(status);
        Native.libc.free(pollfds);
        out.finish();
        err.finish();
    }

    /**
     * The JVM exiting (System.exit, or SIGINT, TERM or HUP with no Ruby trap: JRuby's default exits
     * with 128+signal) would orphan the children of runs in progress: a shutdown hook gives each TERM,
     * and KILL to those still running after the grace period. Nobody is left to reap them: init does.
     */
    private static final class OnJvmExit {
        static final java.util.Set<Capture> RUNNING = java.util.concurrent.ConcurrentHashMap.newKeySet();

        static {
            Runtime.getRuntime().addShutdownHook(new Thread(OnJvmExit::killAll, "posix-spawn-child-killer"));
        }

        private static void killAll() {
            java.util.List<Capture> running = new java.util.ArrayList<>(RUNNING);
            for (Capture c : running) Native.libc.kill(c.ownGroup ? -c.pid : c.pid, Native.SIGTERM);
            long until = System.nanoTime() + GRACE_NANOS;
            while (System.nanoTime() < until && running.stream().anyMatch(c -> isRunning(c.pid))) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    break;
                }
            }
            for (Capture c : running) {
                if (c.ownGroup || isRunning(c.pid)) Native.libc.kill(c.ownGroup ? -c.pid : c.pid, Native.SIGKILL);
            }
        }

        /** Alive and not a zombie, asked without reaping (the run's own thread may be reaping it). */
        private static boolean isRunning(long pid) {
            try {
                String stat = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("/proc/" + pid + "/stat")), java.nio.charset.StandardCharsets.US_ASCII);
                return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
            } catch (java.io.IOException | RuntimeException e) {
                return Native.libc.kill(pid, 0) == 0; // no /proc: a zombie counts as running, which only costs the grace period
            }
        }
    }

    private void terminate() {
        signal(Native.SIGTERM);
        boolean exited = awaitExit(System.nanoTime() + GRACE_NANOS);
        if (ownGroup || !exited) signal(Native.SIGKILL);
        while (!reaped) {
            long r = Native.libc.waitpid(pid, status, 0);
            if (r == pid) reaped(status.getInt(0));
            else if (Native.errno() != Native.EINTR) reaped(-1);
        }
    }

    /**
     * Waits until the child exits or {@code until} passes. With a pidfd the child stays unreaped (a zombie
     * keeps its pid, so its group can still be signalled); without one, waitpid reaps it as it checks.
     */
    private boolean awaitExit(long until) {
        while (true) {
            long left = until - System.nanoTime();
            if (pidfd >= 0) {
                watch(0, pidfd, POLLIN);
                int r = Native.libc.poll(pollfds, 1, (int) Math.max(0, (left + 999_999) / 1_000_000));
                if (r > 0) return true;
                if (r == 0) return false;
                if (Native.errno() != Native.EINTR) return false;
            } else {
                if (reapIfExited()) return true;
                if (left <= 0) return false;
                Native.libc.poll(null, 0, EXIT_POLL_MILLIS);
            }
        }
    }

    private void signal(int signal) {
        if (!reaped || ownGroup) Native.libc.kill(ownGroup ? -pid : pid, signal);
    }

    private boolean reapIfExited() {
        if (reaped) return true; // with wait_delay, reaped before the pipes closed
        long r = Native.libc.waitpid(pid, status, WNOHANG);
        if (r == pid) reaped(status.getInt(0));
        else if (r < 0 && Native.errno() == Native.ECHILD) reaped(-1); // someone else's Process.wait took it
        return reaped;
    }

    private void reaped(int raw) {
        reaped = true;
        rawStatus = raw;
    }

    private int watch(int index, int fd, short events) {
        if (fd < 0) return index;
        long at = (long) index * POLLFD_SIZE;
        pollfds.putInt(at, fd);
        pollfds.putShort(at + 4, events);
        pollfds.putShort(at + 6, (short) 0);
        return index + 1;
    }

    /** Writes what stdin takes now; closes it when all is written or the child stopped reading (EPIPE). */
    private void feed() {
        long n = Native.libc.write(stdin, input, input.remaining());
        if (n > 0) {
            input.position(input.position() + (int) n);
            moved = true;
        } else if (n < 0) {
            int errno = Native.errno();
            if (errno != Native.EAGAIN && errno != Native.EINTR && errno != Native.EPIPE) {
                throw new IllegalStateException("write to the child's stdin: " + Errno.valueOf(errno));
            }
            if (errno == Native.EPIPE) input.position(input.limit()); // the child is not reading: not an error
        }
        if (input.remaining() == 0) {
            Native.libc.close(stdin);
            stdin = -1;
        }
    }

    /** Reads what {@code fd} has now into {@code into}; returns fd, or -1 once it is closed at end of file. */
    private int drain(int fd, Output into) {
        long room = into.makeRoom();
        long allowed = max - outputTotal;
        if (max >= 0 && allowed < room) room = allowed + 1; // one byte past max proves excess; no overflow near Long.MAX_VALUE
        long n = Native.libc.read(fd, into.end(), room);
        if (n > 0) {
            moved = true;
            into.length += n;
            outputTotal += n;
            long excess = outputTotal - max;
            if (max >= 0 && excess > 0) {
                into.length -= excess; // keep (or hand over) exactly the first max bytes
                outputTotal = max;
                outcome = Outcome.OUTPUT_EXCEEDED;
            }
            return fd;
        }
        if (n < 0) {
            int errno = Native.errno();
            if (errno == Native.EAGAIN || errno == Native.EINTR) return fd;
            throw new IllegalStateException("read from the child's output: " + Errno.valueOf(errno));
        }
        Native.libc.close(fd);
        return -1;
    }

    private void drainWakeups() {
        ByteBuffer sink = ByteBuffer.allocate(64);
        while (Native.libc.read(wakeRead, sink, 64) == 64) sink.clear();
    }

    /**
     * Captured bytes: gathered in an anonymous memory mapping that grows by remapping its pages, never by
     * copying them (mremap), asks for huge pages (one page fault per 2 MiB instead of per 4 KiB) and puts
     * nothing on the Java heap; then copied once, when the run is closed, into an array of exactly the
     * captured length, which becomes the Ruby String as it is. Measured (README, POSIX::Spawn::Child):
     * growing Java arrays (copied, or kept as a list of chunks) and malloc/realloc were all slower, mostly
     * through garbage collections of large arrays and page faults.
     * <p>
     * A finished run's mapping (its first {@link #KEPT_MAPPING} bytes) is kept for the next run, whose reads
     * then find its pages in place instead of having the kernel fault in and zero new ones: about 2 ms less
     * per 16 MiB captured. One is kept per JVM (concurrent runs map their own), at the cost of that much
     * memory staying mapped (lazily freed: see finish).
     */
    public static final class Output {
        private static final long KEPT_MAPPING = 32 << 20;
        private static final AtomicReference<Output> SPARE = new AtomicReference<>();

        private Pointer buffer;
        private long capacity, length;
        private byte[] bytes;
        private boolean streamed;

        Output() {}

        /** A finished run's mapping, kept for the next ({@link #SPARE}). */
        private Output(Pointer buffer, long capacity) {
            this.buffer = buffer;
            this.capacity = capacity;
        }

        /** Whether a finished run's mapping is waiting for the next run. */
        static boolean spareKept() {
            return SPARE.get() != null;
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
        long makeRoom() {
            if (buffer == null) {
                Output spare = SPARE.getAndSet(null);
                if (spare != null) {
                    buffer = spare.buffer;
                    capacity = spare.capacity;
                }
            }
            if (length == capacity) {
                if (length >= LARGEST_OUTPUT) throw new OutOfMemoryError("child output larger than a Ruby String can hold");
                long size = Math.min(LARGEST_OUTPUT, Math.max(FIRST_BUFFER, 2 * capacity));
                Pointer grown = buffer == null
                        ? Native.libc.mmap(null, size, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0)
                        : Native.libc.mremap(buffer, capacity, size, MREMAP_MAYMOVE);
                if (grown == null || grown.address() == -1L) throw new OutOfMemoryError("cannot map " + size + " bytes: " + Errno.valueOf(Native.errno()));
                if (size >= HUGE_PAGE) Native.libc.madvise(grown, size, MADV_HUGEPAGE); // a hint: ignored where unsupported
                buffer = grown;
                capacity = size;
            }
            return capacity - length;
        }

        Pointer end() {
            return buffer.slice(length);
        }

        /** The buffer's bytes in a new array. */
        private byte[] copy() {
            byte[] copy = new byte[(int) length];
            // Through a direct ByteBuffer (JDK code) rather than jnr's Pointer.get (JNI), which takes twice as long
            // on Java 25: measured for 16 MiB, 1.1 against 2.2 ms on Java 25, 1.1 against 0.9 ms on Java 17.
            if (length > 0) MemoryIO.getInstance().newDirectByteBuffer(buffer.address(), copy.length).get(copy);
            return copy;
        }

        void finish() {
            if (streamed) length = 0; // a chunk not taken (the run was interrupted) is dropped, not captured
            bytes = copy();
            if (buffer == null) return;
            if (capacity > KEPT_MAPPING) {
                Native.libc.munmap(buffer.slice(KEPT_MAPPING), capacity - KEPT_MAPPING);
                capacity = KEPT_MAPPING;
            }
            // Kept, but lazily freed: under memory pressure the kernel takes the pages back (the next run then
            // faults them in again), so the spare costs memory only where memory is plentiful. Before the
            // hand-over: once it is SPARE, another run may be writing into it.
            Native.libc.madvise(buffer, capacity, MADV_FREE);
            if (!SPARE.compareAndSet(null, new Output(buffer, capacity))) Native.libc.munmap(buffer, capacity);
            buffer = null;
        }
    }

    private static void openPipe(int[] fds, int at) throws SpawnFailure {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(8))) {
            Pointer pair = mem.reserve(8);
            if (Native.libc.pipe2(pair, Native.O_CLOEXEC) != 0) throw new SpawnFailure(Native.errno(), "pipe2");
            fds[at] = pair.getInt(0);
            fds[at + 1] = pair.getInt(4);
        }
    }

    private static void setNonBlocking(int fd) {
        Native.libc.fcntl(fd, Native.F_SETFL, Native.libc.fcntl(fd, Native.F_GETFL, 0) | Native.O_NONBLOCK);
    }

    private static void closeAll(int... fds) {
        for (int fd : fds) if (fd >= 0) Native.libc.close(fd);
    }
}

package org.posixspawn.jruby.os.libc;

import jnr.constants.platform.Errno;
import org.posixspawn.jruby.plan.PathName;

/**
 * Why the platform layer could not do what was asked: the one error it reports, mapped to a Ruby exception
 * in one place (the bridge's {@code Errors}). Carries no Java stack trace: it is a result, not a bug.
 */
public final class SpawnError extends Exception {
    private static final long serialVersionUID = 1L;

    public enum Kind {
        /** A system call failed: {@link #errno}, and what it was about ({@link #culprit}: the program, a directory, a path, a call). */
        ERRNO,
        /**
         * This platform (or this libc) cannot do what the plan asks, or has no profile at all (another OS or
         * CPU, a 32-bit JVM); {@link #getMessage} says what and why, naming the platform.
         */
        UNSUPPORTED,
        /** Memory (or address space) for the child's output ran out; {@link #getMessage} says how much was asked. */
        NO_MEMORY
    }

    public final Kind kind;
    /** The errno for {@link Kind#ERRNO}, else 0. */
    public final int errno;
    /** What an {@link Kind#ERRNO} error is about, with its bytes and encoding for the message; else null. */
    public final transient PathName culprit;
    /**
     * For {@link Kind#ERRNO}: a step MRI takes in the forked child (exec, chdir, dup2, close, setrlimit),
     * after which MRI's child exits 127 (so $? is set, and Kernel#system returns nil); false for one MRI
     * takes in the parent (opening a redirect file, making a pipe), which raises everywhere.
     */
    public final boolean inChild;

    private SpawnError(Kind kind, int errno, PathName culprit, boolean inChild, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.errno = errno;
        this.culprit = culprit;
        this.inChild = inChild;
    }

    /** A failed system call about {@code culprit} (a redirect path, a pipe), in a step MRI takes in the parent. */
    public static SpawnError errno(int errno, PathName culprit) {
        return new SpawnError(Kind.ERRNO, errno, culprit, false, message(errno, culprit));
    }

    /** A failed step MRI takes in the forked child, about {@code culprit} (the program, the :chdir directory, a call). */
    public static SpawnError inChild(int errno, PathName culprit) {
        return new SpawnError(Kind.ERRNO, errno, culprit, true, message(errno, culprit));
    }

    /** A failed system call named {@code call} ("poll", "setrlimit"...). */
    public static SpawnError errno(int errno, String call) {
        return errno(errno, PathName.of(call));
    }

    /** The same failure about {@code other}: a caller that knows better what the call was for (pty_read's IO). */
    public SpawnError about(PathName other) {
        return new SpawnError(kind, errno, other, inChild, message(errno, other));
    }

    private static String message(int errno, PathName culprit) {
        return Errno.valueOf(errno) + " - " + culprit;
    }

    public static SpawnError unsupported(String message) {
        return new SpawnError(Kind.UNSUPPORTED, 0, null, false, message);
    }

    public static SpawnError noMemory(String message) {
        return new SpawnError(Kind.NO_MEMORY, 0, null, false, message);
    }
}

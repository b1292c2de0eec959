package org.posixspawn.jruby.os;

/**
 * A spawn that did not start: the errno and what it is about (the program, the :chdir directory, a redirect
 * path). {@link #inChild} tells the two kinds MRI reports differently: a step MRI takes in the forked child
 * (exec, chdir, dup2, close, setrlimit), after which MRI's child exits 127 (so $? is set, and Kernel#system
 * returns nil), or one MRI takes in the parent (opening a redirect file, making a pipe), which raises everywhere.
 */
public final class SpawnFailure extends Exception {
    private static final long serialVersionUID = 1L;
    public final int errno;
    public final String culprit;
    public final boolean inChild;

    /** A failure of a step MRI takes in the parent. */
    public SpawnFailure(int errno, String culprit) {
        this(errno, culprit, false);
    }

    private SpawnFailure(int errno, String culprit, boolean inChild) {
        super(jnr.constants.platform.Errno.valueOf(errno) + " - " + culprit, null, false, false);
        this.errno = errno;
        this.culprit = culprit;
        this.inChild = inChild;
    }

    /** A failure of a step MRI takes in the forked child, whose exit status is then 127. */
    public static SpawnFailure inChild(int errno, String culprit) {
        return new SpawnFailure(errno, culprit, true);
    }
}

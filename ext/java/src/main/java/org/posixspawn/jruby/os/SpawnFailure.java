package org.posixspawn.jruby.os;

/** A spawn that did not start: the errno and what it is about (the program, the :chdir directory, a redirect path). */
public final class SpawnFailure extends Exception {
    private static final long serialVersionUID = 1L;
    public final int errno;
    public final String culprit;

    public SpawnFailure(int errno, String culprit) {
        super(jnr.constants.platform.Errno.valueOf(errno) + " - " + culprit, null, false, false);
        this.errno = errno;
        this.culprit = culprit;
    }
}

package org.posixspawn.jruby.plan;

/** {@code childFd => [:child, sourceFd]}: after the redirects, the child's fd is a copy of another of its fds. */
public final class ChildDup {
    public final int childFd;
    /** The child fd copied; chains ({@code 4 => [:child, 3], 3 => [:child, 1]}) are already resolved to their end. */
    public final int sourceFd;

    public ChildDup(int childFd, int sourceFd) {
        this.childFd = childFd;
        this.sourceFd = sourceFd;
    }

    @Override
    public String toString() {
        return childFd + "<=child " + sourceFd;
    }
}

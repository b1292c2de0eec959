package org.posixspawn.jruby.plan;

/** One child descriptor and where it comes from: a parent descriptor, or a file the parent opens. */
public final class Redirect {
    public final int childFd;
    /** The parent's descriptor, or -1 when {@link #file} is to be opened. */
    public final int parentFd;
    /** The file to open in the parent (shared by every child fd of one array key), or null. */
    public final FileToOpen file;

    private Redirect(int childFd, int parentFd, FileToOpen file) {
        this.childFd = childFd;
        this.parentFd = parentFd;
        this.file = file;
    }

    public static Redirect fromParentFd(int childFd, int parentFd) {
        return new Redirect(childFd, parentFd, null);
    }

    public static Redirect fromFile(int childFd, FileToOpen file) {
        return new Redirect(childFd, -1, file);
    }

    @Override
    public String toString() {
        return childFd + "<=" + (file != null ? file.toString() : Integer.toString(parentFd));
    }
}

package org.posixspawn.jruby.plan;

/** A redirect target the parent opens before the spawn (as MRI does), so open errors name the path. */
public final class FileToOpen {
    /** Absolute (relative ones are resolved against Dir.pwd). */
    public final byte[] path;
    /** The path as the caller wrote it, for error messages. */
    public final PathName asGiven;
    public final int flags;
    public final int perm;

    public FileToOpen(byte[] path, PathName asGiven, int flags, int perm) {
        this.path = path;
        this.asGiven = asGiven;
        this.flags = flags;
        this.perm = perm;
    }

    @Override
    public String toString() {
        return "open(" + new PathName(path, "ASCII-8BIT") + ", 0x" + Integer.toHexString(flags) + ", 0" + Integer.toOctalString(perm) + ")";
    }
}

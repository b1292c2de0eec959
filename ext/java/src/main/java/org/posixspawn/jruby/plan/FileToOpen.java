package org.posixspawn.jruby.plan;

/** A redirect target the parent opens before the spawn (as MRI does), so open errors name the path. */
public final class FileToOpen {
    /** Absolute path (relative ones are resolved against Dir.pwd). */
    public final byte[] path;
    /** The path as the caller wrote it, for error messages. */
    public final String displayPath;
    public final int flags;
    public final int perm;

    public FileToOpen(byte[] path, String displayPath, int flags, int perm) {
        this.path = path;
        this.displayPath = displayPath;
        this.flags = flags;
        this.perm = perm;
    }

    @Override
    public String toString() {
        return "open(" + new String(path) + ", 0x" + Integer.toHexString(flags) + ", 0" + Integer.toOctalString(perm) + ")";
    }
}

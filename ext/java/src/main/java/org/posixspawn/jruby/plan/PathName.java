package org.posixspawn.jruby.plan;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A path or program name as the caller's String held it: its bytes, which are what the kernel gets, and
 * the name of its Ruby encoding, which only an error message uses (MRI's messages keep the path's bytes
 * and encoding). Treated as immutable (as the plan's other byte arrays).
 */
public final class PathName {
    public final byte[] bytes;
    /** A Ruby encoding name ("UTF-8", "ASCII-8BIT", "ISO-8859-1"...). */
    public final String encoding;

    public PathName(byte[] bytes, String encoding) {
        this.bytes = bytes;
        this.encoding = encoding;
    }

    /** A fixed name of ours ("/bin/sh", "dup2"), in UTF-8. */
    public static PathName of(String name) {
        return new PathName(name.getBytes(StandardCharsets.UTF_8), "UTF-8");
    }

    public int length() {
        return bytes.length;
    }

    public boolean isAbsolute() {
        return bytes.length > 0 && bytes[0] == '/';
    }

    public boolean contains(byte b) {
        for (byte x : bytes) if (x == b) return true;
        return false;
    }

    /**
     * The bytes of this path made absolute against {@code directory} (an absolute path), as MRI does: joined,
     * not normalised. An empty path stays empty: MRI hands "" to open(2) and chdir(2), which fail with ENOENT.
     */
    public byte[] against(byte[] directory) {
        if (isAbsolute() || bytes.length == 0) return bytes;
        int dirLength = directory.length;
        while (dirLength > 1 && directory[dirLength - 1] == '/') dirLength--;
        boolean slash = !(dirLength == 1 && directory[0] == '/');
        byte[] joined = new byte[dirLength + (slash ? 1 : 0) + bytes.length];
        System.arraycopy(directory, 0, joined, 0, dirLength);
        if (slash) joined[dirLength] = '/';
        System.arraycopy(bytes, 0, joined, joined.length - bytes.length, bytes.length);
        return joined;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PathName && Arrays.equals(bytes, ((PathName) o).bytes) && encoding.equals(((PathName) o).encoding);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** For debugging only: each byte as one char. */
    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}

package org.posixspawn.jruby.os.platform;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One OS's C constants that jnr-constants lacks, each with the header it was read from, so that a value
 * can be checked against its source (PlatformProfileTest) and a reader sees where it comes from.
 */
public final class Table {
    /** A value and the header (repository, path:line) it comes from. */
    public static final class Entry {
        public final long value;
        public final String source;

        Entry(long value, String source) {
            this.value = value;
            this.source = source;
        }
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    Table put(String name, long value, String source) {
        if (entries.put(name, new Entry(value, source)) != null) throw new IllegalArgumentException("twice in a table: " + name);
        return this;
    }

    /** The value of {@code name}, or -1 where this OS has no such constant (the table leaves it out). */
    long get(String name) {
        Entry e = entries.get(name);
        return e == null ? -1 : e.value;
    }

    public Map<String, Entry> entries() {
        return Collections.unmodifiableMap(entries);
    }
}

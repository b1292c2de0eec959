package org.posixspawn.jruby.os.lookup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.posixspawn.jruby.os.libc.Trace;

/**
 * {@link ProgramLookup}'s searches, kept while nothing they went through has changed ({@link PathWatch}): a
 * command spawned again and again is then found with one poll(2) instead of an access(2) per PATH entry.
 * <p>
 * A command is cached from its {@link #CACHE_AFTER}th search of the same PATH and working directory on, once
 * the JVM has made {@link #WATCH_AFTER} searches (a short program never binds the watch's calls), and only when
 * found; a command not found is searched every time. An answer made stale waits for twice as many searches before it is cached again (up to
 * {@link #MAX_THRESHOLD}). Before it is kept, the directories of every entry up to the one that has it are
 * watched and the search made again, so what changed meanwhile is either in that search or in the watch's queue.
 * <p>
 * What it does not see, where a search would: a change of this process's user or group ids between two
 * spawns, which changes what access(2) allows (a JVM does not change them once running).
 */
public final class ProgramCache {
    static final int CACHE_AFTER = 8, MAX_THRESHOLD = 1024;
    /**
     * The searches a JVM makes before it binds the watch: a short program (a CLI, a rake task: tens of spawns)
     * never pays its calls' binding, milliseconds at one spawn (the benchmark's --cold saw them in the 8th).
     */
    static final int WATCH_AFTER = 64;
    private static final AtomicInteger SEARCHES = new AtomicInteger();
    /** Beyond this many kept commands the cache starts again empty: a bound, not a working-set policy. */
    private static final int LIMIT = 512;
    private static final Map<Key, Entry> ENTRIES = new ConcurrentHashMap<>();

    private ProgramCache() {}

    /** How a search was answered, traced ({@code Trace.Concern.PROGRAM_LOOKUP}). */
    public enum Answer { CACHED, SEARCHED }

    /** {@link ProgramLookup#search}, through the cache: the same answer, found now. */
    static byte[] find(byte[] name, byte[] path, byte[] pwd) {
        Key key = new Key(name, path, pwd);
        Entry entry = ENTRIES.get(key);
        int searches = 1, threshold = CACHE_AFTER;
        if (entry != null) {
            threshold = entry.threshold;
            if (entry.file == null) {
                searches = entry.searches + 1;
            } else if (PathWatch.get().generation() == entry.generation) {
                Trace.record(Trace.Concern.PROGRAM_LOOKUP, Answer.CACHED);
                return entry.file;
            } else {
                // Stale: something went through was changed. Cached again only after twice as many searches,
                // so a directory that keeps changing (a busy parent: /tmp, a home directory) costs the
                // caching step below rarely, and the search alone otherwise.
                threshold = Math.min(MAX_THRESHOLD, 2 * threshold);
            }
        }
        Trace.record(Trace.Concern.PROGRAM_LOOKUP, Answer.SEARCHED);
        // Due to be cached: the candidates probed are collected for the watch, where there is one (without
        // inotify to be had, every search is made as it is, with nothing collected).
        boolean watching = SEARCHES.get() >= WATCH_AFTER || SEARCHES.incrementAndGet() >= WATCH_AFTER;
        PathWatch watch = searches >= threshold && watching ? PathWatch.get() : null;
        List<byte[]> probed = watch != null ? new ArrayList<>() : null;
        byte[] file = ProgramLookup.search(name, path, pwd, probed);
        if (watch == null || file == null) {
            remember(key, new Entry(null, -1, searches, threshold));
            return file;
        }
        // Kept only if nothing changed from before the watches were added to after the second search: a
        // change read meanwhile (by any thread) may have been a watched directory replaced under us.
        long before = watch.generation();
        if (before >= 0 && watch.watch(probed)) {
            long generation = watch.generation(); // what changes after this is in the watch's queue
            byte[] again = ProgramLookup.search(name, path, pwd, null);
            if (generation == before && Arrays.equals(file, again)) {
                remember(key, new Entry(again, generation, searches, threshold));
                return again;
            }
            file = again;
        }
        remember(key, new Entry(null, -1, 1, Math.min(MAX_THRESHOLD, 2 * threshold))); // not cacheable now
        return file;
    }

    private static void remember(Key key, Entry entry) {
        if (ENTRIES.size() >= LIMIT) ENTRIES.clear();
        ENTRIES.put(key, entry);
    }

    /** A search's question: the name, the PATH and the working directory relative entries are taken against. */
    private static final class Key {
        final byte[] name, path, pwd;
        private final int hash;

        Key(byte[] name, byte[] path, byte[] pwd) {
            this.name = name;
            this.path = path;
            this.pwd = pwd;
            this.hash = (Arrays.hashCode(name) * 31 + Arrays.hashCode(path)) * 31 + Arrays.hashCode(pwd);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) return false;
            Key k = (Key) o;
            return hash == k.hash && Arrays.equals(name, k.name) && Arrays.equals(path, k.path) && Arrays.equals(pwd, k.pwd);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * A search's answer (null until cached) and the watch generation it holds for; how often it was searched
     * since it was last cached, and after how many searches it is cached.
     */
    private static final class Entry {
        final byte[] file;
        final long generation;
        final int searches, threshold;

        Entry(byte[] file, long generation, int searches, int threshold) {
            this.file = file;
            this.generation = generation;
            this.searches = searches;
            this.threshold = threshold;
        }
    }
}

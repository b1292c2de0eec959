package org.posixspawn.jruby.os.lookup;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.InotifyCalls;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.platform.Strategy;

/**
 * Tells {@link ProgramCache} whether a directory a PATH search went through may have changed (Linux): every
 * directory the kernel traverses to resolve each probed {@code entry/name} (symbolic links followed, as the
 * kernel follows them) is watched with inotify for entries created, removed, renamed or changed in mode,
 * and for its own removal, rename or mode change; the mount table is watched through /proc/self/mountinfo.
 * A change anywhere makes {@link #generation} move on, which every cached search was made under.
 * <p>
 * The check a cached search costs is one poll(2) of both descriptors, without sleeping: inotify queues an
 * event before the call that made the change returns, so a change made before a spawn starts is always
 * seen by it, from any thread. {@link #generation} is a sequence lock: odd while the events are being read,
 * so a thread that finds the queue already emptied by another never trusts an older generation.
 * (The mount table's flag is cleared by the poll that sees it, before that thread has moved the generation
 * on: a spawn on another thread in that microsecond may still use the search made before the mount.)
 */
final class PathWatch {
    private static final int MASK = Constants.IN_ATTRIB | Constants.IN_MOVED_FROM | Constants.IN_MOVED_TO | Constants.IN_CREATE
            | Constants.IN_DELETE | Constants.IN_DELETE_SELF | Constants.IN_MOVE_SELF | Constants.IN_ONLYDIR | Constants.IN_DONT_FOLLOW;
    private static final int EVENTS = 16 << 10;
    /** Linux's limit of symbolic links in one resolution. */
    private static final int MAX_LINKS = 40;
    private static final byte[] ROOT = {'/'};

    private final InotifyCalls calls;
    private final jnr.ffi.Runtime runtime;
    private final int inotify, mounts;
    private final AtomicLong generation = new AtomicLong();
    private final Map<Dir, Integer> watched = new ConcurrentHashMap<>();
    private final Map<Integer, Dir> byDescriptor = new ConcurrentHashMap<>();

    private PathWatch(InotifyCalls calls, int inotify, int mounts) {
        this.calls = calls;
        this.runtime = jnr.ffi.Runtime.getRuntime(calls);
        this.inotify = inotify;
        this.mounts = mounts;
    }

    /** The watch, made on first use; null where there is none (not Linux, or no inotify descriptor to be had). */
    static PathWatch get() {
        return Holder.WATCH;
    }

    private static final class Holder {
        static final PathWatch WATCH = create();
    }

    private static PathWatch create() {
        if (Native.PROFILE == null || Native.PROFILE.pathCache != Strategy.PathCache.INOTIFY) return null;
        InotifyCalls calls = LibraryLoader.create(InotifyCalls.class).load(Platform.getNativePlatform().getStandardCLibraryName());
        int inotify = calls.inotify_init1(Constants.IN_NONBLOCK | Constants.IN_CLOEXEC);
        if (inotify < 0) return null;
        int mounts;
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(32))) {
            mounts = Native.libc.open(mem.cString("/proc/self/mountinfo".getBytes()), Constants.O_RDONLY | Constants.O_CLOEXEC, 0);
        }
        if (mounts < 0) {
            Native.libc.close(inotify);
            return null;
        }
        return new PathWatch(calls, inotify, mounts);
    }

    /**
     * The generation a search made now is valid under, after reading any change waiting; -1 while another thread
     * is reading changes (then nothing is trusted or cached).
     */
    long generation() {
        if (changed()) refresh();
        long g = generation.get();
        return (g & 1) == 0 ? g : -1;
    }

    /**
     * Whether either descriptor has something waiting (-1, EINTR..., too: the safe way). The pollfd pair is
     * this call's own block (poll writes the results into it): a malloc and a free beside a system call,
     * and no memory kept per thread.
     */
    private boolean changed() {
        try (NativeBlock mem = new NativeBlock(2L * Constants.POLLFD_SIZE)) {
            Pointer pollfds = mem.reserve(2L * Constants.POLLFD_SIZE);
            pollfds.putInt(0, inotify);
            pollfds.putShort(4, Constants.POLLIN);
            pollfds.putShort(6, (short) 0);
            pollfds.putInt(Constants.POLLFD_SIZE, mounts);
            pollfds.putShort(Constants.POLLFD_SIZE + 4, Constants.POLLPRI);
            pollfds.putShort(Constants.POLLFD_SIZE + 6, (short) 0);
            return calls.poll(pollfds, 2, 0) != 0;
        }
    }

    /** Reads every waiting event, forgetting the watches the kernel dropped; the generation moves on by two. */
    private synchronized void refresh() {
        generation.incrementAndGet();
        try (NativeBlock mem = new NativeBlock(EVENTS)) {
            Pointer events = mem.reserve(EVENTS);
            long n;
            while ((n = calls.read(inotify, events, EVENTS)) > 0) {
                for (long at = 0; at + 16 <= n; at += 16 + events.getInt(at + 12)) {
                    int mask = events.getInt(at + 4);
                    if ((mask & Constants.IN_Q_OVERFLOW) != 0) {
                        // Events were lost, IN_IGNORED among them perhaps: every directory is watched afresh (adding
                        // a watch a directory still has gives its descriptor back).
                        watched.clear();
                        byDescriptor.clear();
                    } else if ((mask & Constants.IN_IGNORED) != 0) {
                        Dir dir = byDescriptor.remove(events.getInt(at));
                        if (dir != null) watched.remove(dir);
                    }
                }
            }
        } finally {
            generation.incrementAndGet();
        }
    }

    /**
     * Watches every directory the resolution of each path goes through. True when all are watched and a second
     * resolution, after the watches were added, went through the same ones: any later change then shows.
     */
    boolean watch(List<byte[]> paths) {
        Set<Dir> dirs = traversed(paths);
        if (dirs == null) return false;
        for (Dir dir : dirs) {
            if (watched.containsKey(dir)) continue;
            int wd;
            try (NativeBlock mem = new NativeBlock(NativeBlock.align(dir.path.length + 1))) {
                wd = calls.inotify_add_watch(inotify, mem.cString(dir.path), MASK);
            }
            if (wd < 0) {
                int errno = LastError.getLastError(runtime);
                // Gone, or no longer a directory, since the resolution: its parent's watch has seen that.
                if (errno == Constants.ENOENT || errno == Constants.ENOTDIR) continue;
                return false; // EACCES, ENOSPC (max_user_watches): searched every time instead
            }
            watched.put(dir, wd);
            byDescriptor.put(wd, dir);
        }
        return dirs.equals(traversed(paths));
    }

    /**
     * The directories the kernel goes through to resolve each (absolute) path, as it resolves them: a symbolic
     * link's target is resolved in its place. A resolution stops where a component is missing, not a
     * directory or not searchable: a change there is an entry of the last directory reached. Null when a
     * path has more links than the kernel follows.
     */
    private Set<Dir> traversed(List<byte[]> paths) {
        Set<Dir> dirs = new LinkedHashSet<>();
        for (byte[] path : paths) {
            dirs.add(new Dir(ROOT));
            Deque<byte[]> todo = new ArrayDeque<>();
            pushComponents(todo, path);
            byte[] current = ROOT;
            int links = 0;
            while (!todo.isEmpty()) {
                byte[] c = todo.pollFirst();
                if (c.length == 0 || (c.length == 1 && c[0] == '.')) continue;
                if (c.length == 2 && c[0] == '.' && c[1] == '.') {
                    current = parent(current);
                    continue;
                }
                byte[] candidate = join(current, c);
                byte[] target = readlink(candidate);
                if (target != null) {
                    if (++links > MAX_LINKS) return null;
                    pushComponents(todo, target);
                    if (target.length > 0 && target[0] == '/') current = ROOT;
                    continue;
                }
                int errno = LastError.getLastError(runtime);
                // Missing, not a directory, not searchable: the resolution ends in current, whose watch sees
                // that change. Anything else (a link too long, ENAMETOOLONG, EIO): not cached.
                if (errno == Constants.ENOENT || errno == Constants.ENOTDIR || errno == Constants.EACCES) break;
                if (errno != Constants.EINVAL) return null;
                if (todo.isEmpty()) break; // the last component: an entry of current
                current = candidate;
                dirs.add(new Dir(current));
            }
        }
        return dirs;
    }

    private static void pushComponents(Deque<byte[]> todo, byte[] path) {
        Deque<byte[]> components = new ArrayDeque<>();
        for (int start = 0, end; start <= path.length; start = end + 1) {
            end = start;
            while (end < path.length && path[end] != '/') end++;
            components.push(Arrays.copyOfRange(path, start, end));
        }
        while (!components.isEmpty()) todo.push(components.pop());
    }

    private static byte[] join(byte[] dir, byte[] name) {
        if (dir.length == 1) {
            byte[] joined = new byte[name.length + 1];
            joined[0] = '/';
            System.arraycopy(name, 0, joined, 1, name.length);
            return joined;
        }
        byte[] joined = Arrays.copyOf(dir, dir.length + 1 + name.length);
        joined[dir.length] = '/';
        System.arraycopy(name, 0, joined, dir.length + 1, name.length);
        return joined;
    }

    private static byte[] parent(byte[] dir) {
        int slash = dir.length - 1;
        while (slash > 0 && dir[slash] != '/') slash--;
        return slash <= 0 ? ROOT : Arrays.copyOf(dir, slash);
    }

    /** A resolved directory's path, by its bytes. */
    private static final class Dir {
        final byte[] path;
        private final int hash;

        Dir(byte[] path) {
            this.path = path;
            this.hash = Arrays.hashCode(path);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Dir && Arrays.equals(path, ((Dir) o).path);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * The target of the symbolic link at {@code file}, or null with errno set (EINVAL: not a link). The path and
     * the target are in this call's own block; errno survives its free, as it does after every other call's.
     */
    private byte[] readlink(byte[] file) {
        long n;
        byte[] target = null;
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(file.length + 1) + Constants.PATH_MAX)) {
            Pointer path = mem.cString(file), link = mem.reserve(Constants.PATH_MAX);
            n = calls.readlink(path, link, Constants.PATH_MAX);
            if (n >= 0 && n < Constants.PATH_MAX) {
                target = new byte[(int) n];
                link.get(0, target, 0, (int) n);
            }
        }
        if (n == Constants.PATH_MAX) LastError.setLastError(runtime, Constants.ENAMETOOLONG); // perhaps cut short: not trusted
        return target;
    }
}

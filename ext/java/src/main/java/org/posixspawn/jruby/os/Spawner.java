package org.posixspawn.jruby.os;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jnr.constants.platform.Errno;
import jnr.ffi.Pointer;
import org.posixspawn.jruby.plan.FileToOpen;
import org.posixspawn.jruby.plan.Redirect;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * Turns a {@link SpawnPlan} into one posix_spawn(3) call: redirect files opened in the parent, then file
 * actions, attributes and the call itself. The plan is carried out from the calling thread, or from the
 * {@link FsThread} when it needs a umask (or a directory and libc has no addchdir_np). Nothing
 * process-wide is changed, and every descriptor and byte of native memory it takes is given back on every
 * path.
 */
public final class Spawner {
    /** Generous upper bounds of posix_spawnattr_t (336 bytes on glibc), posix_spawn_file_actions_t (80) and sigset_t (128). */
    private static final int ATTR_SIZE = 1024, ACTIONS_SIZE = 512, SIGSET_SIZE = 256;
    private static final byte[] SHELL = "/bin/sh".getBytes(StandardCharsets.US_ASCII);
    private static final String PROCESS_CWD = new File("").getAbsolutePath();

    private Spawner() {}

    /** Starts the child the plan describes and returns its pid. */
    public static long spawn(SpawnPlan plan) throws SpawnFailure {
        Native.requireProfile();
        if (plan.setsid && !Features.setsid()) throw new UnsupportedOperationException(Features.SETSID_MISSING);
        Map<FileToOpen, Integer> opened = openRedirectFiles(plan);
        try {
            checkOpen(plan);
            if (!plan.executableFound) throw SpawnFailure.inChild(Native.ENOENT, plan.commandName);
            boolean needsChdir = !plan.cwd.equals(PROCESS_CWD);
            if (plan.rlimits.isEmpty() && plan.umask < 0 && (!needsChdir || Features.addchdir())) {
                long pid = posixSpawn(plan, opened, needsChdir, null);
                Route.record(Route.POSIX_SPAWN);
                return pid;
            }
            FsThread fs = FsThread.get();
            if (fs == null) throw new UnsupportedOperationException(unsupported(plan));
            long pid;
            if (plan.rlimits.isEmpty()) {
                pid = fs.call(() -> {
                    prepareThread(plan);
                    return posixSpawn(plan, opened, false, null);
                });
            } else {
                ResourceLimitGate gate = ResourceLimitGate.get();
                pid = gate.spawn(fs, plan.rlimits, before -> {
                    before.put(fs.children());
                    prepareThread(plan);
                    return posixSpawn(plan, opened, false, gate.path());
                });
            }
            Route.record(Route.FS_THREAD);
            return pid;
        } finally {
            for (int fd : opened.values()) Native.libc.close(fd);
        }
    }

    /**
     * MRI's child fails with EBADF on a redirect source (dup2), then a descriptor to close, that is not open
     * in the parent. posix_spawn ignores a close action on such a descriptor, so both are looked at here.
     */
    private static void checkOpen(SpawnPlan plan) throws SpawnFailure {
        for (Redirect r : plan.redirects) {
            if (r.file == null && !isOpen(r.parentFd)) throw SpawnFailure.inChild(Errno.EBADF.intValue(), "dup2");
        }
        for (int fd : plan.closes) {
            if (!isOpen(fd)) throw SpawnFailure.inChild(Errno.EBADF.intValue(), "close");
        }
    }

    private static boolean isOpen(int fd) {
        return Native.libc.fcntl(fd, Native.F_GETFD, 0) != -1 || Native.errno() != Errno.EBADF.intValue();
    }

    private static String unsupported(SpawnPlan plan) {
        if (!plan.rlimits.isEmpty()) return ":rlimit_* needs Linux (prlimit on a held child); this platform is not";
        if (plan.umask >= 0) return ":umask needs Linux (a thread with its own umask); this platform is not";
        return ":chdir needs posix_spawn_file_actions_addchdir_np or Linux; this platform has neither";
    }

    /** On the FsThread: give it the plan's directory and umask, which the child inherits. */
    private static void prepareThread(SpawnPlan plan) throws SpawnFailure {
        changeDirectoryOfThisThread(plan);
        Native.libc.umask(plan.umask >= 0 ? plan.umask : FsThread.processUmask());
    }

    // MRI: rb_execarg_parent_start1 opens redirect files in the parent, so their errors name the path.
    private static Map<FileToOpen, Integer> openRedirectFiles(SpawnPlan plan) throws SpawnFailure {
        Map<FileToOpen, Integer> opened = new IdentityHashMap<>();
        for (Redirect r : plan.redirects) {
            if (r.file == null || opened.containsKey(r.file)) continue;
            int fd = openCloexec(r.file);
            if (fd < 0) {
                int errno = Native.errno();
                for (int open : opened.values()) Native.libc.close(open);
                throw new SpawnFailure(errno, r.file.displayPath);
            }
            opened.put(r.file, fd);
        }
        return opened;
    }

    private static int openCloexec(FileToOpen file) {
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(file.path.length + 1))) {
            Pointer path = mem.cString(file.path);
            int fd;
            do {
                fd = Native.libc.open(path, file.flags | Native.O_CLOEXEC, file.perm);
            } while (fd < 0 && Native.errno() == Native.EINTR);
            return fd;
        }
    }

    private static void changeDirectoryOfThisThread(SpawnPlan plan) throws SpawnFailure {
        byte[] dir = plan.cwd.getBytes(StandardCharsets.UTF_8);
        try (NativeBlock mem = new NativeBlock(NativeBlock.align(dir.length + 1))) {
            if (Native.libc.chdir(mem.cString(dir)) != 0) throw SpawnFailure.inChild(Native.errno(), directoryCulprit(plan));
        }
    }

    /** One posix_spawn from this thread; {@code gate}, if not null, is a FIFO the child opens first (see ResourceLimitGate). */
    private static long posixSpawn(SpawnPlan plan, Map<FileToOpen, Integer> opened, boolean chdirAction, byte[] gate) throws SpawnFailure {
        byte[] cwd = plan.cwd.getBytes(StandardCharsets.UTF_8);
        long size = NativeBlock.align(8) + ATTR_SIZE + ACTIONS_SIZE + 2L * SIGSET_SIZE + NativeBlock.sizeOfArray(plan.argv)
                + NativeBlock.sizeOfArray(plan.envp) + NativeBlock.align(plan.executable.length + 1) + NativeBlock.align(cwd.length + 1)
                + (gate == null ? 0 : NativeBlock.align(gate.length + 1))
                + (plan.terminal == null ? 0 : NativeBlock.align(plan.terminal.length + 1));
        try (NativeBlock mem = new NativeBlock(size)) {
            Pointer pid = mem.reserve(8);
            Pointer attr = mem.reserve(ATTR_SIZE);
            Pointer actions = mem.reserve(ACTIONS_SIZE);
            check(Native.libc.posix_spawnattr_init(attr), plan);
            try {
                check(Native.libc.posix_spawn_file_actions_init(actions), plan);
                try {
                    setAttributes(attr, plan, mem);
                    addFileActions(actions, plan, opened, chdirAction ? mem.cString(cwd) : null, gate == null ? null : mem.cString(gate),
                            plan.terminal == null ? null : mem.cString(plan.terminal));
                    Pointer envp = mem.cStringArray(plan.envp);
                    int err = Native.libc.posix_spawn(pid, mem.cString(plan.executable), actions, attr, mem.cStringArray(plan.argv), envp);
                    if (err == Native.ENOEXEC) err = spawnWithShell(pid, plan, actions, attr, envp);
                    if (err != 0) throw failure(err, plan);
                    return pid.getInt(0);
                } finally {
                    Native.libc.posix_spawn_file_actions_destroy(actions);
                }
            } finally {
                Native.libc.posix_spawnattr_destroy(attr);
            }
        }
    }

    // MRI: exec_with_sh: a file without a #! line runs as "sh file args..."
    private static int spawnWithShell(Pointer pid, SpawnPlan plan, Pointer actions, Pointer attr, Pointer envp) {
        List<byte[]> argv = new ArrayList<>(plan.argv.size() + 1);
        argv.add("sh".getBytes(StandardCharsets.US_ASCII));
        argv.add(plan.executable);
        argv.addAll(plan.argv.subList(1, plan.argv.size()));
        try (NativeBlock mem = new NativeBlock(NativeBlock.sizeOfArray(argv) + NativeBlock.align(SHELL.length + 1))) {
            return Native.libc.posix_spawn(pid, mem.cString(SHELL), actions, attr, mem.cStringArray(argv), envp);
        }
    }

    /** The child starts with no signal blocked and every signal at its default action, whatever the JVM set. */
    private static void setAttributes(Pointer attr, SpawnPlan plan, NativeBlock mem) throws SpawnFailure {
        short flags = (short) (Native.POSIX_SPAWN_SETSIGMASK | Native.POSIX_SPAWN_SETSIGDEF);
        Pointer none = mem.reserve(SIGSET_SIZE), all = mem.reserve(SIGSET_SIZE);
        Native.libc.sigemptyset(none);
        // Every bit, not sigfillset: glibc's leaves out its internal signals (32 and 33), which its
        // posix_spawn then sets to SIG_IGN in the child, and exec keeps them ignored.
        byte[] everySignal = new byte[SIGSET_SIZE];
        Arrays.fill(everySignal, (byte) 0xff);
        all.put(0, everySignal, 0, everySignal.length);
        check(Native.libc.posix_spawnattr_setsigmask(attr, none), plan);
        check(Native.libc.posix_spawnattr_setsigdefault(attr, all), plan);
        if (plan.setsid) flags |= Native.POSIX_SPAWN_SETSID;
        if (plan.pgroup >= 0) {
            flags |= Native.POSIX_SPAWN_SETPGROUP;
            check(Native.libc.posix_spawnattr_setpgroup(attr, plan.pgroup), plan);
        }
        check(Native.libc.posix_spawnattr_setflags(attr, flags), plan);
    }

    /**
     * MRI: rb_execarg_run_options' order: redirects (all at once), :close, [:child, fd]; then what MRI
     * leaves to close-on-exec and JRuby cannot: closing everything else; then the directory.
     */
    private static void addFileActions(Pointer actions, SpawnPlan plan, Map<FileToOpen, Integer> opened, Pointer chdir, Pointer gate,
            Pointer terminal) throws SpawnFailure {
        int n = plan.redirects.size();
        int[] source = new int[n];
        Set<Integer> targets = new HashSet<>();
        int highest = plan.highestChildFd();
        for (int i = 0; i < n; i++) {
            Redirect r = plan.redirects.get(i);
            source[i] = r.file != null ? opened.get(r.file) : r.parentFd;
            targets.add(r.childFd);
            highest = Math.max(highest, source[i]);
        }
        for (int[] d : plan.childDups) highest = Math.max(highest, d[1]);
        for (int fd : plan.inherited) highest = Math.max(highest, fd); // the spare ones below must not land on them

        int spare = highest + 1;
        if (gate != null) {
            // Blocks here until ResourceLimitGate has set the limits; on a descriptor no redirect uses.
            check(Native.libc.posix_spawn_file_actions_addopen(actions, spare, gate, Native.O_RDONLY, 0), plan);
            check(Native.libc.posix_spawn_file_actions_addclose(actions, spare), plan);
        }
        if (terminal != null) PtyActions.add(actions, terminal, plan);
        // A source that another redirect overwrites is first copied above every fd in play (MRI: run_exec_dup2's tmp fds).
        Map<Integer, Integer> moved = new HashMap<>();
        for (int i = 0; i < n; i++) {
            int from = source[i];
            if (from != plan.redirects.get(i).childFd && targets.contains(from) && !moved.containsKey(from)) {
                check(Native.libc.posix_spawn_file_actions_adddup2(actions, from, spare), plan);
                moved.put(from, spare++);
            }
        }
        for (int i = 0; i < n; i++) {
            int from = moved.getOrDefault(source[i], source[i]);
            check(Native.libc.posix_spawn_file_actions_adddup2(actions, from, plan.redirects.get(i).childFd), plan);
        }
        for (int temporary : moved.values()) check(Native.libc.posix_spawn_file_actions_addclose(actions, temporary), plan);
        for (int fd : plan.closes) check(Native.libc.posix_spawn_file_actions_addclose(actions, fd), plan);
        for (int[] d : plan.childDups) check(Native.libc.posix_spawn_file_actions_adddup2(actions, d[1], d[0]), plan);

        if (plan.closeOthers) {
            Set<Integer> keep = new HashSet<>(targets);
            for (int[] d : plan.childDups) keep.add(d[0]);
            keep.addAll(plan.inherited);
            int highestKept = 2;
            for (int fd : keep) highestKept = Math.max(highestKept, fd);
            for (int fd = 3; fd <= highestKept; fd++) {
                if (!keep.contains(fd)) check(Native.libc.posix_spawn_file_actions_addclose(actions, fd), plan);
            }
            if (Features.addclosefrom()) {
                check(Native.libc.posix_spawn_file_actions_addclosefrom_np(actions, highestKept + 1), plan);
            } else {
                for (int fd : openDescriptors()) {
                    if (fd > highestKept) check(Native.libc.posix_spawn_file_actions_addclose(actions, fd), plan);
                }
            }
        }
        if (chdir != null) check(Native.libc.posix_spawn_file_actions_addchdir_np(actions, chdir), plan);
    }

    /** This process's open descriptors now, for libcs without addclosefrom_np. */
    private static Set<Integer> openDescriptors() {
        String[] names = new File(Native.LINUX ? "/proc/self/fd" : "/dev/fd").list();
        Set<Integer> fds = new TreeSet<>();
        if (names != null) for (String name : names) fds.add(Integer.parseInt(name));
        return fds;
    }

    private static void check(int err, SpawnPlan plan) throws SpawnFailure {
        if (err != 0) throw failure(err, plan);
    }

    /**
     * posix_spawn reports one errno for every step. When the child was to change directory and that
     * directory is not usable, the error is the directory's (as MRI names :chdir in its message);
     * otherwise it is the program's.
     */
    private static SpawnFailure failure(int err, SpawnPlan plan) {
        if (err == Errno.EBADF.intValue()) return SpawnFailure.inChild(err, "dup2"); // a redirect source that is not open, as MRI says
        if (err == Errno.EPERM.intValue() && plan.pgroup > 0) return SpawnFailure.inChild(err, "setpgid"); // a group to join that is not ours
        if (!plan.cwd.equals(PROCESS_CWD)) {
            File dir = new File(plan.cwd);
            int dirErr = !dir.exists() ? Native.ENOENT
                    : !dir.isDirectory() ? Errno.ENOTDIR.intValue()
                    : !dir.canExecute() ? Errno.EACCES.intValue() : 0;
            if (dirErr != 0) return SpawnFailure.inChild(dirErr, directoryCulprit(plan));
        }
        return SpawnFailure.inChild(err, plan.commandName);
    }

    private static String directoryCulprit(SpawnPlan plan) {
        return plan.chdirAsGiven != null ? plan.chdirAsGiven : plan.cwd;
    }
}

package org.posixspawn.jruby.os.spawn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.NativeBlock;
import org.posixspawn.jruby.os.libc.NonBlockingEnds;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.lookup.ProgramLookup;
import org.posixspawn.jruby.os.platform.PlatformProfile;
import org.posixspawn.jruby.plan.ChildDup;
import org.posixspawn.jruby.plan.PathName;
import org.posixspawn.jruby.plan.Redirect;
import org.posixspawn.jruby.plan.ResourceLimit;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * Turns a {@link SpawnPlan} into one posix_spawn(3) call: the program looked up on PATH, redirect files
 * opened in the parent, then attributes, file actions and the call itself. The plan is carried out from the
 * calling thread, or from the {@link FsThread} when it needs a umask, rlimits (through the
 * {@link ResourceLimitGate}), or a directory where libc has no addchdir_np ({@link SpawnRoute#choose}). Nothing
 * process-wide is changed, and every descriptor and byte of native memory it takes is given back on every path.
 */
public final class Spawner {
    private static final byte[] SHELL = {'/', 'b', 'i', 'n', '/', 's', 'h'};

    private Spawner() {}

    /** Starts the child the plan describes and returns its pid. */
    public static long spawn(SpawnPlan plan) throws SpawnError {
        Native.requireProfile();
        if (plan.setsid && !Features.setsid()) throw SpawnError.unsupported(Features.SETSID_MISSING);
        try (RedirectFiles files = RedirectFiles.open(plan)) {
            boolean needsChdir = SpawnFailure.changesDirectory(plan.cwd);
            SpawnError fault = descriptorFault(plan);
            // the FS thread would refuse the directory before the child (and its setpgid and setrlimit) exists
            if (fault == null && plan.hasEarlySteps()) fault = SpawnFailure.directoryFault(plan);
            byte[] executable = fault != null ? null
                    : programPath(ProgramLookup.find(plan.program.bytes, plan.searchPath, plan.pwd), plan.cwd, needsChdir, Native.PROFILE);
            if (fault == null && executable == null) fault = SpawnFailure.of(Constants.ENOENT, plan); // a :chdir MRI's child fails at first wins
            if (fault != null) throw firstFault(plan, fault);
            return start(plan, executable, files, needsChdir);
        }
    }

    /** Carries the plan out on its route: posix_spawn from this thread, or from the FS thread (through the gate for rlimits). */
    private static long start(SpawnPlan plan, byte[] executable, RedirectFiles files, boolean needsChdir) throws SpawnError {
        SpawnRoute route = SpawnRoute.choose(plan, needsChdir);
        Closing closing = Closing.choose(plan);
        long pid;
        if (route == SpawnRoute.POSIX_SPAWN) {
            pid = posixSpawn(plan, executable, files, closing, needsChdir, null, -1);
        } else {
            FsThread fs = FsThread.get();
            if (fs == null) throw SpawnError.unsupported(refusal(plan, Native.PROFILE));
            if (plan.rlimits.isEmpty()) {
                pid = fs.call(() -> {
                    fs.prepare(plan);
                    return posixSpawn(plan, executable, files, closing, false, null, -1);
                });
            } else {
                pid = ResourceLimitGate.get().spawn(fs, plan, (gate, gateFd) -> posixSpawn(plan, executable, files, closing, false, gate, gateFd));
            }
        }
        route.record();
        closing.record();
        return pid;
    }

    /**
     * Which error a plan with {@code later}, a fault the parent found in a step MRI's child takes after setpgid and
     * setrlimit (a redirect source or a descriptor to close not open, the directory, the program), raises: MRI's
     * child runs setpgid, then setrlimit, then the rest (rb_execarg_run_options), so a refused group or limit wins.
     * Whether they are refused is known only by trying: a child of those two steps alone is started, and its exec,
     * of "", fails (ENOENT) if they passed.
     */
    private static SpawnError firstFault(SpawnPlan plan, SpawnError later) {
        if (!plan.hasEarlySteps()) return later;
        SpawnPlan early = plan.earlySteps();
        try (RedirectFiles none = RedirectFiles.open(early)) {
            reap(start(early, new byte[0], none, SpawnFailure.changesDirectory(early.cwd))); // a posix_spawn that returns before the exec (qemu-user)
            return later;
        } catch (SpawnError e) {
            // ENOENT: the exec of "". EBADF: the gate's own dup2 of stdin under a :rlimit_nofile of 0, once set (that
            // plan has no redirects). Either way setpgid and setrlimit passed.
            return e.errno == Constants.ENOENT || e.errno == Constants.EBADF ? later : e;
        }
    }

    /** waitpid(pid, 0) of a child that ran nothing, retried through EINTR. */
    static void reap(long pid) {
        while (Native.extra().waitpid(pid, null, 0) < 0 && Native.errno() == Constants.EINTR) {
            // retry
        }
    }

    /** Diagnostics: whether the rlimit gate keeps each child it holds until told otherwise (see ResourceLimitGate's lifeline). */
    public static void holdAtGate(boolean hold) {
        ResourceLimitGate.holding = hold;
    }

    /**
     * MRI's child fails with EBADF on a redirect source (dup2), then a descriptor to close, that is not open
     * in the parent, and on a redirect or [:child, fd] onto a number at or above the :rlimit_nofile it has just
     * set (dup2). posix_spawn ignores a close action on a descriptor not open, so these are looked at here:
     * the error, or null.
     */
    private static SpawnError descriptorFault(SpawnPlan plan) {
        long limit = Long.MAX_VALUE; // the child's soft RLIMIT_NOFILE under :rlimit_nofile (RLIM_INFINITY is -1: none)
        for (ResourceLimit r : plan.rlimits) if (r.name.equals("rlimit_nofile") && r.soft >= 0) limit = r.soft;
        for (Redirect r : plan.redirects) {
            if (r.file == null && !isOpen(r.parentFd) || r.childFd >= limit) return SpawnError.inChild(Constants.EBADF, PathName.of("dup2"));
        }
        for (int fd : plan.closes) {
            if (!isOpen(fd)) return SpawnError.inChild(Constants.EBADF, PathName.of("close"));
        }
        for (ChildDup d : plan.childDups) {
            if (d.childFd >= limit) return SpawnError.inChild(Constants.EBADF, PathName.of("dup2"));
        }
        return null;
    }

    private static boolean isOpen(int fd) {
        return Native.libc.fcntl(fd, Constants.F_GETFD, 0) != -1 || Native.errno() != Constants.EBADF;
    }

    /** Why a plan that needs the FsThread cannot run where there is none (not Linux), naming the option and the platform. */
    static String refusal(SpawnPlan plan, PlatformProfile profile) {
        if (!plan.rlimits.isEmpty()) return ":rlimit_* needs Linux (prlimit on a held child); this is " + profile.name;
        if (plan.umask >= 0) return ":umask needs Linux (a thread with its own umask); this is " + profile.name;
        return ":chdir needs posix_spawn_file_actions_addchdir_np (macOS 10.15+, FreeBSD 13.1+), which this " + profile.name + " lacks";
    }

    /**
     * The path posix_spawn is given for the program {@code found}: as it is, but where the profile says so
     * (macOS), a relative one under :chdir is joined to that (absolute) directory in the parent.
     */
    static byte[] programPath(byte[] found, byte[] cwd, boolean needsChdir, PlatformProfile profile) {
        if (found == null || found[0] == '/' || !needsChdir || !profile.joinsRelativeProgramToChdir) return found;
        byte[] joined = Arrays.copyOf(cwd, cwd.length + 1 + found.length);
        joined[cwd.length] = '/';
        System.arraycopy(found, 0, joined, cwd.length + 1, found.length);
        return joined;
    }

    /**
     * One posix_spawn from this thread; {@code gate}, if not null, is a FIFO the child opens first, on
     * {@code gateFd} (see ResourceLimitGate). The envp is the kept native one when ENV is unchanged (NativeEnvironment), and a
     * plain plan uses the shared attributes and file actions (PlainSetup); anything else is set up here.
     */
    static long posixSpawn(SpawnPlan plan, byte[] executable, RedirectFiles files, Closing closing, boolean chdirAction, byte[] gate,
            int gateFd) throws SpawnError {
        Pointer[] plain = PlainSetup.applies(plan, closing, chdirAction, gate) ? PlainSetup.get(plan, files) : null;
        blockingStdio(plan, files);
        long size = NativeBlock.align(8) + NativeBlock.sizeOfArray(plan.argv) + NativeBlock.align(executable.length + 1)
                + (plain != null ? 0 : Constants.SPAWNATTR_SIZE + Constants.FILE_ACTIONS_SIZE + 2L * Constants.SIGSET_SIZE
                        + NativeBlock.align(plan.cwd.length + 1) + (gate == null ? 0 : NativeBlock.align(gate.length + 1))
                        + (plan.terminal == null ? 0 : NativeBlock.align(plan.terminal.length + 1)));
        try (NativeEnvironment envp = NativeEnvironment.of(plan.envp); NativeBlock mem = new NativeBlock(size)) {
            Pointer pid = mem.reserve(8);
            if (plain != null) return call(pid, plan, executable, plain[1], plain[0], envp.envp, mem, false);
            Pointer attr = mem.reserve(Constants.SPAWNATTR_SIZE);
            Pointer actions = mem.reserve(Constants.FILE_ACTIONS_SIZE);
            SpawnFailure.check(Native.libc.posix_spawnattr_init(attr), plan);
            try {
                SpawnFailure.check(Native.libc.posix_spawn_file_actions_init(actions), plan);
                try {
                    SpawnAttributes.set(Native.libc, Native.PROFILE, attr, plan, closing, mem);
                    // From the listing of open descriptors to the child's start, no pipe of another thread may be inheritable.
                    boolean gap = closing.waitsForTheCloexecGap();
                    if (gap) Pipe.CLOEXEC_GAP.readLock().lock();
                    try {
                        FileActions.add(Native.libc, actions, plan, files, closing, gate == null ? null : mem.cString(gate), gateFd,
                                plan.terminal == null ? null : mem.cString(plan.terminal), chdirAction ? mem.cString(plan.cwd) : null);
                        return call(pid, plan, executable, actions, attr, envp.envp, mem, gate != null);
                    } finally {
                        if (gap) Pipe.CLOEXEC_GAP.readLock().unlock();
                    }
                } finally {
                    Native.libc.posix_spawn_file_actions_destroy(actions);
                }
            } finally {
                Native.libc.posix_spawnattr_destroy(attr);
            }
        }
    }

    /**
     * MRI's child clears O_NONBLOCK on its 0, 1 and 2 (NonBlockingEnds): here, on the gem's pipe end each of
     * them will be, unless it is closed or the terminal's.
     */
    private static void blockingStdio(SpawnPlan plan, RedirectFiles files) {
        for (int fd = 0; fd <= 2; fd++) {
            int source = plan.terminal != null || plan.closes.contains(fd) ? -1 : sourceOf(fd, plan, files);
            for (ChildDup d : plan.childDups) if (d.childFd == fd) source = sourceOf(d.sourceFd, plan, files);
            if (source >= 0) NonBlockingEnds.clearForChildStdio(source);
        }
    }

    /** The parent's descriptor that is the child's {@code childFd} after the redirects. */
    private static int sourceOf(int childFd, SpawnPlan plan, RedirectFiles files) {
        int source = childFd;
        for (Redirect r : plan.redirects) if (r.childFd == childFd) source = files.sourceOf(r);
        return source;
    }

    /** The posix_spawn call itself (and the shell's, for a script without #!, once the rlimit gate is shut); returns the pid. */
    private static long call(Pointer pid, SpawnPlan plan, byte[] executable, Pointer actions, Pointer attr, Pointer envp, NativeBlock mem,
            boolean gated) throws SpawnError {
        int err = Native.libc.posix_spawn(pid, mem.cString(executable), actions, attr, mem.cStringArray(plan.argv), envp);
        if (err == Constants.ENOEXEC) {
            if (gated) ResourceLimitGate.awaitNoWriter();
            err = spawnWithShell(pid, plan, executable, actions, attr, envp);
        }
        SpawnFailure.check(err, plan);
        return pid.getInt(0);
    }

    // MRI: exec_with_sh: a file without a #! line runs as "sh file args..."
    private static int spawnWithShell(Pointer pid, SpawnPlan plan, byte[] executable, Pointer actions, Pointer attr, Pointer envp) {
        List<byte[]> argv = new ArrayList<>(plan.argv.size() + 1);
        argv.add(new byte[] {'s', 'h'});
        argv.add(executable);
        argv.addAll(plan.argv.subList(1, plan.argv.size()));
        try (NativeBlock mem = new NativeBlock(NativeBlock.sizeOfArray(argv) + NativeBlock.align(SHELL.length + 1))) {
            return Native.libc.posix_spawn(pid, mem.cString(SHELL), actions, attr, mem.cStringArray(argv), envp);
        }
    }
}

package org.posixspawn.jruby.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Everything needed to start one child, with no Ruby objects left in it and every path, name and string as
 * the bytes the kernel is to get: what {@link SpawnArguments} makes of Process.spawn's arguments, and all
 * that the platform layer turns into system calls (the PATH search included). Immutable.
 */
public final class SpawnPlan {
    /** The program as the caller named it (or /bin/sh for a shell command line): what is looked up, and what errors name. */
    public final PathName program;
    /** The command as Kernel#system's exception: true names it: the shell command line, else {@link #program}. */
    public final PathName command;
    /** The PATH to look the program up on (the env hash's, else ENV's), or null when there is none. */
    public final byte[] searchPath;
    /** JRuby's Dir.pwd when the arguments were read: relative PATH entries are resolved against it. */
    public final byte[] pwd;
    public final List<byte[]> argv;
    /** NAME=VALUE, unmodifiable; while ENV is unchanged every plan without an env hash shares the same list. */
    public final List<byte[]> envp;
    /** Absolute directory the child starts in: :chdir, else JRuby's Dir.pwd. */
    public final byte[] cwd;
    /** :chdir as the caller wrote it (errors name it), or null when cwd is Dir.pwd. */
    public final PathName chdirAsGiven;
    /** Child fd = parent fd or opened file, all applied at once (MRI's fd_dup2 and fd_open). */
    public final List<Redirect> redirects;
    /** Child fds closed after the redirects (value :close). */
    public final List<Integer> closes;
    /** Child fd = another child fd after the redirects (value [:child, fd]). */
    public final List<ChildDup> childDups;
    /** -1: inherit; 0: new group; otherwise the group to join. */
    public final long pgroup;
    /** :setsid, the child leads a new session (and its own process group); pgroup is then -1. */
    public final boolean setsid;
    /** A terminal's path the child opens (without O_NOCTTY) as 0, 1 and 2 before the redirects, or null; implies setsid. */
    public final byte[] terminal;
    /** -1: inherit. */
    public final int umask;
    public final List<ResourceLimit> rlimits;
    /** Close every descriptor but 0, 1, 2, the redirected ones and {@link #inherited} (:close_others => false keeps them all). */
    public final boolean closeOthers;
    /**
     * Descriptors the child keeps even so: without :close_others, those of the Ruby IOs the program set
     * close_on_exec = false ({@link InheritableIOs}), which is what MRI's default hands on. Sorted.
     */
    public final List<Integer> inherited;

    SpawnPlan(Builder b) {
        program = b.program;
        command = b.command;
        searchPath = b.searchPath;
        pwd = b.pwd;
        argv = Collections.unmodifiableList(new ArrayList<>(b.argv));
        envp = b.envp;
        cwd = b.cwd;
        chdirAsGiven = b.chdirAsGiven;
        redirects = Collections.unmodifiableList(new ArrayList<>(b.redirects));
        closes = Collections.unmodifiableList(new ArrayList<>(b.closes));
        childDups = Collections.unmodifiableList(new ArrayList<>(b.childDups));
        pgroup = b.pgroup;
        setsid = b.setsid;
        terminal = b.terminal;
        umask = b.umask;
        rlimits = Collections.unmodifiableList(new ArrayList<>(b.rlimits));
        closeOthers = b.closeOthers;
        inherited = Collections.unmodifiableList(new ArrayList<>(b.inherited));
    }

    /**
     * The plan Child runs (os.Capture), made in one copy: the child's fds 0, 1, 2... from the parent's
     * {@code parentFds} (replacing whatever the caller said about them), and with {@code newProcessGroup} in a
     * group of its own (Child's :pgroup_kill; a session leader already leads one).
     */
    public SpawnPlan withStdio(int[] parentFds, boolean newProcessGroup) {
        Builder b = toBuilder();
        for (int fd = 0; fd < parentFds.length; fd++) {
            int childFd = fd;
            b.redirects.removeIf(r -> r.childFd == childFd);
            b.closes.removeIf(closed -> closed == childFd);
            b.childDups.removeIf(d -> d.childFd == childFd);
            b.redirects.add(Redirect.fromParentFd(childFd, parentFds[childFd]));
        }
        if (newProcessGroup && !setsid) b.pgroup = 0;
        return b.build();
    }

    /**
     * The same plan with the child leading a new session whose controlling terminal is {@code path}: setsid
     * comes before the file actions, so the first terminal the child opens is its controlling one.
     */
    public SpawnPlan withControllingTerminal(byte[] path) {
        Builder b = toBuilder();
        b.setsid = true;
        b.terminal = path.clone();
        return b.build();
    }

    /** Whether the plan has a step MRI's child takes before its redirects that can fail: setpgid to join a group, setrlimit. */
    public boolean hasEarlySteps() {
        return pgroup > 0 || !rlimits.isEmpty();
    }

    /**
     * Those steps alone (MRI: rb_execarg_run_options, setpgid then setrlimit), in "/", for a program that cannot
     * exist (an empty path): a plan started only to learn whether they fail.
     */
    public SpawnPlan earlySteps() {
        Builder b = new Builder();
        b.program = program;
        b.command = command;
        b.pwd = pwd;
        b.argv.addAll(argv);
        b.envp = envp;
        b.cwd = new byte[] {'/'};
        b.pgroup = pgroup;
        b.rlimits.addAll(rlimits);
        return b.build();
    }

    /** The directory the child is to start in, as errors name it: :chdir as given, else Dir.pwd. */
    public PathName directoryCulprit() {
        return chdirAsGiven != null ? chdirAsGiven : new PathName(cwd, "UTF-8");
    }

    /** The highest child fd the plan names, or 2. */
    public int highestChildFd() {
        int max = 2;
        for (Redirect r : redirects) max = Math.max(max, r.childFd);
        for (int fd : closes) max = Math.max(max, fd);
        for (ChildDup d : childDups) max = Math.max(max, d.childFd);
        return max;
    }

    Builder toBuilder() {
        Builder b = new Builder();
        b.program = program;
        b.command = command;
        b.searchPath = searchPath;
        b.pwd = pwd;
        b.argv.addAll(argv);
        b.envp = envp;
        b.cwd = cwd;
        b.chdirAsGiven = chdirAsGiven;
        b.redirects.addAll(redirects);
        b.closes.addAll(closes);
        b.childDups.addAll(childDups);
        b.pgroup = pgroup;
        b.setsid = setsid;
        b.terminal = terminal;
        b.umask = umask;
        b.rlimits.addAll(rlimits);
        b.closeOthers = closeOthers;
        b.inherited.addAll(inherited);
        return b;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("SpawnPlan{program=").append(program).append(", argv=[");
        for (int i = 0; i < argv.size(); i++) s.append(i == 0 ? "" : ", ").append(new PathName(argv.get(i), "ASCII-8BIT"));
        s.append("], cwd=").append(new PathName(cwd, "ASCII-8BIT")).append(", redirects=").append(redirects);
        s.append(", closes=").append(closes).append(", childDups=").append(childDups);
        s.append(", pgroup=").append(pgroup).append(", setsid=").append(setsid).append(", umask=").append(umask);
        s.append(", rlimits=").append(rlimits).append(", closeOthers=").append(closeOthers);
        s.append(", inherited=").append(inherited).append('}');
        return s.toString();
    }

    /** Mutable twin used while arguments are being read. */
    static final class Builder {
        PathName program;
        PathName command;
        byte[] searchPath;
        byte[] pwd;
        final List<byte[]> argv = new ArrayList<>();
        /** Unmodifiable (Environment's): kept as is, so a list the platform layer has written natively is known again. */
        List<byte[]> envp = Collections.emptyList();
        byte[] cwd;
        PathName chdirAsGiven;
        final List<Redirect> redirects = new ArrayList<>();
        final List<Integer> closes = new ArrayList<>();
        final List<ChildDup> childDups = new ArrayList<>();
        long pgroup = -1;
        boolean setsid;
        byte[] terminal;
        int umask = -1;
        final List<ResourceLimit> rlimits = new ArrayList<>();
        boolean closeOthers = true;
        final List<Integer> inherited = new ArrayList<>();

        SpawnPlan build() {
            return new SpawnPlan(this);
        }
    }
}

package org.posixspawn.jruby.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Everything needed to start one child, with no Ruby objects left in it: what
 * {@link SpawnArguments} makes of Process.spawn's arguments, and all that
 * {@code org.posixspawn.jruby.os.Spawner} turns into system calls. Immutable.
 */
public final class SpawnPlan {
    /** The program as the caller named it: what error messages name. */
    public final String commandName;
    /** The file to execute: found on PATH, or the name itself when lookup found nothing. */
    public final byte[] executable;
    /** False when the command was looked up on PATH and not found there: the spawn fails with ENOENT. */
    public final boolean executableFound;
    public final List<byte[]> argv;
    public final List<byte[]> envp;
    /** Absolute directory the child starts in: :chdir, else JRuby's Dir.pwd. */
    public final String cwd;
    /** :chdir as the caller wrote it (errors name it), or null when cwd is Dir.pwd. */
    public final String chdirAsGiven;
    /** Child fd = parent fd or opened file, all applied at once (MRI's fd_dup2 and fd_open). */
    public final List<Redirect> redirects;
    /** Child fds closed after the redirects (value :close). */
    public final List<Integer> closes;
    /** Child fd = another child fd after the redirects (value [:child, fd]), chains already resolved. */
    public final List<int[]> childDups;
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
        commandName = b.commandName;
        executable = b.executable;
        executableFound = b.executableFound;
        argv = Collections.unmodifiableList(new ArrayList<>(b.argv));
        envp = Collections.unmodifiableList(new ArrayList<>(b.envp));
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

    /** The same plan with the child's fd {@code childFd} taken from the parent's {@code parentFd}, replacing any redirect of it. */
    public SpawnPlan withRedirect(int childFd, int parentFd) {
        Builder b = toBuilder();
        b.redirects.removeIf(r -> r.childFd == childFd);
        b.closes.removeIf(fd -> fd == childFd);
        b.childDups.removeIf(d -> d[0] == childFd);
        b.redirects.add(Redirect.fromParentFd(childFd, parentFd));
        return b.build();
    }

    /** The same plan starting the child in a new process group (Child's :pgroup_kill). */
    public SpawnPlan withNewProcessGroup() {
        if (setsid) return this; // a session leader already leads a group of its own
        Builder b = toBuilder();
        b.pgroup = 0;
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

    /** The highest child fd the plan names, or 2. */
    public int highestChildFd() {
        int max = 2;
        for (Redirect r : redirects) max = Math.max(max, r.childFd);
        for (int fd : closes) max = Math.max(max, fd);
        for (int[] d : childDups) max = Math.max(max, d[0]);
        return max;
    }

    Builder toBuilder() {
        Builder b = new Builder();
        b.commandName = commandName;
        b.executable = executable;
        b.executableFound = executableFound;
        b.argv.addAll(argv);
        b.envp.addAll(envp);
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
        StringBuilder s = new StringBuilder("SpawnPlan{");
        s.append("executable=").append(new String(executable)).append(executableFound ? "" : " (not found)");
        s.append(", argv=[");
        for (int i = 0; i < argv.size(); i++) s.append(i == 0 ? "" : ", ").append(new String(argv.get(i)));
        s.append("], cwd=").append(cwd).append(", redirects=").append(redirects);
        s.append(", closes=").append(closes).append(", childDups=[");
        for (int[] d : childDups) s.append(Arrays.toString(d));
        s.append("], pgroup=").append(pgroup).append(", setsid=").append(setsid).append(", umask=").append(umask);
        s.append(", rlimits=").append(rlimits).append(", closeOthers=").append(closeOthers);
        s.append(", inherited=").append(inherited).append('}');
        return s.toString();
    }

    /** Mutable twin used while arguments are being read. */
    public static final class Builder {
        String commandName;
        byte[] executable;
        boolean executableFound = true;
        final List<byte[]> argv = new ArrayList<>();
        final List<byte[]> envp = new ArrayList<>();
        String cwd;
        String chdirAsGiven;
        final List<Redirect> redirects = new ArrayList<>();
        final List<Integer> closes = new ArrayList<>();
        final List<int[]> childDups = new ArrayList<>();
        long pgroup = -1;
        boolean setsid;
        byte[] terminal;
        int umask = -1;
        final List<ResourceLimit> rlimits = new ArrayList<>();
        boolean closeOthers = true;
        final List<Integer> inherited = new ArrayList<>();

        public SpawnPlan build() {
            return new SpawnPlan(this);
        }
    }
}

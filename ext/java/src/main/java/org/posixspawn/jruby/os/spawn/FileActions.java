package org.posixspawn.jruby.os.spawn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jnr.ffi.Pointer;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.LibC;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.plan.ChildDup;
import org.posixspawn.jruby.plan.Redirect;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * The posix_spawn_file_actions_t of a plan, in MRI's order (rb_execarg_run_options): redirects (all at
 * once, swaps and chains resolved), :close, [:child, fd]; then what MRI leaves to close-on-exec and JRuby
 * cannot: closing everything else; then the directory.
 */
final class FileActions {
    /** How many descriptors other threads may open between the listing and the spawn, all still closed in the child (Closing.LISTED_AND_ABOVE). */
    static final int OPENED_MEANWHILE = 32;

    private final LibC libc;
    private final Pointer actions;
    private final SpawnPlan plan;

    private FileActions(LibC libc, Pointer actions, SpawnPlan plan) {
        this.libc = libc;
        this.actions = actions;
        this.plan = plan;
    }

    /**
     * Whether {@code plan}'s actions, closing with closefrom and without gate, terminal or directory change, are
     * closefrom(3) alone: then they are {@link PlainSetup}'s. Reads each field of the plan {@link #addAll} reads.
     */
    static boolean plain(SpawnPlan plan) {
        return plan.redirects.isEmpty() && plan.closes.isEmpty() && plan.childDups.isEmpty() && plan.inherited.isEmpty();
    }

    /**
     * Adds the plan's actions to {@code actions} (initialised). {@code gate}, if not null, is a FIFO the child
     * opens first, on {@code gateFd} (see {@link ResourceLimitGate}); {@code terminal}, if not null, the plan's terminal (see
     * {@link TerminalActions}); {@code chdir}, if not null, the directory it changes to last.
     */
    static void add(LibC libc, Pointer actions, SpawnPlan plan, RedirectFiles files, Closing closing, Pointer gate, int gateFd,
            Pointer terminal, Pointer chdir) throws SpawnError {
        new FileActions(libc, actions, plan).addAll(files, closing, gate, gateFd, terminal, chdir);
    }

    private void addAll(RedirectFiles files, Closing closing, Pointer gate, int gateFd, Pointer terminal, Pointer chdir) throws SpawnError {
        int n = plan.redirects.size();
        int[] source = new int[n];
        Set<Integer> targets = new HashSet<>();
        int highest = plan.highestChildFd();
        for (int i = 0; i < n; i++) {
            Redirect r = plan.redirects.get(i);
            source[i] = files.sourceOf(r);
            targets.add(r.childFd);
            highest = Math.max(highest, source[i]);
        }
        for (ChildDup d : plan.childDups) highest = Math.max(highest, d.sourceFd);
        for (int fd : plan.inherited) highest = Math.max(highest, fd); // the spare ones below must not land on them

        int spare = highest + 1;
        if (gate != null) addGate(gate, gateFd);
        if (terminal != null) TerminalActions.add(libc, actions, terminal, plan);
        // MRI: run_exec_dup2: a redirect waits while another still to come reads its child fd, so a chain needs
        // no copy (above every fd in play, which :rlimit_nofile may refuse); only a cycle has one source copied aside.
        List<int[]> pending = new ArrayList<>(n);
        for (int i = 0; i < n; i++) pending.add(new int[] {source[i], plan.redirects.get(i).childFd});
        List<Integer> copies = new ArrayList<>();
        while (!pending.isEmpty()) {
            int[] next = null;
            for (int[] r : pending) {
                if (!readLater(pending, r)) {
                    next = r;
                    break;
                }
            }
            if (next == null) {
                int from = pending.get(0)[0];
                check(libc.posix_spawn_file_actions_adddup2(actions, from, spare));
                for (int[] r : pending) if (r[0] == from) r[0] = spare;
                copies.add(spare++);
                continue;
            }
            pending.remove(next);
            // xnu's dup2 of a descriptor onto itself leaves its FD_CLOEXEC, which CLOEXEC_DEFAULT then honours.
            if (next[0] == next[1] && closing == Closing.CLOEXEC_DEFAULT) check(libc.posix_spawn_file_actions_addinherit_np(actions, next[1]));
            else check(libc.posix_spawn_file_actions_adddup2(actions, next[0], next[1]));
        }
        for (int copy : copies) check(libc.posix_spawn_file_actions_addclose(actions, copy));
        for (int fd : plan.closes) check(libc.posix_spawn_file_actions_addclose(actions, fd));
        for (ChildDup d : plan.childDups) check(libc.posix_spawn_file_actions_adddup2(actions, d.sourceFd, d.childFd));

        if (closing == Closing.CLOEXEC_DEFAULT) {
            inheritTheUnnamed(targets, terminal != null);
        } else if (closing != Closing.NONE) {
            Set<Integer> keep = new HashSet<>(targets);
            for (ChildDup d : plan.childDups) keep.add(d.childFd);
            keep.addAll(plan.inherited);
            int highestKept = 2;
            for (int fd : keep) highestKept = Math.max(highestKept, fd);
            for (int fd = 3; fd <= highestKept; fd++) {
                if (!keep.contains(fd)) check(libc.posix_spawn_file_actions_addclose(actions, fd));
            }
            if (closing == Closing.CLOSEFROM) {
                check(libc.posix_spawn_file_actions_addclosefrom_np(actions, highestKept + 1));
            } else if (closing == Closing.LISTED_AND_ABOVE) {
                closeAboveListing(highestKept);
            } else {
                for (int fd : openDescriptors()) {
                    if (fd > highestKept) check(libc.posix_spawn_file_actions_addclose(actions, fd));
                }
            }
        }
        if (chdir != null) check(libc.posix_spawn_file_actions_addchdir_np(actions, chdir));
    }

    /** Whether a redirect other than {@code redirect} ({from, to}) still to come reads the child fd it writes. */
    private static boolean readLater(List<int[]> pending, int[] redirect) {
        for (int[] other : pending) if (other != redirect && other[0] == redirect[1]) return true;
        return false;
    }

    /**
     * The rlimit gate: the open that holds the child until {@link ResourceLimitGate} has set its limits. The
     * child must not keep {@code gateFd}, the lifeline's write end: closed, that number keeps stdin while the
     * gate is opened on 0. 0 is the lowest number, so the open takes it in any descriptor table and needs no
     * dup2 (which the new limits, set while the open sleeps, would refuse above them); putting stdin back on 0
     * is a dup2 under every limit but 0.
     */
    private void addGate(Pointer gate, int gateFd) throws SpawnError {
        boolean stdin = libc.fcntl(0, Constants.F_GETFD, 0) != -1;
        check(libc.posix_spawn_file_actions_addclose(actions, gateFd));
        if (stdin) check(libc.posix_spawn_file_actions_adddup2(actions, 0, gateFd));
        check(libc.posix_spawn_file_actions_addclose(actions, 0));
        check(libc.posix_spawn_file_actions_addopen(actions, 0, gate, Constants.O_RDONLY, 0));
        if (stdin) {
            check(libc.posix_spawn_file_actions_adddup2(actions, gateFd, 0));
            check(libc.posix_spawn_file_actions_addclose(actions, gateFd));
        } else {
            check(libc.posix_spawn_file_actions_addclose(actions, 0));
        }
    }

    private void check(int err) throws SpawnError {
        SpawnFailure.check(err, plan);
    }

    /**
     * Under CLOEXEC_DEFAULT (macOS) the child inherits only the descriptors the file actions name (xnu
     * bsd/kern/kern_exec.c exec_handle_file_actions: dup2 and open targets, inherit actions): the kept ones
     * no dup2 names, 0, 1 and 2 (where open, not closed and not the terminal's) and the plan's inherited
     * ones, get an inherit action. Never one for a descriptor that is not open: xnu fails the spawn on it.
     */
    private void inheritTheUnnamed(Set<Integer> targets, boolean terminal) throws SpawnError {
        Set<Integer> named = new HashSet<>(targets);
        for (ChildDup d : plan.childDups) named.add(d.childFd);
        Set<Integer> kept = new TreeSet<>(plan.inherited);
        if (!terminal) kept.addAll(Arrays.asList(0, 1, 2));
        for (int fd : kept) {
            if (!named.contains(fd) && !plan.closes.contains(fd) && libc.fcntl(fd, Constants.F_GETFD, 0) != -1) {
                check(libc.posix_spawn_file_actions_addinherit_np(actions, fd));
            }
        }
    }

    /** {@link Closing#LISTED_AND_ABOVE}: every number above {@code highestKept} up to the highest listed and {@link #OPENED_MEANWHILE} more. */
    private void closeAboveListing(int highestKept) throws SpawnError {
        int highest = highestKept;
        for (int fd : openDescriptors()) highest = Math.max(highest, fd);
        for (int fd = highestKept + 1; fd <= highest + OPENED_MEANWHILE; fd++) {
            int err = libc.posix_spawn_file_actions_addclose(actions, fd);
            if (err == Constants.EBADF && fd > highest) break; // past RLIMIT_NOFILE (glibc's check): no descriptor there
            check(err);
        }
    }

    /** This process's open descriptors now, for libcs without addclosefrom_np; refused where no listing can be trusted. */
    private Set<Integer> openDescriptors() throws SpawnError {
        Set<Integer> open = DescriptorListing.open(Native.PROFILE.descriptorDirectory, fd -> libc.fcntl(fd, Constants.F_GETFD, 0) != -1);
        if (open == null) throw SpawnError.unsupported(Closing.unavailable());
        return open;
    }
}

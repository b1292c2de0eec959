package org.posixspawn.jruby.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jruby.Ruby;

/** MRI: check_exec_fds: each child fd named once, and every [:child, fd] chain ending at a redirected fd. */
final class FdTable {
    /** What a child fd is in {@code seen}: redirected (dup2 or open), closed, or (when >= 0) a copy of that child fd. */
    private static final int TAKEN = -2, CLOSED = -1;

    private FdTable() {}

    /**
     * Checks the table and returns {@code childDups} with each chain resolved to its end (MRI rewrites them in
     * place). MRI's order: the dup2 redirects, each with its Integer source (in {@code givenSources}) in range,
     * then the opened files (added to fd_dup2 as they are opened), the closes, the [:child, fd] ones.
     */
    static List<ChildDup> check(Ruby runtime, List<Redirect> redirects, Map<Redirect, Long> givenSources, List<Integer> closes,
            List<ChildDup> childDups) {
        Map<Integer, Integer> seen = new HashMap<>();
        for (Redirect r : redirects) {
            if (r.file != null) continue;
            claim(runtime, seen, r.childFd, TAKEN);
            Long given = givenSources.get(r);
            // MRI does not check a source's sign; a negative one fails in the child. We fail early, in range.
            if (given != null) Redirects.notNegative(runtime, Conversions.toInt(runtime, given));
        }
        for (Redirect r : redirects) if (r.file != null) claim(runtime, seen, r.childFd, TAKEN);
        for (int fd : closes) claim(runtime, seen, fd, CLOSED);
        for (ChildDup d : childDups) claim(runtime, seen, d.childFd, d.sourceFd);
        List<ChildDup> resolved = new ArrayList<>(childDups.size());
        for (ChildDup d : childDups) {
            int oldfd = d.sourceFd, lastfd = oldfd, depth = 0;
            Integer val = seen.get(lastfd);
            while (val != null && val >= 0) {
                lastfd = val;
                val = seen.get(val);
                if (childDups.size() < depth) throw runtime.newArgumentError("cyclic child fd redirection from " + oldfd);
                depth++;
            }
            if (val == null || val != TAKEN) throw runtime.newArgumentError("child fd " + oldfd + " is not redirected");
            if (oldfd != lastfd) {
                seen.put(d.childFd, lastfd);
                Integer next, at = oldfd;
                while ((next = seen.get(at)) != null && next >= 0) {
                    seen.put(at, lastfd);
                    at = next;
                }
            }
            resolved.add(oldfd == lastfd ? d : new ChildDup(d.childFd, lastfd));
        }
        return resolved;
    }

    private static void claim(Ruby runtime, Map<Integer, Integer> seen, int fd, int how) {
        if (seen.containsKey(fd)) throw runtime.newArgumentError("fd " + fd + " specified twice");
        seen.put(fd, how);
    }
}

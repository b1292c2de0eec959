package org.posixspawn.jruby.os.child;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.jruby.Ruby;
import org.jruby.runtime.builtin.IRubyObject;
import org.junit.jupiter.api.Test;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/** The reaper on real children, without the Ruby classes around it. */
class ReaperTest {
    private static final Ruby RUBY = Ruby.newInstance();

    /**
     * Children adopted while the reaper closes the pidfds of others that ended: a new pidfd often gets the
     * number just freed, and must still be the one the reaper watches (a stale entry removed after the close
     * once took the new child's, which then stayed a zombie while the reaper spun on its readable pidfd).
     */
    @Test
    void reapsEveryChildAdoptedWhileOthersEndAndFreeTheirPidfdNumbers() throws Exception {
        SpawnPlan plan = SpawnArguments.parse(RUBY.getCurrentContext(), new IRubyObject[] {RUBY.newString("true")});
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(threads.submit(() -> {
                    int unreaped = 0;
                    for (int i = 0; i < 250; i++) {
                        OwnedChild child = Reaper.spawn(plan, false, false);
                        if (!child.awaitEnd(System.nanoTime() + TimeUnit.SECONDS.toNanos(10))) unreaped++;
                        else assertEquals(0, child.rawStatus());
                    }
                    return unreaped;
                }));
            }
            for (Future<Integer> result : results) assertEquals(0, result.get(120, TimeUnit.SECONDS), "children left unreaped");
        } finally {
            threads.shutdownNow();
        }
        assertTrue(Reaper.ownedPids().isEmpty(), "the reaper still holds " + Reaper.ownedPids());
    }
}

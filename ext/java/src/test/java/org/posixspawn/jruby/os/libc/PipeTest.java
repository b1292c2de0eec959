package org.posixspawn.jruby.os.libc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.posixspawn.jruby.os.platform.Strategy;
import org.posixspawn.jruby.os.spawn.Spawner;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/**
 * Pipes without pipe2 (macOS's way, forced here): pipe, then FD_CLOEXEC on each end, and while a pipe is
 * between the two, no spawn that lets inheritable descriptors through (close_others: false, or close
 * actions from a listing) starts a child.
 */
class PipeTest {
    private static final Ruby RUBY = Ruby.newInstance();

    @AfterEach
    void usePipe2Again() {
        Features.pretendMissing(Features.PIPE2, false);
        Features.pretendMissing(Features.ADDCLOSEFROM, false);
    }

    private static SpawnPlan plan(String arguments) {
        return SpawnArguments.parse(RUBY.getCurrentContext(), ((RubyArray<?>) RUBY.evalScriptlet(arguments)).toJavaArray());
    }

    private static void assertCloseOnExec(Pipe pipe) {
        assertEquals(Constants.FD_CLOEXEC, Native.libc.fcntl(pipe.readEnd(), Constants.F_GETFD, 0) & Constants.FD_CLOEXEC);
        assertEquals(Constants.FD_CLOEXEC, Native.libc.fcntl(pipe.writeEnd(), Constants.F_GETFD, 0) & Constants.FD_CLOEXEC);
    }

    @Test
    void withoutPipe2BothEndsAreStillCloseOnExec() throws Exception {
        Trace.turn(true);
        try (Pipe pipe = Pipe.open()) {
            assertEquals(Strategy.Pipes.PIPE2, Trace.last(Trace.Concern.PIPES));
            assertCloseOnExec(pipe);
        }
        Features.pretendMissing(Features.PIPE2, true);
        try (Pipe pipe = Pipe.open()) {
            assertEquals(Strategy.Pipes.PIPE_THEN_FD_CLOEXEC, Trace.last(Trace.Concern.PIPES));
            assertCloseOnExec(pipe);
        }
    }

    /** Starts {@code arguments}' spawn on another thread; it completes with the child's pid once reaped. */
    private static CompletableFuture<Long> spawnElsewhere(String arguments) {
        SpawnPlan plan = plan(arguments);
        return CompletableFuture.supplyAsync(() -> {
            try {
                long pid = Spawner.spawn(plan);
                Native.extra().waitpid(pid, null, 0);
                return pid;
            } catch (SpawnError e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void awaitQueued(CompletableFuture<Long> spawn) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Pipe.CLOEXEC_GAP.getQueueLength() == 0 && !spawn.isDone() && System.nanoTime() < until) Thread.sleep(1);
    }

    @Test
    void aSpawnThatLetsDescriptorsThroughWaitsWhileAPipeIsNotYetCloseOnExec() throws Exception {
        Features.pretendMissing(Features.PIPE2, true);
        for (String arguments : new String[] {"['true', {close_others: false}]", "['true']"}) {
            if (arguments.equals("['true']")) Features.pretendMissing(Features.ADDCLOSEFROM, true); // close actions from a listing
            CompletableFuture<Long> spawn;
            Pipe.CLOEXEC_GAP.writeLock().lock(); // as Pipe.open holds it between pipe and FD_CLOEXEC
            try {
                spawn = spawnElsewhere(arguments);
                awaitQueued(spawn);
                assertTrue(!spawn.isDone() && Pipe.CLOEXEC_GAP.getQueueLength() == 1, arguments + " did not wait for the pipe");
            } finally {
                Pipe.CLOEXEC_GAP.writeLock().unlock();
            }
            assertTrue(spawn.get(10, TimeUnit.SECONDS) > 0);
        }
    }

    @Test
    void aSpawnThatClosesInTheChildOrAnyWithPipe2DoesNotWait() throws Exception {
        Pipe.CLOEXEC_GAP.writeLock().lock();
        try {
            assertTrue(spawnElsewhere("['true', {close_others: false}]").get(10, TimeUnit.SECONDS) > 0); // pipe2: no gap
            Features.pretendMissing(Features.PIPE2, true);
            assertTrue(spawnElsewhere("['true']").get(10, TimeUnit.SECONDS) > 0); // addclosefrom_np: closed in the child
        } finally {
            Pipe.CLOEXEC_GAP.writeLock().unlock();
        }
    }
}

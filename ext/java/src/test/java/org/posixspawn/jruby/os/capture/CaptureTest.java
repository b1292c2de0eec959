package org.posixspawn.jruby.os.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

import org.jruby.Ruby;
import org.jruby.runtime.builtin.IRubyObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.posixspawn.jruby.os.child.ExitRoute;
import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Descriptors;
import org.posixspawn.jruby.os.libc.Features;
import org.posixspawn.jruby.os.libc.SpawnError;
import org.posixspawn.jruby.os.libc.Trace;
import org.posixspawn.jruby.plan.SpawnArguments;
import org.posixspawn.jruby.plan.SpawnPlan;

/** The capture loop on real processes and pipes, without the Ruby class around it. */
class CaptureTest {
    @BeforeAll
    static void traceTheRoutes() {
        Trace.turn(true);
    }

    private static final Ruby RUBY = Ruby.newInstance();
    private static final long NO_DEADLINE = Long.MAX_VALUE, NO_MAX = -1;

    private static SpawnPlan plan(String... argv) {
        IRubyObject[] args = Arrays.stream(argv).map(RUBY::newString).toArray(IRubyObject[]::new);
        return SpawnArguments.parse(RUBY.getCurrentContext(), args);
    }

    /** Runs to the end (no wake-ups expected) and closes. */
    private static Capture runToEnd(Capture capture) throws SpawnError {
        try (Capture c = capture) {
            assertTrue(c.run(), "woken without wakeup");
        }
        return capture;
    }

    private static String text(CaptureBuffer output) {
        return new String(output.bytes(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void capturesStdoutAndStderrApartWithTheExitStatus() throws Exception {
        Capture c = runToEnd(Capture.start(plan("sh", "-c", "printf out; printf err >&2; exit 7"), null, NO_DEADLINE, NO_MAX, false));
        assertEquals("out", text(c.out()));
        assertEquals("err", text(c.err()));
        assertEquals(Capture.Outcome.EXITED, c.outcome());
        assertEquals(7, (c.rawStatus() >> 8) & 0xff);
        assertEquals(ExitRoute.PIDFD, Trace.last(Trace.Concern.EXIT_ROUTE));
    }

    /** The route of kernels before 5.3: the exit, the deadline after the pipes closed, and KILL, by polling waitpid. */
    @Test
    void withoutPidfdWaitsForTheExitByPollingWaitpid() throws Exception {
        Map<Integer, String> before = Descriptors.open();
        Features.pretendMissing(Features.PIDFD_OPEN, true);
        try {
            Capture exited = runToEnd(Capture.start(plan("sh", "-c", "exec >&- 2>&-; sleep 0.2; exit 4"), null, NO_DEADLINE, NO_MAX, false));
            assertEquals(ExitRoute.WAITPID_POLL, Trace.last(Trace.Concern.EXIT_ROUTE));
            assertEquals(Capture.Outcome.EXITED, exited.outcome());
            assertEquals(4, (exited.rawStatus() >> 8) & 0xff);

            long deadline = System.nanoTime() + 300_000_000L;
            Capture killed = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> runToEnd(Capture.start(
                    plan("sh", "-c", "exec >&- 2>&-; trap '' TERM; exec sleep 30"), null, deadline, NO_MAX, false)));
            assertEquals(Capture.Outcome.TIMED_OUT, killed.outcome());
            assertEquals(Constants.SIGKILL, killed.rawStatus() & 0x7f);
            assertFalse(new File("/proc/" + killed.pid()).exists());
        } finally {
            Features.pretendMissing(Features.PIDFD_OPEN, false);
        }
        Descriptors.assertNoneOpenedSince(before);
    }

    @Test
    void aStreamedOutputIsHandedOverChunkByChunkInsteadOfCaptured() throws Exception {
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        int chunks = 0;
        try (Capture c = Capture.start(plan("sh", "-c", "seq 1 50000; sleep 0.2; seq 50001 100000; printf err >&2"), null, NO_DEADLINE, NO_MAX, false)) {
            c.out().stream();
            boolean over;
            do {
                over = c.run();
                assertNull(c.err().takeChunk(), "a captured output gives no chunks");
                byte[] chunk = c.out().takeChunk();
                if (chunk != null) {
                    streamed.write(chunk);
                    chunks++;
                }
            } while (!over);
            c.close();
            assertEquals(0, c.out().bytes().length);
            assertEquals("err", text(c.err()));
        }
        StringBuilder expected = new StringBuilder();
        for (int i = 1; i <= 100000; i++) expected.append(i).append('\n');
        assertEquals(expected.toString(), streamed.toString("US-ASCII"));
        assertTrue(chunks > 1, "one chunk per read (the pause between the halves makes two at least), not one at the end");
    }

    @Test
    void feedsInputAndReadsOutputAtOnceWithoutDeadlock() throws Exception {
        byte[] data = new byte[32 << 20];
        new Random(7).nextBytes(data);
        Capture c = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> runToEnd(Capture.start(plan("cat"), ByteBuffer.wrap(data), NO_DEADLINE, NO_MAX, false)));
        assertArrayEquals(data, c.out().bytes());
    }

    @Test
    void theNextRunReusesTheMappingAndGivesOnlyItsOwnBytes() throws Exception {
        Capture first = runToEnd(Capture.start(plan("sh", "-c", "yes | head -c 3000000"), null, NO_DEADLINE, NO_MAX, false));
        long spare = CaptureBuffer.spareAddress();
        assertNotEquals(0, spare, "a finished run's mapping is kept");
        assertTrue(spare == first.out().mappedAt() || spare == first.err().mappedAt());
        Capture next = runToEnd(Capture.start(plan("printf", "next"), null, NO_DEADLINE, NO_MAX, false));
        assertEquals("next", text(next.out()));
        // The spare is still mapped while the next run reads, so a run that mapped its own got another address.
        assertEquals(spare, next.out().mappedAt(), "the next run read into the kept mapping");
        assertEquals(spare, CaptureBuffer.spareAddress(), "and handed it on again");
    }

    @Test
    void stopsAtTheDeadlineAndTerminatesTheChild() throws Exception {
        long deadline = System.nanoTime() + 300_000_000L;
        Capture c = runToEnd(Capture.start(plan("sh", "-c", "echo partial; exec sleep 30"), null, deadline, NO_MAX, false));
        assertEquals(Capture.Outcome.TIMED_OUT, c.outcome());
        assertEquals("partial\n", text(c.out()));
        assertEquals(Constants.SIGTERM, c.rawStatus() & 0x7f);
    }

    @Test
    void killsAChildThatIgnoresTermAfterTheGracePeriod() throws Exception {
        long deadline = System.nanoTime() + 300_000_000L;
        Capture c = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> runToEnd(Capture.start(plan("sh", "-c", "trap '' TERM; exec sleep 30"), null, deadline, NO_MAX, false)));
        assertEquals(Constants.SIGKILL, c.rawStatus() & 0x7f);
    }

    @Test
    void keepsExactlyMaxBytes() throws Exception {
        Capture c = runToEnd(Capture.start(plan("yes"), null, NO_DEADLINE, 1001, false));
        assertEquals(Capture.Outcome.OUTPUT_EXCEEDED, c.outcome());
        assertEquals(1001, c.out().bytes().length);
    }

    @Test
    void wakeupFromAnotherThreadReturnsFalseAndCloseReaps() throws Exception {
        Map<Integer, String> before = Descriptors.open();
        Capture c = Capture.start(plan("sleep", "30"), null, NO_DEADLINE, NO_MAX, false);
        CountDownLatch started = new CountDownLatch(1);
        Thread waker = new Thread(() -> {
            try {
                started.await();
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
            c.wakeup();
        });
        waker.start();
        started.countDown();
        assertFalse(assertTimeoutPreemptively(Duration.ofSeconds(10), c::run));
        c.close();
        waker.join();
        assertEquals(Constants.SIGTERM, c.rawStatus() & 0x7f);
        assertFalse(new File("/proc/" + c.pid()).exists());
        Descriptors.assertNoneOpenedSince(before);
    }

    @Test
    void spawnFailureClosesThePipes() throws Exception {
        Map<Integer, String> before = Descriptors.open();
        SpawnError failure = assertThrows(SpawnError.class,
                () -> Capture.start(plan("no-such-program-here"), null, NO_DEADLINE, NO_MAX, false));
        assertEquals(SpawnError.Kind.ERRNO, failure.kind);
        assertEquals(Constants.ENOENT, failure.errno);
        Descriptors.assertNoneOpenedSince(before);
    }
}

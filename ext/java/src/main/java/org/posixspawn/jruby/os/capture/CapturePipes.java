package org.posixspawn.jruby.os.capture;

import org.posixspawn.jruby.os.libc.Fds;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;

/**
 * The pipes of one capture, named by direction: {@code stdin} (the child reads, the loop writes),
 * {@code stdout} and {@code stderr} (the child writes, the loop reads) and {@code wake} (any thread writes,
 * the loop reads). The child's ends stay blocking (programs expect that); the parent's are non-blocking,
 * so a full or empty pipe only ever sends the loop back to poll. Closing closes every end not taken.
 */
final class CapturePipes implements AutoCloseable {
    Pipe stdin, stdout, stderr, wake;

    private CapturePipes() {}

    /** {@code feedsInput}: stdin will carry bytes (so it is enlarged too). */
    static CapturePipes open(boolean feedsInput) throws SpawnError {
        CapturePipes p = new CapturePipes();
        try {
            p.stdin = Pipe.open();
            p.stdout = Pipe.open();
            p.stderr = Pipe.open();
            p.wake = Pipe.openNonBlocking();
        } catch (SpawnError e) {
            p.close();
            throw e;
        }
        Pipe.setNonBlockingFresh(p.stdin.writeEnd());
        Pipe.setNonBlockingFresh(p.stdout.readEnd());
        Pipe.setNonBlockingFresh(p.stderr.readEnd());
        Fds.enlargePipe(p.stdout.readEnd()); // stdout and a fed stdin: fewer, larger reads and writes
        if (feedsInput) Fds.enlargePipe(p.stdin.writeEnd());
        return p;
    }

    @Override
    public void close() {
        for (Pipe pipe : new Pipe[] {stdin, stdout, stderr, wake}) if (pipe != null) pipe.close();
    }
}

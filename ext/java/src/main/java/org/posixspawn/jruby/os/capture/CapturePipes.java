package org.posixspawn.jruby.os.capture;

import org.posixspawn.jruby.os.libc.Constants;
import org.posixspawn.jruby.os.libc.Native;
import org.posixspawn.jruby.os.libc.Pipe;
import org.posixspawn.jruby.os.libc.SpawnError;

/**
 * The pipes of one capture, named by direction: {@code stdin} (the child reads, the loop writes),
 * {@code stdout} and {@code stderr} (the child writes, the loop reads) and {@code wake} (any thread writes,
 * the loop reads). The child's ends stay blocking (programs expect that); the parent's are non-blocking,
 * so a full or empty pipe only ever sends the loop back to poll. Closing closes every end not taken.
 */
final class CapturePipes implements AutoCloseable {
    /**
     * Pipe capacity asked for on stdout and stdin (Linux, F_SETPIPE_SZ): fewer, larger reads and writes and
     * fewer context switches than the default 64 KiB; 1 MiB is the default /proc/sys/fs/pipe-max-size.
     */
    static final int PIPE_SIZE = 1 << 20;

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
        if (Constants.F_SETPIPE_SZ >= 0) {
            Native.libc.fcntl(p.stdout.readEnd(), Constants.F_SETPIPE_SZ, PIPE_SIZE); // best effort: a smaller pipe only costs speed
            if (feedsInput) Native.libc.fcntl(p.stdin.writeEnd(), Constants.F_SETPIPE_SZ, PIPE_SIZE);
        }
        return p;
    }

    @Override
    public void close() {
        for (Pipe pipe : new Pipe[] {stdin, stdout, stderr, wake}) if (pipe != null) pipe.close();
    }
}

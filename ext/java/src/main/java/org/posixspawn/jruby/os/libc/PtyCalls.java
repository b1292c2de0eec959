package org.posixspawn.jruby.os.libc;

import java.nio.ByteBuffer;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.Out;
import jnr.ffi.annotations.Pinned;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/** The pseudo-terminal calls (os/pty), bound on first use apart from {@link LibC}. */
public interface PtyCalls {
    @SaveError int posix_openpt(int flags);
    @SaveError int grantpt(int fd);
    @SaveError int unlockpt(int fd);
    /** Returns the error code. */
    int ptsname_r(int fd, Pointer buf, @size_t long length);
    @SaveError int ioctl(int fd, long request, Pointer arg);
    @SaveError @ssize_t long read(int fd, @Out @Pinned ByteBuffer buf, @size_t long count);
    /** poll(2) of struct pollfds in a Java array (a heap buffer in native order), pinned: no malloc and free a read. */
    @SaveError int poll(@Pinned ByteBuffer fds, long nfds, int timeoutMillis);
}

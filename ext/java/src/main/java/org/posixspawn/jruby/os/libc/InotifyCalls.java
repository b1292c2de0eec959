package org.posixspawn.jruby.os.libc;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.types.size_t;
import jnr.ffi.types.ssize_t;

/**
 * The PATH watch's calls (os/lookup), bound when the first search is to be cached (one-off spawns never are);
 * read and poll again (LibCExtra has them too), so that a program that only spawns binds these five, not
 * LibCExtra's 22. Linux.
 */
public interface InotifyCalls {
    @SaveError int inotify_init1(int flags);
    @SaveError int inotify_add_watch(int fd, Pointer path, int mask);
    @SaveError @ssize_t long readlink(Pointer path, Pointer buffer, @size_t long size);
    @SaveError @ssize_t long read(int fd, Pointer buffer, @size_t long count);
    @SaveError int poll(Pointer fds, long nfds, int timeoutMillis);
}

package org.posixspawn.jruby.os.libc;

import jnr.ffi.Pointer;

/** A native array of struct pollfd { int fd; short events; short revents; }, filled afresh for each poll(2). */
public final class PollSet implements AutoCloseable {
    private final Pointer fds;
    private final int capacity;
    private int count;

    public PollSet(int capacity) {
        this.capacity = capacity;
        fds = Native.allocate((long) capacity * Constants.POLLFD_SIZE);
    }

    public void clear() {
        count = 0;
    }

    /** Adds {@code fd} (skipped when -1: a closed end) with {@code events}. */
    public void watch(int fd, short events) {
        if (fd < 0) return;
        if (count == capacity) throw new IllegalStateException("poll set full: " + capacity);
        long at = (long) count * Constants.POLLFD_SIZE;
        fds.putInt(at, fd);
        fds.putShort(at + 4, events);
        fds.putShort(at + 6, (short) 0);
        count++;
    }

    /** poll(2) on what was watched; its result (-1 with errno set on failure). */
    public int poll(int timeoutMillis) {
        return Native.extra().poll(fds, count, timeoutMillis);
    }

    public int count() {
        return count;
    }

    public int fd(int i) {
        return fds.getInt((long) i * Constants.POLLFD_SIZE);
    }

    /** Whether entry {@code i} has any revents (POLLERR and POLLHUP included: the read or write then tells). */
    public boolean ready(int i) {
        return revents(i) != 0;
    }

    /** Entry {@code i}'s revents. */
    public short revents(int i) {
        return fds.getShort((long) i * Constants.POLLFD_SIZE + 6);
    }

    /** Whether entry {@code i}'s descriptor is not open (POLLNVAL), where select(2) fails with EBADF. */
    public boolean invalid(int i) {
        return (revents(i) & Constants.POLLNVAL) != 0;
    }

    @Override
    public void close() {
        Native.libc.free(fds);
    }
}

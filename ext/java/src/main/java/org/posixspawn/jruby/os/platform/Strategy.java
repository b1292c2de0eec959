package org.posixspawn.jruby.os.platform;

/** The way each concern is carried out, chosen per OS by its {@link PlatformProfile}. */
public final class Strategy {
    private Strategy() {}

    /** How a child gets only 0, 1, 2 and the descriptors it was given. */
    public enum CloseOthers {
        /**
         * Linux: posix_spawn_file_actions_addclosefrom_np (glibc 2.34), else a close action per descriptor
         * open now, read from /proc/self/fd (glibc and musl ignore a close of one that is no longer open).
         */
        CLOSEFROM_ELSE_PROC_FD,
        /**
         * macOS: POSIX_SPAWN_CLOEXEC_DEFAULT and posix_spawn_file_actions_addinherit_np for the kept ones
         * (libuv's way): xnu fails the whole spawn on a close of a descriptor that is not open, so a listing
         * that races other threads cannot be turned into close actions.
         */
        CLOEXEC_DEFAULT,
        /**
         * FreeBSD: addclosefrom_np (13.1), else close actions from /dev/fd where fdescfs is mounted on it,
         * else close_others is refused: without fdescfs /dev/fd lists only 0, 1 and 2.
         */
        CLOSEFROM_ELSE_FDESCFS,
    }

    /** How :chdir is carried out. */
    public enum Chdir {
        /** posix_spawn_file_actions_addchdir_np (glibc 2.29, musl 1.1.24), else the FS thread's own cwd. */
        ADDCHDIR_ELSE_FS_THREAD,
        /** addchdir_np (macOS 10.15, FreeBSD 13.1), else :chdir is refused. */
        ADDCHDIR,
    }

    /** How the capture pipes are made close-on-exec. */
    public enum Pipes {
        /** pipe2(O_CLOEXEC): atomic. */
        PIPE2,
        /** pipe, then FD_CLOEXEC on each end (macOS has no pipe2; CLOEXEC_DEFAULT keeps them from racing spawns). */
        PIPE_THEN_FD_CLOEXEC,
    }

    /** How the capture buffer grows. */
    public enum CaptureBuffer {
        /** mremap(MREMAP_MAYMOVE): the pages move, nothing is copied (Linux). */
        MREMAP,
        /** A larger anonymous mapping and one copy into it. */
        MMAP_COPY,
    }

    /** How the reaper (os/child) learns of its children's ends. */
    public enum ExitWait {
        /** pidfds in one epoll (Linux 5.3), else waitpid(WNOHANG) every few milliseconds; the reaper's wake-up pipe in the epoll too. */
        PIDFD_ELSE_WAITPID_POLL,
        /** waitpid(WNOHANG) every few milliseconds; between them, poll(2) on the reaper's wake-up pipe. */
        WAITPID_POLL,
    }

    /** Whether a PATH search's answer is kept between spawns (os/lookup). */
    public enum PathCache {
        /** Kept while inotify sees no change in what the search went through, nor the mount table (Linux). */
        INOTIFY,
        /** Searched afresh for every spawn. */
        NONE,
    }
}

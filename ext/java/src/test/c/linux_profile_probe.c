/*
 * Prints what the Linux platform profile relies on, as this C library's headers and symbols have it, one
 * "const NAME=VALUE" or "symbol NAME=0|1" per line. LinuxProbeTest builds it with cc (glibc) and musl-gcc
 * (musl) and compares each line with PlatformProfile: NAME is a table entry or a profile field.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define CONST(name, value) printf("const %s=%ld\n", name, (long) (value))
#define SYMBOL(name) printf("symbol %s=%d\n", #name, dlsym(RTLD_DEFAULT, #name) != NULL)

int main(void) {
    CONST("sizeof(sigset_t)", sizeof(sigset_t));
    CONST("sizeof(posix_spawnattr_t)", sizeof(posix_spawnattr_t));
    CONST("sizeof(posix_spawn_file_actions_t)", sizeof(posix_spawn_file_actions_t));
    CONST("sizeof(void *)", sizeof(void *));
    CONST("POSIX_SPAWN_SETPGROUP", POSIX_SPAWN_SETPGROUP);
    CONST("POSIX_SPAWN_SETSIGDEF", POSIX_SPAWN_SETSIGDEF);
    CONST("POSIX_SPAWN_SETSIGMASK", POSIX_SPAWN_SETSIGMASK);
    CONST("POSIX_SPAWN_SETSID", POSIX_SPAWN_SETSID);
    CONST("FD_CLOEXEC", FD_CLOEXEC);
    CONST("PROT_READ|PROT_WRITE", PROT_READ | PROT_WRITE);
    CONST("MAP_PRIVATE|MAP_ANONYMOUS", MAP_PRIVATE | MAP_ANONYMOUS);
    CONST("MREMAP_MAYMOVE", MREMAP_MAYMOVE);
    CONST("MADV_FREE", MADV_FREE);
    CONST("MADV_HUGEPAGE", MADV_HUGEPAGE);
    CONST("POLLIN", POLLIN);
    CONST("POLLOUT", POLLOUT);
    CONST("POLLPRI", POLLPRI);
    CONST("POLLNVAL", POLLNVAL);
    CONST("CLONE_FS", CLONE_FS);
    CONST("CLONE_FILES", CLONE_FILES);
    CONST("F_SETOWN", F_SETOWN);
    CONST("F_SETSIG", F_SETSIG);
    CONST("O_ASYNC", O_ASYNC);
#ifdef SYS_pidfd_open
    CONST("SYS_pidfd_open", SYS_pidfd_open);
#endif
#ifdef SYS_pidfd_send_signal
    CONST("SYS_pidfd_send_signal", SYS_pidfd_send_signal);
#endif
    CONST("EPOLL_CLOEXEC", EPOLL_CLOEXEC);
    CONST("EPOLL_CTL_ADD", EPOLL_CTL_ADD);
    CONST("EPOLL_CTL_DEL", EPOLL_CTL_DEL);
    CONST("EPOLLIN", EPOLLIN);
    CONST("sizeof(struct epoll_event)", sizeof(struct epoll_event));
    CONST("offsetof(struct epoll_event, data)", offsetof(struct epoll_event, data));
    CONST("IN_NONBLOCK", IN_NONBLOCK);
    CONST("IN_CLOEXEC", IN_CLOEXEC);
    CONST("IN_ATTRIB", IN_ATTRIB);
    CONST("IN_MOVED_FROM", IN_MOVED_FROM);
    CONST("IN_MOVED_TO", IN_MOVED_TO);
    CONST("IN_CREATE", IN_CREATE);
    CONST("IN_DELETE", IN_DELETE);
    CONST("IN_DELETE_SELF", IN_DELETE_SELF);
    CONST("IN_MOVE_SELF", IN_MOVE_SELF);
    CONST("IN_Q_OVERFLOW", IN_Q_OVERFLOW);
    CONST("IN_IGNORED", IN_IGNORED);
    CONST("IN_ONLYDIR", IN_ONLYDIR);
    CONST("IN_DONT_FOLLOW", IN_DONT_FOLLOW);
    CONST("PATH_MAX", PATH_MAX);
    CONST("O_RDONLY", O_RDONLY);
    CONST("O_WRONLY", O_WRONLY);
    CONST("O_RDWR", O_RDWR);
    CONST("O_NOCTTY", O_NOCTTY);
    CONST("F_OK", F_OK);
    CONST("X_OK", X_OK);
    CONST("O_NONBLOCK", O_NONBLOCK);
    CONST("O_DIRECTORY", O_DIRECTORY);
    CONST("O_CLOEXEC", O_CLOEXEC);
    CONST("F_GETFL", F_GETFL);
    CONST("F_SETFL", F_SETFL);
    CONST("F_SETFD", F_SETFD);
    CONST("F_SETPIPE_SZ", F_SETPIPE_SZ);
    CONST("WNOHANG", WNOHANG);
    CONST("WUNTRACED", WUNTRACED);
    CONST("WEXITED", WEXITED);
    CONST("WSTOPPED", WSTOPPED);
    CONST("WCONTINUED", WCONTINUED);
    CONST("WNOWAIT", WNOWAIT);
    CONST("P_ALL", P_ALL);
    CONST("P_PID", P_PID);
    CONST("P_PGID", P_PGID);
    CONST("sizeof(siginfo_t)", sizeof(siginfo_t));
    CONST("offsetof(siginfo_t, si_code)", offsetof(siginfo_t, si_code));
    CONST("offsetof(siginfo_t, si_pid)", offsetof(siginfo_t, si_pid));
    CONST("CLD_EXITED", CLD_EXITED);
    CONST("CLD_KILLED", CLD_KILLED);
    CONST("CLD_DUMPED", CLD_DUMPED);
    CONST("SIGKILL", SIGKILL);
    CONST("SIGTERM", SIGTERM);
    CONST("ENOENT", ENOENT);
    CONST("ENOEXEC", ENOEXEC);
    CONST("EINTR", EINTR);
    CONST("EAGAIN", EAGAIN);
    CONST("ECHILD", ECHILD);
    CONST("EPIPE", EPIPE);
    CONST("EBADF", EBADF);
    CONST("ENOTDIR", ENOTDIR);
    CONST("EACCES", EACCES);
    CONST("EPERM", EPERM);
    CONST("ENXIO", ENXIO);
    CONST("ESRCH", ESRCH);
    CONST("ENOMEM", ENOMEM);
    CONST("EINVAL", EINVAL);
    CONST("ENAMETOOLONG", ENAMETOOLONG);
    /* Required by the Linux profile. */
    SYMBOL(posix_spawn);
    SYMBOL(posix_spawnattr_setsigdefault);
    SYMBOL(posix_spawn_file_actions_adddup2);
    SYMBOL(pipe2);
    SYMBOL(mremap);
    SYMBOL(madvise);
    SYMBOL(prlimit);
    SYMBOL(unshare);
    SYMBOL(syscall);
    /* Optional: each has a fallback route. */
    SYMBOL(posix_spawn_file_actions_addchdir_np);
    SYMBOL(posix_spawn_file_actions_addclosefrom_np);
    return 0;
}

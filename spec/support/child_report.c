/* What a spawned child says about itself, from its own system calls: the portable route of
 * spec/support/child_report.rb, which compiles it with cc, for systems without /proc (macOS, FreeBSD).
 * POSIX calls only. One report a run, named by the first argument (after an optional -o FILE to write
 * it to instead of stdout); /proc's format where /proc has one, so both routes parse alike:
 *
 *   argv       every argv word, NUL-terminated (as /proc/self/cmdline)
 *   environ    every environ entry, NUL-terminated (as /proc/self/environ)
 *   cwd        getcwd(), then a newline
 *   status     Umask:, SigBlk: and SigIgn: lines (as /proc/self/status; bit N-1 is signal N)
 *   ids        the process group and the session: "PGID SID"
 *   fds        the open descriptors, one a line, from /dev/fd without the listing's own; exit 3 when
 *              /dev/fd does not list that one (FreeBSD without fdescfs lists only 0-2)
 *   fd N       what descriptor N refers to: "DEV,INO"
 *   limits     "NAME SOFT HARD" for each resource limit below, "unlimited" for RLIM_INFINITY
 */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static int fail(const char *what) {
  perror(what);
  return 1;
}

static void words(char **list) {
  for (; *list; list++) fwrite(*list, 1, strlen(*list) + 1, stdout);
}

/* The signals of 1..64 for which member() holds, as /proc prints a sigset: 16 hex digits. */
static unsigned long long signal_bits(int (*member)(int, void *), void *context) {
  unsigned long long bits = 0;
  for (int sig = 1; sig <= 64; sig++)
    if (member(sig, context)) bits |= 1ULL << (sig - 1);
  return bits;
}

static int blocked(int sig, void *set) { return sigismember((sigset_t *)set, sig) == 1; }

static int ignored(int sig, void *unused) {
  struct sigaction action;
  (void)unused;
  return sigaction(sig, NULL, &action) == 0 && action.sa_handler == SIG_IGN;
}

static int status(void) {
  mode_t mask = umask(0);
  sigset_t set;
  umask(mask);
  if (sigprocmask(SIG_BLOCK, NULL, &set) != 0) return fail("sigprocmask");
  printf("Umask:\t%04o\n", (unsigned)mask);
  printf("SigBlk:\t%016llx\n", signal_bits(blocked, &set));
  printf("SigIgn:\t%016llx\n", signal_bits(ignored, NULL));
  return 0;
}

static int fds(void) {
  DIR *dir = opendir("/dev/fd");
  struct dirent *entry;
  int own, listed_own = 0;
  if (!dir) return fail("/dev/fd");
  own = dirfd(dir);
  while ((entry = readdir(dir))) {
    if (entry->d_name[0] == '.') continue;
    if (atoi(entry->d_name) == own) listed_own = 1;
    else printf("%s\n", entry->d_name);
  }
  closedir(dir);
  if (listed_own) return 0;
  fprintf(stderr, "/dev/fd does not list this process's descriptors (FreeBSD without fdescfs?)\n");
  return 3;
}

static int fd(const char *number) {
  struct stat st;
  if (fstat(atoi(number), &st) != 0) return fail(number);
  printf("%llu,%llu\n", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
  return 0;
}

static void limit_value(rlim_t value) {
  if (value == RLIM_INFINITY) printf(" unlimited");
  else printf(" %llu", (unsigned long long)value);
}

static int limits(void) {
  static const struct { const char *name; int resource; } all[] = {
    {"CPU", RLIMIT_CPU}, {"FSIZE", RLIMIT_FSIZE}, {"DATA", RLIMIT_DATA}, {"STACK", RLIMIT_STACK},
    {"CORE", RLIMIT_CORE}, {"NOFILE", RLIMIT_NOFILE}, {"AS", RLIMIT_AS},
  };
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    struct rlimit limit;
    if (getrlimit(all[i].resource, &limit) != 0) return fail(all[i].name);
    printf("%s", all[i].name);
    limit_value(limit.rlim_cur);
    limit_value(limit.rlim_max);
    printf("\n");
  }
  return 0;
}

int main(int argc, char **argv) {
  (void)argc; /* argv ends with NULL */
  char **args = argv + 1;
  char cwd[PATH_MAX + 1];
  int code;
  if (args[0] && strcmp(args[0], "-o") == 0 && args[1]) {
    if (!freopen(args[1], "w", stdout)) return fail(args[1]);
    args += 2;
  }
  if (!args[0]) {
    fprintf(stderr, "usage: %s [-o FILE] argv|environ|cwd|status|ids|fds|fd N|limits\n", argv[0]);
    return 2;
  }
  if (strcmp(args[0], "argv") == 0) words(argv), code = 0;
  else if (strcmp(args[0], "environ") == 0) words(environ), code = 0;
  else if (strcmp(args[0], "cwd") == 0) code = getcwd(cwd, sizeof cwd) ? (printf("%s\n", cwd), 0) : fail("getcwd");
  else if (strcmp(args[0], "status") == 0) code = status();
  else if (strcmp(args[0], "ids") == 0) printf("%ld %ld\n", (long)getpgrp(), (long)getsid(0)), code = 0;
  else if (strcmp(args[0], "fds") == 0) code = fds();
  else if (strcmp(args[0], "fd") == 0 && args[1]) code = fd(args[1]);
  else if (strcmp(args[0], "limits") == 0) code = limits();
  else return fprintf(stderr, "%s: no report %s\n", argv[0], args[0]), 2;
  return fflush(stdout) == 0 ? code : fail("stdout");
}

/* The child of every differential call (spec/differential/worker.rb): all a program can see of how it was
 * started, in one report appended to ../report beside this executable (found through /proc/self/exe, so
 * that neither argv, environment, cwd nor descriptors, which are under test, carry the way back).
 * Linux only, as the whole differential test. Then "out ARG1" on fd 1 and "err ARG1" on fd 2, so that
 * redirected output lands somewhere to compare. One write per report: a shell pipeline's reports do not
 * interleave (the worker sorts them). Bytes outside printable ASCII are written as \xHH.
 *
 * `reporter --list DIR` instead prints what DIR holds (recursively, by name: mode and the first 200 bytes),
 * for the worker, since JRuby cannot name a file whose name is not UTF-8.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static void escaped(FILE *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c >= 0x7f || c == '\\') fprintf(out, "\\x%02X", c);
    else fputc(c, out);
  }
}

static void line(FILE *out, const char *key, const char *value) {
  fprintf(out, "%s=", key);
  escaped(out, value, strlen(value));
  fputc('\n', out);
}

/* The directory of this executable, with a trailing slash. */
static void home(char *dir, size_t size) {
  ssize_t n = readlink("/proc/self/exe", dir, size - 1);
  dir[n < 0 ? 0 : n] = 0;
  char *slash = strrchr(dir, '/');
  if (slash) slash[1] = 0;
}

static long worker_pgid(const char *dir) {
  char path[PATH_MAX + 32];
  long pgid = -1;
  snprintf(path, sizeof path, "%s../worker.pgid", dir);
  FILE *f = fopen(path, "r");
  if (f) { if (fscanf(f, "%ld", &pgid) != 1) pgid = -1; fclose(f); }
  return pgid;
}

static void status_lines(FILE *out) {
  char buf[512];
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return;
  while (fgets(buf, sizeof buf, f))
    if (!strncmp(buf, "SigBlk:", 7) || !strncmp(buf, "SigIgn:", 7) || !strncmp(buf, "Umask:", 6)) fputs(buf, out);
  fclose(f);
}

static int numeric(const struct dirent *e) { return e->d_name[0] >= '0' && e->d_name[0] <= '9'; }
static int by_number(const struct dirent **a, const struct dirent **b) { return atoi((*a)->d_name) - atoi((*b)->d_name); }

/* Every descriptor (the listing's own excepted): where it points, its access mode and O_APPEND/O_NONBLOCK. */
static void descriptors(FILE *out) {
  struct dirent **list;
  int own = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int n = scandir("/proc/self/fd", &list, numeric, by_number);
  char name[64], target[PATH_MAX + 1];
  for (int i = 0; i < n; i++) {
    int fd = atoi(list[i]->d_name);
    free(list[i]);
    if (fd == own) continue;
    snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
    ssize_t len = readlink(name, target, sizeof target - 1);
    if (len < 0) continue; /* scandir's own descriptor, closed by now */
    target[len] = 0;
    int flags = fcntl(fd, F_GETFL);
    int acc = flags & O_ACCMODE;
    fprintf(out, "fd %d=", fd);
    escaped(out, target, strlen(target));
    fprintf(out, " %s%s%s\n", acc == O_RDONLY ? "r" : acc == O_WRONLY ? "w" : "rw",
            flags & O_APPEND ? ",append" : "", flags & O_NONBLOCK ? ",nonblock" : "");
  }
  free(list);
  close(own);
}

static void limits(FILE *out) {
  static const char *names[] = {"CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC", "NOFILE",
                                "MEMLOCK", "AS", "LOCKS", "SIGPENDING", "MSGQUEUE", "NICE", "RTPRIO", "RTTIME"};
  for (int r = 0; r < (int)(sizeof names / sizeof names[0]); r++) {
    struct rlimit l;
    if (getrlimit(r, &l) != 0) continue;
    fprintf(out, "rlimit %s=", names[r]);
    if (l.rlim_cur == RLIM_INFINITY) fprintf(out, "inf"); else fprintf(out, "%llu", (unsigned long long)l.rlim_cur);
    if (l.rlim_max == RLIM_INFINITY) fprintf(out, " inf\n"); else fprintf(out, " %llu\n", (unsigned long long)l.rlim_max);
  }
}

/* What arrives on stdin until end of file, at most 3 s of waiting: every stdin a call gives reaches its end
 * (the worker closes what it writes), so the limit only bounds a mistake. */
static void input(FILE *out) {
  char buf[4096];
  struct pollfd p = {0, POLLIN, 0};
  fprintf(out, "stdin=");
  int flags = fcntl(0, F_GETFL);
  if (flags >= 0 && (flags & O_ACCMODE) == O_WRONLY) { fprintf(out, "<write-only>\n"); return; }
  for (;;) {
    int ready = poll(&p, 1, 3000);
    if (ready == 0) { fprintf(out, "<no end>"); break; }
    if (ready < 0 || (p.revents & POLLNVAL)) { fprintf(out, "<not open>"); break; }
    ssize_t n = read(0, buf, sizeof buf);
    if (n < 0) { fprintf(out, "<unreadable>"); break; }
    if (n == 0) break;
    escaped(out, buf, (size_t)n);
  }
  fputc('\n', out);
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }
static int entry(const struct dirent *e) { return strcmp(e->d_name, ".") && strcmp(e->d_name, ".."); }

static void list(const char *dir, const char *relative) {
  struct dirent **names;
  int n = scandir(dir, &names, entry, by_name);
  for (int i = 0; i < n; i++) {
    char path[PATH_MAX + 1], rel[PATH_MAX + 1], buf[200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
    snprintf(rel, sizeof rel, "%s%s%s", relative, *relative ? "/" : "", names[i]->d_name);
    free(names[i]);
    if (lstat(path, &st) != 0) continue;
    printf("file ");
    escaped(stdout, rel, strlen(rel));
    printf(" %04o ", (unsigned)(st.st_mode & 07777));
    if (S_ISREG(st.st_mode)) {
      int fd = open(path, O_RDONLY | O_CLOEXEC);
      ssize_t got = fd < 0 ? -1 : read(fd, buf, sizeof buf);
      if (fd >= 0) close(fd);
      escaped(stdout, buf, got < 0 ? 0 : (size_t)got);
      printf("\n");
    } else if (S_ISDIR(st.st_mode)) {
      printf("directory\n");
      list(path, rel);
    } else {
      printf("other\n");
    }
  }
  if (n >= 0) free(names);
}

int main(int argc, char **argv) {
  char dir[PATH_MAX + 1], path[PATH_MAX + 32], cwd[PATH_MAX + 1];
  char *text = NULL;
  size_t size = 0;
  if (argc == 3 && !strcmp(argv[1], "--list")) return list(argv[2], ""), 0;
  FILE *out = open_memstream(&text, &size);
  home(dir, sizeof dir);
  fprintf(out, "report\n");
  for (int i = 0; i < argc; i++) line(out, "argv", argv[i]);
  for (char **e = environ; *e; e++) line(out, "env", *e);
  line(out, "cwd", getcwd(cwd, sizeof cwd) ? cwd : "<none>");
  long pgrp = getpgrp(), worker = worker_pgid(dir);
  line(out, "pgroup", pgrp == getpid() ? "own" : pgrp == worker ? "worker's" : "other");
  status_lines(out);
  descriptors(out);
  limits(out);
  input(out);
  fclose(out);
  snprintf(path, sizeof path, "%s../report", dir);
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0) { if (write(fd, text, size) < 0) perror(path); close(fd); }
  const char *word = argc > 1 ? argv[1] : "-";
  dprintf(1, "out %s\n", word);
  dprintf(2, "err %s\n", word);
  return argc > 2 && !strcmp(argv[2], "fail") ? 3 : 0;
}

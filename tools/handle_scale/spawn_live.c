/* handle-scale's floor: posix_spawnp of argv[1] children of `sleep 600`, one after another, printing the
   wall ms per child of each block of argv[2]; then KILL to every one and a wait for each. */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    int n = atoi(argv[1]), block = atoi(argv[2]);
    pid_t *pids = calloc(n, sizeof *pids);
    char *args[] = {"sleep", "600", NULL};
    for (int b = 0; b < n / block; b++) {
        double t0 = now();
        for (int i = 0; i < block; i++) {
            if (posix_spawnp(&pids[b * block + i], "sleep", NULL, NULL, args, environ) != 0) return 1;
        }
        printf("%.4f\n", (now() - t0) * 1000.0 / block);
    }
    for (int i = 0; i < n; i++) kill(pids[i], SIGKILL);
    for (int i = 0; i < n; i++) waitpid(pids[i], NULL, 0);
    free(pids);
    return 0;
}

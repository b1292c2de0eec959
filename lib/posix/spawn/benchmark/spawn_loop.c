/*
 * The C reference for posix-spawn-benchmark: COUNT spawns of PROGRAM, each waited for, shared out
 * among THREADS threads. Prints the wall-clock microseconds per spawn, measured here so that
 * neither the compiler nor the start of this process is counted.
 *
 *   spawn_loop COUNT THREADS p|f PROGRAM
 *
 * p: posix_spawnp(PROGRAM), which searches PATH in the child, trying execve on each entry in turn.
 * f: posix_spawn(PROGRAM), which takes PROGRAM as the full path and execs it once.
 */
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static int search_path;
static char *program;

static void *spawn_and_wait(void *count) {
    char *argv[] = { program, NULL };
    for (long i = (long)count; i > 0; i--) {
        pid_t pid;
        int status;
        int error = search_path ? posix_spawnp(&pid, program, NULL, NULL, argv, environ)
                                : posix_spawn(&pid, program, NULL, NULL, argv, environ);
        if (error != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "spawn_loop: %s failed\n", program);
            exit(1);
        }
    }
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: spawn_loop COUNT THREADS p|f PROGRAM\n");
        return 2;
    }
    long count = atol(argv[1]);
    long threads = atol(argv[2]);
    search_path = argv[3][0] == 'p';
    program = argv[4];
    if (count < 1 || threads < 1) return 2;

    pthread_t ids[threads];
    double started = now();
    for (long t = 0; t < threads; t++)
        pthread_create(&ids[t], NULL, spawn_and_wait, (void *)(count / threads + (t < count % threads)));
    for (long t = 0; t < threads; t++)
        pthread_join(ids[t], NULL);
    printf("%.3f\n", (now() - started) / count * 1e6);
    return 0;
}

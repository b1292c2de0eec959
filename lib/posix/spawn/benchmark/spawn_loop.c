/*
 * The C reference for posix-spawn-benchmark: COUNT spawns of PROGRAM, each waited for, shared out
 * among THREADS threads. Prints the wall-clock microseconds per spawn, measured here so that
 * neither the compiler nor the start of this process is counted.
 *
 *   spawn_loop COUNT THREADS p|f PROGRAM
 *
 * p: posix_spawnp(PROGRAM), which searches PATH in the child, trying execve on each entry in turn.
 * f: posix_spawn(PROGRAM), which takes PROGRAM as the full path and execs it once.
 *
 * Built with -shared -DSPAWN_LOOP_LIBRARY it is a library instead, whose spawn_loop() the benchmark calls
 * through FFI: the same loop run inside the JVM's own process (its heap, threads, descriptors, signal
 * handlers), which sets what the process costs a spawn apart from what the gem's code costs it.
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
static volatile int failed;

static void *spawn_and_wait(void *count) {
    char *argv[] = { program, NULL };
    for (long i = (long)count; i > 0; i--) {
        pid_t pid;
        int status;
        int error = search_path ? posix_spawnp(&pid, program, NULL, NULL, argv, environ)
                                : posix_spawn(&pid, program, NULL, NULL, argv, environ);
        if (error != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            failed = 1;
            break;
        }
    }
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Microseconds per spawn of COUNT spawns + waits, shared out among THREADS threads; -1 if one failed. */
double spawn_loop(long count, long threads, int search, char *name) {
    search_path = search;
    program = name;
    failed = 0;
    pthread_t ids[threads];
    double started = now();
    for (long t = 0; t < threads; t++)
        pthread_create(&ids[t], NULL, spawn_and_wait, (void *)(count / threads + (t < count % threads)));
    for (long t = 0; t < threads; t++)
        pthread_join(ids[t], NULL);
    return failed ? -1 : (now() - started) / count * 1e6;
}

#ifndef SPAWN_LOOP_LIBRARY
int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: spawn_loop COUNT THREADS p|f PROGRAM\n");
        return 2;
    }
    long count = atol(argv[1]);
    long threads = atol(argv[2]);
    if (count < 1 || threads < 1) return 2;

    double per_spawn = spawn_loop(count, threads, argv[3][0] == 'p', argv[4]);
    if (per_spawn < 0) {
        fprintf(stderr, "spawn_loop: %s failed\n", argv[4]);
        return 1;
    }
    printf("%.3f\n", per_spawn);
    return 0;
}
#endif

/*
 * spawn-harness's C worker: the reference the Ruby workers are compared with, asked for a few iterations
 * at a time so that its spawns take turns with theirs. Reads commands from stdin, one a line:
 *
 *   run CASE N    N iterations of CASE, each timed: prints their nanoseconds on one line
 *   warm CASE N   the same, untimed: prints "ok"
 *
 *   heap MB       hold a live heap of MB megabytes (4 KiB blocks), as the Ruby workers do: prints "ok"
 *
 * CASE: spawnp (posix_spawnp("true") + waitpid), spawn (posix_spawn of PROGRAM, the full path, + waitpid),
 * spawnp_2t (two threads, each doing 4 posix_spawnp + waitpid; an iteration ends when both are done), and
 * spawnp_work: spawnp with the Ruby workers' other work between iterations, untimed (16 blocks of the live
 * heap replaced, 64 KiB of garbage written), so that its caches start each spawn as theirs do.
 *
 *   c_worker PROGRAM
 *
 * Built with -shared -DC_WORKER_LIBRARY it is instead a library for the JRuby worker, whose c_spawnp case
 * calls c_worker_spawnp (through FFI): the same spawn made from inside the JVM's process, with its heap,
 * threads, descriptors and signal handlers, which sets what the JVM costs apart from what the gem does.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;
static char *program;
static char **heap;
static long blocks;

#define BLOCK 4096

static void grow_heap(long mb) {
    blocks = mb * 1024 * 1024 / BLOCK;
    heap = calloc(blocks, sizeof *heap);
    for (long i = 0; i < blocks; i++) {
        heap[i] = malloc(BLOCK);
        memset(heap[i], 'h', BLOCK);
    }
}

/* The Ruby workers' other_work: 16 retained blocks replaced, 64 KiB of short-lived garbage. */
static void other_work(void) {
    for (int i = 0; i < 16 && blocks > 0; i++) {
        long at = random() % blocks;
        free(heap[at]);
        heap[at] = malloc(BLOCK);
        memset(heap[at], 'r', BLOCK);
    }
    for (int i = 0; i < 16; i++) {
        volatile char *garbage = malloc(BLOCK);
        memset((char *)garbage, 'g', BLOCK);
        free((char *)garbage);
    }
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void spawn_wait(int search_path) {
    char *argv[] = { "true", NULL };
    pid_t pid;
    int status;
    int error = search_path ? posix_spawnp(&pid, "true", NULL, NULL, argv, environ)
                            : posix_spawn(&pid, program, NULL, NULL, argv, environ);
    if (error != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "c_worker: spawning true failed\n");
        exit(1);
    }
}

static void *four_spawns(void *unused) {
    (void)unused;
    for (int i = 0; i < 4; i++) spawn_wait(1);
    return NULL;
}

#ifdef C_WORKER_LIBRARY
int c_worker_spawnp(void) {
    spawn_wait(1);
    return 1;
}
#else
static void iteration(const char *name) {
    if (strcmp(name, "spawnp") == 0 || strcmp(name, "spawnp_work") == 0) {
        spawn_wait(1);
    } else if (strcmp(name, "spawn") == 0) {
        spawn_wait(0);
    } else if (strcmp(name, "spawnp_2t") == 0) {
        pthread_t a, b;
        pthread_create(&a, NULL, four_spawns, NULL);
        pthread_create(&b, NULL, four_spawns, NULL);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    } else {
        fprintf(stderr, "c_worker: no case %s\n", name);
        exit(2);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: c_worker PROGRAM\n");
        return 2;
    }
    program = argv[1];
    char verb[16], name[64];
    long n;
    while (scanf("%15s %63s", verb, name) == 2) {
        if (strcmp(verb, "heap") == 0) {
            grow_heap(atol(name));
            printf("ok\n");
            fflush(stdout);
            continue;
        }
        if (scanf("%ld", &n) != 1) return 2;
        int timed = strcmp(verb, "run") == 0;
        int work = strcmp(name, "spawnp_work") == 0;
        for (long i = 0; i < n; i++) {
            long long started = now_ns();
            iteration(name);
            if (timed) printf(i ? " %lld" : "%lld", now_ns() - started);
            if (work) other_work();
        }
        printf(timed ? "\n" : "ok\n");
        fflush(stdout);
    }
    return 0;
}
#endif

/* paimon_tune_process_heap() (paimon/heap.h), in eight processes of its own (each starts
 * its heap at another random address, so the heap's end falls differently against 2 MiB),
 * built without sanitizers (theirs replace glibc's malloc, which is what the call tunes),
 * each having allocated before it asks: the call reports the huge-page range set up where
 * the kernel has transparent huge pages; afterwards a block of a few MiB, whether the main
 * thread or another thread allocates it, ends in heap advised for huge pages (the heap's
 * first bytes, below its first aligned 2 MiB, are not advised); a 24 MiB block comes from
 * that heap rather than a mapping of its own, and so does one once the heap has outgrown
 * its 256 MiB pad; freeing it hands nothing back to the kernel.
 * Plain asserts, no test library: this program links nothing but the source it checks. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paimon/heap.h"

/* Processes checked: each starts its heap at another random address. */
#define RUNS 8

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "heap_plain:%d: %s: ", __LINE__, #cond);                               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* The mapping holding `p` in /proc/self/smaps: whether its VmFlags name "hg" (advised for
 * huge pages) and whether it is the heap ("[heap]", grown with brk).  -1 when no mapping
 * holds `p`, else 0. */
static int mapping_of(const void *p, int *advised, int *heap)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, found = -1;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            if (in)
                *heap = strstr(line, "[heap]") != NULL;
        } else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            *advised = strstr(line, " hg") != NULL;
            found = 0;
            break;
        }
    }
    fclose(f);
    return found;
}

/* Whether the mapping holding `p` is advised for huge pages (-1: no mapping holds it). */
static int advised_huge(const void *p)
{
    int advised = 0, heap = 0;
    return mapping_of(p, &advised, &heap) == 0 ? advised : -1;
}

/* Whether `p` lies in the heap (grown with brk) rather than a mapping of its own. */
static int in_heap(const void *p)
{
    int advised = 0, heap = 0;
    return mapping_of(p, &advised, &heap) == 0 && heap;
}

static void *thread_block(void *arg)
{
    (void)arg;
    return malloc(3 << 20);
}

/* One process's check; main() runs it in several, since where the heap starts (and so how
 * its end falls against 2 MiB) differs from process to process. */
static int check_one(void)
{
    int thp = access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
    int tuned = paimon_tune_process_heap();
    char *own, *big, *end_before, *end_after;
    void *theirs = NULL;
    pthread_t t;

    CHECK(tuned == thp, "returned %d on a kernel %s transparent huge pages", tuned,
          thp ? "with" : "without");
    if (!thp)
        return failures == 0 ? 0 : 1; /* nothing is advised without them */

    own = malloc(3 << 20);
    CHECK(own != NULL && advised_huge(own + (3 << 20) - 1) == 1,
          "a 3 MiB block of the main thread at %p", (void *)own);
    CHECK(pthread_create(&t, NULL, thread_block, NULL) == 0 && pthread_join(t, &theirs) == 0,
          "a thread");
    CHECK(theirs != NULL && advised_huge((char *)theirs + (3 << 20) - 1) == 1,
          "a 3 MiB block of another thread at %p (its own arena?)", theirs);

    big = malloc(24 << 20);
    CHECK(big != NULL && advised_huge(big + (24 << 20) - 1) == 1,
          "a 24 MiB block at %p (a mapping of its own?)", (void *)big);
    end_before = sbrk(0);
    free(big);
    end_after = sbrk(0);
    CHECK(end_before == end_after, "freeing 24 MiB moved the heap's end from %p to %p",
          (void *)end_before, (void *)end_after);

    /* Past the pad: 11 more blocks of 24 MiB (264 MiB, untouched) outgrow the advised
     * range, and the next 24 MiB block still comes from the heap, which grows with brk,
     * rather than from a mapping of its own (glibc's threshold would be 128 KiB). */
    {
        char *held[11], *past;
        for (size_t i = 0; i < 11; i++)
            held[i] = malloc(24 << 20);
        past = malloc(24 << 20);
        CHECK(past != NULL && in_heap(past) && in_heap(past + (24 << 20) - 1),
              "a 24 MiB block past the 256 MiB pad at %p (a mapping of its own?)", (void *)past);
        free(past);
        for (size_t i = 0; i < 11; i++)
            free(held[i]);
    }

    free(own);
    free(theirs);
    return failures == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    int bad = 0;
    if (argc > 1 && strcmp(argv[1], "one") == 0) {
        /* a program that allocated before it asked, as the benches do */
        void *volatile early = malloc(200 << 10);
        int rc = check_one();
        free(early);
        return rc;
    }
    for (int i = 0; i < RUNS; i++) {
        pid_t pid = fork();
        int status = 0;
        if (pid == 0) {
            execl("/proc/self/exe", argv[0], "one", (char *)NULL);
            _exit(127);
        }
        if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            fprintf(stderr, "heap_plain: process %d of %d failed (status %d)\n", i + 1, RUNS,
                    status);
            bad++;
        }
    }
    if (bad == 0)
        printf("heap_plain: ok in %d processes (huge pages advised; main thread, other thread, "
               "24 MiB blocks, one past the pad)\n",
               RUNS);
    return bad == 0 ? 0 : 1;
}

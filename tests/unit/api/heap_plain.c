/* paimon_tune_process_heap() (paimon/heap.h), in a process of its own built without
 * sanitizers (theirs replace glibc's malloc, which is what the call tunes): afterwards a
 * block of a few MiB, whether the main thread or another thread allocates it, lies in heap
 * advised for huge pages; a 24 MiB block comes from that heap rather than a mapping of its
 * own; freeing it hands nothing back to the kernel.  Plain asserts, no test library: this
 * program links nothing but the one source it checks. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paimon/heap.h"

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

/* Whether the mapping holding `p` is advised for huge pages: its VmFlags in
 * /proc/self/smaps name "hg".  -1 when no mapping holds it. */
static int advised_huge(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, found = -1;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
        else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            found = strstr(line, " hg") != NULL;
            break;
        }
    }
    fclose(f);
    return found;
}

static void *thread_block(void *arg)
{
    (void)arg;
    return malloc(3 << 20);
}

int main(void)
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

    free(own);
    free(theirs);
    if (failures == 0)
        printf("heap_plain: ok (huge pages advised; main thread, other thread, 24 MiB block)\n");
    return failures == 0 ? 0 : 1;
}

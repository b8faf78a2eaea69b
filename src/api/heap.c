/* The heap settings of the paimon command (paimon/heap.h). */
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "paimon/heap.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

int paimon_tune_process_heap(void)
{
    char *before, *after;
    void *volatile grow; /* volatile: the compiler may not drop the malloc/free pair */
    uintptr_t start, end;

    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TOP_PAD, (int)PAIMON_HEAP_HUGE_RANGE);
    /* A block larger than the heap's spare room makes glibc extend the heap with brk by
     * the block plus the pad, so [before, after) is heap that nothing has touched yet. */
    before = sbrk(0);
    grow = malloc(1 << 20);
    after = sbrk(0);
    free(grow);
    if (grow == NULL || before == (void *)-1 || after == (void *)-1 || after < before ||
        (size_t)(after - before) < PAIMON_HEAP_HUGE_RANGE)
        return 0;
    start = ((uintptr_t)before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    end = (uintptr_t)after & ~(HUGE_PAGE - 1);
    return end > start && madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
}

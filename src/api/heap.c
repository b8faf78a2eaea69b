/* The heap settings of the paimon command (paimon/heap.h). */
#include <malloc.h>
#include <stdbool.h>
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
    bool grown;
    uintptr_t start, end;

    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_TOP_PAD, (int)PAIMON_HEAP_HUGE_RANGE);
    /* A block larger than the heap's spare room makes glibc extend the heap with brk by
     * the block plus the pad; freeing it may trim the heap back by the block (never by the
     * pad), so the end is read after the free: [before, after) is heap that stays and that
     * nothing has touched yet. */
    before = sbrk(0);
    grow = malloc(1 << 20);
    grown = grow != NULL;
    free(grow);
    after = sbrk(0);
    if (!grown || before == (void *)-1 || after == (void *)-1 || after < before ||
        (size_t)(after - before) < PAIMON_HEAP_HUGE_RANGE / 2) /* the pad did not apply */
        return 0;
    start = ((uintptr_t)before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    end = (uintptr_t)after & ~(HUGE_PAGE - 1);
    return end > start && madvise((void *)start, end - start, MADV_HUGEPAGE) == 0;
}

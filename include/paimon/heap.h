/*
 * paimon-c: the heap settings of the `paimon` command, for a program that wants them.
 *
 * The library never changes the process's allocator by itself.  A program whose main work
 * is paimon-c's bulk work (scans, writes, compactions) may call paimon_tune_process_heap()
 * once, first thing in main() and before it starts any thread; the `paimon` command and
 * the benches do.  It is for glibc's malloc (the one Debian links); under another allocator
 * the mallopt calls are that allocator's business and the huge-page range is not set up.
 *
 * Why: a scan or a compaction holds tens of MiB of buffers (column chunks read whole,
 * decompressed pages, decoded batches, a writer's row group) and touches them afresh in
 * every process; with glibc's defaults each 4 KiB of it is a page fault of its own, and on
 * the virtual machines this project is measured on a fault costs 10 to 40 us -- a fifth of
 * a one-thread scan, more at two threads, where each thread's arena is memory of its own
 * (docs/PERFORMANCE.md, "Huge pages for the paimon command").
 *
 * What holds after the call (each step a documented mallopt or madvise; a step that the
 * allocator or the kernel refuses costs speed, never correctness):
 *   - every thread allocates from the main arena (M_ARENA_MAX 1; small blocks still come
 *     from each thread's cache without the arena's lock), so every thread's blocks come
 *     from the one heap advised below;
 *   - the heap grows 256 MiB at a time (M_TOP_PAD), and its first 256 MiB are advised
 *     MADV_HUGEPAGE: where transparent huge pages are on (`madvise` or `always` in
 *     /sys/kernel/mm/transparent_hugepage/enabled) the kernel backs them with 2 MiB pages,
 *     one fault where there were 512.  Address space, not memory: a page is resident once
 *     touched.  The pad is also what a trim leaves: up to 256 MiB of freed heap stays for
 *     reuse, and the advised range is never handed back.  Past 256 MiB the heap grows in
 *     ordinary pages;
 *   - blocks under 32 MiB come from the heap even once it has outgrown the pad, instead of a
 *     mapping of their own that is faulted in afresh and unmapped at free (M_MMAP_THRESHOLD;
 *     glibc's is 128 KiB once any of these settings is made).
 *
 * Returns 1 when the huge-page range was set up, 0 when it was not (another allocator, a
 * heap that cannot grow with brk, a kernel without transparent huge pages).  Not
 * thread-safe: call it before any other thread runs.
 */
#ifndef PAIMON_HEAP_H
#define PAIMON_HEAP_H

#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The range of the heap advised for huge pages. */
#define PAIMON_HEAP_HUGE_RANGE (256u << 20)

PAIMON_API int paimon_tune_process_heap(void);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_HEAP_H */

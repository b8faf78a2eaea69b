/*
 * What a page fault costs on this machine, the figure behind paimon_tune_process_heap()
 * (paimon/heap.h): MIB MiB of fresh anonymous memory touched once per 4 KiB, REPEATS times
 * with ordinary pages and REPEATS times advised MADV_HUGEPAGE, alternating, each in a mapping
 * of its own (unmapped after).  Prints the faults taken (getrusage) and the wall time per
 * 4 KiB touched; the medians decide whether a process's peak memory is worth touching in
 * 2 MiB pages.
 *
 *   bench_page_faults [MIB] [REPEATS]      (defaults 256 5)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "bench_util.h"

#define HUGE ((size_t)2 << 20)

/* Touches `bytes` of a fresh mapping, advised for huge pages or not; the faults it took. */
static long touch(size_t bytes, int huge, double *seconds)
{
    struct rusage before, after;
    char *map, *p;
    double t0;
    getrusage(RUSAGE_SELF, &before);
    t0 = bench_now();
    map = mmap(NULL, bytes + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        perror("bench_page_faults: mmap");
        exit(1);
    }
    p = (char *)(((uintptr_t)map + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    if (huge && madvise(p, bytes, MADV_HUGEPAGE) != 0)
        perror("bench_page_faults: madvise (the huge-page figures are ordinary pages)");
    for (size_t i = 0; i < bytes; i += 4096)
        p[i] = 1;
    *seconds = bench_now() - t0;
    getrusage(RUSAGE_SELF, &after);
    munmap(map, bytes + HUGE);
    return after.ru_minflt - before.ru_minflt;
}

int main(int argc, char **argv)
{
    long mib = argc > 1 ? atol(argv[1]) : 256;
    int repeats = argc > 2 ? atoi(argv[2]) : 5;
    double us[2][32];
    size_t bytes;
    if (mib < 4 || mib > 65536)
        mib = 256;
    if (repeats < 1 || repeats > 32)
        repeats = 5;
    bytes = (size_t)mib << 20;
    printf("%ld MiB touched per run, %d runs of each, alternating\n", mib, repeats);
    for (int r = 0; r < repeats; r++)
        for (int huge = 0; huge < 2; huge++) {
            double s;
            long faults = touch(bytes, huge, &s);
            us[huge][r] = s * 1e6 / (double)(bytes / 4096);
            printf("  run %d, %s: %ld faults, %.3f s, %.2f us per 4 KiB\n", r + 1,
                   huge ? "huge pages" : "4 KiB pages", faults, s, us[huge][r]);
        }
    printf("median us per 4 KiB touched: 4 KiB pages %.2f, huge pages %.2f\n",
           bench_median(us[0], (size_t)repeats), bench_median(us[1], (size_t)repeats));
    return 0;
}

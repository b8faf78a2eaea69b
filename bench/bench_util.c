/* Benchmark helpers: see bench_util.h. */
#include "bench_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "paimon/heap.h"

void bench_heap_init(const char *program)
{
    const char *plain = getenv("PAIMON_BENCH_PLAIN_HEAP");
    if (plain != NULL && strcmp(plain, "1") == 0)
        fprintf(stderr, "%s: glibc's default heap settings (PAIMON_BENCH_PLAIN_HEAP=1)\n", program);
    else
        fprintf(stderr, "%s: the paimon command's heap settings (huge pages %s)\n", program,
                paimon_tune_process_heap() ? "advised" : "not set up");
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double bench_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

long bench_peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median(double *values, size_t n)
{
    if (n == 0)
        return 0;
    qsort(values, n, sizeof(double), cmp_double);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

uint64_t bench_xorshift(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

void bench_die(const char *what, const paimon_error *err)
{
    fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
            err != NULL ? err->message : "");
    exit(1);
}

int bench_split_stream(paimon_scan *scan, size_t split, struct ArrowArrayStream *out,
                       paimon_error *err)
{
    paimon_cursor *cur = NULL;
    int rc = paimon_scan_split_cursor(&cur, scan, split, err);
    if (rc == 0)
        rc = paimon_cursor_arrow_stream(cur, out, err);
    paimon_cursor_free(cur);
    return rc;
}

/* Benchmark helpers: monotonic time, peak RSS, medians. */
#ifndef PM_BENCH_UTIL_H
#define PM_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "paimon/scan.h"

double bench_now(void);                        /* seconds, monotonic */
double bench_cpu_now(void);                    /* CPU seconds of this process */
long bench_peak_rss_kb(void);                  /* peak resident set size of this process */
double bench_median(double *values, size_t n); /* sorts `values` */
uint64_t bench_xorshift(uint64_t *state);      /* next of a xorshift64 sequence (nonzero seed) */
/* Split `split` of `scan` as an Arrow stream (its cursor's, the cursor freed at once):
 * what an engine reads.  0 or the error of paimon_scan_split_cursor(). */
int bench_split_stream(paimon_scan *scan, size_t split, struct ArrowArrayStream *out,
                       paimon_error *err);
/* First thing in main(): the heap settings of the `paimon` command (paimon/heap.h), so a
 * bench measures what the command runs; PAIMON_BENCH_PLAIN_HEAP=1 in the environment keeps
 * glibc's defaults, the peer when those settings are what is measured.  Prints which to
 * stderr. */
void bench_heap_init(const char *program);
/* Prints "<program>: <what>: <message of err, if any>" and exits with 1. */
_Noreturn void bench_die(const char *what, const paimon_error *err);

#endif

/* Benchmark helpers: monotonic time, peak RSS, medians. */
#ifndef PM_BENCH_UTIL_H
#define PM_BENCH_UTIL_H

#include <stddef.h>

double bench_now(void);                        /* seconds, monotonic */
double bench_cpu_now(void);                    /* CPU seconds of this process */
long bench_peak_rss_kb(void);                  /* peak resident set size of this process */
double bench_median(double *values, size_t n); /* sorts `values` */

#endif

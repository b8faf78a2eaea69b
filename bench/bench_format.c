/*
 * Printing DOUBLE and FLOAT values (data/canonical.h over util/shortest.c), per value: the
 * printer of `paimon cat` against the formatter it replaced (up to 17 rounds of
 * snprintf("%.{p}g") and strtod a value; kept in tests/lib/double_ref.h).
 *
 * Values, fixed pseudo-random: "full" uniform random bit patterns of finite values (16 or 17
 * significant digits: the costly case for both), "short" decimals of 1 to 8 digits with an
 * exponent in [-10, 10] (prices, measurements).  Each set of N values is printed RUNS times
 * into one reused buffer; prints the median ns a value (CPU time of the process) of each
 * printer and the ratio.
 *
 * usage: bench_format [N] [RUNS]   (default 1000000 3)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/lib/double_ref.h"
#include "bench_util.h"
#include "data/canonical.h"
#include "util/alloc.h"

static volatile size_t sink; /* keeps the printed bytes alive */

static double run_new(const double *v, const float *f, size_t n)
{
    pm_buf b;
    double t0 = bench_cpu_now();
    pm_buf_init(&b, 0);
    for (size_t i = 0; i < n; i++) {
        if ((i & 4095) == 0) {
            sink += b.len;
            pm_buf_reset(&b);
        }
        if (v != NULL ? pm_format_double(&b, v[i]) : pm_format_float(&b, f[i]))
            bench_die("pm_format_double", NULL);
    }
    sink += b.len;
    pm_buf_free(&b);
    return (bench_cpu_now() - t0) / (double)n * 1e9;
}

static double run_old(const double *v, const float *f, size_t n)
{
    char text[REF_TEXT_MAX];
    double t0 = bench_cpu_now();
    for (size_t i = 0; i < n; i++) {
        if (v != NULL)
            ref_format_double(text, v[i]);
        else
            ref_format_float(text, f[i]);
        sink += strlen(text);
    }
    return (bench_cpu_now() - t0) / (double)n * 1e9;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    double *v = pm_malloc(n * sizeof(double)), *a = pm_malloc((size_t)runs * sizeof(double));
    double *b = pm_malloc((size_t)runs * sizeof(double));
    float *f = pm_malloc(n * sizeof(float));
    uint64_t seed = 0x9e3779b97f4a7c15ULL;

    if (v == NULL || f == NULL || a == NULL || b == NULL || runs < 1)
        bench_die("setup", NULL);
    printf("%zu values a set, median of %d runs, CPU ns a value\n", n, runs);
    printf("%-26s %10s %10s %8s\n", "", "shortest", "before", "ratio");
    for (int set = 0; set < 4; set++) {
        const char *names[] = {"DOUBLE full precision", "DOUBLE short decimals",
                               "FLOAT full precision", "FLOAT short decimals"};
        bool is_float = set >= 2, full = set % 2 == 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t r = bench_xorshift(&seed);
            if (full && !is_float) {
                r &= 0x7fefffffffffffffULL; /* finite, positive */
                memcpy(&v[i], &r, sizeof(double));
            } else if (full) {
                uint32_t r32 = (uint32_t)r & 0x7f7fffffu;
                memcpy(&f[i], &r32, sizeof(float));
            } else {
                double d = (double)(r % 100000000) / pow(10, (double)(r >> 32 & 7)) *
                           pow(10, (double)((int)(r >> 40 & 15) - 8));
                v[i] = d;
                f[i] = (float)d;
            }
        }
        for (int r = 0; r < runs; r++) {
            a[r] = run_new(is_float ? NULL : v, f, n);
            b[r] = run_old(is_float ? NULL : v, f, n);
        }
        double x = bench_median(a, (size_t)runs), y = bench_median(b, (size_t)runs);
        printf("%-26s %10.1f %10.1f %8.1f\n", names[set], x, y, y / x);
    }
    pm_free(v);
    pm_free(f);
    pm_free(a);
    pm_free(b);
    return 0;
}

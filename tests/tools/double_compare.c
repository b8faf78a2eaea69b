/*
 * double_compare: the long equivalence run of the DOUBLE and FLOAT printer (make
 * compare-doubles; not part of make test).  pm_format_double and pm_format_float against the
 * formatter they replaced (tests/lib/double_ref.h) on every edge case of
 * tests/lib/double_cases.h, on every binary32 pattern of the lowest exponents (the 2^23
 * subnormals and the smallest normal binade, both signs: the tiny significands get no
 * special treatment in util/shortest.c), and on N random patterns of each width; with
 * --all-floats, on every one of the 2^32 binary32 patterns instead of random ones.
 *
 *     double_compare [N] [--seed S] [--all-floats]      (N defaults to 100000000)
 *
 * Prints the counts, the differences the reference allows (a shorter decimal at a power of
 * two), the time, and exits 1 at the first difference it does not allow.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/double_cases.h"
#include "../lib/double_ref.h"
#include "data/canonical.h"
#include "util/buf.h"

typedef struct tally {
    pm_buf buf;
    long long count;   /* patterns compared */
    long long shorter; /* accepted differences: fewer digits than the reference */
} tally;

static void report_and_exit(const char *why)
{
    fprintf(stderr, "double_compare: %s\n", why);
    exit(1);
}

static void check64(uint64_t bits, void *ctx)
{
    tally *t = ctx;
    char ref[REF_TEXT_MAX], why[160];
    double v;
    memcpy(&v, &bits, sizeof(v));
    pm_buf_reset(&t->buf);
    if (pm_format_double(&t->buf, v) != 0)
        report_and_exit("out of memory");
    ref_format_double(ref, v);
    if (strcmp(ref, pm_buf_cstr(&t->buf)) != 0) {
        if (ref_check_double(bits, pm_buf_cstr(&t->buf), why) != NULL)
            report_and_exit(why);
        t->shorter++;
    }
    t->count++;
}

static void check32(uint32_t bits, void *ctx)
{
    tally *t = ctx;
    char ref[REF_TEXT_MAX], why[160];
    float v;
    memcpy(&v, &bits, sizeof(v));
    pm_buf_reset(&t->buf);
    if (pm_format_float(&t->buf, v) != 0)
        report_and_exit("out of memory");
    ref_format_float(ref, v);
    if (strcmp(ref, pm_buf_cstr(&t->buf)) != 0) {
        if (ref_check_float(bits, pm_buf_cstr(&t->buf), why) != NULL)
            report_and_exit(why);
        t->shorter++;
    }
    t->count++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void line(const char *what, const tally *t, double secs)
{
    printf("%-28s %12lld compared, %6lld shorter than the reference, %8.1f s\n", what, t->count,
           t->shorter, secs);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    long long n = 100000000;
    uint64_t seed = 0x2545f4914f6cdd1dULL;
    int all_floats = 0;
    tally e64 = {0}, e32 = {0}, s32 = {0}, r64 = {0}, r32 = {0};
    double t0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--all-floats") == 0)
            all_floats = 1;
        else if (argv[i][0] != '-')
            n = strtoll(argv[i], NULL, 10);
        else {
            fprintf(stderr, "usage: double_compare [N] [--seed S] [--all-floats]\n");
            return 2;
        }
    }
    if (seed == 0)
        seed = 1;
    pm_buf_init(&e64.buf, 0);
    pm_buf_init(&e32.buf, 0);
    pm_buf_init(&s32.buf, 0);
    pm_buf_init(&r64.buf, 0);
    pm_buf_init(&r32.buf, 0);

    t0 = now();
    cases_edge_doubles(check64, &e64);
    line("binary64 edge cases", &e64, now() - t0);
    t0 = now();
    cases_edge_floats(check32, &e32);
    line("binary32 edge cases", &e32, now() - t0);
    t0 = now();
    for (uint32_t b = 0; b < 1u << 24; b++) {
        check32(b, &s32);
        check32(b | 1u << 31, &s32);
    }
    line("binary32 lowest exponents", &s32, now() - t0);
    t0 = now();
    for (long long i = 0; i < n; i++)
        check64(cases_random_double(&seed), &r64);
    line("binary64 random", &r64, now() - t0);
    t0 = now();
    if (all_floats) {
        uint32_t b = 0;
        do {
            check32(b, &r32);
            if ((b & 0x0fffffffu) == 0x0fffffffu)
                line("binary32 all (so far)", &r32, now() - t0);
        } while (++b != 0);
        line("binary32 all patterns", &r32, now() - t0);
    } else {
        for (long long i = 0; i < n; i++)
            check32(cases_random_float(&seed), &r32);
        line("binary32 random", &r32, now() - t0);
    }
    pm_buf_free(&e64.buf);
    pm_buf_free(&e32.buf);
    pm_buf_free(&s32.buf);
    pm_buf_free(&r64.buf);
    pm_buf_free(&r32.buf);
    return 0;
}

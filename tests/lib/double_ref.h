/*
 * The reference for pm_format_double / pm_format_float: the formatter canonical.c had before
 * it used util/shortest.c (printf "%.{p}g" for p = 1, 2, ... until strtod/strtof reads the
 * text back as the value, then "e-07" -> "e-7", "e+20" -> "e20"), kept here for the tests
 * that compare both: tests/unit/data/test_format_double.c, tests/fuzz/fuzz_double_format.c
 * and tests/tools/double_compare.c.  Header-only (static inline) so that the fuzz target,
 * which links the library alone, can use it too.
 *
 * Where the two may differ: the reference takes the shortest p at which the value *rounded
 * to p digits* reads back.  At a power of two (significand bits all zero, not the smallest
 * exponent) the neighbour below is twice as close as the one above, so the rounding interval
 * is lopsided: the p-digit value nearest to v can fall outside it while another p-digit value
 * is inside.  The reference then prints p + 1 digits, which is not the shortest decimal the
 * spec asks for (shared/spec/canonical-rows.md); pm_format_double prints the p digits, as
 * Java's Double.toString and JavaScript do (46 of the 2046 binary64 powers of two).
 * ref_check_* accept exactly that difference and nothing else.
 */
#ifndef PM_TESTS_DOUBLE_REF_H
#define PM_TESTS_DOUBLE_REF_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_TEXT_MAX 64 /* every text buffer here */

/* "1e-07" -> "1e-7", "1e+20" -> "1e20" (the old append_g), into out[REF_TEXT_MAX]. */
static inline void ref_strip_exponent(char *out, const char *g)
{
    size_t n = 0;
    while (*g != '\0' && *g != 'e' && n < REF_TEXT_MAX - 1)
        out[n++] = *g++;
    if (*g == 'e') {
        out[n++] = *g++;
        if (*g == '-')
            out[n++] = *g++;
        else if (*g == '+')
            g++;
        while (*g == '0' && g[1] != '\0')
            g++;
        while (*g != '\0' && n < REF_TEXT_MAX - 1)
            out[n++] = *g++;
    }
    out[n] = '\0';
}

/* The old pm_format_double into out[REF_TEXT_MAX]. */
static inline void ref_format_double(char *out, double v)
{
    char buf[REF_TEXT_MAX];
    if (isnan(v)) {
        snprintf(out, REF_TEXT_MAX, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(out, REF_TEXT_MAX, "%s", v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof(buf), "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    ref_strip_exponent(out, buf);
}

/* The old pm_format_float into out[REF_TEXT_MAX]. */
static inline void ref_format_float(char *out, float v)
{
    char buf[REF_TEXT_MAX];
    if (isnan(v)) {
        snprintf(out, REF_TEXT_MAX, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(out, REF_TEXT_MAX, "%s", v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof(buf), "%.*g", p, (double)v);
        if (strtof(buf, NULL) == v)
            break;
    }
    ref_strip_exponent(out, buf);
}

/* Significant digits of a canonical number's text (no leading or trailing zeros). */
static inline int ref_digit_count(const char *s)
{
    const char *first = NULL, *last = NULL;
    int n = 0;
    for (const char *p = s; *p != '\0' && *p != 'e'; p++) {
        if (*p >= '1' && *p <= '9') {
            if (first == NULL)
                first = p;
            last = p;
        }
    }
    if (first == NULL)
        return 1; /* zero */
    for (const char *p = first; p <= last; p++)
        n += *p != '.';
    return n;
}

/* The layout the reference gives a decimal of n digits, applied to `text`'s own digits:
 * long double holds a 17-digit decimal closely enough that "%.{n}Lg" gives its digits back. */
static inline void ref_layout(char *out, const char *text)
{
    char buf[REF_TEXT_MAX];
    snprintf(buf, sizeof(buf), "%.*Lg", ref_digit_count(text), strtold(text, NULL));
    ref_strip_exponent(out, buf);
}

/* NULL when `got` is right for the binary64 `bits`, else what is wrong, in why[160]. */
static inline const char *ref_check_double(uint64_t bits, const char *got, char *why)
{
    char ref[REF_TEXT_MAX], layout[REF_TEXT_MAX];
    double v;
    memcpy(&v, &bits, sizeof(v));
    ref_format_double(ref, v);
    if (strcmp(got, ref) == 0)
        return NULL;
    ref_layout(layout, got);
    /* the one accepted difference: fewer digits at a power of two, same value, same layout */
    if ((bits & ((1ULL << 52) - 1)) == 0 && ((bits >> 52) & 0x7ff) > 1 &&
        ((bits >> 52) & 0x7ff) < 0x7ff && strtod(got, NULL) == v &&
        ref_digit_count(got) < ref_digit_count(ref) && strcmp(layout, got) == 0)
        return NULL;
    snprintf(why, 160, "binary64 0x%016llx: got %s, reference %s", (unsigned long long)bits, got,
             ref);
    return why;
}

/* The same for the binary32 `bits`. */
static inline const char *ref_check_float(uint32_t bits, const char *got, char *why)
{
    char ref[REF_TEXT_MAX], layout[REF_TEXT_MAX];
    float v;
    memcpy(&v, &bits, sizeof(v));
    ref_format_float(ref, v);
    if (strcmp(got, ref) == 0)
        return NULL;
    ref_layout(layout, got);
    if ((bits & ((1u << 23) - 1)) == 0 && ((bits >> 23) & 0xff) > 1 &&
        ((bits >> 23) & 0xff) < 0xff && strtof(got, NULL) == v &&
        ref_digit_count(got) < ref_digit_count(ref) && strcmp(layout, got) == 0)
        return NULL;
    snprintf(why, 160, "binary32 0x%08x: got %s, reference %s", (unsigned)bits, got, ref);
    return why;
}

#endif /* PM_TESTS_DOUBLE_REF_H */

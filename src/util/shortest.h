/*
 * Shortest round-trip decimals of IEEE 754 binary64 and binary32 values.
 *
 * For a finite v, pm_shortest_f64 (pm_shortest_f32) finds the decimal d x 10^e with the
 * fewest significant digits that a correctly rounding reader (strtod, strtof, Java's
 * Double.parseDouble, JavaScript's Number) turns back into exactly v; when several such
 * decimals have that many digits, the one closest to v, and of two equally close the one
 * with the even last digit.  This is the decimal of Java's Double.toString (JDK 19+) and
 * JavaScript's Number.prototype.toString, before either lays it out as text.
 *
 * The method is Schubfach (R. Giulietti, "The Schubfach way to render doubles", 2020): one
 * 128-bit product per bound against a table of powers of 10 (shortest_table.h, written by
 * shortest_table.py), no loop over candidate lengths, no division by anything but 10.
 * Layout (where the point goes, when an exponent is used) is the caller's.
 */
#ifndef PM_UTIL_SHORTEST_H
#define PM_UTIL_SHORTEST_H

#include <stdbool.h>
#include <stdint.h>

typedef struct pm_shortest {
    uint64_t digits;     /* significand without trailing zeros (below 10^17); 0 for zero */
    int32_t exp10;       /* |v| = digits x 10^exp10 (0 for zero) */
    int32_t digit_count; /* decimal digits of `digits`, 1..17 */
    bool negative;       /* the sign bit (also of -0.0) */
} pm_shortest;

/* The shortest decimal of v.  v must be finite: NaN and the infinities have none. */
void pm_shortest_f64(double v, pm_shortest *out);
void pm_shortest_f32(float v, pm_shortest *out);

/* Decimal digits of v: 1 for 0, up to 20. */
int pm_shortest_digit_count(uint64_t v);

/* Writes the `count` = pm_shortest_digit_count(v) digits of v at dst, no NUL. */
void pm_shortest_write_digits(char *dst, uint64_t v, int count);

#endif /* PM_UTIL_SHORTEST_H */

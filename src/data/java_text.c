/* Java's text of values: see java_text.h. */
#include "data/java_text.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/time.h"

int pm_java_local_date_time(pm_buf *out, int64_t millis, int32_t nanos_of_milli)
{
    int64_t days = pm_floor_div(millis, 86400000), ms = pm_floor_mod(millis, 86400000);
    int64_t secs = ms / 1000, y;
    int32_t nanos = (int32_t)(ms % 1000) * 1000000 + nanos_of_milli;
    unsigned mo, d;
    int rc;

    pm_civil_from_days(days, &y, &mo, &d);
    /* java.time.LocalDate.toString: 4-digit years, '+' beyond 9999, '-' before year 0. */
    if (y > 9999)
        rc = pm_buf_printf(out, "+%lld-%02u-%02u", (long long)y, mo, d);
    else if (y < 0)
        rc = pm_buf_printf(out, "-%04lld-%02u-%02u", (long long)-y, mo, d);
    else
        rc = pm_buf_printf(out, "%04lld-%02u-%02u", (long long)y, mo, d);
    if (rc != 0)
        return rc;
    rc =
        pm_buf_printf(out, "T%02lld:%02lld", (long long)(secs / 3600), (long long)(secs / 60 % 60));
    if (rc != 0 || (secs % 60 == 0 && nanos == 0))
        return rc;
    rc = pm_buf_printf(out, ":%02lld", (long long)(secs % 60));
    if (rc != 0 || nanos == 0)
        return rc;
    /* LocalTime.toString: 3, 6 or 9 fraction digits, the fewest that show every digit. */
    if (nanos % 1000000 == 0)
        return pm_buf_printf(out, ".%03d", nanos / 1000000);
    if (nanos % 1000 == 0)
        return pm_buf_printf(out, ".%06d", nanos / 1000);
    return pm_buf_printf(out, ".%09d", nanos);
}

/* Shortest decimal digits of v (> 0, finite) and the decimal exponent e such that
 * v = 0.DIGITS x 10^e.  `digits` receives at most 17 characters and a NUL. */
static void shortest_digits(double v, bool is_float, char *digits, int *exp10)
{
    char buf[48];
    int max = is_float ? 9 : 17;
    for (int p = 1; p <= max; p++) {
        snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
        if (is_float ? (float)strtod(buf, NULL) == (float)v : strtod(buf, NULL) == v)
            break;
    }
    /* buf = "d.ddddde[+-]xx" */
    {
        char *e = strchr(buf, 'e');
        size_t n = 0;
        for (char *p = buf; p < e; p++)
            if (*p != '.')
                digits[n++] = *p;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        digits[n] = '\0';
        /* snprintf's exponent: a sign and two or three digits */
        *exp10 = (int)strtol(e + 1, NULL, 10) + 1;
    }
}

/* Double.toString / Float.toString (JDK 19+: the shortest digits that read back). */
static int java_fp_string(pm_buf *out, double v, bool is_float)
{
    char digits[24];
    int e, n, rc = 0;
    if (isnan(v))
        return pm_buf_puts(out, "NaN");
    if (isinf(v))
        return pm_buf_puts(out, v > 0 ? "Infinity" : "-Infinity");
    if (v == 0)
        return pm_buf_puts(out, signbit(v) ? "-0.0" : "0.0");
    if (v < 0 && (rc = pm_buf_putc(out, '-')) != 0)
        return rc;
    v = fabs(v);
    shortest_digits(v, is_float, digits, &e);
    n = (int)strlen(digits);
    if (v >= 1e-3 && v < 1e7) {
        /* Plain notation, at least one digit on each side of the point. */
        if (e <= 0) {
            rc = pm_buf_puts(out, "0.");
            for (int i = 0; rc == 0 && i < -e; i++)
                rc = pm_buf_putc(out, '0');
            if (rc == 0)
                rc = pm_buf_puts(out, digits);
        } else if (e >= n) {
            rc = pm_buf_puts(out, digits);
            for (int i = n; rc == 0 && i < e; i++)
                rc = pm_buf_putc(out, '0');
            if (rc == 0)
                rc = pm_buf_puts(out, ".0");
        } else {
            rc = pm_buf_printf(out, "%.*s.%s", e, digits, digits + e);
        }
        return rc;
    }
    /* Computerized scientific notation: d.dddE<exp>, at least one fraction digit. */
    return pm_buf_printf(out, "%c.%sE%d", digits[0], n > 1 ? digits + 1 : "0", e - 1);
}

int pm_java_double_string(pm_buf *out, double v)
{
    return java_fp_string(out, v, false);
}

int pm_java_float_string(pm_buf *out, float v)
{
    return java_fp_string(out, (double)v, true);
}

int pm_java_format_timestamp(pm_buf *out, int64_t millis, int32_t nanos_of_milli, int precision)
{
    int64_t days = pm_floor_div(millis, 86400000), ms = pm_floor_mod(millis, 86400000);
    int64_t secs = ms / 1000, y;
    int32_t nanos = (int32_t)(ms % 1000) * 1000000 + nanos_of_milli;
    unsigned mo, d;
    char fraction[16];
    int n, rc;

    pm_civil_from_days(days, &y, &mo, &d);
    rc = pm_buf_printf(out, "%04lld-%02u-%02u %02lld:%02lld:%02lld", (long long)y, mo, d,
                       (long long)(secs / 3600), (long long)(secs / 60 % 60),
                       (long long)(secs % 60));
    if (rc != 0)
        return rc;
    n = snprintf(fraction, sizeof(fraction), "%09d", nanos);
    while (n > precision && fraction[n - 1] == '0')
        n--;
    return n > 0 ? pm_buf_printf(out, ".%.*s", n, fraction) : 0;
}

int pm_java_format_time(pm_buf *out, int64_t t, int precision)
{
    int64_t ms;
    int rc;
    while (t < 0)
        t += 86400000;
    ms = t % 1000;
    rc = pm_buf_printf(out, "%02lld:%02lld:%02lld", (long long)(t / 3600000),
                       (long long)(t % 3600000 / 60000), (long long)(t % 60000 / 1000));
    if (rc != 0 || precision <= 0)
        return rc;
    if ((rc = pm_buf_putc(out, '.')) != 0)
        return rc;
    /* Calcite's loop, kept as Java keeps it: a digit at a time, stopping after the last
     * non-zero one. */
    while (precision > 0) {
        if ((rc = pm_buf_putc(out, (uint8_t)('0' + ms / 100))) != 0)
            return rc;
        ms = ms % 100 * 10;
        if (ms == 0)
            break;
        precision--;
    }
    return 0;
}

/*
 * Clocks and the proleptic Gregorian calendar.
 *
 * Paimon stores DATE as days since 1970-01-01, TIME as milliseconds of the day and TIMESTAMP
 * as epoch milliseconds plus nanoseconds of the millisecond; these helpers convert between
 * those and civil fields without the C library's time-zone machinery.
 */
#ifndef PM_UTIL_TIME_H
#define PM_UTIL_TIME_H

#include <stdint.h>

/* Wall-clock milliseconds since the epoch (UTC). */
int64_t pm_now_millis(void);

/* The local wall-clock time written as if it were UTC, as Java's LocalDateTime.now() is
 * stored in _CREATION_TIME (metadata.md §7.3). */
int64_t pm_now_local_as_utc_millis(void);

/* The local time zone (TZ, else /etc/localtime: what Java's ZoneId.systemDefault() reads)
 * at an instant: its offset from UTC in milliseconds. */
int64_t pm_local_offset_millis(int64_t epoch_millis);

/* An instant as the local wall clock written as if it were UTC: Java's
 * LocalDateTime.ofInstant(instant, ZoneId.systemDefault()). */
int64_t pm_epoch_to_local_millis(int64_t epoch_millis);

/* A local wall-clock time (written as if UTC) as an instant, as Java's
 * LocalDateTime.atZone(ZoneId.systemDefault()).toInstant() resolves it: a time that falls
 * in a gap (clocks moved forward) moves forward by the gap's length, an ambiguous time
 * (clocks moved back) takes the earlier of its two offsets. */
int64_t pm_local_to_epoch_millis(int64_t local_millis);

/* Civil date <-> days since 1970-01-01 (Howard Hinnant's algorithms; valid for any int32
 * year). */
int64_t pm_days_from_civil(int64_t year, unsigned month, unsigned day);
void pm_civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day);

/* Floor division and modulo for negative epoch values. */
static inline int64_t pm_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t pm_floor_mod(int64_t a, int64_t b)
{
    /* not a - floor_div(a, b) * b, whose product overflows for a near INT64_MIN */
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

#endif /* PM_UTIL_TIME_H */

/*
 * One value of a Paimon type, as the library passes single values around: partition
 * values, statistics bounds, keys, literals.  (Bulk data travels in columnar batches.)
 *
 * Which member holds the value depends on the type:
 *   BOOLEAN                         b
 *   TINYINT, SMALLINT, INT, BIGINT  i
 *   DATE                            i   days since 1970-01-01
 *   TIME                            i   milliseconds of the day
 *   FLOAT / DOUBLE                  f / d
 *   DECIMAL(p, s)                   dec unscaled value (any precision)
 *   TIMESTAMP, TIMESTAMP_LTZ        ts  epoch milliseconds + nanoseconds of the millisecond
 *   CHAR, VARCHAR, BINARY, VARBINARY s  bytes (strings are UTF-8), borrowed
 *   ARRAY, MAP, MULTISET, ROW       s   the nested BinaryArray/BinaryMap/BinaryRow bytes
 * Borrowed bytes point into whatever the datum was read from (a row, an arena); the datum
 * does not own them.
 */
#ifndef PM_DATA_DATUM_H
#define PM_DATA_DATUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

__extension__ typedef __int128 pm_int128;

typedef struct pm_datum {
    bool is_null;
    union {
        bool b;
        int64_t i;
        float f;
        double d;
        pm_int128 dec;
        struct {
            int64_t millis; /* epoch milliseconds (local date-time as if UTC for TIMESTAMP) */
            int32_t nanos;  /* 0..999999: nanoseconds within the millisecond */
        } ts;
        struct {
            const uint8_t *ptr;
            size_t len;
        } s;
    } v;
} pm_datum;

static inline pm_datum pm_datum_null(void)
{
    pm_datum d;
    d.is_null = true;
    d.v.i = 0;
    return d;
}

static inline pm_datum pm_datum_int(int64_t v)
{
    pm_datum d;
    d.is_null = false;
    d.v.i = v;
    return d;
}

static inline pm_datum pm_datum_bytes(const void *ptr, size_t len)
{
    pm_datum d;
    d.is_null = false;
    d.v.s.ptr = ptr;
    d.v.s.len = len;
    return d;
}

#endif /* PM_DATA_DATUM_H */

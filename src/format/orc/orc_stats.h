/*
 * Column statistics as the ORC writer collects them (ORC Java 1.9's ColumnStatisticsImpl):
 * per row group, merged into the stripe's, merged into the file's, then serialized into
 * row indexes, the Metadata section and the footer (orc_meta.h's pm_orc_stats).
 *
 * Java's choices, reproduced so files compare equal (docs/format/orc.md, "Statistics"):
 *   integers      min, max; sum unless it overflowed int64
 *   doubles       min, max (NaN never updates them), sum
 *   strings       min, max by unsigned bytes, truncated at a character boundary to 1024
 *                 bytes as lowerBound/upperBound; sum of lengths
 *   binaries      sum of lengths
 *   booleans      the count of true values
 *   decimals      min, max, sum as normalized decimal text ("0.02", "-77.022"); for
 *                 precision <= 18 the sum is dropped once it leaves 18 digits
 *   dates         min, max days
 *   timestamps    min, max as milliseconds of the wall clock (UTC when the writer's zone is
 *                 UTC), nanoseconds of the millisecond + 1 when not the default 0 / 999999
 *   lists, maps   ORC Java's quirk: each write call adds the *capacity* of the vector
 *                 (Paimon's 1024-row batches) as a collection length, so min = max = 1024
 *   every column  the number of non-null values, hasNull; bytesOnDisk for stripes and files
 */
#ifndef PM_FORMAT_ORC_STATS_H
#define PM_FORMAT_ORC_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/orc/orc_meta.h"
#include "util/buf.h"

typedef struct pm_orc_stats_acc {
    pm_orc_kind kind;
    uint32_t precision, scale; /* DECIMAL */
    uint64_t count;
    bool has_null;
    uint64_t bytes_on_disk;
    bool has_min; /* min/max below are set */
    int64_t imin, imax, isum;
    bool sum_overflow;
    double dmin, dmax, dsum;
    __int128 dec_min, dec_max, dec_sum;
    pm_buf smin, smax; /* strings: owned copies */
    bool lower_set, upper_set;
    int32_t min_nanos, max_nanos; /* timestamps: nanos of the millisecond */
    uint64_t coll_min, coll_max, coll_sum;
    uint64_t true_count;
    /* serialization scratch: the text of decimal and string values */
    char text[3][48];
} pm_orc_stats_acc;

void pm_orc_stats_init(pm_orc_stats_acc *a, const pm_orc_type *t);
void pm_orc_stats_free(pm_orc_stats_acc *a);
void pm_orc_stats_reset(pm_orc_stats_acc *a);

/* One non-null value of each kind (counted with pm_orc_stats_values). */
void pm_orc_stats_int(pm_orc_stats_acc *a, int64_t v);
void pm_orc_stats_double(pm_orc_stats_acc *a, double v);
int pm_orc_stats_string(pm_orc_stats_acc *a, const uint8_t *p, size_t len);
void pm_orc_stats_binary(pm_orc_stats_acc *a, size_t len);
void pm_orc_stats_bool(pm_orc_stats_acc *a, bool v);
void pm_orc_stats_decimal(pm_orc_stats_acc *a, __int128 unscaled); /* at the type's scale */
void pm_orc_stats_date(pm_orc_stats_acc *a, int32_t days);
void pm_orc_stats_timestamp(pm_orc_stats_acc *a, int64_t millis, int32_t nanos_of_milli);
void pm_orc_stats_collection(pm_orc_stats_acc *a, uint64_t length);

/* Counts `n` values, `nulls` of them null. */
void pm_orc_stats_values(pm_orc_stats_acc *a, uint64_t n, uint64_t nulls);

/* dst += src (Java's merge). */
int pm_orc_stats_merge(pm_orc_stats_acc *dst, const pm_orc_stats_acc *src);

/* The message form; strings point into `a`, valid until it changes. */
void pm_orc_stats_out(pm_orc_stats_acc *a, pm_orc_stats *out, bool with_bytes);

/* Normalized decimal text of `v` at `scale` (HiveDecimal's toString). */
void pm_orc_decimal_text(__int128 v, uint32_t scale, char *buf, size_t cap);

#endif /* PM_FORMAT_ORC_STATS_H */

/*
 * The text Java Paimon's system tables (behaviour.md §7.6) make of internal values, and the
 * java.lang/java.util behaviour their output depends on.
 *
 * Two renderings of one value, because the system tables use both:
 *
 *  - pm_java_cast_string(): CastExecutors.resolve(type, STRING) followed by toString(), as
 *    `$files.partition`, `$manifests.min_partition_stats` and `$partitions.partition` show
 *    partitions.  DATE yyyy-MM-dd, TIME HH:mm:ss[.f] (DateTimeUtils.formatTimestampMillis:
 *    fraction digits up to the last non-zero one), TIMESTAMP yyyy-MM-dd HH:mm:ss[.f] with at
 *    least `precision` fraction digits, TIMESTAMP WITH LOCAL TIME ZONE the same in the local
 *    zone (TimeZone.getDefault()), numbers by their toString() (Float/Double.toString,
 *    plain decimals), booleans true/false, strings as they are, binaries as their bytes.
 *
 *  - pm_java_object_string(): String.valueOf() of the internal object InternalRowUtils.get()
 *    returns, as `$files.min_key` (Arrays.toString) and the `$files` statistics maps
 *    (TreeMap.toString) show values.  DATE and TIME are the Integer (epoch days, millis of
 *    the day), TIMESTAMP of either kind is Timestamp.toString() = LocalDateTime.toString()
 *    (2024-05-14T10:11:12.345), DECIMAL toPlainString(), strings as they are.  A byte[]
 *    prints as "[B@" and an identity hash that no one can reproduce; this gives "[B@" and
 *    eight hex digits of a hash of the bytes, so the shape is Java's and the text is stable.
 *
 * Collections:
 *  - pm_java_string_hash(): String.hashCode() of UTF-8 text (over its UTF-16 code units);
 *  - pm_java_string_compare(): String.compareTo() (UTF-16 code unit order, which differs
 *    from UTF-8 byte order for characters above U+FFFF against U+E000..U+FFFF);
 *  - pm_java_hashmap_order(): the iteration order of a java.util.HashMap<String, ?> built by
 *    put() of distinct keys into `new HashMap<>()`, as Jackson fills the options map of a
 *    schema (SchemaSerializer) and as `$options` and `$schemas.options` then list it.
 */
#ifndef PM_DATA_JAVA_VALUES_H
#define PM_DATA_JAVA_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "data/binary_row.h"
#include "data/datum.h"
#include "data/types.h"
#include "util/buf.h"
#include "util/error.h"

/* Appends CAST(value AS STRING) for a non-null scalar value of type `t`.  PAIMON_EUNSUPPORTED
 * for nested types (Java casts them too, but no system table needs that). */
PM_MUST_CHECK int pm_java_cast_string(pm_buf *out, const pm_type *t, const pm_datum *d,
                                      paimon_error *err);

/* Appends String.valueOf() of the internal object of a non-null value of type `t`. */
PM_MUST_CHECK int pm_java_object_string(pm_buf *out, const pm_type *t, const pm_datum *d,
                                        paimon_error *err);

/* Appends CAST(row AS STRING) of a ROW of `count` fields (RowToStringCastRule):
 * "{v1, v2}" with "null" for null fields.  The row must have `count` fields. */
PM_MUST_CHECK int pm_java_row_cast_string(pm_buf *out, const pm_field *const *fields, size_t count,
                                          const pm_binrow *row, paimon_error *err);

int32_t pm_java_string_hash(const char *s, size_t len);
int pm_java_string_compare(const char *a, size_t alen, const char *b, size_t blen);

/* Fills order[0..n) with the indexes of `keys` (distinct, in put() order) in the order a
 * HashMap with default capacity iterates them (util/java_hashmap.h).  0 or PAIMON_ENOMEM. */
int pm_java_hashmap_order(const char *const *keys, size_t n, size_t *order);

#endif /* PM_DATA_JAVA_VALUES_H */

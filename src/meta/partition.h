/*
 * Partition directories (metadata.md §12): the `k=v/` path Java computes for a partition
 * BinaryRow, which is where data files live.  Readers never parse these names (values come
 * from the manifest's BinaryRow); writers must produce them exactly.
 *
 * With partition.legacy-name=true (the default in every 1.x) a value is Java's toString()
 * of the internal value: DATE as the epoch-day number, TIME as milliseconds of the day,
 * TIMESTAMP as LocalDateTime.toString() (2024-05-14T10:11:12.345), DECIMAL as
 * toPlainString(), FLOAT/DOUBLE as Float/Double.toString() of JDK 19+.  With false, the
 * cast-to-string rules (DATE 2024-05-14, TIMESTAMP 2024-05-14 10:11:12.345).  Null, empty
 * and whitespace-only values use partition.default-name.  Names and values are escaped
 * (%XX, upper-case hex) for 0x00-0x1F, 0x7F and "#%'*\/:=?\{}[]^.
 */
#ifndef PM_META_PARTITION_H
#define PM_META_PARTITION_H

#include <stdbool.h>
#include <stddef.h>

#include "data/binary_row.h"
#include "data/types.h"
#include "meta/schema.h"
#include "util/buf.h"

#define PM_DEFAULT_PARTITION_NAME "__DEFAULT_PARTITION__"

/* How a table names partition directories (from its options). */
typedef struct pm_partition_naming {
    const char *default_name; /* partition.default-name */
    bool legacy;              /* partition.legacy-name */
} pm_partition_naming;

PM_MUST_CHECK int pm_partition_naming_from(const pm_schema *schema, pm_partition_naming *out,
                                           paimon_error *err);

/* Appends "k1=v1/k2=v2/" for the partition row (fields in partition-key order); nothing
 * for an unpartitioned table.  BINARY values (Java writes byte[].toString(), an identity
 * hash nobody can reproduce) are PAIMON_EUNSUPPORTED. */
PM_MUST_CHECK int pm_partition_path(pm_buf *out, const pm_field *const *fields, size_t count,
                                    const pm_binrow *row, const pm_partition_naming *naming,
                                    paimon_error *err);

/* Appends the partition as a canonical JSON object {"k": value, ...}. */
PM_MUST_CHECK int pm_partition_json(pm_buf *out, const pm_field *const *fields, size_t count,
                                    const pm_binrow *row, paimon_error *err);

/* Escapes one path component (Java's PartitionPathUtils.escapePathName). */
int pm_partition_escape(pm_buf *out, const char *s, size_t len);
/* Reverses pm_partition_escape ("%XX" with two hex digits; other '%' kept). */
int pm_partition_unescape(pm_buf *out, const char *s, size_t len);

/* Java's toString() forms of values are in data/java_text.h. */
#include "data/java_text.h"
#include "util/error.h"

#endif /* PM_META_PARTITION_H */

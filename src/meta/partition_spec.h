/*
 * Partition specs: the "k=v" items that name partitions (`paimon write --overwrite
 * --partition`, `paimon compact --partition`, paimon_commit_options.partition and
 * paimon_compact_options.partition).  One parser for all of them.
 *
 * A value is read as its partition column's type, from the text rows are written in
 * (data/input.h pm_input_value: DATE 2026-04-19, TIME 10:11:12, TIMESTAMP 2026-04-19
 * 10:11:12.5, DECIMAL 12.30, BOOLEAN true, BINARY base64:AQI=, strings as they are), and the
 * table's partition.default-name (__DEFAULT_PARTITION__) stands for null, as Java's
 * InternalRowPartitionComputer.convertSpecToInternal reads a spec.  A partition matches
 * when every item's column holds an equal value: compared as values, so neither
 * partition.legacy-name nor the directory names matter (DATE 2026-04-19 is the partition
 * whose directory is dt=20562 or dt=2026-04-19).  Floating point compares as Java's
 * Double.equals (NaN equals NaN, -0.0 differs from 0.0).
 *
 * Errors are PAIMON_EINVALID naming the item: not k=v, a column that is not a partition key,
 * a column given twice, a value that does not parse as the column's type.
 *
 * Thread safety: a spec is used by one thread at a time (matching decodes into its scratch).
 */
#ifndef PM_META_PARTITION_SPEC_H
#define PM_META_PARTITION_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "meta/schema.h"

typedef struct pm_partition_spec pm_partition_spec;

/* Parses `count` "k=v" items against the partition keys of `schema` (count may be 0: a spec
 * that matches every partition).  Caller owns `*out`; release with pm_partition_spec_free(). */
PM_MUST_CHECK int pm_partition_spec_parse(pm_partition_spec **out, const pm_schema *schema,
                                          const char *const *items, size_t count,
                                          paimon_error *err);

/* Whether the partition whose manifest-serialized BinaryRow is row[0..len) matches every
 * item.  PAIMON_ECORRUPT when the row does not decode as the table's partition type. */
PM_MUST_CHECK int pm_partition_spec_match(const pm_partition_spec *s, const uint8_t *row,
                                          size_t len, bool *out, paimon_error *err);

/* Releases the spec.  Accepts NULL. */
void pm_partition_spec_free(pm_partition_spec *s);

#endif /* PM_META_PARTITION_SPEC_H */

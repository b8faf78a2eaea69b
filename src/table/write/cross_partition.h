/*
 * Cross-partition upsert (bucket = -1 on a primary-key table whose primary key misses a
 * partition column; behaviour.md §6.3), as Java 1.4.2's GlobalIndexAssigner with its
 * IndexBootstrap and crosspartition.BucketAssigner:
 *
 *   bootstrap  every live key of the latest snapshot (a merged read of the trimmed primary
 *              key) with its partition and bucket goes into a key index; the keys per
 *              (partition, bucket) are counted;
 *   per record (in arrival order):
 *     - a key in the index under the same partition keeps its bucket;
 *     - under another partition: deduplicate writes a -D of the record, with the old
 *       partition's values, into the old bucket (whose count drops), then treats the record
 *       as new; partial-update and aggregation send the record, with the old partition's
 *       values, to the old bucket;
 *     - a new key takes the first bucket of its partition, in ascending order, holding
 *       fewer than dynamic-bucket.target-row-num keys, else the smallest unused bucket id.
 *
 * Java keeps the key index in RocksDB; here it is in memory, bounded: a table whose index
 * would need more than the limit fails with PAIMON_ELIMIT and says so.  No HASH index
 * files are written in this mode (Java's KEY_DYNAMIC bucket mode has none).
 *
 * Thread safety: one thread per index.
 */
#ifndef PM_TABLE_WRITE_CROSS_PARTITION_H
#define PM_TABLE_WRITE_CROSS_PARTITION_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "io/fs.h"
#include "meta/schema.h"
#include "util/error.h"

typedef struct pm_cross_index pm_cross_index;

/* `*pid`: the caller's id of a partition (serialized BinaryRow), made on first use. */
typedef int (*pm_partition_id_fn)(void *ctx, const uint8_t *partition, size_t len, int64_t *pid,
                                  paimon_error *err);

/* Bootstraps from the latest snapshot of `table`.  `key_idx` are the trimmed primary-key
 * columns of the table's row.  `memory_limit` bounds the index. */
PM_MUST_CHECK int pm_cross_index_new(pm_cross_index **out, pm_fs *fs, const char *table,
                                     const pm_schema *schema, const int *key_idx, size_t key_count,
                                     int64_t target_rows, int64_t memory_limit,
                                     pm_partition_id_fn pid_of, void *pid_ctx, paimon_error *err);
void pm_cross_index_free(pm_cross_index *c);

/* Where `key` (BinaryRow bytes) lives: *found, *pid and *bucket. */
void pm_cross_lookup(const pm_cross_index *c, const uint8_t *key, size_t len, bool *found,
                     int64_t *pid, int32_t *bucket);

/* A new key in partition `pid`: assigns its bucket and records it. */
PM_MUST_CHECK int pm_cross_assign_new(pm_cross_index *c, const uint8_t *key, size_t len,
                                      int64_t pid, int32_t *bucket, paimon_error *err);

/* A key left (pid, bucket) (deduplicate moved it): the bucket's count drops. */
void pm_cross_decrement(pm_cross_index *c, int64_t pid, int32_t bucket);

#endif /* PM_TABLE_WRITE_CROSS_PARTITION_H */

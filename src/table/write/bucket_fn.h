/*
 * Fixed buckets and key hashes as Java computes them (metadata.md §11, behaviour.md §1.4):
 *
 *   hash   = BinaryRow.hashCode() of the key columns written as a BinaryRow (MurmurHash3
 *            x86_32 over its words, seed 42); one integer-like key skips building the row
 *            (its 16 bytes are 8 zero header bytes and the zero-extended value)
 *   bucket = abs(hash % N)                   bucket-function.type = default
 *            floorMod(value, N)              bucket-function.type = mod (one INT/BIGINT key)
 *
 * The bucket key is `bucket-key` when set, else the primary key without the partition
 * columns (FixedBucketRowKeyExtractor); dynamic buckets hash the latter too.
 *
 * Thread safety: one thread per hasher (it has scratch memory).
 */
#ifndef PM_TABLE_WRITE_BUCKET_FN_H
#define PM_TABLE_WRITE_BUCKET_FN_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "meta/schema.h"
#include "util/error.h"

#define PM_BUCKET_MAX_KEYS 32

typedef struct pm_key_hasher {
    int cols[PM_BUCKET_MAX_KEYS]; /* columns of the batches hashed */
    const pm_type *types[PM_BUCKET_MAX_KEYS];
    size_t count;
    bool fast; /* one integer-like column */
    pm_buf scratch;
} pm_key_hasher;

void pm_key_hasher_init(pm_key_hasher *h, const pm_type *row, const int *cols, size_t count);
void pm_key_hasher_free(pm_key_hasher *h);
/* The hash of row r; 0 or PAIMON_ENOMEM. */
PM_MUST_CHECK int pm_key_hasher_hash(pm_key_hasher *h, const pm_batch *b, int64_t r, int32_t *hash,
                                     paimon_error *err);

typedef struct pm_bucket_fn {
    pm_key_hasher key;
    int32_t num_buckets;
    bool mod; /* bucket-function.type = mod */
} pm_bucket_fn;

/* The bucket function of a fixed-bucket table `s`; the key columns are found by name in
 * `row`, the columns of the batches it will see.  PAIMON_EINVALID for a table without a
 * bucket key, PAIMON_EUNSUPPORTED for bucket-function.type = hive. */
PM_MUST_CHECK int pm_bucket_fn_init(pm_bucket_fn *f, const pm_schema *s, const pm_type *row,
                                    paimon_error *err);
void pm_bucket_fn_free(pm_bucket_fn *f);
PM_MUST_CHECK int pm_bucket_fn_bucket(pm_bucket_fn *f, const pm_batch *b, int64_t r,
                                      int32_t *bucket, paimon_error *err);

#endif /* PM_TABLE_WRITE_BUCKET_FN_H */

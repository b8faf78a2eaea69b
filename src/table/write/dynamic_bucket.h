/*
 * Dynamic buckets (bucket = -1 on a primary-key table, behaviour.md §6.2, metadata.md §9.3),
 * as Java 1.4.2's HashBucketAssigner / PartitionIndex (one assigner) and
 * DynamicBucketIndexMaintainer.
 *
 * Assignment, per partition, of a key hash (the trimmed primary key's BinaryRow hashCode):
 *   1. a hash seen before (in the partition's HASH index files or in this write) keeps its
 *      bucket;
 *   2. else the first bucket, in the iteration order of Java's HashMap<Integer, Long> of
 *      bucket row counts, that holds fewer than dynamic-bucket.target-row-num hashes takes
 *      it (full buckets are dropped from that map as the iteration passes them);
 *   3. else, while the largest bucket id assigned so far is below the cap
 *      (dynamic-bucket.max-buckets - 1, or 32766 when it is -1) or the partition has no
 *      bucket yet, the smallest unused id becomes a new bucket ("Too more bucket" when no id
 *      is left and the maximum is -1);
 *   4. else a random existing bucket.
 * The counts are of distinct hashes (deletes do not decrement).
 *
 * Index maintenance, per (partition, bucket) writer: the set of key hashes of the bucket,
 * restored from its HASH index file (unless the write ignores previous files), grows with
 * every record written; at prepare-commit a changed set is written whole as a new HASH
 * index file (big-endian int32s in the iteration order of fastutil's IntOpenHashSet,
 * util/int_set.h) and committed as an ADD that replaces the bucket's previous file.
 *
 * Thread safety: one thread per assigner.
 */
#ifndef PM_TABLE_WRITE_DYNAMIC_BUCKET_H
#define PM_TABLE_WRITE_DYNAMIC_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "meta/manifest.h"
#include "meta/path_factory.h"
#include "util/int_set.h"
#include "util/error.h"

typedef struct pm_dynamic_assigner pm_dynamic_assigner;

/* `hash_entries`: the latest snapshot's HASH index entries (borrowed while the assigner
 * lives; may be none). */
PM_MUST_CHECK int pm_dynamic_assigner_new(pm_dynamic_assigner **out, pm_fs *fs, const char *table,
                                          const pm_index_manifest_entry *hash_entries, size_t count,
                                          int64_t target_rows, int32_t max_buckets,
                                          paimon_error *err);
void pm_dynamic_assigner_free(pm_dynamic_assigner *a);

/* The bucket of `hash` in the partition `partition` (serialized BinaryRow); `pid` is the
 * caller's small dense id of that partition. */
PM_MUST_CHECK int pm_dynamic_assign(pm_dynamic_assigner *a, int64_t pid, const uint8_t *partition,
                                    size_t partition_len, int32_t hash, int32_t *bucket,
                                    paimon_error *err);

/* The key hashes of one bucket. */
typedef struct pm_hash_index {
    pm_int_set set;
    bool modified;
} pm_hash_index;

/* Restored from `entry` (NULL: empty). */
PM_MUST_CHECK int pm_hash_index_init(pm_hash_index *h, pm_fs *fs, const char *table,
                                     const pm_index_manifest_entry *entry, paimon_error *err);
void pm_hash_index_free(pm_hash_index *h);

static inline int pm_hash_index_add(pm_hash_index *h, int32_t hash)
{
    bool added;
    int rc = pm_int_set_add(&h->set, hash, &added);
    h->modified |= added;
    return rc;
}

/* When modified: writes index/<name> and fills *entry (an ADD of type HASH; strings in
 * `arena`); *written tells.  The file's path goes to `files` (for cleanup). */
PM_MUST_CHECK int pm_hash_index_flush(pm_hash_index *h, pm_fs *fs, const char *table,
                                      pm_path_factory *names, const uint8_t *partition,
                                      size_t partition_len, int32_t bucket, pm_arena *arena,
                                      pm_index_manifest_entry *entry, bool *written,
                                      paimon_error *err);

/* The HASH entry of (partition, bucket) among `entries`, or NULL. */
const pm_index_manifest_entry *pm_hash_entry_find(const pm_index_manifest_entry *entries,
                                                  size_t count, const uint8_t *partition,
                                                  size_t partition_len, int32_t bucket);

#endif /* PM_TABLE_WRITE_DYNAMIC_BUCKET_H */

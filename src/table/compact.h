/*
 * The dedicated compaction of a table (`paimon compact`; Java's CompactAction in batch mode
 * over AbstractFileStoreWrite.compact): every bucket of the latest snapshot, or of the
 * partitions named, is restored and compacted -- everything into the max level with
 * `full` (CompactStrategy.pickFullCompaction), else what universal compaction picks
 * (table/write/compact_task.h) -- and the results are committed as one COMPACT snapshot,
 * conflict-checked against concurrent commits (table/commit.h).  Nothing to compact: no
 * snapshot.  A failure before the commit removes every file written; the table is as
 * before.  write-only does not stop it (it is the job write-only tables rely on).
 *
 * Threads: the buckets are compacted in parallel, each by one of up to `threads` workers
 * on the process's pool (util/pool.h), each worker with a table write of its own
 * (table_write.h allows several on different buckets); the increments are joined in the
 * order the buckets first appear in the live files, which is the order one thread
 * compacts them in, so the snapshot holds the same files per bucket and level (names
 * aside) for any thread count.  A failure stops the workers from starting more buckets
 * and reports the first failing bucket's error; every file written is removed.  Each
 * worker restores the latest snapshot when it starts: a commit landing meanwhile may give
 * a worker a newer one, and the commit's conflict check refuses any file compacted that is
 * no longer live (as for Java's compaction tasks).  Each worker's lookup caches are its
 * own.  Unaware-bucket tables (below) are compacted on one thread.
 *
 * Unaware-bucket append tables (bucket = -1 without a primary key) have no buckets to
 * compact one by one: their job (compact.c) plans across each partition's small files as
 * Java's AppendCompactCoordinator does and rewrites them into bucket 0.
 */
#ifndef PM_TABLE_COMPACT_H
#define PM_TABLE_COMPACT_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "util/error.h"

typedef struct pm_compact_opts {
    bool full;
    const char *const *partition; /* "k=v" items every compacted partition matches */
    size_t partition_count;
    const char *commit_user; /* required */
    unsigned int threads;    /* buckets compacted at once: 0 the processors online */
} pm_compact_opts;

/* The most buckets compacted at once (each worker holds one table write). */
#define PM_COMPACT_MAX_WORKERS 64

/* `*snapshot_id`: the COMPACT snapshot, or 0 when there was nothing to compact.
 * `*files_before` / `*files_after` (may be NULL): the files the commit removed and added. */
PM_MUST_CHECK int pm_table_compact(pm_fs *fs, const char *table, const pm_compact_opts *o,
                                   int64_t *snapshot_id, int64_t *files_before,
                                   int64_t *files_after, paimon_error *err);

#endif /* PM_TABLE_COMPACT_H */

/*
 * The writers of one partition and bucket (Java's RecordWriter): where a table write sends
 * the rows routed to that bucket.
 *
 *  - append writers (AppendOnlyWriter with a direct sink): rows go straight into the
 *    rolling data writer in input order; each row takes the bucket's next sequence number.
 *  - primary-key writers (MergeTreeWriter): rows take the next sequence numbers and wait in
 *    the write buffer (kv_buffer.h); prepare-commit (or a full buffer that cannot spill)
 *    flushes them as sorted, merged level-0 files.
 *
 * Files written since the last prepare-commit are pending; prepare-commit hands them to the
 * commit messages as ADD entries.  Freeing a writer removes its pending files (Java's
 * close()): they were never committed.
 *
 * Compaction (primary-key writers with a compactor; Java MergeTreeWriter over
 * MergeTreeCompactManager): the bucket's live files of the latest snapshot are restored
 * into LSM levels (lsm/levels.h).  After every flush of the buffer the universal strategy
 * (lsm/universal_compaction.h) is asked for a unit, which is compacted (compact_task.h) as
 * a task of the compactor's pool, in the background, while the writer takes more rows: one
 * compaction per bucket at a time, as Java's CompactFutureManager.  Its result is taken at
 * the bucket's next flush (or prepare-commit): as Java, only once finished, waiting for it
 * only past num-sorted-run.stop-trigger sorted runs or when its compaction uses state the
 * flush touches (lookup levels, deletion vectors), under PM_COMPACT_ASYNC; waiting for it
 * at each, under PM_COMPACT_ASYNC_FIXED, which keeps what is committed independent of timing
 * and of the thread count (with no pool the task runs at submission, with the same
 * result).  A prepare-commit waits for the compaction it triggered only where Java's
 * MergeTreeWriter.prepareCommit waits: when asked to (`wait`: a batch write's commit, the
 * end of the input), when the compactor is not async, for a full compaction, for tables
 * that need lookups under lookup-wait = true, and past num-sorted-run.stop-trigger + 1
 * sorted runs.  A compaction that fails reports its error where the writer waits for it
 * (pm_bucket_writer_failed() tells earlier), having removed what it wrote; the writer is
 * unusable then, and nothing of the compaction reaches a commit.  The results accumulate as the compact
 * increment (compactBefore, compactAfter; an intermediate file compacted again before the
 * commit is deleted at once, as MergeTreeWriter.updateCompactResult does), handed out at
 * prepare-commit as the messages' compact entries.  full-compaction.delta-commits = N makes
 * every N-th prepare-commit a full compaction.
 *
 * Thread safety: one thread per writer; writers of different buckets may run on different
 * threads at once (their compactor's shared state is locked, compact_task.h).
 */
#ifndef PM_TABLE_WRITE_BUCKET_WRITER_H
#define PM_TABLE_WRITE_BUCKET_WRITER_H

#include "table/commit.h"
#include "table/write/compact_task.h"
#include "table/write/write_ctx.h"
#include "util/error.h"

typedef struct pm_bucket_writer pm_bucket_writer;

/* A writer for (partition, bucket).  With deletion vectors, `dv_index` (the bucket's
 * DELETION_VECTORS index entry, whose file is `dv_index_path`; NULL: none yet) restores the
 * bucket's vectors.  `next_seq` is the first sequence number to give (the
 * bucket's maximum + 1, or 0).  `compactor` (borrowed; NULL: no compaction, as for
 * write-only and append writers) compacts the levels restored from `restore[0..n)` (the
 * bucket's live files; copied).  Borrows `ctx`; copies the partition bytes. */
PM_MUST_CHECK int
pm_bucket_writer_new(pm_bucket_writer **out, pm_write_ctx *ctx, const uint8_t *partition,
                     size_t partition_len, int32_t bucket, int32_t total_buckets, int64_t next_seq,
                     pm_compactor *compactor, const pm_manifest_entry *const *restore,
                     size_t restore_count, const pm_index_manifest_entry *dv_index,
                     const char *dv_index_path, paimon_error *err);

/* Flushes the buffer and compacts: everything into the max level when `full`
 * (CompactStrategy.pickFullCompaction), else what the strategy picks.  The dedicated
 * compaction job's step (Java's write.compact(partition, bucket, full)). */
PM_MUST_CHECK int pm_bucket_writer_compact(pm_bucket_writer *w, bool full, paimon_error *err);

/* Append tables: rewrites files[0..n) (in that order) into one rolling run of new files,
 * the compact job's AppendCompactTask of an unaware-bucket table; the increment is handed
 * out at the next prepare.  Borrows `compactor` from now on. */
PM_MUST_CHECK int pm_bucket_writer_compact_files(pm_bucket_writer *w, pm_compactor *compactor,
                                                 const pm_manifest_entry **files, size_t n,
                                                 paimon_error *err);

/* Adds rows rows[0..n) of `b` (the table's columns) with their row kinds (kinds[i] for
 * rows[i]). */
PM_MUST_CHECK int pm_bucket_writer_put(pm_bucket_writer *w, const pm_batch *b, const int64_t *rows,
                                       const int8_t *kinds, int64_t n, paimon_error *err);

/* Bytes the writer's buffer holds, with the records of a spill still running (0 for append
 * writers). */
size_t pm_bucket_writer_memory(const pm_bucket_writer *w);

/* Frees buffer memory: spills a sorted run, or flushes level-0 files when the buffer may
 * not spill. */
PM_MUST_CHECK int pm_bucket_writer_free_memory(pm_bucket_writer *w, paimon_error *err);

/* The spill in the background (table_write.c decides when): the records in memory are
 * detached in up to `parts` (at most PM_SPILL_PARTS_MAX) pieces, each written as a sorted
 * run by a task of `pool` (NULL: here and now) while the writer takes more rows; they count
 * in pm_bucket_writer_memory() until pm_bucket_writer_spill_finish() adopts the runs
 * (`wait`: waits for them; else only when they are done).  A flush, a prepare, a compaction
 * and pm_bucket_writer_free_memory() finish it first.  Nothing to do for append writers,
 * non-spillable buffers or while one runs.  A spill that fails loses its rows: its error
 * comes from the finish, and every flush after it fails too, so that nothing incomplete is
 * committed. */
#define PM_SPILL_PARTS_MAX 4
PM_MUST_CHECK int pm_bucket_writer_spill_start(pm_bucket_writer *w, pm_pool *pool, size_t parts,
                                               paimon_error *err);
bool pm_bucket_writer_spilling(const pm_bucket_writer *w);
PM_MUST_CHECK int pm_bucket_writer_spill_finish(pm_bucket_writer *w, bool wait, paimon_error *err);

/* Flushes everything and moves the pending files to `out`, with the compactions finished so
 * far; `wait` waits for the one this prepare triggers (see above).  With `keep` they are copied
 * and stay pending (freeing the writer removes them) until
 * pm_bucket_writer_release_pending(): for callers whose commit may still fail when memory
 * is short, as removing them through the messages needs memory. */
PM_MUST_CHECK int pm_bucket_writer_prepare(pm_bucket_writer *w, pm_commit_messages *out, bool keep,
                                           bool wait, paimon_error *err);

/* Whether the compaction running in the background has failed already (its error comes
 * from pm_bucket_writer_sync()). */
bool pm_bucket_writer_failed(pm_bucket_writer *w);
/* Waits for the compaction running in the background, if any, and takes its result. */
PM_MUST_CHECK int pm_bucket_writer_sync(pm_bucket_writer *w, paimon_error *err);
void pm_bucket_writer_release_pending(pm_bucket_writer *w);

/* The next sequence number the writer would give. */
int64_t pm_bucket_writer_next_seq(const pm_bucket_writer *w);

/* Removes pending files and spills and frees the writer. */
void pm_bucket_writer_free(pm_bucket_writer *w);

#endif /* PM_TABLE_WRITE_BUCKET_WRITER_H */

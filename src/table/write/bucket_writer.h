/*
 * The writers of one partition and bucket (Java's RecordWriter): where a table write sends
 * the rows routed to that bucket.
 *
 *  - append writers (AppendOnlyWriter with a direct sink): rows go straight into the
 *    rolling data writer in input order; each row takes the bucket's next sequence number.
 *  - primary-key writers (MergeTreeWriter, kv_writer.c): rows take the next sequence numbers
 *    and wait in the write buffer; prepare-commit (or a full buffer that cannot spill)
 *    flushes them as sorted, merged level-0 files.
 *
 * Files written since the last prepare-commit are pending; prepare-commit hands them to the
 * commit messages as ADD entries.  Freeing a writer removes its pending files (Java's
 * close()): they were never committed.
 *
 * Thread safety: one thread per writer.
 */
#ifndef PM_TABLE_WRITE_BUCKET_WRITER_H
#define PM_TABLE_WRITE_BUCKET_WRITER_H

#include "table/commit.h"
#include "table/write/write_ctx.h"

typedef struct pm_bucket_writer pm_bucket_writer;

/* A writer for (partition, bucket).  `next_seq` is the first sequence number to give (the
 * bucket's maximum + 1, or 0).  Borrows `ctx`; copies the partition bytes. */
int pm_bucket_writer_new(pm_bucket_writer **out, pm_write_ctx *ctx, const uint8_t *partition,
                         size_t partition_len, int32_t bucket, int32_t total_buckets,
                         int64_t next_seq, paimon_error *err);

/* Adds rows rows[0..n) of `b` (the table's columns) with their row kinds (kinds[i] for
 * rows[i]). */
int pm_bucket_writer_put(pm_bucket_writer *w, const pm_batch *b, const int64_t *rows,
                         const int8_t *kinds, int64_t n, paimon_error *err);

/* Bytes the writer's buffer holds (0 for append writers). */
size_t pm_bucket_writer_memory(const pm_bucket_writer *w);

/* Frees buffer memory: spills a sorted run, or flushes level-0 files when the buffer may
 * not spill. */
int pm_bucket_writer_free_memory(pm_bucket_writer *w, paimon_error *err);

/* Flushes everything and moves the pending files to `out`. */
int pm_bucket_writer_prepare(pm_bucket_writer *w, pm_commit_messages *out, paimon_error *err);

/* The next sequence number the writer would give. */
int64_t pm_bucket_writer_next_seq(const pm_bucket_writer *w);

/* Removes pending files and spills and frees the writer. */
void pm_bucket_writer_free(pm_bucket_writer *w);

#endif /* PM_TABLE_WRITE_BUCKET_WRITER_H */

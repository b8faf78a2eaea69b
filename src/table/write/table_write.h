/*
 * Writing rows into a table (Java TableWriteImpl over AbstractFileStoreWrite): the rows of
 * each batch are checked, routed to the writer of their partition and bucket, and become
 * data files; prepare-commit turns what was written into commit messages for
 * table/commit.h.
 *
 * Per row, in this order (behaviour.md §1.3, §1.4, §6):
 *   1. the row kind: given, or from `rowkind.field`; ignore-delete drops -U and -D,
 *      ignore-update-before drops -U; append tables accept +I and +U only;
 *   2. NOT NULL columns are checked; null values of columns with a default value take it;
 *   3. the partition: a BinaryRow of the partition columns;
 *   4. the bucket: fixed (bucket = N: MurmurHash3 of the bucket-key BinaryRow, or
 *      bucket-function.type = mod), dynamic (bucket = -1 with a primary key: the HASH index
 *      of the partition, table/write/dynamic_bucket.h), cross-partition (bucket = -1, the
 *      primary key misses a partition column: a global key index), or unaware (bucket = -1
 *      without a primary key: bucket 0);
 *   5. the writer of (partition, bucket), made on first use: sequence numbers continue from
 *      the bucket's largest in the latest snapshot (not for unaware buckets and overwrites,
 *      which Java starts at 0), and the partition's bucket count must match the table's.
 *
 * Memory: the write buffers of all primary-key writers share write-buffer-size; when it is
 * used up, the writer holding the most spills (or flushes, when it may not spill).
 *
 * A failure leaves the write unusable: free it, which removes every file not yet handed to
 * commit messages.  Files in prepared messages belong to the caller (a commit that does
 * not happen leaves them as orphans, never visible).
 *
 * Threads: the write runs its buckets' flushes and compactions on the process's pool
 * (pm_table_write_set_threads); a compaction runs in the background while rows keep coming, and a
 * failure of one surfaces at the next call of the write (bucket_writer.h).
 *
 * Thread safety: one thread per table write; several table writes of one table may run in
 * parallel (one per thread) when they write different buckets, and their messages merge.
 */
#ifndef PM_TABLE_WRITE_TABLE_WRITE_H
#define PM_TABLE_WRITE_TABLE_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "table/commit.h"
#include "table/write/bucket_writer.h"
#include "table/write/write_ctx.h"
#include "util/error.h"

typedef struct pm_table_write pm_table_write;

typedef struct pm_table_write_opts {
    bool overwrite;          /* INSERT OVERWRITE: previous files are ignored (Java) */
    const char *commit_user; /* the committer's user (dynamic-bucket index bookkeeping) */
    bool compact;            /* a dedicated compaction: compacts even when write-only */
} pm_table_write_opts;

/* A write into the table at `table` on `fs` (borrowed until freed), with its latest
 * schema.  Caller owns `*out`; release with pm_table_write_free(). */
PM_MUST_CHECK int pm_table_write_new(pm_table_write **out, pm_fs *fs, const char *table,
                                     const pm_table_write_opts *o, paimon_error *err);

/* Before the first batch: the buckets flushed and compacted at once (0, the default: the
 * processors online; 1: the caller's thread only, no pool), and when compaction results are
 * taken (PM_COMPACT_SYNC is the default). */
void pm_table_write_set_threads(pm_table_write *w, unsigned int threads, pm_compact_mode mode);

/* The columns a batch must have (the table's, in schema order).  Borrowed. */
const pm_type *pm_table_write_type(const pm_table_write *w);

/* Writes the rows of `b` (columns as pm_table_write_type(), nullability aside) with their
 * row kinds (`kinds`: one RowKind byte per row, NULL for all +I).  A row the table refuses
 * (a null in a NOT NULL column, a row kind it takes none of) is PAIMON_EINVALID saying why,
 * without saying where: pm_table_write_bad_row() is its index in the batch, and the caller,
 * which knows what the rows are (API row numbers, input lines), names it. */
PM_MUST_CHECK int pm_table_write_batch(pm_table_write *w, const pm_batch *b, const int8_t *kinds,
                                       paimon_error *err);

/* After pm_table_write_batch() failed on one row: that row's index in the batch; else -1
 * (the failure is not about one row: the message names its own context). */
int64_t pm_table_write_bad_row(const pm_table_write *w);

/* Flushes every writer and appends what they wrote to `out`, bucket by bucket in the order
 * the writers were made.  The buckets flush (sort, encode, compress, write) and compact as
 * tasks of the pool at once; each bucket's files, sequence numbers and messages are those of
 * one thread.  A failure is the first bucket's that failed; the messages of the buckets that
 * succeeded are in `out` all the same (the caller's, as on one thread). */
PM_MUST_CHECK int pm_table_write_prepare(pm_table_write *w, pm_commit_messages *out,
                                         paimon_error *err);
/* No more rows come (Java's endInput): from now on prepares wait for every compaction, as a
 * batch write's does, so that nothing is left running when the last commit is made. */
void pm_table_write_end_input(pm_table_write *w);
/* Makes prepares leave the files to the writers too, so that freeing the writer removes
 * them, until pm_table_write_release_pending(): for the compaction job, whose commit may
 * fail for lack of memory, when removing them through the messages would fail too. */
void pm_table_write_keep_pending(pm_table_write *w);
/* The prepared files are the commit's alone from now on (it landed, or may have: freeing
 * the writer then removes nothing of them). */
void pm_table_write_release_pending(pm_table_write *w);

/* The dedicated compaction (Java's compact job over AbstractFileStoreWrite.compact): for
 * every bucket of the latest snapshot in a partition `match` accepts (NULL: all), restores
 * its writer and compacts it (`full`: everything into the max level), then prepares its
 * messages into `out` (compact entries only).  Tables with buckets; PAIMON_EUNSUPPORTED for
 * others (unaware-bucket tables have their own job in table/compact.c, built on the
 * functions below). */
typedef bool (*pm_partition_match)(void *arg, const uint8_t *partition, size_t len);
PM_MUST_CHECK int pm_table_write_compact(pm_table_write *w, bool full, pm_partition_match match,
                                         void *arg, pm_commit_messages *out, paimon_error *err);

/* What the compaction job of unaware-bucket append tables (table/compact.c) plans with:
 * whether the write is one (bucket = -1 without a primary key); its compactor (borrowed;
 * NULL when the write does not compact); the live files of the latest snapshot, read on
 * first use (borrowed, valid until the write is freed); the writer of (partition, bucket),
 * made on first use (borrowed, valid until the write is freed). */
bool pm_table_write_is_unaware(const pm_table_write *w);
pm_compactor *pm_table_write_compactor(pm_table_write *w);
PM_MUST_CHECK int pm_table_write_live_files(pm_table_write *w, const pm_manifest_entry *const **out,
                                            size_t *count, paimon_error *err);
PM_MUST_CHECK int pm_table_write_bucket(pm_table_write *w, const pm_avro_bytes *partition,
                                        int32_t bucket, pm_bucket_writer **out, paimon_error *err);

/* Rows accepted so far (after the row-kind filters). */
int64_t pm_table_write_rows(const pm_table_write *w);

/* Bytes the write buffers hold together (what write-buffer-size bounds). */
size_t pm_table_write_memory(const pm_table_write *w);

void pm_table_write_free(pm_table_write *w);

#endif /* PM_TABLE_WRITE_TABLE_WRITE_H */

/*
 * Reading one split of a scan plan into batches of the read's columns (behaviour.md §7.1
 * step 6).
 *
 *  - Raw splits (append tables, primary-key buckets Java reads without merging): each file
 *    in turn, deletion vectors applied.
 *  - Merged splits (primary-key buckets): every file is a sorted run; the k-way merge
 *    (lsm/merge_reader.h) folds the records of each key with the table's merge engine and
 *    drops retractions.  The merge reads the key columns, the sequence fields and the system
 *    columns besides the requested ones.
 *
 * Partition columns take their values from the split's partition BinaryRow, never from the
 * files or directory names.  The filter (over the snapshot schema's row) is applied exactly
 * to the merged or raw rows; planning only pruned with statistics.
 */
#ifndef PM_TABLE_SPLIT_READ_H
#define PM_TABLE_SPLIT_READ_H

#include "data/arrow_stream.h"
#include "data/batch.h"
#include "table/scan.h"
#include "util/error.h"

typedef struct pm_split_reader pm_split_reader;

/* `columns`: indexes into the plan's schema row, the output columns in order (NULL: all).
 * Borrows the table, the plan, the split and the filter until freed. */
PM_MUST_CHECK int pm_split_reader_open(pm_split_reader **out, paimon_table *t,
                                       const pm_scan_plan *plan, const pm_split *split,
                                       const int *columns, size_t column_count,
                                       const pm_predicate *filter, int64_t batch_rows,
                                       paimon_error *err);

/* A change read of a raw split (table/changes.h, behaviour.md §7.3): each file read as it
 * is, in the split's order, without merging and without deletion vectors (the plan gives
 * none), and the batches lead with a `_ROW_KIND` STRING NOT NULL column, "+I", "-U", "+U" or
 * "-D": each row's _VALUE_KIND in primary-key files, "+I" in append files.  `columns` as
 * above (they follow _ROW_KIND).  No filter: a change keeps its kind only with its row. */
PM_MUST_CHECK int pm_split_reader_open_changes(pm_split_reader **out, paimon_table *t,
                                               const pm_scan_plan *plan, const pm_split *split,
                                               const int *columns, size_t column_count,
                                               int64_t batch_rows, paimon_error *err);

/* A read that keeps retractions, as Java's read with forceKeepDelete (the `$audit_log` and
 * `$binlog` system tables): merged splits give each key's merge result with its kind,
 * retractions included (the records reduced as a compaction reduces them); raw splits each
 * row with its stored kind.  The batches lead with `_ROW_KIND` as in a change read; no
 * filter. */
PM_MUST_CHECK int pm_split_reader_open_keep_delete(pm_split_reader **out, paimon_table *t,
                                                   const pm_scan_plan *plan, const pm_split *split,
                                                   const int *columns, size_t column_count,
                                                   int64_t batch_rows, paimon_error *err);

/* A read that gives each row its kind and drops retractions, as Java's read without
 * forceKeepDelete (a streaming read's full phase): merged splits give each key's merge result
 * with its stored kind (+I or +U), retractions dropped (ReducerMergeFunctionWrapper, then
 * DropDeleteReader); raw splits every row as "+I" (Java reads them as raw files).  The
 * batches lead with `_ROW_KIND` as in a change read; no filter. */
PM_MUST_CHECK int pm_split_reader_open_kinds(pm_split_reader **out, paimon_table *t,
                                             const pm_scan_plan *plan, const pm_split *split,
                                             const int *columns, size_t column_count,
                                             int64_t batch_rows, paimon_error *err);

/* Makes a change or keep-delete read of a primary-key table (kinds stored in the files) return
 * `_SEQUENCE_NUMBER` BIGINT NOT NULL after `_ROW_KIND`: each row's sequence number as stored,
 * or the merge result's (Java's KeyValue sequence number, `table-read.sequence-number.enabled`).
 * Call before the first pm_split_reader_next(). */
PM_MUST_CHECK int pm_split_reader_with_sequence(pm_split_reader *r, paimon_error *err);

/* The thread rule of pm_parallel_source_open (data/parallel_source.h; 0: the default): with
 * more than one thread, the files are decoded ahead on the process's pool (data/readahead.h)
 * while the caller works -- each sorted run of a merged section while the merge consumes the
 * runs, a raw split's files while the caller takes their batches -- a few batches each; with
 * one, everything is read on the caller's thread.  The batches are the same either way.  For
 * plain reads (pm_split_reader_open); call before the first pm_split_reader_next(). */
void pm_split_reader_set_threads(pm_split_reader *r, unsigned int threads);

/* The next non-empty batch; PAIMON_ITEROVER at the end.  Caller owns `*out`. */
PM_MUST_CHECK int pm_split_reader_next(pm_split_reader *r, pm_batch **out, paimon_error *err);

/* The row type of the batches (the output columns).  Borrowed. */
const pm_type *pm_split_reader_type(const pm_split_reader *r);

void pm_split_reader_free(pm_split_reader *r);

/* Makes `out` a batch source over `r` (data/arrow_stream.h) that owns it: next is
 * pm_split_reader_next, release pm_split_reader_free, the type the reader's.  The way the
 * readers of different splits go to data/parallel_source.h. */
void pm_split_reader_source(pm_split_reader *r, pm_batch_source *out);

#endif /* PM_TABLE_SPLIT_READ_H */

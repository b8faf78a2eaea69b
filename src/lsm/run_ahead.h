/*
 * A sorted run of a merge (lsm/merge_reader.h) decoded ahead on the thread pool
 * (data/readahead.h): how a merged split's read (table/split_read.c) and a compaction's merge
 * (table/write/compact_task.c) spread the decoding of their runs over the cores.
 *
 * The level.  A run may join files of several levels (an interval partition's run), and the
 * merge tags each record with the level of its file, read from pm_run_source.level when it
 * takes a batch.  On the caller's thread the run's reader sets that level as it opens each
 * file.  Read ahead, the file being opened runs ahead of the batch being merged, so the
 * reader must not touch `src->level`: it keeps the level of its current file at `*level`,
 * which is read on the decoding thread right after each batch, travels with the batch, and
 * is set into `src->level` when the merge takes that batch.
 *
 *   src.next = run_next; src.ctx = run;              // the run, as read on one thread
 *   rc = pm_run_ahead_start(&run->ahead, &src, &run->level, pool, depth, err);
 *   ... pm_merge_reader over src: src.next now pops batches decoded ahead ...
 *   pm_run_ahead_stop(run->ahead);   // first: after it no thread touches `run`
 *
 * The batches, their order, their levels and a failure of the run (after the batches before
 * it) are exactly those of reading the run on the caller's thread.
 */
#ifndef PM_LSM_RUN_AHEAD_H
#define PM_LSM_RUN_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "lsm/merge_reader.h"
#include "util/error.h"
#include "util/pool.h"

typedef struct pm_run_ahead pm_run_ahead;

/* Starts decoding `src` (its next and ctx as set) ahead on `pool` (not NULL), `depth` batches
 * at most (data/readahead.h), and points `src` at the batches decoded ahead.  `level` is
 * where src's reader keeps the level of the file it reads.  `*out` is set before the first
 * batch is decoded, so the reader may test it (non-NULL: read ahead, leave src->level alone).
 * On failure `src` is unchanged and `*out` NULL, after no batch was decoded. */
PM_MUST_CHECK int pm_run_ahead_start(pm_run_ahead **out, pm_run_source *src, const int32_t *level,
                                     pm_pool *pool, size_t depth, paimon_error *err);

/* Stops the decoding and frees what was decoded ahead; after it no thread touches the run's
 * reader.  NULL is allowed. */
void pm_run_ahead_stop(pm_run_ahead *a);

#endif /* PM_LSM_RUN_AHEAD_H */

/*
 * A streaming scan (behaviour.md §7.3): Java Paimon 1.4.2's DataTableStreamScan without the
 * engine around it.  Each poll returns at most one plan:
 *
 *  1. first, the start (table/stream_start.h).  A FULL start plans its snapshot as a batch
 *     read (table/scan.h, merged, the read's schema) with the first plan's level filter and,
 *     for the creation-time modes, only the files created at or after the time; a NEXT start
 *     only sets the next snapshot.  A table without snapshots resolves again at the next poll.
 *  2. then the follow-up, one snapshot at a time from the next snapshot id, through the change
 *     read of table/changes.h (which snapshots Java reads, and which files: delta files of
 *     APPEND snapshots for producer none, changelog files otherwise, decoupled
 *     `changelog/changelog-<id>` files for expired snapshots).  Snapshots Java does not read,
 *     and empty plans, are stepped over within the same poll.
 *
 * Ending and waiting, as DataTableStreamScan and NextSnapshotFetcher do:
 *  - `scan.bounded.watermark`: the stream ends before the first snapshot whose watermark
 *    exceeds it (and after the full phase when the start snapshot's does);
 *  - `streaming.read.snapshot.delay`: a snapshot younger than the delay waits;
 *  - a missing next snapshot waits, and every 16th miss in a row checks the range: a next
 *    snapshot before the earliest is "The snapshot with id N has expired" (unless changelogs
 *    are decoupled, where Java keeps waiting), one beyond latest + 1 (or beyond 1 with no
 *    snapshot) "The next expected snapshot is too big" (the table was recreated); both
 *    PAIMON_ENOTFOUND with Java's wording after the table path;
 *  - an optional last snapshot (`paimon tail --to`) ends the stream after it.
 *
 * The position (Java's checkpoint) is the next snapshot id: storing it and opening a scan
 * with PM_STREAM_ORIGIN_POSITION resumes with no snapshot lost or repeated.
 *
 * Thread safety: one thread at a time; the scan borrows the table handle.
 */
#ifndef PM_TABLE_STREAM_SCAN_H
#define PM_TABLE_STREAM_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "table/scan.h"
#include "table/stream_start.h"
#include "util/error.h"

typedef struct pm_stream_scan pm_stream_scan;

typedef enum pm_stream_step {
    PM_STREAM_STEP_NONE, /* nothing to read yet: poll again later */
    PM_STREAM_STEP_PLAN, /* a plan to read */
    PM_STREAM_STEP_END,  /* the stream has ended (bounded watermark, last snapshot) */
} pm_stream_step;

typedef struct pm_stream_poll {
    pm_stream_step step;
    pm_scan_plan *plan;  /* PLAN: owned by the caller (pm_scan_plan_free) */
    bool full;           /* PLAN: a full read (merged splits, read with pm_split_reader_open);
                            else changes (raw splits, pm_split_reader_open_changes) */
    int64_t snapshot_id; /* PLAN: the snapshot read */
} pm_stream_poll;

/* Opens a streaming scan of `t` in `schema` (a copy is kept; the rows come out in it) with
 * the read's options `options` (copied: the table's options with the read's own on top),
 * starting at `origin`; `last` > 0 ends the stream after that snapshot.  The options are
 * checked here (a bad scan.mode, a missing start option: PAIMON_EINVALID).  Caller owns
 * `*out`; release with pm_stream_scan_free(). */
PM_MUST_CHECK int pm_stream_scan_open(pm_stream_scan **out, paimon_table *t,
                                      const pm_schema *schema, const pm_options *options,
                                      const pm_stream_origin *origin, int64_t last,
                                      paimon_error *err);
void pm_stream_scan_free(pm_stream_scan *s);

/* Plans the next thing to read; `now_ms` is the wall clock (epoch ms) for the read delay. */
PM_MUST_CHECK int pm_stream_scan_poll(pm_stream_scan *s, int64_t now_ms, pm_stream_poll *out,
                                      paimon_error *err);

/* The next snapshot id the stream will read, or 0 before the start is known (a table
 * without snapshots). */
int64_t pm_stream_scan_position(const pm_stream_scan *s);

#endif /* PM_TABLE_STREAM_SCAN_H */

/*
 * The `diff` incremental read (behaviour.md §7.4): Java 1.4.2's IncrementalDiffStartingScanner
 * and IncrementalDiffSplitRead.  The live files of the END snapshot and of the START snapshot
 * are grouped per partition and bucket; files both hold are dropped from both sides
 * (SnapshotReaderImpl.toIncrementalPlan), and a bucket with files left on either side is one
 * split of the diff.  Reading it merges each side's files (primary-key tables; deletion
 * vectors applied) and compares them key by key (DiffMerger): a key only END has comes out
 * as END merged it, a key both have only when its value or add-ness differs (END's version),
 * and a key only START has comes out as -D where deletes are kept ($audit_log).  Without
 * kept deletes each side's retractions are dropped first and only adds come out.  Append
 * tables read the files only END has (RawFileSplitRead ignores the before files).
 */
#ifndef PM_TABLE_INCREMENTAL_DIFF_H
#define PM_TABLE_INCREMENTAL_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "table/incremental.h"
#include "table/scan.h"
#include "util/error.h"

typedef struct pm_diff_plan {
    pm_scan_plan *before_src, *after_src; /* the two snapshots' batch plans (own the entries) */
    pm_scan_plan *plan;                   /* the splits of the diff, in after_src's schema */
    int64_t *before, *after; /* per bucket: its split in plan->splits, or -1 when a side has none */
    size_t bucket_count;
} pm_diff_plan;

/* Plans the diff of `inc` (kind PM_INCREMENTAL_DIFF, not empty).  Caller owns `*out`;
 * release with pm_diff_plan_free(). */
PM_MUST_CHECK int pm_diff_plan_build(paimon_table *t, const pm_incremental *inc, pm_diff_plan **out,
                                     paimon_error *err);
void pm_diff_plan_free(pm_diff_plan *d);

/* The rows of bucket `bucket` of the diff as one batch: `_ROW_KIND` STRING NOT NULL, then
 * every column of the plan's schema.  `keep_delete` as described above.  Caller owns
 * `*out`. */
PM_MUST_CHECK int pm_diff_read_bucket(paimon_table *t, const pm_diff_plan *d, size_t bucket,
                                      bool keep_delete, int64_t batch_rows, pm_batch **out,
                                      paimon_error *err);

#endif /* PM_TABLE_INCREMENTAL_DIFF_H */

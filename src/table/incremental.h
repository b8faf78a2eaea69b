/*
 * Incremental reads (behaviour.md §7.4): `incremental-between` ('START,END': two snapshot
 * ids, or two tag names) and `incremental-between-timestamp` ('T1,T2': epoch ms or local
 * timestamps), START exclusive and END inclusive, and `incremental-to-auto-tag` (END an auto
 * tag: the diff from the auto tag of the latest earlier period; empty without one or without
 * END), as Java 1.4.2's
 * AbstractDataTableScan.createIncrementalStartingScanner resolves them, with its errors.
 *
 * `incremental-between-scan-mode` (diff: table/incremental_diff.h):
 *   delta       the ADD files of the APPEND snapshots in (start, end] (IncrementalDelta-
 *               StartingScanner, ScanMode.DELTA), read without merging, each row with its
 *               stored kind;
 *   changelog   the changelog files of the snapshots in (start, end] that are not OVERWRITE;
 *   auto        changelog when the table has a changelog producer, else delta;
 *   diff        the merged data of END against that of START, per key: the rows of END that
 *               START does not hold as they are (their kind as merged), and, where deletes
 *               are kept ($audit_log), -D for the keys END no longer has (Java's
 *               IncrementalDiffSplitRead DiffMerger).  Two tags default to diff unless
 *               `incremental-between-tag-to-snapshot`.
 * START == END, a table without snapshots, or timestamps outside the table's life: empty.
 */
#ifndef PM_TABLE_INCREMENTAL_H
#define PM_TABLE_INCREMENTAL_H

#include <stdbool.h>
#include <stdint.h>

#include "table/scan.h"
#include "table/table.h"
#include "util/error.h"
#include "util/options.h"

typedef enum pm_incremental_kind {
    PM_INCREMENTAL_DELTA,
    PM_INCREMENTAL_CHANGELOG,
    PM_INCREMENTAL_DIFF
} pm_incremental_kind;

typedef struct pm_incremental {
    bool empty;
    pm_incremental_kind kind;
    int64_t start, end; /* snapshot ids: (start, end] for delta and changelog; the two
                           snapshots compared for diff */
    /* diff between tags: the tags' snapshots (a tag may outlive its snapshot's expiry) */
    char *start_tag, *end_tag;
} pm_incremental;

/* Resolves the incremental options of `o` for table `t`.  Java's errors (PAIMON_EINVALID
 * for the options, PAIMON_ENOTFOUND for snapshots out of range), prefixed with the table.
 * Release with pm_incremental_release(). */
PM_MUST_CHECK int pm_incremental_resolve(paimon_table *t, const pm_options *o, pm_incremental *out,
                                         paimon_error *err);
void pm_incremental_release(pm_incremental *inc);

/* The plan of a delta or changelog read: the files of (start, end] grouped into raw splits
 * per partition and bucket, ordered by sequence number, read with
 * pm_split_reader_open_changes().  Rows come out in `schema` (the table's latest).  Caller
 * owns `*out`; release with pm_scan_plan_free(). */
PM_MUST_CHECK int pm_incremental_plan(paimon_table *t, const pm_schema *schema,
                                      const pm_incremental *inc, pm_scan_plan **out,
                                      paimon_error *err);

#endif /* PM_TABLE_INCREMENTAL_H */

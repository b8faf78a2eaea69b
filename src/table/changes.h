/*
 * Reading changes back: which rows each snapshot of a range adds to the change stream, as
 * Java Paimon 1.4.2's streaming read returns them after its first plan (DataTableStreamScan's
 * follow-up scans, behaviour.md §7.3).  The public face is include/paimon/changes.h; the
 * `paimon tail` command prints it.
 *
 * Which files a snapshot contributes (the table's changelog-producer, read from the schema
 * the read uses):
 *
 *   none (and append tables)     APPEND snapshots only: the ADD entries of the delta manifest
 *                                list (DeltaFollowUpScanner, ScanMode.DELTA).  COMPACT
 *                                snapshots rewrite data that was already streamed.
 *   input, lookup,               every snapshot with a changelog manifest list, whatever its
 *   full-compaction              kind (ChangelogFollowUpScanner, ScanMode.CHANGELOG): input
 *                                changelogs come with APPEND snapshots, lookup and
 *                                full-compaction ones with COMPACT snapshots.
 *
 * OVERWRITE snapshots contribute nothing, as in Java without `streaming-read-overwrite`
 * (primary-key tables) or `streaming-read-append-overwrite` (append tables): Java's
 * DataTableStreamScan asks for an overwrite plan only when that option is on, and otherwise
 * the follow-up scanner skips the snapshot (DeltaFollowUpScanner wants APPEND; an overwrite
 * never carries a changelog).  With the option on, Java reads the overwritten data back as
 * retractions; that is not implemented, so a range holding an OVERWRITE snapshot of such a
 * table is refused (PAIMON_EUNSUPPORTED) rather than read differently.
 *
 * The files of a snapshot are folded as Java folds a delta (an ADD cancelled by a DELETE of
 * the same file is dropped), grouped into one raw split per partition and bucket, ordered by
 * sequence number so that the changes of a key come out in the order they were made, and
 * read as they are: no merge, and no deletion vectors (Java's SnapshotReaderImpl loads
 * deletion files only for ScanMode.ALL).  Rows come out in the schema the read was opened
 * with (the table's latest), older files evolved by field id.
 *
 * Where the table's options keep changelogs longer than snapshots (Java's
 * changelogLifecycleDecoupled: a changelog.num-retained.min/max or changelog.time-retained
 * above the snapshot one), Java's expiration moves an expired snapshot's metadata to
 * `changelog/changelog-<id>` and keeps the files a change read needs; a range may then start
 * at the earliest such changelog, and each id is read from the snapshot or, once expired,
 * from that changelog, as Java's streaming read does.
 */
#ifndef PM_TABLE_CHANGES_H
#define PM_TABLE_CHANGES_H

#include <stdbool.h>
#include <stdint.h>

#include "table/scan.h"
#include "util/error.h"

typedef enum pm_changes_from {
    PM_CHANGES_FROM_EARLIEST,  /* the earliest snapshot */
    PM_CHANGES_FROM_LATEST,    /* the latest snapshot */
    PM_CHANGES_FROM_SNAPSHOT,  /* snapshot `from_value` */
    PM_CHANGES_FROM_TIMESTAMP, /* the first snapshot committed at or after `from_value` ms */
} pm_changes_from;

typedef struct pm_changes_range {
    pm_changes_from from;
    int64_t from_value;
    int64_t to; /* > 0: the last snapshot; 0: the latest */
} pm_changes_range;

/* Resolves a range to snapshot ids [*first, *last]; *first > *last when it is empty (a table
 * without snapshots, or a timestamp after the latest commit).  A start or end before the
 * earliest snapshot is PAIMON_ENOTFOUND ("has expired"), after the latest PAIMON_ENOTFOUND
 * ("does not exist"), an end before the start PAIMON_EINVALID.  Java's streaming read clamps
 * an expired start to the earliest snapshot instead; a one-shot read that silently skips
 * changes would mislead, so this one says so.
 *
 * The timestamp rule is Java's TimeTravelUtil.earlierThanTimeMills: binary search for the
 * last snapshot committed before the timestamp, and start after it (at the earliest when
 * the earliest is not before it). */
PM_MUST_CHECK int pm_changes_resolve(paimon_table *t, const pm_changes_range *range, int64_t *first,
                                     int64_t *last, paimon_error *err);

/* Fails (PAIMON_EUNSUPPORTED, as pm_changes_plan would) when a snapshot of [first, last]
 * cannot be read as changes, so that a read is refused before it prints anything: today an
 * OVERWRITE snapshot of a table that asks for overwrites to be streamed. */
PM_MUST_CHECK int pm_changes_check_range(paimon_table *t, const pm_schema *schema, int64_t first,
                                         int64_t last, paimon_error *err);

/* Plans the changes of snapshot `id` in `schema` (a copy is kept): *read tells whether Java
 * reads the snapshot at all (false: the plan has no split).  The plan's splits are raw, to be
 * read with pm_split_reader_open_changes().  Caller owns `*out`; release with
 * pm_scan_plan_free(). */
PM_MUST_CHECK int pm_changes_plan(paimon_table *t, const pm_schema *schema, int64_t id,
                                  pm_scan_plan **out, bool *read, paimon_error *err);

/* Java's CoreOptions.changelogLifecycleDecoupled for `schema`'s options: changelogs outlive
 * snapshots when a changelog retention option exceeds the snapshot one. */
PM_MUST_CHECK int pm_changes_decoupled(const pm_schema *schema, bool *out, paimon_error *err);

/* Snapshot `id`, or where `decoupled` and the snapshot has expired, the long-lived
 * `changelog/changelog-<id>` in its place; PAIMON_ENOTFOUND when neither exists.  Caller
 * owns `*out`. */
PM_MUST_CHECK int pm_changes_read_point(paimon_table *t, bool decoupled, int64_t id,
                                        pm_snapshot **out, paimon_error *err);

/* qsort order of `const pm_manifest_entry *` for reading changes: partition, bucket, then
 * the order the changes were made in (sequence numbers grow with every flush of a bucket);
 * the file name only breaks ties.  Change reads and incremental delta/changelog reads use it,
 * so both give a key's changes in the order they were made. */
int pm_changes_cmp_file(const void *pa, const void *pb);

#endif /* PM_TABLE_CHANGES_H */

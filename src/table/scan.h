/*
 * Planning a batch scan of a snapshot (behaviour.md §7.1): which data files a read needs,
 * with their deletion vectors, grouped into splits per partition and bucket.
 *
 *  1. choose the snapshot (table/snapshot_select.h);
 *  2. read its base and delta manifest lists; drop manifests whose partition statistics or
 *     bucket range cannot match the filter;
 *  3. read the manifests, fold them into the live files (meta/file_entry.h), dropping
 *     entries whose partition, bucket, key statistics (primary-key tables) or value
 *     statistics (append tables; primary-key tables by Java's whole-bucket rule) cannot match;
 *     deletion-vector and first-row tables skip level 0, as Java's batch scans do;
 *  4. load the deletion-vector ranges of the index manifest;
 *  5. group by (partition, bucket) into splits, as Java's split generators do: a bucket is
 *     raw (read file by file, no merge) for append tables, and for primary-key buckets whose
 *     files are all above level 0 without delete rows and either use deletion vectors or
 *     first-row or sit on one level; raw files are packed in order into splits of
 *     `source.split.target-size` (128 MB), each counted at least `source.split.open-file-cost`
 *     (4 MB).  A bucket that needs a merge is cut into sections of sorted runs
 *     (table/interval_partition.h), the sections packed the same way; a split of one file
 *     without delete rows is read raw.
 *
 * Statistics are only ever used to skip what cannot match; the split reader applies the
 * filter exactly.  A plan owns everything it points to.
 */
#ifndef PM_TABLE_SCAN_H
#define PM_TABLE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/predicate.h"
#include "meta/manifest.h"
#include "table/snapshot_select.h"
#include "util/error.h"

/* A deletion vector's place: an index file and a byte range in it. */
typedef struct pm_dv_ref {
    const char *index_path; /* full path of the index file */
    int64_t offset;
    int64_t length;
} pm_dv_ref;

typedef struct pm_split {
    pm_avro_bytes partition; /* serialized partition BinaryRow (arena) */
    int32_t bucket;
    int32_t total_buckets;
    const pm_manifest_entry **files; /* in read order (append: by sequence; PK: any) */
    const char **paths;              /* full path of each file */
    const pm_dv_ref **dvs;           /* per file, NULL when the file has no deletion vector */
    size_t file_count;
    bool raw; /* read file by file, no merge */
} pm_split;

typedef struct pm_scan_plan {
    pm_arena arena; /* everything below, and the decoded manifests */
    pm_snapshot *snapshot;
    pm_schema *schema; /* the schema of the snapshot: the rows come out in it */
    bool primary_key;  /* the table has a primary key */
    pm_split *splits;
    size_t split_count;
    /* what planning skipped, for tests and `paimon cat --explain`-style output */
    size_t manifests_total, manifests_skipped;
    size_t files_total, files_skipped, level0_skipped;
} pm_scan_plan;

typedef struct pm_scan_options {
    pm_snapshot_selector snapshot;
    const pm_predicate *filter; /* over the snapshot schema's row type; may be NULL */
    bool keep_level0;           /* read level-0 files even where Java's batch scan skips them */
    /* The `$ro` system table (Java's ReadOptimizedTable): primary-key tables read only the
     * files at the highest level (`num-levels` - 1, default `num-sorted-run.compaction-trigger`
     * + 1 levels), with value statistics pruning file by file; other tables read normally. */
    bool read_optimized;
    /* Read with the table's latest schema instead of the snapshot's (Java's batch read of the
     * latest snapshot: columns added, renamed or retyped since that snapshot's commit show
     * their new shape).  A read of an explicit snapshot, tag or timestamp keeps the schema of
     * that snapshot, as Java's time travel does.  `schema_id` >= 0 pins which schema that is
     * (the one a filter was parsed over); -1 reads the latest at planning. */
    bool latest_schema;
    int64_t schema_id;
    /* scan.mode from-file-creation-time (Java's FileCreationTimeStartingScanner): only the
     * files created at or after this instant (epoch ms; the file's local creation time read
     * in the local zone) are read. */
    bool has_min_creation;
    int64_t min_creation_millis;
} pm_scan_options;

/* Plans a scan.  Caller owns `*out`; release with pm_scan_plan_free(). */
PM_MUST_CHECK int pm_scan_plan_build(paimon_table *t, const pm_scan_options *o, pm_scan_plan **out,
                                     paimon_error *err);
void pm_scan_plan_free(pm_scan_plan *p);

/* Plans the read of a table's own rows (or of `$ro`, o->read_optimized) with a filter given
 * as text, as a scan of the public API asks (table/scan_table.c): the snapshot is chosen
 * first (the latest is pinned by id and read with the table's latest schema), the filter is
 * parsed over the schema the rows come out in, and
 * planning prunes with it.  The latest snapshot of a table that has none is an empty plan:
 * no snapshot (NULL), no splits, the table's latest schema.  An explicit snapshot, tag or
 * timestamp that does not exist is PAIMON_ENOTFOUND, a filter that does not parse
 * PAIMON_EINVALID.  `*filter` receives the parsed filter (NULL without one), which the plan's
 * split readers borrow; the caller frees it with pm_predicate_free() after them.  Caller
 * owns `*out`; release with pm_scan_plan_free(). */
PM_MUST_CHECK int pm_scan_plan_table(paimon_table *t, const pm_scan_options *o,
                                     const char *filter_text, pm_scan_plan **out,
                                     pm_predicate **filter, paimon_error *err);

/* The data file path of an entry (partition directory as Java names it, bucket directory,
 * or _EXTERNAL_PATH), checked by meta/file_path.h under `schema`'s options: a name that is
 * not a plain file name or an external path outside data-file.external-paths is
 * PAIMON_ECORRUPT naming the entry.  Allocated in `arena`; NULL with *err set on failure. */
const char *pm_data_file_path(paimon_table *t, const pm_schema *schema, const pm_manifest_entry *e,
                              pm_arena *arena, paimon_error *err);

/* Appends to `p` a split of files[0..n) (n >= 1, all of one partition and bucket, in read
 * order): the entry pointers are copied into the plan's arena (the entries must live as long
 * as the plan), each file's path is resolved under p->schema (pm_data_file_path), and no file
 * has a deletion vector until the caller sets s->dvs[i].  `*cap` is the capacity of
 * p->splits, 0 for a plan without splits.  `*out` (may be NULL) is the new split: borrowed,
 * valid until the next split is added (scan_split.c). */
PM_MUST_CHECK int pm_scan_plan_add_split(pm_scan_plan *p, paimon_table *t,
                                         const pm_manifest_entry *const *files, size_t n, bool raw,
                                         size_t *cap, pm_split **out, paimon_error *err);

#endif /* PM_TABLE_SCAN_H */

/*
 * The live data files of a snapshot in listing order: what `paimon inspect files`
 * (table/inspect.c) and the `$files` system table (table/system_files.c) both print.
 *
 * The snapshot's base and delta manifests are folded into live ADD entries
 * (meta/file_entry.h); each entry's partition BinaryRow is decoded and must have as many
 * fields as the table has partition keys (PAIMON_ECORRUPT otherwise, naming the file); the
 * files are sorted by partition (column by column in partitionKeys order, values compared
 * as their types order them), then bucket, level and file name.  This is the order of
 * DESIGN.md's `inspect files --format jsonl` and of the oracle's `--files` mode.
 */
#ifndef PM_META_LIVE_FILES_H
#define PM_META_LIVE_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "data/binary_row.h"
#include "meta/manifest.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "util/error.h"

typedef struct pm_live_file {
    const pm_manifest_entry *e; /* the ADD entry (in the arena) */
    pm_binrow partition;        /* e's partition, decoded; arity = the partition key count */
} pm_live_file;

/* Chooses which live entries are listed; NULL keeps them all. */
typedef bool (*pm_live_file_keep)(const pm_manifest_entry *e, void *ctx);

/* The live files of `snap` in table `table` whose partition keys are parts[0..part_count)
 * (pm_schema_partition_fields), that `keep` (may be NULL) accepts, in the order above.
 * `*out` (count entries) and the entries it points to live in `arena`. */
PM_MUST_CHECK int pm_live_files_sorted(pm_fs *fs, const char *table, const pm_snapshot *snap,
                                       const pm_field *const *parts, size_t part_count,
                                       pm_live_file_keep keep, void *keep_ctx, pm_arena *arena,
                                       pm_live_file **out, size_t *count, paimon_error *err);

#endif

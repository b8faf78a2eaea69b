/*
 * Table layout and file naming (metadata.md §1): where schemas, snapshots, manifests, index
 * files and data files live, and how versioned files (`snapshot-<id>`, `schema-<id>`) are
 * listed.  Names are only ever parsed strictly: a name that is not prefix + decimal digits
 * is ignored (temporary files start with '.').
 */
#ifndef PM_META_PATHS_H
#define PM_META_PATHS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "io/fs.h"
#include "util/error.h"

#define PM_DIR_SCHEMA   "schema"
#define PM_DIR_SNAPSHOT "snapshot"
#define PM_DIR_MANIFEST "manifest"
#define PM_DIR_INDEX    "index"
#define PM_DIR_TAG      "tag"
#define PM_DIR_CONSUMER "consumer"

/* "<table>/<dir>/<name>" (name may be NULL for the directory); release with pm_free. */
char *pm_table_file(const char *table, const char *dir, const char *name);

/* Parses "<prefix><digits>" into *id; false for anything else (no sign, no spaces). */
bool pm_parse_versioned_name(const char *name, const char *prefix, int64_t *id);

/* Ids of the "<prefix><digits>" entries of `dir`, ascending.  A missing directory yields an
 * empty list.  Caller owns `*ids` (pm_free). */
PM_MUST_CHECK int pm_list_versioned(pm_fs *fs, const char *dir, const char *prefix, int64_t **ids,
                                    size_t *count, paimon_error *err);

/* Writes `root` in Jackson's layout as the new metadata file `path` (schema, snapshot, tag)
 * with the create-if-absent protocol of write_atomic: PAIMON_EEXISTS when it is there.
 * Takes ownership of `path` and `root`, also on failure; either NULL (its build ran out of
 * memory) gives PAIMON_ENOMEM. */
PM_MUST_CHECK int pm_metadata_create_json(pm_fs *fs, char *path, json_t *root, paimon_error *err);

#endif /* PM_META_PATHS_H */

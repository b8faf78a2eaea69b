/*
 * Folding manifest entries into the live data files of a snapshot (metadata.md §7.3 (a),
 * behaviour.md §7.1), as Java's AbstractFileStoreScan.readAndMergeFileEntries does:
 *
 *   1. collect the identities of the DELETE entries of every manifest whose
 *      _NUM_DELETED_FILES > 0;
 *   2. keep every ADD entry of every manifest with _NUM_ADDED_FILES > 0 whose identity is
 *      not among them.
 *
 * Identity = (_PARTITION bytes, _BUCKET, _LEVEL, _FILE_NAME, _EXTRA_FILES,
 * _EMBEDDED_FILE_INDEX, _EXTERNAL_PATH).  Entry order and manifest boundaries do not
 * matter; a DELETE without a matching ADD is ignored.
 */
#ifndef PM_META_FILE_ENTRY_H
#define PM_META_FILE_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "meta/manifest.h"
#include "meta/snapshot.h"
#include "util/error.h"

/* True when a and b name the same file (the identity above). */
bool pm_file_identity_equal(const pm_manifest_entry *a, const pm_manifest_entry *b);
uint64_t pm_file_identity_hash(const pm_manifest_entry *e);

/* The manifests of a snapshot's base and delta lists (data manifests only), in list order. */
PM_MUST_CHECK int pm_snapshot_data_manifests(pm_fs *fs, const char *table, const pm_snapshot *snap,
                                             pm_arena *arena, pm_manifest_file_meta **out,
                                             size_t *count, paimon_error *err);

/* The live ADD entries of a snapshot (pointers into `arena`), unsorted. */
PM_MUST_CHECK int pm_snapshot_live_entries(pm_fs *fs, const char *table, const pm_snapshot *snap,
                                           pm_arena *arena, const pm_manifest_entry ***out,
                                           size_t *count, paimon_error *err);

/* Folds already-read manifests: `manifests[i]` has `entry_counts[i]` entries. */
PM_MUST_CHECK int pm_fold_live_entries(const pm_manifest_file_meta *metas,
                                       const pm_manifest_entry *const *entries,
                                       const size_t *entry_counts, size_t manifest_count,
                                       pm_arena *arena, const pm_manifest_entry ***out,
                                       size_t *count, paimon_error *err);

#endif /* PM_META_FILE_ENTRY_H */

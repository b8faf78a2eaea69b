/*
 * The files a snapshot references, by name, and the checked paths of those files: what tag
 * deletion (table/tag.h) and orphan removal (table/orphans.h) share.
 *
 * A snapshot references its base, delta and changelog manifest lists, the manifests they
 * list, the data files those manifests name (with their extra files: file indexes), its
 * index manifest and the index files it lists, and its statistics file.  Java's
 * FileDeletionBase and OrphanFilesClean compare such files by name (names carry a UUID);
 * so does this.
 *
 * Paths of files to delete always come from meta/file_path.h (DESIGN.md invariant 8):
 * data and extra files through pm_data_file_path, manifests, index and statistics files
 * through pm_file_path_resolve in their directory.
 */
#ifndef PM_TABLE_ORPHANS_REFS_H
#define PM_TABLE_ORPHANS_REFS_H

#include <stdbool.h>

#include "meta/manifest.h"
#include "meta/snapshot.h"
#include "table/table.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/bytes_map.h"
#include "util/error.h"

typedef struct pm_refs {
    pm_bytes_map names;
} pm_refs;

void pm_refs_init(pm_refs *r);
void pm_refs_free(pm_refs *r);
bool pm_refs_has(const pm_refs *r, const char *name);
PM_MUST_CHECK int pm_refs_add(pm_refs *r, const char *name, paimon_error *err);

/* Adds the metadata files of `s` to `meta`: the base and delta lists (and the changelog
 * list when `changelog`), the manifests they list, the index manifest with its index files,
 * the statistics file.  When `data` is not NULL, every data file named by an entry of those
 * manifests (ADD or DELETE) and its extra files go to `data`.  A manifest already in `meta`
 * is not read again.  Any read failure is returned. */
PM_MUST_CHECK int pm_refs_add_snapshot(pm_refs *meta, pm_refs *data, pm_fs *fs, const char *table,
                                       const pm_snapshot *s, bool changelog, paimon_error *err);

/* As pm_refs_add_snapshot(`c`, changelog = true) for a long-lived changelog
 * (`changelog/changelog-<id>`), where a manifest list or index manifest that is gone names
 * nothing: expiring a snapshot into a changelog removes its base and delta lists by design
 * (Java's SnapshotDeletion keeps only what the changelog needs), and a changelog expiration
 * killed between removing its files and its changelog-<id> leaves one naming files that are
 * gone.  Java's OrphanFilesClean reads every list with retryReadingFiles, which takes a
 * missing file for an empty one; other failures (a damaged list) still abort the sweep. */
PM_MUST_CHECK int pm_refs_add_changelog(pm_refs *meta, pm_refs *data, pm_fs *fs, const char *table,
                                        const pm_snapshot *c, paimon_error *err);

/* Adds the names of the live data files of `s` (and their extra files) to `data`. */
PM_MUST_CHECK int pm_refs_add_live(pm_refs *data, pm_fs *fs, const char *table,
                                   const pm_snapshot *s, paimon_error *err);

/* ---- checked paths --------------------------------------------------------------------- */

/* A paimon_table view for pm_data_file_path: path and fs borrowed, schema owned (the
 * latest).  Release with pm_refs_table_close. */
PM_MUST_CHECK int pm_refs_table_open(paimon_table *t, pm_fs *fs, const char *table,
                                     paimon_error *err);
void pm_refs_table_close(paimon_table *t);

/* Appends to `out` the path of file `name` of directory `dir` (PM_DIR_MANIFEST, "index",
 * "statistics") of `t`, checked. */
PM_MUST_CHECK int pm_refs_meta_path(const paimon_table *t, const char *dir, const char *name,
                                    pm_buf *out, paimon_error *err);

/* The path of the index file of `ie` (the index directory, the bucket directory with
 * index-file-in-data-file-dir, or its external path), in `arena`; NULL with *err set. */
const char *pm_refs_index_path(paimon_table *t, const pm_index_manifest_entry *ie, pm_arena *arena,
                               paimon_error *err);

#endif /* PM_TABLE_ORPHANS_REFS_H */

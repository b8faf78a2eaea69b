/*
 * The deletion vectors of one primary-key bucket while it is written (Java's
 * BucketedDvMaintainer; behaviour.md §5.2): restored from the bucket's DELETION_VECTORS index
 * file, changed by compaction, written whole as a new index file when changed.
 *
 *  - Lookup compaction marks the position of a row that a newer record replaces (mark).
 *  - A rewritten data file leaves with its vector (remove): its surviving rows are in the
 *    new files.  An upgraded file keeps its name, so it keeps its vector.
 *  - At prepare-commit, a changed bucket writes one index file holding every vector of the
 *    bucket (version byte, then the records of lsm/deletion_vector.h), and the index manifest
 *    entry for it; the commit's bucketed combiner replaces the bucket's previous entry.
 *
 * New vectors take the 32-bit format, or the 64-bit one under `deletion-vectors.bitmap64`;
 * restored vectors keep the format they were read in (Java keeps the restored objects).
 * Records are written in file-name order (Java iterates a HashMap; readers use the ranges).
 *
 * Thread safety: one thread per maintainer (its bucket's writer).
 */
#ifndef PM_TABLE_WRITE_DV_MAINTAINER_H
#define PM_TABLE_WRITE_DV_MAINTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/fs.h"
#include "lsm/deletion_vector.h"
#include "meta/manifest.h"
#include "meta/path_factory.h"
#include "util/arena.h"
#include "util/error.h"

typedef struct pm_dv_maintainer pm_dv_maintainer;

/* A maintainer over the vectors of `restored` (the bucket's DELETION_VECTORS index entry,
 * whose file is at `restored_path`), or none when `restored` is NULL.  A damaged index file
 * is an error naming it.  Caller owns `*out`. */
PM_MUST_CHECK int pm_dv_maintainer_new(pm_dv_maintainer **out, pm_fs *fs, bool bitmap64,
                                       const pm_index_manifest_entry *restored,
                                       const char *restored_path, paimon_error *err);
void pm_dv_maintainer_free(pm_dv_maintainer *m);

/* The vector of data file `file_name`, or NULL.  Borrowed until the next change. */
const pm_dv *pm_dv_maintainer_get(const pm_dv_maintainer *m, const char *file_name);

/* Marks row `position` of `file_name` deleted (notifyNewDeletion). */
PM_MUST_CHECK int pm_dv_maintainer_mark(pm_dv_maintainer *m, const char *file_name,
                                        int64_t position, paimon_error *err);

/* Drops the vector of a rewritten file (removeDeletionVectorOf). */
void pm_dv_maintainer_remove(pm_dv_maintainer *m, const char *file_name);

/* Whether anything changed since the last write. */
bool pm_dv_maintainer_modified(const pm_dv_maintainer *m);

/* When changed: writes the bucket's vectors as a new index file `index-<uuid>-<n>` (named by
 * `names`) in directory `index_dir`, and fills `entry` (an ADD of index type
 * DELETION_VECTORS for partition/bucket, strings in `arena`).  *written tells whether a file
 * was written; on failure nothing is left behind. */
PM_MUST_CHECK int pm_dv_maintainer_write(pm_dv_maintainer *m, pm_fs *fs, const char *index_dir,
                                         pm_path_factory *names, const uint8_t *partition,
                                         size_t partition_len, int32_t bucket, pm_arena *arena,
                                         pm_index_manifest_entry *entry, bool *written,
                                         paimon_error *err);

#endif /* PM_TABLE_WRITE_DV_MAINTAINER_H */

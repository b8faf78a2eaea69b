/*
 * Rolling a table back to a snapshot or a tag (behaviour.md §8.4), as Java 1.4.2's
 * AbstractFileStoreTable.rollbackTo with RollbackHelper does on a file-system catalog:
 *
 *   - the target: snapshot N (its file, else a tag of snapshot N, as Java falls back to
 *     rolling back to that tag), or tag NAME;
 *   - LATEST hint = the target; snapshot files with larger ids deleted, newest first;
 *     long-lived `changelog/changelog-<id>` files with larger ids deleted, the changelog
 *     LATEST hint moved below them (-1 when none is left); tag files of larger snapshots
 *     deleted;
 *   - a tag whose snapshot has expired: its snapshot is written back as a snapshot file
 *     and EARLIEST set to it;
 *   - data files, manifests and index files of the removed snapshots are NOT deleted (as
 *     in 1.4): they are orphans for remove-orphans.
 *
 * One deliberate change of order: for an expired tag's snapshot, the snapshot file is
 * written before the newer snapshots are deleted (Java writes it last), so that the table
 * has a readable latest snapshot at every step even when the rollback stops half way.  A
 * rollback that failed part way leaves the table readable at every snapshot and tag that
 * remains (no data file is touched); running it again finishes it.
 *
 * Errors (nothing is changed): an unknown snapshot or tag (PAIMON_ENOTFOUND naming it), a
 * target newer than the latest snapshot (PAIMON_EINVALID), a table without snapshots.
 */
#ifndef PM_TABLE_ROLLBACK_H
#define PM_TABLE_ROLLBACK_H

#include <stdint.h>

#include "io/fs.h"
#include "util/error.h"

/* Rolls `table` back to snapshot `snapshot_id` (tag == NULL) or to tag `tag`. */
PM_MUST_CHECK int pm_table_rollback(pm_fs *fs, const char *table, int64_t snapshot_id,
                                    const char *tag, paimon_error *err);

#endif /* PM_TABLE_ROLLBACK_H */

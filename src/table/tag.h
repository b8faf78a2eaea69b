/*
 * Tags (behaviour.md §8.3), as Java 1.4.2's TagManager and AbstractFileStoreTable keep them:
 * `tag/tag-<name>` holds the tagged snapshot's JSON, plus `tagCreateTime` (LocalDateTime in
 * Jackson's array form) and `tagTimeRetained` (a Duration as Jackson writes it: seconds with
 * nine decimals) when the tag has a retention time.
 *
 *   create   from the latest snapshot or a given id (a snapshot file, else a tag of that
 *            snapshot, as Java's findSnapshot); an existing name fails, a blank name fails;
 *            the retention defaults to `tag.default-time-retained`.
 *   delete   the tag file first, then -- only when no snapshot file of that id remains and
 *            no other tag names the same snapshot -- the data files, manifests, index files
 *            and statistics of the tag's snapshot that neither neighbour (the previous tag,
 *            and the nearer of the next tag and the earliest snapshot) references: Java's
 *            TagManager.deleteTag with TagDeletion.  Cleanup failures do not undo the
 *            deletion: they are reported apart (the files are orphans that remove-orphans
 *            deletes).
 *   rename   Java's rename of the tag file: the new name must be free.
 *
 * Tag names become file names: besides Java's "not blank", a name must be one plain path
 * component (meta/file_path.h), or PAIMON_EINVALID.
 *
 * Thread safety: one thread per paimon_table at a time.
 */
#ifndef PM_TABLE_TAG_H
#define PM_TABLE_TAG_H

#include <stdbool.h>
#include <stdint.h>

#include "meta/snapshot.h"
#include "table/table.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_TAG_NO_RETENTION INT64_MIN /* a tag without tagTimeRetained */

/* 0 when `name` can name a tag of `table`; PAIMON_EINVALID "TABLE: tag name ..." otherwise. */
PM_MUST_CHECK int pm_tag_name_check(const char *table, const char *name, paimon_error *err);

/* Appends the tag file for `snap` in Java's shape: the snapshot's JSON, then, when
 * `retained_ms` is not PM_TAG_NO_RETENTION, tagCreateTime = `create_local_ms` (a local
 * date-time as epoch-style milliseconds, util/time.h) and tagTimeRetained. */
PM_MUST_CHECK int pm_tag_format(const pm_snapshot *snap, int64_t create_local_ms,
                                int64_t retained_ms, pm_buf *out, paimon_error *err);

/* Writes tag `name` of `snap` (create-if-absent: PAIMON_EEXISTS when it exists). */
PM_MUST_CHECK int pm_tag_create_file(pm_fs *fs, const char *table, const char *name,
                                     const pm_snapshot *snap, int64_t retained_ms,
                                     paimon_error *err);

/* tagCreateTime of a tag file as local epoch-style millis; false when absent or malformed. */
bool pm_tag_create_time_ms(const pm_tag *tag, int64_t *local_ms);
/* tagTimeRetained in milliseconds; false when absent or malformed. */
bool pm_tag_time_retained_ms(const pm_tag *tag, int64_t *ms);
/* Java's Duration.toString() of `ms` ("PT1H", "PT24H", "PT0.5S") into `out` (cap >= 40). */
void pm_tag_duration_string(int64_t ms, char *out, size_t cap);

/* Creates tag `name` of snapshot `snapshot_id` (<= 0: the latest).  `retained_ms`:
 * PM_TAG_NO_RETENTION for `tag.default-time-retained`.  PAIMON_EEXISTS "TABLE: tag 'NAME'
 * already exists", PAIMON_ENOTFOUND naming the missing snapshot. */
PM_MUST_CHECK int pm_tag_create(paimon_table *t, const char *name, int64_t snapshot_id,
                                int64_t retained_ms, paimon_error *err);

/* Renames tag `from` to `to`.  PAIMON_ENOTFOUND / PAIMON_EEXISTS naming the tag. */
PM_MUST_CHECK int pm_tag_rename(paimon_table *t, const char *from, const char *to,
                                paimon_error *err);

/* Deletes tag `name` (PAIMON_ENOTFOUND when there is none) and cleans up as above.  A
 * cleanup failure leaves `cleanup_err` (may be NULL) set and still returns 0. */
PM_MUST_CHECK int pm_tag_delete(pm_fs *fs, const char *table, const char *name,
                                paimon_error *cleanup_err, paimon_error *err);

/* All tags, sorted by snapshot id then name; unreadable tag files are an error, tags that
 * vanish while listed are skipped.  Caller frees each with pm_tag_free and the array with
 * pm_free. */
PM_MUST_CHECK int pm_tag_read_all(pm_fs *fs, const char *table, pm_tag ***out, size_t *count,
                                  paimon_error *err);
void pm_tag_free_all(pm_tag **tags, size_t count);

#endif /* PM_TABLE_TAG_H */

/*
 * paimon-c: the table's life -- tags, rollback and orphan files (Java Paimon 1.4.2's
 * createTag / deleteTag / renameTag, rollbackTo and RemoveOrphanFiles).
 *
 * Tags pin a snapshot: `tag/tag-<name>` holds its JSON (with a creation time and retention
 * when the tag has one), and snapshot expiration keeps what a tag references.  Reading a
 * tag is a scan option (paimon_scan_options.tag).  Automatic tags
 * (tag.automatic-creation and the other tag.* options) are made by every commit's upkeep.
 *
 * Thread safety: one thread per paimon_table at a time.  Concurrent processes: creating a
 * tag is atomic (create-if-absent); deleting one while another process expires snapshots
 * or rolls back is not coordinated (as in Java).
 */
#ifndef PAIMON_MAINTENANCE_H
#define PAIMON_MAINTENANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "paimon/inspect.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tags -------------------------------------------------------------------------------- */

/* What paimon_tag_create() makes.  Version it with PAIMON_TAG_OPTIONS_INIT or
 * paimon_tag_options_init(). */
typedef struct paimon_tag_options {
    unsigned int version;      /* PAIMON_TAG_OPTIONS_VERSION */
    int64_t snapshot;          /* the snapshot to tag; PAIMON_LATEST_SNAPSHOT: the latest */
    const char *time_retained; /* a duration ("7 d", "12h"), or NULL: the table's
                                  tag.default-time-retained (none: kept until deleted) */
} paimon_tag_options;

#define PAIMON_TAG_OPTIONS_VERSION 1
#define PAIMON_TAG_OPTIONS_INIT                                                                    \
    {                                                                                              \
        PAIMON_TAG_OPTIONS_VERSION, PAIMON_LATEST_SNAPSHOT, NULL                                   \
    }

PAIMON_API int paimon_tag_options_init(paimon_tag_options *options, unsigned int version);

/* Creates tag `name`.  A snapshot that has expired can still be tagged while another tag
 * holds it.  PAIMON_EEXISTS when the tag exists; PAIMON_ENOTFOUND for a missing snapshot
 * (or a table without any); PAIMON_EINVALID for a blank name, one that cannot be a file
 * name, or a duration that does not parse. */
PAIMON_API int paimon_tag_create(paimon_table *table, const char *name,
                                 const paimon_tag_options *options, paimon_error *err);

/* Deletes tag `name` and the files that only it kept (Java's TagManager.deleteTag):
 * PAIMON_ENOTFOUND when there is no such tag.  Once the tag file is gone the deletion
 * stands: a failure to remove one of the files it kept is reported in `cleanup_err` (may be
 * NULL) and the call still returns 0; paimon_table_remove_orphans() removes what is left. */
PAIMON_API int paimon_tag_delete(paimon_table *table, const char *name, paimon_error *cleanup_err,
                                 paimon_error *err);

/* Renames tag `from` to `to`: PAIMON_ENOTFOUND / PAIMON_EEXISTS naming the tag. */
PAIMON_API int paimon_tag_rename(paimon_table *table, const char *from, const char *to,
                                 paimon_error *err);

/* One tag, as the $tags system table shows it. */
typedef struct paimon_tag_info {
    const char *name;
    int64_t snapshot_id;
    int64_t schema_id;
    int64_t commit_time;  /* the snapshot's commit time, epoch milliseconds UTC */
    int64_t record_count; /* the snapshot's total record count; PAIMON_ABSENT_COUNT if absent */
    bool has_create_time; /* tagCreateTime present */
    int64_t create_time;  /* tagCreateTime: a local date-time as epoch-style milliseconds */
    const char *time_retained; /* Java's Duration text ("PT24H"), NULL when absent */
    const char *json;          /* the tag file as compact JSON */
} paimon_tag_info;

/* All tags, by snapshot id then name. */
PAIMON_API int paimon_table_tags(paimon_table *table, paimon_list **out, paimon_error *err);
PAIMON_API const paimon_tag_info *paimon_list_tag(const paimon_list *list, size_t i);

/* ---- rollback ---------------------------------------------------------------------------- */

/* Rolls the table back to snapshot `snapshot` (tag NULL) or to tag `tag` (snapshot
 * ignored), as Java 1.4.2 does: later snapshots, long-lived changelogs and tags of later
 * snapshots are deleted; a tag whose snapshot has expired becomes the earliest snapshot
 * again.  Data files are not deleted (they become orphans).  PAIMON_ENOTFOUND for an
 * unknown snapshot or tag, PAIMON_EINVALID for a target newer than the latest snapshot:
 * then nothing is changed.  A rollback that fails part way leaves every remaining
 * snapshot and tag readable; calling it again finishes it. */
PAIMON_API int paimon_table_rollback(paimon_table *table, int64_t snapshot, const char *tag,
                                     paimon_error *err);

/* ---- orphan files ------------------------------------------------------------------------ */

/* One orphan found: its path and size. */
typedef void (*paimon_orphan_fn)(void *ctx, const char *path, uint64_t size);

typedef struct paimon_orphan_options {
    unsigned int version;     /* PAIMON_ORPHAN_OPTIONS_VERSION */
    const char *older_than;   /* a duration: only files modified longer ago go; NULL: "1 d" */
    bool dry_run;             /* report what would go, delete nothing */
    paimon_orphan_fn on_file; /* called for each file deleted (or found); may be NULL */
    void *ctx;
} paimon_orphan_options;

#define PAIMON_ORPHAN_OPTIONS_VERSION 1
#define PAIMON_ORPHAN_OPTIONS_INIT                                                                 \
    {                                                                                              \
        PAIMON_ORPHAN_OPTIONS_VERSION, NULL, false, NULL, NULL                                     \
    }

PAIMON_API int paimon_orphan_options_init(paimon_orphan_options *options, unsigned int version);

/* Deletes the files of the table that no snapshot, tag or long-lived changelog references
 * (data, manifests, index and statistics files, leftovers of killed writers), modified
 * before now - older_than.  Any snapshot, tag or manifest that cannot be read aborts before
 * anything is deleted.  `count` and `bytes` (may be NULL) receive what was deleted (or
 * found, in a dry run).  A deletion that fails does not stop the others: the first failure
 * is returned, and a rerun finishes the job.  PAIMON_EINVALID for a duration that does not
 * parse; PAIMON_EUNSUPPORTED for a table with branches. */
PAIMON_API int paimon_table_remove_orphans(paimon_table *table,
                                           const paimon_orphan_options *options, uint64_t *count,
                                           uint64_t *bytes, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_MAINTENANCE_H */

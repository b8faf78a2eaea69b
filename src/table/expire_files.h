/*
 * The file removal that snapshot and changelog expiration share (Java 1.4.2's
 * FileDeletionBase, SnapshotDeletion and ChangelogDeletion): which data, changelog, manifest,
 * index and statistics files of an expiring snapshot no retained snapshot or tag names, and
 * their removal through checked paths (meta/file_path.h).  table/expire.h gives the order.
 *
 * Failures: a manifest list or manifest that is gone counts as handled by an earlier run
 * (Java's tryReadManifestList); every other failure is returned and the caller stops before
 * it removes snapshot files, so the next run finishes the job.
 *
 * Thread safety: one thread per cleaner.
 */
#ifndef PM_TABLE_EXPIRE_FILES_H
#define PM_TABLE_EXPIRE_FILES_H

#include <stdbool.h>
#include <stdint.h>

#include "meta/snapshot.h"
#include "table/expire.h"
#include "table/table.h"
#include "util/bytes_map.h"

typedef struct pm_expire_cleaner {
    pm_fs *fs;
    paimon_table table;     /* borrowed path and fs; the latest schema (owned) */
    bool dry_run;           /* count, remove nothing */
    bool index_in_data_dir; /* index-file-in-data-file-dir */
    bool produce_changelog; /* changelog-producer is not none */
    bool clean_empty_dirs;  /* snapshot.clean-empty-directories */
    pm_snapshot **tags;     /* the tagged snapshots, ascending and unique by id (owned) */
    size_t tag_count;       /* entries of `tags` */
    int64_t cached_tag;     /* id of the tag whose files `tag_files` holds; 0 none */
    pm_bytes_map tag_files; /* (bucket, partition, file name) of that tag's live files */
    pm_bytes_map dirs;      /* bucket directories something was removed from */
    pm_bytes_map counted;   /* dry run: the paths counted so far */
    pm_bytes_map lists;     /* delta lists read by the data step: name -> list_names index */
    pm_strlist list_names;  /* their manifests' names, each list's joined by newlines */
    pm_expire_result *res;  /* where removals are counted (never NULL) */
    pm_strlist pending;     /* removals queued for one batch delete (a store with
                               remove_many, as S3); pm_expire_flush() sends them */
} pm_expire_cleaner;

/* Reads the latest schema and the tags of `table`.  `res` receives the counts.  Release with
 * pm_expire_cleaner_free (also after a failure). */
PM_MUST_CHECK int pm_expire_cleaner_init(pm_expire_cleaner *c, pm_fs *fs, const char *table,
                                         const pm_expire_config *cfg, bool dry_run,
                                         pm_expire_result *res, paimon_error *err);
void pm_expire_cleaner_free(pm_expire_cleaner *c);

/* Removes `path` (a file already gone is fine) and counts it in res->files, now. */
PM_MUST_CHECK int pm_expire_remove(pm_expire_cleaner *c, const char *path, paimon_error *err);

/* Batching.  On a store that deletes many objects in one request (pm_fs remove_many: S3's
 * batch delete, 1,000 keys a request), the data, manifest, index and statistics files the
 * steps below remove are queued and deleted together; elsewhere (local disks, dry runs)
 * each goes at once, as before.  The order of table/expire.h still holds because the queue
 * is flushed before each step that depends on the previous one's removals: before empty
 * directories are looked at (pm_expire_clean_empty_dirs does it) and before a snapshot or
 * changelog file goes (the callers do).  A queued file already gone is counted as removed.
 * Queued files left at pm_expire_cleaner_free (after a failure) are not removed: they stay
 * for the next run, as after a crash. */
PM_MUST_CHECK int pm_expire_flush(pm_expire_cleaner *c, paimon_error *err);

/* FileDeletionBase.cleanUnusedDataFiles: removes the files the manifest list `delta` DELETEs
 * and does not ADD again, except those in the nearest tag before snapshot `id` and, with
 * `keep_append`, those whose source is APPEND (or unknown). */
PM_MUST_CHECK int pm_expire_clean_data_files(pm_expire_cleaner *c, const char *delta, int64_t id,
                                             bool keep_append, paimon_error *err);

/* FileDeletionBase.deleteAddedDataFiles: removes the files a changelog manifest list ADDs. */
PM_MUST_CHECK int pm_expire_delete_added(pm_expire_cleaner *c, const char *list, paimon_error *err);

/* Adds to `skip` the manifest lists, manifests, index manifest, index files and statistics
 * of `snap` (manifestSkippingSet).  With `tolerate_missing` (ChangelogDeletion's variant) a
 * list or index manifest that is gone is left out; otherwise it is an error. */
PM_MUST_CHECK int pm_expire_skip_snapshot(pm_expire_cleaner *c, const pm_snapshot *snap,
                                          bool tolerate_missing, pm_bytes_map *skip,
                                          paimon_error *err);

/* The tags in [begin, end) for the skipping set (ExpireSnapshotsImpl.findSkippingTags):
 * indices [*left, *right] of c->tags; *right < *left when none. */
void pm_expire_skipping_tags(const pm_expire_cleaner *c, int64_t begin, int64_t end, long *left,
                             long *right);

/* cleanUnusedManifestList: removes the manifests of `list` not in `skip` (adding them to
 * it), then the list itself unless it is in `skip`. */
PM_MUST_CHECK int pm_expire_clean_manifest_list(pm_expire_cleaner *c, const char *list,
                                                pm_bytes_map *skip, paimon_error *err);

/* cleanUnusedIndexManifests and cleanUnusedStatisticsManifests of `snap`. */
PM_MUST_CHECK int pm_expire_clean_index_and_stats(pm_expire_cleaner *c, const pm_snapshot *snap,
                                                  pm_bytes_map *skip, paimon_error *err);

/* Removes the bucket directories files were removed from when empty, and then their empty
 * partition directories (snapshot.clean-empty-directories). */
PM_MUST_CHECK int pm_expire_clean_empty_dirs(pm_expire_cleaner *c, paimon_error *err);

/* The smallest nextSnapshot of the table's consumers; *found false without any. */
PM_MUST_CHECK int pm_expire_min_next_snapshot(pm_fs *fs, const char *table, int64_t *min,
                                              bool *found, paimon_error *err);

/* Whether manifest-list or manifest `name` is in `skip`. */
bool pm_expire_skipped(const pm_bytes_map *skip, const char *name);

#endif /* PM_TABLE_EXPIRE_FILES_H */

/*
 * Orphan file removal (behaviour.md §8.5), as Java 1.4.2's LocalOrphanFilesClean does it:
 * every file of the table's data, manifest, index and statistics directories that no
 * snapshot, tag or long-lived changelog references, and every file of snapshot/ and
 * changelog/ that is not a snapshot (changelog) file or a hint, is deleted when it was last
 * modified before now - older_than (default one day: a commit in progress writes its files
 * before the snapshot that names them).
 *
 * What it finds besides Java's list: the hidden temporary files `.<name>.<uuid>.tmp` that a
 * killed paimon-c process leaves in schema/, tag/ and consumer/ (its atomic writes go
 * through them; in snapshot/ they are already non-snapshot files).
 *
 * Safety: the references are read first, and any snapshot, tag or changelog file (or a
 * manifest they name) that cannot be read aborts the sweep before anything is deleted; a
 * snapshot or tag that disappears while being read (expiration, rollback) is skipped, as
 * Java skips it.  Data directories are found by walking the partition directories (names
 * with '=') down to `bucket-*` directories under the table (or its
 * data-file.path-directory), and the same way under each root of data-file.external-paths
 * that is on the local file system (`file:` URIs; roots elsewhere are not listed), as Java
 * lists them.  A bucket or partition directory below a data root that the sweep emptied
 * (or found empty and older than the cutoff) is removed afterwards, with the file system's
 * non-recursive remove, as Java does; it is reported through on_file with a trailing '/'
 * and size 0, and counted in `*count`.  Other directories are never deleted.  Tables with branches are refused (their
 * references are not read): PAIMON_EUNSUPPORTED.
 *
 * A failed deletion does not stop the sweep; the first failure is returned after it, and
 * a rerun finishes the job.
 */
#ifndef PM_TABLE_ORPHANS_H
#define PM_TABLE_ORPHANS_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "util/error.h"

typedef struct pm_orphan_args {
    int64_t older_than_ms; /* files modified before now - this are candidates (>= 0) */
    bool dry_run;          /* report, delete nothing */
    /* Called for each orphan deleted (or that would be); may be NULL. */
    void (*on_file)(void *ctx, const char *path, uint64_t size);
    void *ctx;
} pm_orphan_args;

/* Sweeps `table`.  `*count` and `*bytes` (may be NULL) receive the files and directories
 * deleted (or found, in a dry run) and the files' total size. */
PM_MUST_CHECK int pm_table_remove_orphans(pm_fs *fs, const char *table, const pm_orphan_args *args,
                                          uint64_t *count, uint64_t *bytes, paimon_error *err);

#endif /* PM_TABLE_ORPHANS_H */

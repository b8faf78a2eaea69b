/*
 * Snapshot expiration, the decoupled changelog lifecycle and consumer expiration
 * (behaviour.md §8.1, §8.2, §7.5), as Java Paimon 1.4.2's ExpireSnapshotsImpl,
 * ExpireChangelogImpl and ConsumerManager.expire do them.
 *
 * The window (pm_expire_snapshots):
 *
 *   min          = max(latest - retainMax + 1, earliest)
 *   maxExclusive = min(latest - retainMin + 1, min consumer nextSnapshot (unless
 *                  consumer.changelog-only), earliest + maxDeletes)
 *   end          = the first id in [min, maxExclusive) committed at or after now -
 *                  timeRetained, else maxExclusive; snapshots [earliest, end) expire.
 *
 * The deletion order never leaves a retained snapshot or tag without a file it names:
 *
 *   1. data files: for each snapshot s in (begin, end], the DELETE entries of its delta
 *      manifests not re-ADDed there (an upgrade) and not in the nearest tag before s, with
 *      their extra files; with changelog.* decoupled and changelog-producer none, APPEND
 *      files stay (they are the changelog);
 *   2. changelog files (not decoupled): the ADD entries of the changelog manifests of
 *      [begin, end);
 *   3. (snapshot `end` must still exist, else stop here) manifests, manifest lists, index
 *      manifests, index files and statistics of [begin, end) that neither `end` nor a tag in
 *      the range names (decoupled: the changelog manifest lists stay, and with producer
 *      none the base and delta lists too);
 *   4. the snapshot files of [begin, end), each first copied to `changelog/changelog-<id>`
 *      when decoupled;
 *   5. the EARLIEST hint = end.
 *
 * Every path comes from pm_file_path_resolve (meta/file_path.h), so nothing outside the
 * table (or its data-file.external-paths) is ever removed.  A file already gone is fine,
 * so a rerun after a crash at any point finishes the job: the range is recomputed from the
 * snapshots that still exist, and a manifest list or manifest that an earlier run removed
 * means its files were handled.  Unlike Java, which logs and goes on, any other failure
 * (an I/O error, a corrupt manifest) stops the run before snapshot files are removed and
 * is returned: Java's way would leave the files for orphan removal, this way the next run
 * removes them.
 *
 * Thread safety: none needed; concurrent expirations of one table are safe in the sense
 * Java's are (each only removes what no retained snapshot names).
 */
#ifndef PM_TABLE_EXPIRE_H
#define PM_TABLE_EXPIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "meta/options.h"
#include "util/error.h"

/* Java's ExpireConfig. */
typedef struct pm_expire_config {
    int64_t retain_min;           /* snapshot.num-retained.min (>= 1) */
    int64_t retain_max;           /* snapshot.num-retained.max */
    int64_t time_retained_ms;     /* snapshot.time-retained */
    int64_t max_deletes;          /* snapshot.expire.limit */
    int64_t cl_retain_min;        /* changelog.num-retained.min (default: the snapshot one) */
    int64_t cl_retain_max;        /* changelog.num-retained.max */
    int64_t cl_time_retained_ms;  /* changelog.time-retained */
    bool changelog_decoupled;     /* any changelog value above the snapshot one */
    bool consumer_changelog_only; /* consumer.changelog-only && decoupled */
    bool clean_empty_dirs;        /* snapshot.clean-empty-directories */
    int64_t now_ms;               /* the clock (epoch ms) the time windows compare with */
} pm_expire_config;

/* What an expiration did (or, dry, would do). */
typedef struct pm_expire_result {
    int64_t snapshots;  /* snapshot files removed */
    int64_t changelogs; /* long-lived changelog files removed */
    int64_t files;      /* data, changelog, index, manifest and statistics files removed */
    int64_t begin, end; /* the snapshot range [begin, end) expired; equal when none */
} pm_expire_result;

/* The config of the table options `o` at time `now_ms`, as CoreOptions.expireConfig builds
 * it.  PAIMON_EINVALID for a malformed value. */
PM_MUST_CHECK int pm_expire_config_from_options(const pm_options *o, int64_t now_ms,
                                                pm_expire_config *c, paimon_error *err);

/* Expires snapshots of `table` as described above; with `dry_run` removes nothing and counts
 * what would go.  PAIMON_EINVALID when retain_max < retain_min (Java's check) or retain_min <
 * 1.  `*res` (may be NULL) is filled also on failure, with what was done before it. */
PM_MUST_CHECK int pm_expire_snapshots(pm_fs *fs, const char *table, const pm_expire_config *c,
                                      bool dry_run, pm_expire_result *res, paimon_error *err);

/* The separate expiration of long-lived changelogs (ExpireChangelogImpl.expire) with the
 * cl_* values; adds to `*res` (may be NULL). */
PM_MUST_CHECK int pm_expire_changelogs(pm_fs *fs, const char *table, const pm_expire_config *c,
                                       bool dry_run, pm_expire_result *res, paimon_error *err);

/* Removes the consumer files last modified before now_ms - expiration_ms
 * (ConsumerManager.expire); `*removed` (may be NULL) counts them. */
PM_MUST_CHECK int pm_expire_consumers(pm_fs *fs, const char *table, int64_t now_ms,
                                      int64_t expiration_ms, int64_t *removed, paimon_error *err);

/* The upkeep steps of table/maintain.c, reading the latest schema's options. */

/* Step 1: consumer expiration when consumer.expiration-time is set. */
PM_MUST_CHECK int pm_expire_consumers_step(pm_fs *fs, const char *table, paimon_error *err);
/* Step 2: snapshot expiration, then changelog expiration when decoupled.
 * snapshot.expire.execution-mode async runs synchronously (see README). */
PM_MUST_CHECK int pm_expire_step(pm_fs *fs, const char *table, paimon_error *err);

#endif /* PM_TABLE_EXPIRE_H */

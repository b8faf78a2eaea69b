/*
 * Snapshots: `snapshot/snapshot-<id>` files (metadata.md §4), the LATEST and EARLIEST hint
 * files (§14.3–14.4), tags (`tag/tag-<name>`) and consumers (`consumer/consumer-<id>`).
 *
 * Reading accepts every shape Java wrote from 0.8 to 2.0: null or missing changelog fields,
 * `logOffsets`, missing record counts and manifest-list sizes, 2.0's `uuid`, HEAD's
 * `writerVersion`/`operation`; unknown keys are ignored (Java ignores them too).  Writing
 * produces exactly the 1.4.2 shape: no logOffsets or uuid, optional fields omitted when
 * absent, nextRowId always.
 *
 * Finding snapshots follows Java's SnapshotManager, made robust: the hints are only hints.
 * LATEST is trusted when it parses, names an existing snapshot and no snapshot-(hint+1)
 * exists; otherwise the directory is listed.  Ids need not start at 1 (expiration).
 *
 * Thread safety: a pm_snapshot is immutable after construction.
 */
#ifndef PM_META_SNAPSHOT_H
#define PM_META_SNAPSHOT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/fs.h"
#include "meta/options.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_SNAPSHOT_VERSION 3
#define PM_ABSENT           (-1)      /* an optional size a file does not carry (sizes are >= 0) */
#define PM_ABSENT_COUNT     INT64_MIN /* an optional record count a file does not carry */

typedef enum pm_commit_kind {
    PM_COMMIT_APPEND,
    PM_COMMIT_COMPACT,
    PM_COMMIT_OVERWRITE,
    PM_COMMIT_ANALYZE,
    PM_COMMIT_UNKNOWN /* a kind newer than this library: readable, never written */
} pm_commit_kind;

typedef struct pm_snapshot {
    int32_t version;
    int64_t id;
    int64_t schema_id;
    char *base_manifest_list;
    int64_t base_manifest_list_size; /* PM_ABSENT before 1.1 */
    char *delta_manifest_list;
    int64_t delta_manifest_list_size;     /* PM_ABSENT before 1.1 */
    char *changelog_manifest_list;        /* NULL when absent */
    int64_t changelog_manifest_list_size; /* PM_ABSENT when absent */
    char *index_manifest;                 /* NULL when absent */
    char *commit_user;
    int64_t commit_identifier;
    pm_commit_kind commit_kind;
    char *commit_kind_name; /* as written (for PM_COMMIT_UNKNOWN) */
    int64_t time_millis;
    int64_t total_record_count;     /* PM_ABSENT_COUNT when null/absent (old files) */
    int64_t delta_record_count;     /* PM_ABSENT_COUNT when null/absent; may be negative */
    int64_t changelog_record_count; /* PM_ABSENT_COUNT when absent */
    bool has_watermark;
    int64_t watermark;
    char *statistics;      /* NULL when absent */
    pm_options properties; /* empty when absent */
    bool has_next_row_id;
    int64_t next_row_id;
    json_t *json; /* the parsed file, for faithful display; NULL for built snapshots */
} pm_snapshot;

void pm_snapshot_free(pm_snapshot *s);
const char *pm_commit_kind_name(pm_commit_kind kind);

/* Parses snapshot JSON (also the snapshot part of a tag file).  `what` names the file. */
PM_MUST_CHECK int pm_snapshot_parse(const uint8_t *data, size_t len, const char *what,
                                    pm_snapshot **out, paimon_error *err);

/* The JSON object in Java 1.4.2's shape (caller owns the reference), or NULL (no memory). */
json_t *pm_snapshot_to_json(const pm_snapshot *s);
/* Appends the 1.4.2 shape, Jackson-pretty-printed. */
int pm_snapshot_write_json(const pm_snapshot *s, pm_buf *out);

/* ---- files ----------------------------------------------------------------------------- */

char *pm_snapshot_path(const char *table, int64_t id);

/* Ids of every snapshot file, ascending (the directory listing; hints are not used). */
PM_MUST_CHECK int pm_snapshot_list_ids(pm_fs *fs, const char *table, int64_t **ids, size_t *count,
                                       paimon_error *err);

/* The latest snapshot id; 0 and *found=false when the table has no snapshot. */
PM_MUST_CHECK int pm_snapshot_latest_id(pm_fs *fs, const char *table, int64_t *id, bool *found,
                                        paimon_error *err);
/* The latest snapshot, read: LATEST's snapshot is read directly (a missing hint or
 * snapshot falls back to listing the directory).  With `probe` the hint must also be
 * current (snapshot-(hint+1) absent, one file check), as pm_snapshot_latest_id demands:
 * 3 requests on S3 instead of 5 for the id and the read.  Without, the hint is trusted: for
 * a caller that finds out anyway, as a commit does when its create-if-absent of
 * snapshot-(N+1) fails (issue 14).  *out NULL and *found false when there is none. */
PM_MUST_CHECK int pm_snapshot_read_latest(pm_fs *fs, const char *table, bool probe,
                                          pm_snapshot **out, bool *found, paimon_error *err);
/* The earliest snapshot id; *found=false when there is none. */
PM_MUST_CHECK int pm_snapshot_earliest_id(pm_fs *fs, const char *table, int64_t *id, bool *found,
                                          paimon_error *err);

/* Reads snapshot `id`; PAIMON_ENOTFOUND when it does not exist. */
PM_MUST_CHECK int pm_snapshot_read(pm_fs *fs, const char *table, int64_t id, pm_snapshot **out,
                                   paimon_error *err);

/* Publishes `s` as snapshot-<s->id> with the create-if-absent protocol (DESIGN.md
 * invariant 1): PAIMON_EEXISTS when another commit took the id. */
PM_MUST_CHECK int pm_snapshot_commit(pm_fs *fs, const char *table, const pm_snapshot *s,
                                     paimon_error *err);

/* Overwrites the LATEST or EARLIEST hint with the decimal id (no newline). */
PM_MUST_CHECK int pm_snapshot_write_hint(pm_fs *fs, const char *table, const char *hint, int64_t id,
                                         paimon_error *err);

/* ---- tags and consumers ---------------------------------------------------------------- */

typedef struct pm_tag {
    char *name;
    pm_snapshot *snapshot;
    json_t *create_time;   /* tagCreateTime as written ([y, M, d, h, m, s, nanos]), or NULL */
    json_t *time_retained; /* tagTimeRetained as written, or NULL */
} pm_tag;

void pm_tag_free(pm_tag *t);
PM_MUST_CHECK int pm_tag_list(pm_fs *fs, const char *table, pm_strlist *names, paimon_error *err);
PM_MUST_CHECK int pm_tag_read(pm_fs *fs, const char *table, const char *name, pm_tag **out,
                              paimon_error *err);
/* Writes tag-<name> (create-if-absent): the snapshot's JSON plus the tag fields. */
PM_MUST_CHECK int pm_tag_write(pm_fs *fs, const char *table, const pm_tag *tag, paimon_error *err);

PM_MUST_CHECK int pm_consumer_list(pm_fs *fs, const char *table, pm_strlist *ids,
                                   paimon_error *err);
PM_MUST_CHECK int pm_consumer_read(pm_fs *fs, const char *table, const char *id,
                                   int64_t *next_snapshot, paimon_error *err);
/* Overwrites consumer-<id> with {"nextSnapshot" : N}. */
PM_MUST_CHECK int pm_consumer_write(pm_fs *fs, const char *table, const char *id,
                                    int64_t next_snapshot, paimon_error *err);

#endif /* PM_META_SNAPSHOT_H */

/*
 * paimon-c: metadata inspection.  What `paimon inspect` prints, as data: the snapshots,
 * schemas and options of a table, the manifests of a snapshot and its live data files
 * (the ADD entries left after folding the base and delta manifest lists, as Java's scan
 * does).
 *
 * Each paimon_table_<kind>() call returns a list; entries are borrowed from the list and
 * valid until paimon_list_free().  Strings are UTF-8 and NUL-terminated; JSON fragments are
 * compact JSON.  Sizes, ids and counts that a file may omit are -1 when absent, record
 * counts (which may be negative in a delta) PAIMON_ABSENT_COUNT.
 *
 * Thread safety: a list is immutable and may be read from any thread.
 */
#ifndef PAIMON_INSPECT_H
#define PAIMON_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "paimon/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Use the latest snapshot. */
#define PAIMON_LATEST_SNAPSHOT (-1)

/* A bucket or level the metadata does not carry (INT32_MIN; buckets may be -2). */
#define PAIMON_ABSENT_INT (-2147483647 - 1)

/* A record count the metadata does not carry (INT64_MIN). */
#define PAIMON_ABSENT_COUNT (-9223372036854775807LL - 1)

typedef struct paimon_list paimon_list;

/* Number of entries. */
PAIMON_API size_t paimon_list_count(const paimon_list *list);
/* Releases the list and everything borrowed from it.  NULL is allowed. */
PAIMON_API void paimon_list_free(paimon_list *list);

/* ---- snapshots ------------------------------------------------------------------------- */

typedef struct paimon_snapshot_info {
    int64_t id;
    int64_t schema_id;
    const char *commit_kind; /* APPEND, COMPACT, OVERWRITE, ANALYZE */
    const char *commit_user;
    int64_t commit_identifier;
    int64_t time_millis;            /* commit time, epoch milliseconds UTC */
    int64_t total_record_count;     /* -1 when absent (older snapshots) */
    int64_t delta_record_count;     /* -1 when absent */
    int64_t changelog_record_count; /* -1 when absent */
    int64_t watermark;              /* INT64_MIN when absent */
    const char *base_manifest_list;
    const char *delta_manifest_list;
    const char *changelog_manifest_list; /* NULL when absent */
    const char *index_manifest;          /* NULL when absent */
    const char *json;                    /* every field of the file, Java's names and order */
    const char *unreadable; /* NULL; or why the file cannot be read (damaged, unreadable):
                               then only `id` is set, the other fields are 0 or NULL */
} paimon_snapshot_info;

/* All snapshots, oldest first.  A table without snapshots gives an empty list.  A snapshot
 * file that is damaged or cannot be read is listed with `unreadable` saying why, so that one
 * bad file hides none of the others. */
PAIMON_API int paimon_table_snapshots(paimon_table *table, paimon_list **out, paimon_error *err);
PAIMON_API const paimon_snapshot_info *paimon_list_snapshot(const paimon_list *list, size_t i);

/* ---- schemas --------------------------------------------------------------------------- */

typedef struct paimon_schema_info {
    int64_t id;
    int64_t time_millis; /* 0 when absent */
    int32_t highest_field_id;
    size_t field_count;
    const char *columns;        /* "id BIGINT NOT NULL, name STRING" (the COLUMNS syntax) */
    const char *partition_keys; /* comma-separated, "" when none */
    const char *primary_keys;   /* comma-separated, "" when none */
    size_t option_count;
    const char *comment; /* NULL when absent */
    const char *json;    /* the schema file as compact JSON */
} paimon_schema_info;

/* All schemas, lowest id first. */
PAIMON_API int paimon_table_schemas(paimon_table *table, paimon_list **out, paimon_error *err);
PAIMON_API const paimon_schema_info *paimon_list_schema(const paimon_list *list, size_t i);

/* ---- options --------------------------------------------------------------------------- */

typedef struct paimon_option_info {
    const char *key;
    const char *value;
} paimon_option_info;

/* The options of the schema of snapshot `snapshot_id` (PAIMON_LATEST_SNAPSHOT: the latest
 * schema), sorted by key. */
PAIMON_API int paimon_table_options(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                    paimon_error *err);
PAIMON_API const paimon_option_info *paimon_list_option(const paimon_list *list, size_t i);

/* ---- manifests ------------------------------------------------------------------------- */

typedef struct paimon_manifest_info {
    const char *list_kind; /* "base", "delta" or "changelog" */
    const char *file_name;
    int64_t file_size;
    int64_t num_added_files;
    int64_t num_deleted_files;
    int64_t schema_id;
    int32_t min_bucket, max_bucket; /* PAIMON_ABSENT_INT when absent (before Paimon 1.1) */
    int32_t min_level, max_level;   /* PAIMON_ABSENT_INT when absent */
    const char *partition_min;      /* canonical JSON object of partition column values, or NULL */
    const char *partition_max;      /* (NULL for unpartitioned tables) */
} paimon_manifest_info;

/* The manifests of the base, delta and changelog lists of a snapshot. */
PAIMON_API int paimon_table_manifests(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                      paimon_error *err);
PAIMON_API const paimon_manifest_info *paimon_list_manifest(const paimon_list *list, size_t i);

/* ---- live data files ------------------------------------------------------------------- */

typedef struct paimon_file_info {
    const char *partition;      /* canonical JSON object, e.g. {"dt":"2026-04-19"}; {} if none */
    const char *partition_path; /* directory as Java computes it, e.g. "dt=20562/"; "" if none */
    int32_t bucket;
    int32_t total_buckets;
    int32_t level;
    const char *file_name;
    int64_t row_count;
    int64_t file_size;
    int64_t min_sequence_number;
    int64_t max_sequence_number;
    int64_t schema_id;
    int64_t delete_row_count;  /* -1 when absent */
    int64_t creation_time;     /* writer's local wall clock as epoch ms; INT64_MIN if absent */
    int32_t file_source;       /* 0 APPEND, 1 COMPACT, -1 absent */
    const char *external_path; /* NULL unless the file lives outside the table */
    const char *path;          /* full path of the data file */
} paimon_file_info;

/* The live data files of a snapshot, sorted by partition, bucket, level and file name. */
PAIMON_API int paimon_table_files(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                  paimon_error *err);
PAIMON_API const paimon_file_info *paimon_list_file(const paimon_list *list, size_t i);

/* ---- the shape of a table: buckets, commits, deletion vectors, health -------------------
 *
 * What `paimon inspect TABLE health` and `--html` show, as data (issue 18).  Added in the
 * library version that has PAIMON_HAS_TABLE_HEALTH; the structs are only ever read through
 * the list accessors, so later versions may append fields. */
#define PAIMON_HAS_TABLE_HEALTH 1

/* The limits the health checks compare with: the table's options, or Java 1.4.2's
 * defaults where the options leave them unset. */
typedef struct paimon_health_limits {
    bool primary_key;           /* a primary-key table (its buckets merge sorted runs) */
    int64_t target_file_size;   /* target-file-size (Java: 128 MB with a key, else 256 MB) */
    int64_t small_file_size;    /* files below it are small: target / 10 * 7, as Java's
                                   compactionFileSize picks the files a compaction joins */
    int64_t compaction_trigger; /* num-sorted-run.compaction-trigger */
    int64_t stop_trigger;       /* num-sorted-run.stop-trigger (Java: trigger + 3) */
    int64_t min_file_num;       /* compaction.min.file-num */
    int32_t num_levels;         /* num-levels (Java: trigger + 1) */
    int64_t retain_min;         /* snapshot.num-retained.min */
    int64_t retain_max;         /* snapshot.num-retained.max */
    int64_t time_retained_ms;   /* snapshot.time-retained */
    int64_t now_millis;         /* the clock the retention window was computed with */
    int64_t expire_before;      /* snapshots below this id are beyond retention (expire would
                                   remove them, consumers permitting); 0 when none */
} paimon_health_limits;

/* The limits of the latest schema. */
PAIMON_API int paimon_table_health_limits(paimon_table *table, paimon_health_limits *out,
                                          paimon_error *err);

/* One partition and bucket of a snapshot: the LSM a batch read of it merges. */
typedef struct paimon_bucket_info {
    const char *partition;      /* canonical JSON object; {} if none */
    const char *partition_path; /* "dt=20562/"; "" if none */
    int32_t bucket;
    int64_t file_count;
    int64_t row_count;
    int64_t file_size;    /* bytes of its data files */
    int32_t max_level;    /* the highest level holding a file */
    int64_t level0_files; /* files at level 0 */
    int64_t levels_used;  /* levels above 0 holding files */
    int64_t sorted_runs;  /* level0_files + levels_used: the runs a read merges (read
                              amplification; 1 per file for a table without primary key,
                              whose reads concatenate instead) */
    int64_t small_files;  /* files below paimon_health_limits.small_file_size */
    int64_t deleted_rows; /* rows its deletion vectors mark deleted */
} paimon_bucket_info;

/* The buckets of snapshot `snapshot_id` holding live files, sorted by partition and
 * bucket. */
PAIMON_API int paimon_table_buckets(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                    paimon_error *err);
PAIMON_API const paimon_bucket_info *paimon_list_bucket(const paimon_list *list, size_t i);

/* What one snapshot's commit changed: the entries of its delta and changelog manifests. */
typedef struct paimon_commit_info {
    int64_t snapshot_id;
    const char *commit_kind; /* APPEND, COMPACT, OVERWRITE, ANALYZE */
    int64_t time_millis;
    int64_t files_added, files_deleted; /* data files ADDed and DELETEd */
    int64_t rows_added, rows_deleted;   /* their row counts */
    int64_t bytes_added, bytes_deleted; /* their sizes */
    int64_t changelog_files, changelog_rows;
    const char *unreadable; /* NULL; or why the snapshot or a manifest cannot be read */
} paimon_commit_info;

/* One entry per snapshot, oldest first (a damaged one says why in `unreadable`). */
PAIMON_API int paimon_table_commits(paimon_table *table, paimon_list **out, paimon_error *err);
PAIMON_API const paimon_commit_info *paimon_list_commit(const paimon_list *list, size_t i);

/* One data file's deletion vector in a snapshot's index manifest. */
typedef struct paimon_dv_info {
    const char *partition; /* canonical JSON object; {} if none */
    int32_t bucket;
    const char *data_file;
    int64_t cardinality; /* rows marked deleted; -1 when the index does not record it */
} paimon_dv_info;

/* The deletion vectors of snapshot `snapshot_id` (empty without an index manifest). */
PAIMON_API int paimon_table_deletion_vectors(paimon_table *table, int64_t snapshot_id,
                                             paimon_list **out, paimon_error *err);
PAIMON_API const paimon_dv_info *paimon_list_dv(const paimon_list *list, size_t i);

/* One finding about the latest snapshot, with the command that fixes it. */
typedef struct paimon_health_item {
    const char *check;     /* "sorted-runs", "small-files", "consumer-pinning",
                              "expire-pending", "deletion-vectors" */
    const char *severity;  /* "warning", or "critical" (writes are stalled or data pinned) */
    const char *partition; /* canonical JSON object, or NULL for the whole table */
    int32_t bucket;        /* PAIMON_ABSENT_INT unless the item is about one bucket */
    const char *subject;   /* the consumer id (consumer-pinning), else NULL */
    int64_t value;         /* what was measured ... */
    int64_t limit;         /* ... and the limit it passed */
    const char *message;   /* one line for a person */
    const char *fix;       /* a `paimon` command line that fixes it */
} paimon_health_item;

/* The health items of the table, most severe first; an empty list is a healthy table. */
PAIMON_API int paimon_table_health(paimon_table *table, paimon_list **out, paimon_error *err);
PAIMON_API const paimon_health_item *paimon_list_health(const paimon_list *list, size_t i);

/* Java 1.4.2's default of table option `key` as text ("128 mb", "5"), or NULL when it has
 * none or the key is unknown (*known says which; may be NULL).  Borrowed (static). */
PAIMON_API const char *paimon_option_java_default(const char *key, bool *known);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_INSPECT_H */

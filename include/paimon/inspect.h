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

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_INSPECT_H */

/*
 * Manifests (metadata.md §5–§9): manifest lists (ManifestFileMeta), data manifests
 * (ManifestEntry with DataFileMeta) and index manifests (IndexManifestEntry), stored as Avro
 * container files under `manifest/`.
 *
 * Reading accepts every version Java wrote (0.8 to 2.0; fields resolved by name, missing
 * nullable fields null, pre-0.9 ["null", record] unions) and checks the `_VERSION` format
 * identifier (2 for manifest lists and data manifests, 1 for index manifests).  Writing
 * produces exactly the Java 1.4.2 schemas: 12-field manifest-list records, 20-field `_FILE`,
 * the 10-field index manifest with its 5-field `_GLOBAL_INDEX`.
 *
 * Tables with manifest.format=orc keep these files as ORC (§9A); readers pick the decoder
 * by the file's magic bytes ("Obj\x01" Avro, "ORC" ORC) and return the same structs
 * (manifest_orc.h).
 *
 * Decoded records live in the caller's arena (strings, arrays, and the decompressed blocks
 * that BYTES fields point into): free the arena to free them.
 */
#ifndef PM_META_MANIFEST_H
#define PM_META_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/avro/avro_record.h"
#include "io/fs.h"
#include "util/arena.h"
#include "util/error.h"

#define PM_MANIFEST_LIST_VERSION  2
#define PM_MANIFEST_VERSION       2
#define PM_INDEX_MANIFEST_VERSION 1

#define PM_FILE_KIND_ADD    0
#define PM_FILE_KIND_DELETE 1

/* SimpleStats: min/max as serialized BinaryRows, one null count per stats column. */
typedef struct pm_simple_stats {
    pm_avro_bytes min_values;
    pm_avro_bytes max_values;
    pm_avro_array null_counts; /* int64_t; PM_AVRO_NULL_LONG = unknown; !present = null */
} pm_simple_stats;

/* DataFileMeta (`_FILE`), metadata.md §7.3. */
typedef struct pm_data_file_meta {
    const char *file_name;
    int64_t file_size;
    int64_t row_count;
    pm_avro_bytes min_key;
    pm_avro_bytes max_key;
    pm_simple_stats key_stats;
    pm_simple_stats value_stats;
    int64_t min_sequence_number;
    int64_t max_sequence_number;
    int64_t schema_id;
    int32_t level;
    pm_avro_array extra_files; /* const char * */
    int64_t creation_time;     /* writer's local wall clock as epoch ms */
    bool has_creation_time;
    int64_t delete_row_count;
    bool has_delete_row_count;
    pm_avro_bytes embedded_file_index; /* ptr NULL when null */
    int32_t file_source;               /* 0 APPEND, 1 COMPACT */
    bool has_file_source;
    pm_avro_array value_stats_cols; /* const char *; !present = all columns */
    const char *external_path;      /* NULL when the file is in the table */
    int64_t first_row_id;
    bool has_first_row_id;
    pm_avro_array write_cols; /* const char *; !present when null */
} pm_data_file_meta;

/* ManifestEntry, metadata.md §7.2. */
typedef struct pm_manifest_entry {
    int32_t version; /* _VERSION */
    int32_t kind;    /* PM_FILE_KIND_ADD or PM_FILE_KIND_DELETE */
    pm_avro_bytes partition;
    int32_t bucket;
    int32_t total_buckets;
    pm_data_file_meta file;
} pm_manifest_entry;

/* ManifestFileMeta (a manifest-list record), metadata.md §6. */
typedef struct pm_manifest_file_meta {
    int32_t version;
    const char *file_name;
    int64_t file_size;
    int64_t num_added_files;
    int64_t num_deleted_files;
    pm_simple_stats partition_stats;
    int64_t schema_id;
    int32_t min_bucket, max_bucket, min_level, max_level;
    bool has_min_bucket, has_max_bucket, has_min_level, has_max_level;
    int64_t min_row_id, max_row_id;
    bool has_min_row_id, has_max_row_id;
} pm_manifest_file_meta;

/* One deletion vector inside a DELETION_VECTORS index file. */
typedef struct pm_dv_range {
    const char *data_file; /* f0 */
    int32_t offset;        /* f1: position of the size prefix */
    int32_t length;        /* f2 */
    int64_t cardinality;
    bool has_cardinality;
} pm_dv_range;

typedef struct pm_global_index_meta {
    int64_t row_range_start;
    int64_t row_range_end;
    int32_t index_field_id;
    pm_avro_array extra_field_ids; /* int32_t */
    pm_avro_bytes index_meta;
} pm_global_index_meta;

/* IndexManifestEntry, metadata.md §9.1. */
typedef struct pm_index_manifest_entry {
    int32_t version;
    int32_t kind;
    pm_avro_bytes partition;
    int32_t bucket;
    const char *index_type; /* "HASH", "DELETION_VECTORS", ... */
    const char *file_name;
    int64_t file_size;
    int64_t row_count;
    pm_avro_array dv_ranges; /* pm_dv_range; !present when null */
    const char *external_path;
    pm_global_index_meta global_index;
    bool has_global_index;
} pm_index_manifest_entry;

extern const pm_avro_rdesc PM_MANIFEST_FILE_META_DESC;
extern const pm_avro_rdesc PM_MANIFEST_ENTRY_DESC;
extern const pm_avro_rdesc PM_INDEX_MANIFEST_ENTRY_DESC;

/* ---- reading --------------------------------------------------------------------------- */

/* Reads manifest/<name>.  `expected_size` (>= 0) is the size metadata records for the file
 * and must match (DESIGN.md invariant 3); -1 skips the check.  The records and everything
 * they point to live in `arena`.  Caller owns `*out` only through the arena. */
PM_MUST_CHECK int pm_manifest_list_read(pm_fs *fs, const char *table, const char *name,
                                        int64_t expected_size, pm_arena *arena,
                                        pm_manifest_file_meta **out, size_t *count,
                                        paimon_error *err);
PM_MUST_CHECK int pm_manifest_read(pm_fs *fs, const char *table, const char *name,
                                   int64_t expected_size, pm_arena *arena, pm_manifest_entry **out,
                                   size_t *count, paimon_error *err);
/* Which manifest entries to keep, decided on the entry's _VERSION, _KIND, _PARTITION, _BUCKET
 * and _TOTAL_BUCKETS before its file metadata is decoded (skipped entries cost a skip). */
typedef struct pm_manifest_filter {
    bool (*accept)(void *ctx, const pm_manifest_entry *partial);
    void *ctx;
} pm_manifest_filter;

/* pm_manifest_read keeping only the entries `filter` accepts. */
PM_MUST_CHECK int pm_manifest_read_filtered(pm_fs *fs, const char *table, const char *name,
                                            int64_t expected_size, const pm_manifest_filter *filter,
                                            pm_arena *arena, pm_manifest_entry **out, size_t *count,
                                            paimon_error *err);
PM_MUST_CHECK int pm_index_manifest_read(pm_fs *fs, const char *table, const char *name,
                                         pm_arena *arena, pm_index_manifest_entry **out,
                                         size_t *count, paimon_error *err);

/* Streams the records of an in-memory manifest file one at a time without keeping them:
 * a record is valid until the next call (memory stays flat whatever the file's size).
 * `data` and `what` are borrowed until close. */
typedef struct pm_manifest_orc_reader pm_manifest_orc_reader;

typedef struct pm_manifest_reader {
    pm_avro_file_reader avro;
    pm_manifest_orc_reader *orc; /* ORC files: the reader instead of `avro` */
    pm_arena scratch;            /* strings and arrays of the current record */
    int32_t version;             /* the _VERSION every record must carry */
    size_t count;                /* records returned so far */
} pm_manifest_reader;

PM_MUST_CHECK int pm_manifest_reader_open(pm_manifest_reader *r, const uint8_t *data, size_t len,
                                          const char *what, const pm_avro_rdesc *rd,
                                          int32_t version, paimon_error *err);
/* Decodes the next record into `record` (an rd->size struct); PAIMON_ITEROVER at the end. */
PM_MUST_CHECK int pm_manifest_reader_next(pm_manifest_reader *r, void *record, paimon_error *err);
void pm_manifest_reader_close(pm_manifest_reader *r);

/* Decodes an in-memory Avro or ORC file of records described by `rd` (one of the descriptors
 * above) into an arena array, checking `_VERSION` == `version`.  `what` names the file. */
PM_MUST_CHECK int pm_manifest_decode(const uint8_t *data, size_t len, const char *what,
                                     const pm_avro_rdesc *rd, int32_t version, pm_arena *arena,
                                     void **out, size_t *count, paimon_error *err);

/* pm_manifest_decode of a manifest (entries), keeping only those `filter` accepts. */
PM_MUST_CHECK int pm_manifest_decode_filtered(const uint8_t *data, size_t len, const char *what,
                                              const pm_manifest_filter *filter, pm_arena *arena,
                                              pm_manifest_entry **out, size_t *count,
                                              paimon_error *err);

/* ---- writing --------------------------------------------------------------------------- */

/* Encodes `count` records (an array of rd->size structs) as an Avro file with Java 1.4.2's
 * schema and codec `codec` (an Avro codec name), appending to `out`.  `_VERSION` is taken
 * from the records. */
PM_MUST_CHECK int pm_manifest_encode(const pm_avro_rdesc *rd, const void *records, size_t count,
                                     const char *codec, int level, pm_buf *out, paimon_error *err);

/* Writes manifest/<name> (a new file) and returns its exact size. */
PM_MUST_CHECK int pm_manifest_file_write(pm_fs *fs, const char *table, const char *name,
                                         const pm_avro_rdesc *rd, const void *records, size_t count,
                                         const char *codec, int level, int64_t *size,
                                         paimon_error *err);

/* The manifest file format of a table (option manifest.format, metadata.md §9A.1). */
typedef enum pm_manifest_format { PM_MANIFEST_AVRO = 0, PM_MANIFEST_ORC = 1 } pm_manifest_format;

/* Parses a manifest.format value, case-insensitively: "avro" (also NULL, the default) or
 * "orc"; "parquet" is PAIMON_EUNSUPPORTED, anything else PAIMON_EINVALID. */
PM_MUST_CHECK int pm_manifest_format_parse(const char *value, pm_manifest_format *out,
                                           paimon_error *err);

/* Encodes records in `format`.  `compression` is the Paimon option value
 * (manifest.compression: "zstd", "snappy", "lz4", "zlib"/"deflate", "none"; NULL = zstd),
 * mapped as Java maps it (Avro codec name, or ORC CompressionKind); `level` the zstd level
 * (0 = 1). */
PM_MUST_CHECK int pm_manifest_encode_format(pm_manifest_format format, const pm_avro_rdesc *rd,
                                            const void *records, size_t count,
                                            const char *compression, int level, pm_buf *out,
                                            paimon_error *err);

/* pm_manifest_file_write in `format`: what the commit path calls so that a table with
 * manifest.format=orc gets ORC manifest lists, manifests and index manifests. */
PM_MUST_CHECK int pm_manifest_file_write_format(pm_fs *fs, const char *table, const char *name,
                                                pm_manifest_format format, const pm_avro_rdesc *rd,
                                                const void *records, size_t count,
                                                const char *compression, int level, int64_t *size,
                                                paimon_error *err);

#endif /* PM_META_MANIFEST_H */

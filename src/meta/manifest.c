/*
 * Manifest record descriptors and file I/O: see manifest.h.  The descriptors below are the
 * Java 1.4.2 schemas of metadata.md §6.1, §7.1 and §9.1, field for field and in order; the
 * schema JSON the writer emits is generated from them and checked against Java-written
 * files by tests/unit/meta/test_manifest.c.
 */
#include "meta/manifest.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "meta/file_path.h"
#include "meta/manifest_orc.h"
#include "meta/paths.h"
#include "meta/schema.h"
#include "util/alloc.h"
#include "util/error.h"

#define NO_FLAG            (-1L)
#define FLAG(type, member) ((long)offsetof(type, member))

/* Plain fields. */
#define F(name, type, st, member)                                                                  \
    {                                                                                              \
        name, type, false, offsetof(st, member), NO_FLAG, NULL, 0, false                           \
    }
/* Nullable scalar with a presence flag. */
#define FN(name, type, st, member, flag)                                                           \
    {                                                                                              \
        name, type, true, offsetof(st, member), FLAG(st, flag), NULL, 0, false                     \
    }
/* Nullable string or bytes (NULL pointer = null). */
#define FNP(name, type, st, member)                                                                \
    {                                                                                              \
        name, type, true, offsetof(st, member), NO_FLAG, NULL, 0, false                            \
    }

/* ---- SimpleStats ------------------------------------------------------------------------ */

static const pm_avro_fdesc STATS_FIELDS[] = {
    F("_MIN_VALUES", PM_AF_BYTES, pm_simple_stats, min_values),
    F("_MAX_VALUES", PM_AF_BYTES, pm_simple_stats, max_values),
    {"_NULL_COUNTS", PM_AF_ARRAY, true, offsetof(pm_simple_stats, null_counts), NO_FLAG, NULL,
     PM_AF_LONG, true},
};

/* Java names nested records after their path: record__FILE__KEY_STATS, ... */
static const pm_avro_rdesc PARTITION_STATS_DESC = {"record__PARTITION_STATS",
                                                   sizeof(pm_simple_stats), 3, STATS_FIELDS};
static const pm_avro_rdesc KEY_STATS_DESC = {"record__FILE__KEY_STATS", sizeof(pm_simple_stats), 3,
                                             STATS_FIELDS};
static const pm_avro_rdesc VALUE_STATS_DESC = {"record__FILE__VALUE_STATS", sizeof(pm_simple_stats),
                                               3, STATS_FIELDS};

/* ---- manifest list ---------------------------------------------------------------------- */

#define MF pm_manifest_file_meta
static const pm_avro_fdesc MANIFEST_FILE_META_FIELDS[] = {
    F("_VERSION", PM_AF_INT, MF, version),
    F("_FILE_NAME", PM_AF_STRING, MF, file_name),
    F("_FILE_SIZE", PM_AF_LONG, MF, file_size),
    F("_NUM_ADDED_FILES", PM_AF_LONG, MF, num_added_files),
    F("_NUM_DELETED_FILES", PM_AF_LONG, MF, num_deleted_files),
    {"_PARTITION_STATS", PM_AF_RECORD, false, offsetof(MF, partition_stats), NO_FLAG,
     &PARTITION_STATS_DESC, 0, false},
    F("_SCHEMA_ID", PM_AF_LONG, MF, schema_id),
    FN("_MIN_BUCKET", PM_AF_INT, MF, min_bucket, has_min_bucket),
    FN("_MAX_BUCKET", PM_AF_INT, MF, max_bucket, has_max_bucket),
    FN("_MIN_LEVEL", PM_AF_INT, MF, min_level, has_min_level),
    FN("_MAX_LEVEL", PM_AF_INT, MF, max_level, has_max_level),
    FN("_MIN_ROW_ID", PM_AF_LONG, MF, min_row_id, has_min_row_id),
    FN("_MAX_ROW_ID", PM_AF_LONG, MF, max_row_id, has_max_row_id),
};
#undef MF

const pm_avro_rdesc PM_MANIFEST_FILE_META_DESC = {"record", sizeof(pm_manifest_file_meta),
                                                  sizeof(MANIFEST_FILE_META_FIELDS) /
                                                      sizeof(MANIFEST_FILE_META_FIELDS[0]),
                                                  MANIFEST_FILE_META_FIELDS};

/* ---- manifest --------------------------------------------------------------------------- */

#define DF pm_data_file_meta
static const pm_avro_fdesc DATA_FILE_META_FIELDS[] = {
    F("_FILE_NAME", PM_AF_STRING, DF, file_name),
    F("_FILE_SIZE", PM_AF_LONG, DF, file_size),
    F("_ROW_COUNT", PM_AF_LONG, DF, row_count),
    F("_MIN_KEY", PM_AF_BYTES, DF, min_key),
    F("_MAX_KEY", PM_AF_BYTES, DF, max_key),
    {"_KEY_STATS", PM_AF_RECORD, false, offsetof(DF, key_stats), NO_FLAG, &KEY_STATS_DESC, 0,
     false},
    {"_VALUE_STATS", PM_AF_RECORD, false, offsetof(DF, value_stats), NO_FLAG, &VALUE_STATS_DESC, 0,
     false},
    F("_MIN_SEQUENCE_NUMBER", PM_AF_LONG, DF, min_sequence_number),
    F("_MAX_SEQUENCE_NUMBER", PM_AF_LONG, DF, max_sequence_number),
    F("_SCHEMA_ID", PM_AF_LONG, DF, schema_id),
    F("_LEVEL", PM_AF_INT, DF, level),
    {"_EXTRA_FILES", PM_AF_ARRAY, false, offsetof(DF, extra_files), NO_FLAG, NULL, PM_AF_STRING,
     false},
    FN("_CREATION_TIME", PM_AF_TS_MILLIS, DF, creation_time, has_creation_time),
    FN("_DELETE_ROW_COUNT", PM_AF_LONG, DF, delete_row_count, has_delete_row_count),
    FNP("_EMBEDDED_FILE_INDEX", PM_AF_BYTES, DF, embedded_file_index),
    FN("_FILE_SOURCE", PM_AF_INT, DF, file_source, has_file_source),
    {"_VALUE_STATS_COLS", PM_AF_ARRAY, true, offsetof(DF, value_stats_cols), NO_FLAG, NULL,
     PM_AF_STRING, false},
    FNP("_EXTERNAL_PATH", PM_AF_STRING, DF, external_path),
    FN("_FIRST_ROW_ID", PM_AF_LONG, DF, first_row_id, has_first_row_id),
    {"_WRITE_COLS", PM_AF_ARRAY, true, offsetof(DF, write_cols), NO_FLAG, NULL, PM_AF_STRING,
     false},
};
#undef DF

static const pm_avro_rdesc DATA_FILE_META_DESC = {
    "record__FILE", sizeof(pm_data_file_meta),
    sizeof(DATA_FILE_META_FIELDS) / sizeof(DATA_FILE_META_FIELDS[0]), DATA_FILE_META_FIELDS};

#define ME pm_manifest_entry
static const pm_avro_fdesc MANIFEST_ENTRY_FIELDS[] = {
    F("_VERSION", PM_AF_INT, ME, version),
    F("_KIND", PM_AF_INT, ME, kind),
    F("_PARTITION", PM_AF_BYTES, ME, partition),
    F("_BUCKET", PM_AF_INT, ME, bucket),
    F("_TOTAL_BUCKETS", PM_AF_INT, ME, total_buckets),
    {"_FILE", PM_AF_RECORD, false, offsetof(ME, file), NO_FLAG, &DATA_FILE_META_DESC, 0, false},
};
#undef ME

const pm_avro_rdesc PM_MANIFEST_ENTRY_DESC = {
    "record", sizeof(pm_manifest_entry),
    sizeof(MANIFEST_ENTRY_FIELDS) / sizeof(MANIFEST_ENTRY_FIELDS[0]), MANIFEST_ENTRY_FIELDS};

/* ---- index manifest --------------------------------------------------------------------- */

#define DV pm_dv_range
static const pm_avro_fdesc DV_RANGE_FIELDS[] = {
    F("f0", PM_AF_STRING, DV, data_file),
    F("f1", PM_AF_INT, DV, offset),
    F("f2", PM_AF_INT, DV, length),
    FN("_CARDINALITY", PM_AF_LONG, DV, cardinality, has_cardinality),
};
#undef DV
static const pm_avro_rdesc DV_RANGE_DESC = {"record__DELETIONS_VECTORS_RANGES", sizeof(pm_dv_range),
                                            4, DV_RANGE_FIELDS};

#define GI pm_global_index_meta
static const pm_avro_fdesc GLOBAL_INDEX_FIELDS[] = {
    F("_ROW_RANGE_START", PM_AF_LONG, GI, row_range_start),
    F("_ROW_RANGE_END", PM_AF_LONG, GI, row_range_end),
    F("_INDEX_FIELD_ID", PM_AF_INT, GI, index_field_id),
    {"_EXTRA_FIELD_IDS", PM_AF_ARRAY, true, offsetof(GI, extra_field_ids), NO_FLAG, NULL, PM_AF_INT,
     false},
    FNP("_INDEX_META", PM_AF_BYTES, GI, index_meta),
};
#undef GI
static const pm_avro_rdesc GLOBAL_INDEX_DESC = {
    "record__GLOBAL_INDEX", sizeof(pm_global_index_meta), 5, GLOBAL_INDEX_FIELDS};

#define IE pm_index_manifest_entry
static const pm_avro_fdesc INDEX_MANIFEST_ENTRY_FIELDS[] = {
    F("_VERSION", PM_AF_INT, IE, version),
    F("_KIND", PM_AF_INT, IE, kind),
    F("_PARTITION", PM_AF_BYTES, IE, partition),
    F("_BUCKET", PM_AF_INT, IE, bucket),
    F("_INDEX_TYPE", PM_AF_STRING, IE, index_type),
    F("_FILE_NAME", PM_AF_STRING, IE, file_name),
    F("_FILE_SIZE", PM_AF_LONG, IE, file_size),
    F("_ROW_COUNT", PM_AF_LONG, IE, row_count),
    {"_DELETIONS_VECTORS_RANGES", PM_AF_ARRAY, true, offsetof(IE, dv_ranges), NO_FLAG,
     &DV_RANGE_DESC, PM_AF_RECORD, true},
    FNP("_EXTERNAL_PATH", PM_AF_STRING, IE, external_path),
    {"_GLOBAL_INDEX", PM_AF_RECORD, true, offsetof(IE, global_index), FLAG(IE, has_global_index),
     &GLOBAL_INDEX_DESC, 0, false},
};
#undef IE

const pm_avro_rdesc PM_INDEX_MANIFEST_ENTRY_DESC = {"record", sizeof(pm_index_manifest_entry),
                                                    sizeof(INDEX_MANIFEST_ENTRY_FIELDS) /
                                                        sizeof(INDEX_MANIFEST_ENTRY_FIELDS[0]),
                                                    INDEX_MANIFEST_ENTRY_FIELDS};

/* ---- reading ---------------------------------------------------------------------------- */

#define MANIFEST_FILE_MAX ((size_t)2 << 30)

/* Java never sniffs (the table option decides, §9A.1); paimon-c reads either by magic. */
static bool is_orc(const uint8_t *data, size_t len)
{
    return len >= 3 && memcmp(data, PM_ORC_MAGIC, 3) == 0;
}

int pm_manifest_reader_open(pm_manifest_reader *r, const uint8_t *data, size_t len,
                            const char *what, const pm_avro_rdesc *rd, int32_t version,
                            paimon_error *err)
{
    memset(r, 0, sizeof(*r));
    r->version = version;
    r->count = 0;
    pm_arena_init(&r->scratch, 1 << 12);
    if (is_orc(data, len)) {
        r->avro.file.what = what;
        return pm_manifest_orc_reader_open(&r->orc, data, len, what, rd, &r->scratch, false, err);
    }
    return pm_avro_file_open(&r->avro, data, len, what, rd, &r->scratch, false, err);
}

int pm_manifest_reader_next(pm_manifest_reader *r, void *record, paimon_error *err)
{
    int rc = r->orc != NULL ? pm_manifest_orc_reader_next(r->orc, record, err)
                            : pm_avro_file_next(&r->avro, record, err);
    if (rc != 0)
        return rc;
    /* Every record of these schemas starts with the int32 _VERSION field. */
    if (*(const int32_t *)record != r->version)
        return pm_corrupt(err, "%s: record %zu has _VERSION %d, expected %d", r->avro.file.what,
                          r->count, *(const int32_t *)record, r->version);
    r->count++;
    return 0;
}

void pm_manifest_reader_close(pm_manifest_reader *r)
{
    if (r->orc != NULL)
        pm_manifest_orc_reader_close(r->orc);
    else
        pm_avro_file_close(&r->avro);
    r->orc = NULL;
    pm_arena_free(&r->scratch);
}

/* Decodes every record of an ORC manifest (decode()'s ORC half).  ORC columns come whole, so
 * a filter sees the complete entry and drops it after decoding. */
PM_MUST_CHECK static int decode_orc(const uint8_t *data, size_t len, const char *what,
                                    const pm_avro_rdesc *rd, int32_t version,
                                    const pm_manifest_filter *filter, pm_arena *arena,
                                    uint8_t **out, size_t *count, size_t *cap_out,
                                    paimon_error *err)
{
    pm_manifest_orc_reader *r = NULL;
    uint8_t *items = NULL;
    size_t n = 0, cap = 0;
    int rc = pm_manifest_orc_reader_open(&r, data, len, what, rd, arena, true, err);
    while (rc == 0) {
        if (n == cap) {
            size_t new_cap = cap == 0 ? 64 : cap * 2;
            uint8_t *grown = pm_realloc(items, new_cap * rd->size);
            if (grown == NULL) {
                rc = pm_nomem(err);
                break;
            }
            items = grown;
            cap = new_cap;
        }
        rc = pm_manifest_orc_reader_next(r, items + n * rd->size, err);
        if (rc != 0)
            break;
        if (*(const int32_t *)(items + n * rd->size) != version) {
            rc = pm_corrupt(err, "%s: record %zu has _VERSION %d, expected %d", what, n,
                            *(const int32_t *)(items + n * rd->size), version);
            break;
        }
        if (filter == NULL ||
            filter->accept(filter->ctx,
                           (const pm_manifest_entry *)(const void *)(items + n * rd->size)))
            n++;
    }
    pm_manifest_orc_reader_close(r);
    if (rc != PAIMON_ITEROVER) {
        pm_free(items);
        return rc;
    }
    *out = items;
    *count = n;
    *cap_out = cap;
    return 0;
}

/* A caller's entry filter, behind a check that lets records of the wrong _VERSION through to
 * the version check. */
typedef struct version_gate {
    const pm_manifest_filter *filter;
    int32_t version;
} version_gate;

static bool gate_accept(void *ctx, const void *record)
{
    const version_gate *g = ctx;
    if (*(const int32_t *)record != g->version)
        return true;
    return g->filter->accept(g->filter->ctx, record);
}

PM_MUST_CHECK static int decode(const uint8_t *data, size_t len, const char *what,
                                const pm_avro_rdesc *rd, int32_t version,
                                const pm_manifest_filter *filter, pm_arena *arena, void **out,
                                size_t *count, paimon_error *err)
{
    version_gate gate = {filter, version};
    pm_avro_prefilter pre = {"_FILE", gate_accept, &gate};
    pm_avro_file_reader r;
    uint8_t *items = NULL;
    size_t n = 0, cap = 0;
    int rc;

    *out = NULL;
    *count = 0;
    if (is_orc(data, len)) {
        rc = decode_orc(data, len, what, rd, version, filter, arena, &items, &n, &cap, err);
        if (rc != 0)
            return rc;
        if (items != NULL && pm_arena_adopt(arena, items, cap * rd->size) != 0)
            return pm_nomem(err);
        *out = items;
        *count = n;
        return 0;
    }
    rc = pm_avro_file_open(&r, data, len, what, rd, arena, true, err);
    while (rc == 0) {
        if (n == cap) {
            /* Grown outside the arena (no copies left behind), handed to it at the end. */
            size_t new_cap = cap == 0 ? 64 : cap * 2;
            uint8_t *grown = pm_realloc(items, new_cap * rd->size);
            if (grown == NULL) {
                rc = pm_nomem(err);
                break;
            }
            items = grown;
            cap = new_cap;
        }
        rc = filter != NULL ? pm_avro_file_next_filtered(&r, items + n * rd->size, &pre, err)
                            : pm_avro_file_next(&r, items + n * rd->size, err);
        if (rc != 0)
            break;
        /* Every record of these schemas starts with the int32 _VERSION field. */
        if (*(const int32_t *)(items + n * rd->size) != version) {
            rc = pm_corrupt(err, "%s: record %zu has _VERSION %d, expected %d", what, n,
                            *(const int32_t *)(items + n * rd->size), version);
            break;
        }
        n++;
    }
    pm_avro_file_close(&r);
    if (rc != PAIMON_ITEROVER) {
        pm_free(items);
        return rc;
    }
    if (items != NULL && pm_arena_adopt(arena, items, cap * rd->size) != 0)
        return pm_nomem(err);
    *out = items;
    *count = n;
    return 0;
}

int pm_manifest_decode(const uint8_t *data, size_t len, const char *what, const pm_avro_rdesc *rd,
                       int32_t version, pm_arena *arena, void **out, size_t *count,
                       paimon_error *err)
{
    return decode(data, len, what, rd, version, NULL, arena, out, count, err);
}

int pm_manifest_decode_filtered(const uint8_t *data, size_t len, const char *what,
                                const pm_manifest_filter *filter, pm_arena *arena,
                                pm_manifest_entry **out, size_t *count, paimon_error *err)
{
    return decode(data, len, what, &PM_MANIFEST_ENTRY_DESC, PM_MANIFEST_VERSION, filter, arena,
                  (void **)out, count, err);
}

PM_MUST_CHECK static int read_file(pm_fs *fs, const char *table, const char *name,
                                   int64_t expected_size, const pm_avro_rdesc *rd, int32_t version,
                                   const pm_manifest_filter *filter, pm_arena *arena, void **out,
                                   size_t *count, paimon_error *err)
{
    char *path = pm_table_file(table, PM_DIR_MANIFEST, name);
    uint8_t *data = NULL;
    size_t len = 0;
    int rc;

    if (path == NULL)
        return pm_nomem(err);
    if ((rc = pm_file_name_check(table, "manifest", name, err)) != 0)
        goto done;
    /* A manifest list is read by a writer's restore and again by its commit: remembered
     * (meta/schema_memo.c; its name is unique, its bytes never change) */
    if (rd == &PM_MANIFEST_FILE_META_DESC &&
        (rc = pm_memo_file_get(fs, path, &data, &len, err)) != 0)
        goto done;
    if (data == NULL) {
        rc = pm_fs_read_all(fs, path, MANIFEST_FILE_MAX, &data, &len, err);
        if (rc != 0)
            goto done;
        if (rd == &PM_MANIFEST_FILE_META_DESC)
            pm_memo_file_put(fs, path, data, len);
    }
    if (expected_size >= 0 && (uint64_t)expected_size != len) {
        rc = pm_corrupt(err, "%s: file has %zu bytes but its metadata records %lld", path, len,
                        (long long)expected_size);
        goto done;
    }
    rc = decode(data, len, path, rd, version, filter, arena, out, count, err);
done:
    pm_free(data);
    pm_free(path);
    return rc;
}

int pm_manifest_list_read(pm_fs *fs, const char *table, const char *name, int64_t expected_size,
                          pm_arena *arena, pm_manifest_file_meta **out, size_t *count,
                          paimon_error *err)
{
    return read_file(fs, table, name, expected_size, &PM_MANIFEST_FILE_META_DESC,
                     PM_MANIFEST_LIST_VERSION, NULL, arena, (void **)out, count, err);
}

int pm_manifest_read(pm_fs *fs, const char *table, const char *name, int64_t expected_size,
                     pm_arena *arena, pm_manifest_entry **out, size_t *count, paimon_error *err)
{
    return read_file(fs, table, name, expected_size, &PM_MANIFEST_ENTRY_DESC, PM_MANIFEST_VERSION,
                     NULL, arena, (void **)out, count, err);
}

int pm_manifest_read_filtered(pm_fs *fs, const char *table, const char *name, int64_t expected_size,
                              const pm_manifest_filter *filter, pm_arena *arena,
                              pm_manifest_entry **out, size_t *count, paimon_error *err)
{
    return read_file(fs, table, name, expected_size, &PM_MANIFEST_ENTRY_DESC, PM_MANIFEST_VERSION,
                     filter, arena, (void **)out, count, err);
}

int pm_index_manifest_read(pm_fs *fs, const char *table, const char *name, pm_arena *arena,
                           pm_index_manifest_entry **out, size_t *count, paimon_error *err)
{
    return read_file(fs, table, name, -1, &PM_INDEX_MANIFEST_ENTRY_DESC, PM_INDEX_MANIFEST_VERSION,
                     NULL, arena, (void **)out, count, err);
}

/* ---- writing ---------------------------------------------------------------------------- */

int pm_manifest_encode(const pm_avro_rdesc *rd, const void *records, size_t count,
                       const char *codec, int level, pm_buf *out, paimon_error *err)
{
    pm_avro_writer w;
    pm_buf schema;
    int rc;

    pm_buf_init(&schema, 0);
    if ((rc = pm_avro_schema_json(rd, &schema)) != 0) {
        pm_buf_free(&schema);
        return pm_buf_error(err, rc);
    }
    rc = pm_avro_writer_open(&w, pm_buf_cstr(&schema), codec, level, out, NULL, err);
    pm_buf_free(&schema);
    if (rc != 0) {
        pm_avro_writer_abort(&w);
        return rc;
    }
    for (size_t i = 0; i < count; i++) {
        rc = pm_avro_encode(rd, (const uint8_t *)records + i * rd->size, pm_avro_writer_object(&w));
        if (rc != 0) {
            pm_avro_writer_abort(&w);
            return pm_buf_error(err, rc);
        }
        if ((rc = pm_avro_writer_end_object(&w, err)) != 0) {
            pm_avro_writer_abort(&w);
            return rc;
        }
    }
    return pm_avro_writer_close(&w, err);
}

int pm_manifest_file_write(pm_fs *fs, const char *table, const char *name, const pm_avro_rdesc *rd,
                           const void *records, size_t count, const char *codec, int level,
                           int64_t *size, paimon_error *err)
{
    char *path = pm_table_file(table, PM_DIR_MANIFEST, name);
    pm_buf out;
    int rc;
    if (path == NULL)
        return pm_nomem(err);
    pm_buf_init(&out, 0);
    rc = pm_manifest_encode(rd, records, count, codec, level, &out, err);
    if (rc == 0)
        rc = pm_fs_write_file(fs, path, out.data, out.len, err);
    if (rc == 0)
        *size = (int64_t)out.len;
    pm_buf_free(&out);
    pm_free(path);
    return rc;
}

/* ---- format choice ---------------------------------------------------------------------- */

int pm_manifest_format_parse(const char *value, pm_manifest_format *out, paimon_error *err)
{
    if (value == NULL || strcasecmp(value, "avro") == 0) {
        *out = PM_MANIFEST_AVRO;
        return 0;
    }
    if (strcasecmp(value, "orc") == 0) {
        *out = PM_MANIFEST_ORC;
        return 0;
    }
    if (strcasecmp(value, "parquet") == 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "manifest.format=parquet is not supported by paimon-c");
    return pm_err_set(err, PAIMON_EINVALID, "manifest.format '%s' is not a file format", value);
}

int pm_manifest_encode_format(pm_manifest_format format, const pm_avro_rdesc *rd,
                              const void *records, size_t count, const char *compression, int level,
                              pm_buf *out, paimon_error *err)
{
    const char *codec;
    if (format == PM_MANIFEST_ORC)
        return pm_manifest_orc_encode(rd, records, count, compression, level, out, err);
    /* Java maps zstd to Avro's zstandard and passes other names through (§5) */
    if ((codec = pm_avro_codec_for_option(compression)) == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "compression '%s' is not an Avro codec",
                          compression);
    return pm_manifest_encode(rd, records, count, codec, level, out, err);
}

int pm_manifest_file_write_format(pm_fs *fs, const char *table, const char *name,
                                  pm_manifest_format format, const pm_avro_rdesc *rd,
                                  const void *records, size_t count, const char *compression,
                                  int level, int64_t *size, paimon_error *err)
{
    char *path = pm_table_file(table, PM_DIR_MANIFEST, name);
    pm_buf out;
    int rc;
    if (path == NULL)
        return pm_nomem(err);
    pm_buf_init(&out, 0);
    rc = pm_manifest_encode_format(format, rd, records, count, compression, level, &out, err);
    if (rc == 0)
        rc = pm_fs_write_file(fs, path, out.data, out.len, err);
    if (rc == 0)
        *size = (int64_t)out.len;
    pm_buf_free(&out);
    pm_free(path);
    return rc;
}

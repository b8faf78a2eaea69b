/*
 * Decoding the ORC metadata messages: see orc_meta.h.  Each message is a table of its
 * fields (number, kind, member, presence flag; orc_proto.h), read by pm_pb_decode(), in
 * the order and with the names of apache/orc proto/orc_proto.proto; fields not listed are
 * skipped.  Three messages need a hook: the PostScript's version (two numbers kept in
 * place) and magic, the Footer's type tree (pm_orc_check_types), and the StripeFooter's
 * stream offsets (derived, their sum checked for overflow).
 */
#include "format/orc/orc_meta.h"

#include <stdio.h>
#include <string.h>

#include "data/types.h"

#define NONE (-1L)

/* A field of struct ST stored in member M, with no presence flag. */
#define F(name, num, kind, st, m)                                                                  \
    {                                                                                              \
        name, num, kind, false, offsetof(st, m), NONE, NONE, 0, 0, NULL, NULL                      \
    }
/* ... that sets the bool FLAG when present. */
#define FH(name, num, kind, st, m, flag)                                                           \
    {                                                                                              \
        name, num, kind, false, offsetof(st, m), NONE, (long)offsetof(st, flag), 0, 0, NULL, NULL  \
    }
/* ... that must be present. */
#define FREQ(name, num, kind, st, m)                                                               \
    {                                                                                              \
        name, num, kind, true, offsetof(st, m), NONE, NONE, 0, 0, NULL, NULL                       \
    }
/* An enum (a UINT32) whose values above MAX are malformed. */
#define FENUM(name, num, st, m, max)                                                               \
    {                                                                                              \
        name, num, PM_PBK_UINT32, false, offsetof(st, m), NONE, NONE, 0, max, NULL, NULL           \
    }
/* A repeated field: array M, count COUNT, messages of SUB (NULL for scalars). */
#define FREP(name, num, kind, st, m, count, sub)                                                   \
    {                                                                                              \
        name, num, kind, false, offsetof(st, m), (long)offsetof(st, count), NONE, 0, 0, sub, NULL  \
    }
/* A statistics field: sets bit BIT of pm_orc_stats.has. */
#define FS(name, num, kind, m, bit)                                                                \
    {                                                                                              \
        name, num, kind, false, offsetof(pm_orc_stats, m), NONE,                                   \
            (long)offsetof(pm_orc_stats, has), bit, 0, NULL, NULL                                  \
    }

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MSG(name, st, fields, check)                                                               \
    {                                                                                              \
        name, sizeof(st), COUNT(fields), fields, check                                             \
    }

/* ---- ColumnStatistics ------------------------------------------------------------------ */

/* The typed statistics are sub-messages whose fields land in pm_orc_stats itself (MERGE):
 * ColumnStatistics keeps one flat struct, `kind` saying which sub-message it carried. */
static const pm_pb_field INT_STATS[] = {
    FS("minimum", 1, PM_PBK_SINT64, i_min, PM_OS_MIN),
    FS("maximum", 2, PM_PBK_SINT64, i_max, PM_OS_MAX),
    FS("sum", 3, PM_PBK_SINT64, i_sum, PM_OS_SUM),
};
static const pm_pb_field DOUBLE_STATS[] = {
    FS("minimum", 1, PM_PBK_DOUBLE, d_min, PM_OS_MIN),
    FS("maximum", 2, PM_PBK_DOUBLE, d_max, PM_OS_MAX),
    FS("sum", 3, PM_PBK_DOUBLE, d_sum, PM_OS_SUM),
};
static const pm_pb_field STRING_STATS[] = {
    FS("minimum", 1, PM_PBK_BYTES, s_min, PM_OS_MIN),
    FS("maximum", 2, PM_PBK_BYTES, s_max, PM_OS_MAX),
    FS("sum", 3, PM_PBK_SINT64, i_sum, PM_OS_SUM),
    FS("lowerBound", 4, PM_PBK_BYTES, s_lower, PM_OS_LOWER),
    FS("upperBound", 5, PM_PBK_BYTES, s_upper, PM_OS_UPPER),
};
static const pm_pb_field BUCKET_STATS[] = {
    FREP("count", 1, PM_PBK_PACKED64, pm_orc_stats, buckets, bucket_count, NULL),
};
static const pm_pb_field DECIMAL_STATS[] = {
    FS("minimum", 1, PM_PBK_BYTES, s_min, PM_OS_MIN),
    FS("maximum", 2, PM_PBK_BYTES, s_max, PM_OS_MAX),
    FS("sum", 3, PM_PBK_BYTES, dec_sum, PM_OS_SUM),
};
static const pm_pb_field DATE_STATS[] = {
    FS("minimum", 1, PM_PBK_SINT32, i_min, PM_OS_MIN),
    FS("maximum", 2, PM_PBK_SINT32, i_max, PM_OS_MAX),
};
static const pm_pb_field BINARY_STATS[] = {
    FS("sum", 1, PM_PBK_SINT64, i_sum, PM_OS_SUM),
};
static const pm_pb_field TIMESTAMP_STATS[] = {
    FS("minimum", 1, PM_PBK_SINT64, i_min, PM_OS_MIN),
    FS("maximum", 2, PM_PBK_SINT64, i_max, PM_OS_MAX),
    FS("minimumUtc", 3, PM_PBK_SINT64, ts_min_utc, PM_OS_MIN_UTC),
    FS("maximumUtc", 4, PM_PBK_SINT64, ts_max_utc, PM_OS_MAX_UTC),
    FS("minimumNanos", 5, PM_PBK_INT32, ts_min_nanos, PM_OS_MIN_NANOS),
    FS("maximumNanos", 6, PM_PBK_INT32, ts_max_nanos, PM_OS_MAX_NANOS),
};
static const pm_pb_field COLLECTION_STATS[] = {
    FS("minChildren", 1, PM_PBK_UINT64, coll_min, PM_OS_MIN),
    FS("maxChildren", 2, PM_PBK_UINT64, coll_max, PM_OS_MAX),
    FS("totalChildren", 3, PM_PBK_UINT64, coll_total, PM_OS_COLL_TOTAL),
};

static const pm_pb_msg INT_STATS_MSG = MSG("IntegerStatistics", pm_orc_stats, INT_STATS, NULL);
static const pm_pb_msg DOUBLE_STATS_MSG = MSG("DoubleStatistics", pm_orc_stats, DOUBLE_STATS, NULL);
static const pm_pb_msg STRING_STATS_MSG = MSG("StringStatistics", pm_orc_stats, STRING_STATS, NULL);
static const pm_pb_msg BUCKET_STATS_MSG = MSG("BucketStatistics", pm_orc_stats, BUCKET_STATS, NULL);
static const pm_pb_msg DECIMAL_STATS_MSG =
    MSG("DecimalStatistics", pm_orc_stats, DECIMAL_STATS, NULL);
static const pm_pb_msg DATE_STATS_MSG = MSG("DateStatistics", pm_orc_stats, DATE_STATS, NULL);
static const pm_pb_msg BINARY_STATS_MSG = MSG("BinaryStatistics", pm_orc_stats, BINARY_STATS, NULL);
static const pm_pb_msg TIMESTAMP_STATS_MSG =
    MSG("TimestampStatistics", pm_orc_stats, TIMESTAMP_STATS, NULL);
static const pm_pb_msg COLLECTION_STATS_MSG =
    MSG("CollectionStatistics", pm_orc_stats, COLLECTION_STATS, NULL);

/* A typed statistics sub-message: its field number is the pm_orc_stats_kind. */
#define TYPED(name, which, sub)                                                                    \
    {                                                                                              \
        name, which, PM_PBK_MERGE, false, offsetof(pm_orc_stats, kind), NONE, NONE, 0, 0, sub,     \
            NULL                                                                                   \
    }

static const pm_pb_field COLUMN_STATS[] = {
    FS("numberOfValues", 1, PM_PBK_UINT64, number_of_values, PM_OS_VALUES),
    TYPED("intStatistics", PM_OSK_INT, &INT_STATS_MSG),
    TYPED("doubleStatistics", PM_OSK_DOUBLE, &DOUBLE_STATS_MSG),
    TYPED("stringStatistics", PM_OSK_STRING, &STRING_STATS_MSG),
    TYPED("bucketStatistics", PM_OSK_BUCKET, &BUCKET_STATS_MSG),
    TYPED("decimalStatistics", PM_OSK_DECIMAL, &DECIMAL_STATS_MSG),
    TYPED("dateStatistics", PM_OSK_DATE, &DATE_STATS_MSG),
    TYPED("binaryStatistics", PM_OSK_BINARY, &BINARY_STATS_MSG),
    TYPED("timestampStatistics", PM_OSK_TIMESTAMP, &TIMESTAMP_STATS_MSG),
    FS("hasNull", 10, PM_PBK_BOOL, has_null, PM_OS_HAS_NULL),
    FS("bytesOnDisk", 11, PM_PBK_UINT64, bytes_on_disk, PM_OS_BYTES),
    TYPED("collectionStatistics", PM_OSK_COLLECTION, &COLLECTION_STATS_MSG),
};
static const pm_pb_msg COLUMN_STATS_MSG = MSG("ColumnStatistics", pm_orc_stats, COLUMN_STATS, NULL);

/* ---- PostScript ------------------------------------------------------------------------ */

/* version: [major, minor], packed or not; values past the second are skipped and values
 * past UINT32_MAX kept as UINT32_MAX (only 0.12 and 1.9999 mean anything to the reader). */
static void keep_version(pm_orc_postscript *ps, uint64_t v)
{
    if (ps->version_count < 2)
        ps->version[ps->version_count++] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static bool read_version(pm_pb *c, int wire, void *obj)
{
    pm_orc_postscript *ps = obj;
    pm_pb run;
    uint64_t v;
    if (wire == PM_PB_VARINT) {
        if (!pm_pb_varint(c, &v))
            return false;
        keep_version(ps, v);
        return true;
    }
    if (wire != PM_PB_LEN || !pm_pb_sub(c, &run))
        return false;
    while (run.p < run.end) {
        if (!pm_pb_varint(&run, &v))
            return false;
        keep_version(ps, v);
    }
    return true;
}

PM_MUST_CHECK static int check_magic(void *obj, const char *path, uint64_t off, paimon_error *err)
{
    const pm_orc_postscript *ps = obj;
    if (ps->magic.len != 3 || memcmp(ps->magic.ptr, "ORC", 3) != 0)
        return pm_corrupt(err, "%s: ORC PostScript at offset %llu has no \"ORC\" magic", path,
                          (unsigned long long)off);
    return 0;
}

#define PS pm_orc_postscript
static const pm_pb_field POSTSCRIPT[] = {
    F("footerLength", 1, PM_PBK_UINT64, PS, footer_length),
    F("compression", 2, PM_PBK_UINT32, PS, compression),
    FH("compressionBlockSize", 3, PM_PBK_UINT64, PS, compression_block_size,
       has_compression_block_size),
    {"version", 4, PM_PBK_HOOK, false, 0, NONE, NONE, 0, 0, NULL, read_version},
    F("metadataLength", 5, PM_PBK_UINT64, PS, metadata_length),
    FH("writerVersion", 6, PM_PBK_UINT32, PS, writer_version, has_writer_version),
    F("stripeStatisticsLength", 7, PM_PBK_UINT64, PS, stripe_statistics_length),
    F("magic", 8000, PM_PBK_BYTES, PS, magic),
};
static const pm_pb_msg POSTSCRIPT_MSG = MSG("PostScript", PS, POSTSCRIPT, check_magic);
#undef PS

/* ---- Footer ---------------------------------------------------------------------------- */

static const pm_pb_field STRING_PAIR[] = {
    FREQ("key", 1, PM_PBK_STRING, pm_orc_attr, key),
    FREQ("value", 2, PM_PBK_STRING, pm_orc_attr, value),
};
static const pm_pb_msg STRING_PAIR_MSG = MSG("StringPair", pm_orc_attr, STRING_PAIR, NULL);

#define T pm_orc_type
static const pm_pb_field TYPE[] = {
    FENUM("kind", 1, T, kind, PM_ORC_KIND_COUNT - 1),
    FREP("subtypes", 2, PM_PBK_PACKED32, T, subtypes, subtype_count, NULL),
    FREP("fieldNames", 3, PM_PBK_STRINGS, T, field_names, field_name_count, NULL),
    FH("maximumLength", 4, PM_PBK_UINT32, T, max_length, has_max_length),
    FH("precision", 5, PM_PBK_UINT32, T, precision, has_precision),
    FH("scale", 6, PM_PBK_UINT32, T, scale, has_scale),
    FREP("attributes", 7, PM_PBK_MESSAGES, T, attrs, attr_count, &STRING_PAIR_MSG),
};
static const pm_pb_msg TYPE_MSG = MSG("Type", T, TYPE, NULL);
#undef T

#define SI pm_orc_stripe_info
static const pm_pb_field STRIPE_INFO[] = {
    F("offset", 1, PM_PBK_UINT64, SI, offset),
    F("indexLength", 2, PM_PBK_UINT64, SI, index_length),
    F("dataLength", 3, PM_PBK_UINT64, SI, data_length),
    F("footerLength", 4, PM_PBK_UINT64, SI, footer_length),
    F("numberOfRows", 5, PM_PBK_UINT64, SI, number_of_rows),
};
static const pm_pb_msg STRIPE_INFO_MSG = MSG("StripeInformation", SI, STRIPE_INFO, NULL);
#undef SI

static const pm_pb_field USER_META[] = {
    FREQ("name", 1, PM_PBK_STRING, pm_orc_user_meta, name),
    F("value", 2, PM_PBK_BYTES, pm_orc_user_meta, value),
};
static const pm_pb_msg USER_META_MSG = MSG("UserMetadataItem", pm_orc_user_meta, USER_META, NULL);

/* What is wrong with a type tree, written to `msg`; NULL when nothing is. */
static const char *tree_problem(pm_orc_type *types, size_t n, char *msg, size_t cap)
{
    if (n == 0)
        return "ORC file has no types";
    if (types[0].kind != PM_ORC_STRUCT) {
        snprintf(msg, cap, "ORC root type is %s, not a struct", pm_orc_kind_name(types[0].kind));
        return msg;
    }
    for (size_t i = 0; i < n; i++)
        types[i].parent = UINT32_MAX;
    types[0].parent = 0;
    types[0].depth = 0;
    for (size_t i = 0; i < n; i++) {
        pm_orc_type *t = &types[i];
        size_t need;
        switch (t->kind) {
        case PM_ORC_LIST: need = 1; break;
        case PM_ORC_MAP: need = 2; break;
        case PM_ORC_STRUCT:
        case PM_ORC_UNION: need = t->subtype_count; break;
        default: need = 0; break;
        }
        if (t->subtype_count != need || (t->kind == PM_ORC_UNION && need == 0) ||
            (t->kind == PM_ORC_STRUCT && t->field_name_count != t->subtype_count)) {
            snprintf(msg, cap, "ORC type %zu (%s) has %zu children and %zu names", i,
                     pm_orc_kind_name(t->kind), t->subtype_count, t->field_name_count);
            return msg;
        }
        /* ids are in pre-order, so a parent's depth is known before its children's */
        if (t->subtype_count > 0 && t->depth >= PM_ORC_MAX_DEPTH) {
            snprintf(msg, cap, "ORC type %zu (%s) nests deeper than %d levels", i,
                     pm_orc_kind_name(t->kind), PM_MAX_NESTING);
            return msg;
        }
        for (size_t k = 0; k < t->subtype_count; k++) {
            uint32_t c = t->subtypes[k];
            /* pre-order: the first child follows its parent, each next one follows the last */
            if (c <= i || c >= n || types[c].parent != UINT32_MAX ||
                (k > 0 && c <= t->subtypes[k - 1])) {
                snprintf(msg, cap, "ORC type %zu has a bad child id %u", i, c);
                return msg;
            }
            types[c].parent = (uint32_t)i;
            types[c].depth = t->depth + 1;
        }
    }
    for (size_t i = 1; i < n; i++)
        if (types[i].parent == UINT32_MAX) {
            snprintf(msg, cap, "ORC type %zu is nobody's child", i);
            return msg;
        }
    return NULL;
}

int pm_orc_check_types(pm_orc_type *types, size_t count, const char *what, int code,
                       paimon_error *err)
{
    char msg[160];
    const char *problem = tree_problem(types, count, msg, sizeof(msg));
    if (problem == NULL)
        return 0;
    if (code == PAIMON_ECORRUPT)
        return pm_corrupt(err, "%s: %s", what, problem);
    return pm_err_set(err, code, "%s: %s", what, problem);
}

PM_MUST_CHECK static int check_footer(void *obj, const char *path, uint64_t off, paimon_error *err)
{
    pm_orc_footer *ft = obj;
    (void)off;
    return pm_orc_check_types(ft->types, ft->type_count, path, PAIMON_ECORRUPT, err);
}

#define FT pm_orc_footer
static const pm_pb_field FOOTER[] = {
    F("headerLength", 1, PM_PBK_UINT64, FT, header_length),
    F("contentLength", 2, PM_PBK_UINT64, FT, content_length),
    FREP("stripes", 3, PM_PBK_MESSAGES, FT, stripes, stripe_count, &STRIPE_INFO_MSG),
    FREP("types", 4, PM_PBK_MESSAGES, FT, types, type_count, &TYPE_MSG),
    FREP("metadata", 5, PM_PBK_MESSAGES, FT, metadata, metadata_count, &USER_META_MSG),
    F("numberOfRows", 6, PM_PBK_UINT64, FT, number_of_rows),
    FREP("statistics", 7, PM_PBK_MESSAGES, FT, statistics, statistics_count, &COLUMN_STATS_MSG),
    F("rowIndexStride", 8, PM_PBK_UINT32, FT, row_index_stride),
    FH("writer", 9, PM_PBK_UINT32, FT, writer, has_writer),
    FH("encryption", 10, PM_PBK_PRESENT, FT, has_encryption, has_encryption),
    FH("calendar", 11, PM_PBK_UINT32, FT, calendar, has_calendar),
    F("softwareVersion", 12, PM_PBK_STRING, FT, software_version),
};
static const pm_pb_msg FOOTER_MSG = MSG("Footer", FT, FOOTER, check_footer);
#undef FT

/* ---- Metadata -------------------------------------------------------------------------- */

typedef struct metadata {
    pm_orc_stripe_stats *stripes;
    size_t count;
} metadata;

static const pm_pb_field STRIPE_STATS[] = {
    FREP("colStats", 1, PM_PBK_MESSAGES, pm_orc_stripe_stats, columns, column_count,
         &COLUMN_STATS_MSG),
};
static const pm_pb_msg STRIPE_STATS_MSG =
    MSG("StripeStatistics", pm_orc_stripe_stats, STRIPE_STATS, NULL);

static const pm_pb_field METADATA[] = {
    FREP("stripeStats", 1, PM_PBK_MESSAGES, metadata, stripes, count, &STRIPE_STATS_MSG),
};
static const pm_pb_msg METADATA_MSG = MSG("Metadata", metadata, METADATA, NULL);

/* ---- StripeFooter ---------------------------------------------------------------------- */

#define SM pm_orc_stream_info
static const pm_pb_field STREAM[] = {
    F("kind", 1, PM_PBK_UINT32, SM, kind),
    F("column", 2, PM_PBK_UINT32, SM, column),
    F("length", 3, PM_PBK_UINT64, SM, length),
};
static const pm_pb_msg STREAM_MSG = MSG("Stream", SM, STREAM, NULL);
#undef SM

static const pm_pb_field ENCODING[] = {
    FENUM("kind", 1, pm_orc_encoding, kind, PM_ORC_DICTIONARY_V2),
    F("dictionarySize", 2, PM_PBK_UINT32, pm_orc_encoding, dictionary_size),
};
static const pm_pb_msg ENCODING_MSG = MSG("ColumnEncoding", pm_orc_encoding, ENCODING, NULL);

/* Streams lie back to back from the start of the stripe. */
PM_MUST_CHECK static int stream_offsets(void *obj, const char *path, uint64_t off,
                                        paimon_error *err)
{
    pm_orc_stripe_footer *sf = obj;
    uint64_t pos = 0;
    for (size_t i = 0; i < sf->stream_count; i++) {
        sf->streams[i].offset = pos;
        if (__builtin_add_overflow(pos, sf->streams[i].length, &pos))
            return pm_corrupt(
                err, "%s: ORC stripe footer at offset %llu: stream %zu is %llu bytes long", path,
                (unsigned long long)off, i, (unsigned long long)sf->streams[i].length);
    }
    return 0;
}

#define SF pm_orc_stripe_footer
static const pm_pb_field STRIPE_FOOTER[] = {
    FREP("streams", 1, PM_PBK_MESSAGES, SF, streams, stream_count, &STREAM_MSG),
    FREP("columns", 2, PM_PBK_MESSAGES, SF, encodings, encoding_count, &ENCODING_MSG),
    F("writerTimezone", 3, PM_PBK_STRING, SF, writer_timezone),
    FH("encryption", 4, PM_PBK_PRESENT, SF, has_encryption, has_encryption),
};
static const pm_pb_msg STRIPE_FOOTER_MSG = MSG("StripeFooter", SF, STRIPE_FOOTER, stream_offsets);
#undef SF

/* ---- RowIndex -------------------------------------------------------------------------- */

#define IE pm_orc_index_entry
static const pm_pb_field INDEX_ENTRY[] = {
    FREP("positions", 1, PM_PBK_PACKED64, IE, positions, position_count, NULL),
    {"statistics", 2, PM_PBK_MESSAGE, false, offsetof(IE, stats), NONE,
     (long)offsetof(IE, has_stats), 0, 0, &COLUMN_STATS_MSG, NULL},
};
static const pm_pb_msg INDEX_ENTRY_MSG = MSG("RowIndexEntry", IE, INDEX_ENTRY, NULL);
#undef IE

static const pm_pb_field ROW_INDEX[] = {
    FREP("entry", 1, PM_PBK_MESSAGES, pm_orc_row_index, entries, entry_count, &INDEX_ENTRY_MSG),
};
static const pm_pb_msg ROW_INDEX_MSG = MSG("RowIndex", pm_orc_row_index, ROW_INDEX, NULL);

/* ---- the entry points ------------------------------------------------------------------ */

_Static_assert(sizeof(pm_orc_kind) == sizeof(uint32_t) &&
                   sizeof(pm_orc_compression) == sizeof(uint32_t) &&
                   sizeof(pm_orc_stream_kind) == sizeof(uint32_t) &&
                   sizeof(pm_orc_encoding_kind) == sizeof(uint32_t) &&
                   sizeof(pm_orc_stats_kind) == sizeof(uint32_t),
               "enums are decoded as UINT32");

int pm_orc_decode_postscript(const uint8_t *data, size_t len, uint64_t off, const char *path,
                             pm_orc_postscript *out, paimon_error *err)
{
    /* no field of a PostScript allocates */
    return pm_pb_decode(&POSTSCRIPT_MSG, data, len, off, path, "PostScript", NULL, out, err);
}

int pm_orc_decode_footer(const uint8_t *data, size_t len, uint64_t off, const char *path,
                         pm_arena *arena, pm_orc_footer *out, paimon_error *err)
{
    return pm_pb_decode(&FOOTER_MSG, data, len, off, path, "footer", arena, out, err);
}

int pm_orc_decode_metadata(const uint8_t *data, size_t len, uint64_t off, const char *path,
                           pm_arena *arena, pm_orc_stripe_stats **out, size_t *count,
                           paimon_error *err)
{
    metadata m;
    int rc = pm_pb_decode(&METADATA_MSG, data, len, off, path, "metadata", arena, &m, err);
    *out = rc == 0 ? m.stripes : NULL;
    *count = rc == 0 ? m.count : 0;
    return rc;
}

int pm_orc_decode_stripe_footer(const uint8_t *data, size_t len, uint64_t off, const char *path,
                                pm_arena *arena, pm_orc_stripe_footer *out, paimon_error *err)
{
    return pm_pb_decode(&STRIPE_FOOTER_MSG, data, len, off, path, "stripe footer", arena, out, err);
}

int pm_orc_decode_row_index(const uint8_t *data, size_t len, uint64_t off, const char *path,
                            pm_arena *arena, pm_orc_row_index *out, paimon_error *err)
{
    return pm_pb_decode(&ROW_INDEX_MSG, data, len, off, path, "row index", arena, out, err);
}

/* ---- names ----------------------------------------------------------------------------- */

const char *pm_orc_type_attr(const pm_orc_type *t, const char *key)
{
    for (size_t i = 0; i < t->attr_count; i++)
        if (strcmp(t->attrs[i].key, key) == 0)
            return t->attrs[i].value;
    return NULL;
}

const char *pm_orc_kind_name(pm_orc_kind kind)
{
    static const char *const names[PM_ORC_KIND_COUNT] = {"boolean",
                                                         "tinyint",
                                                         "smallint",
                                                         "int",
                                                         "bigint",
                                                         "float",
                                                         "double",
                                                         "string",
                                                         "binary",
                                                         "timestamp",
                                                         "array",
                                                         "map",
                                                         "struct",
                                                         "uniontype",
                                                         "decimal",
                                                         "date",
                                                         "varchar",
                                                         "char",
                                                         "timestamp with local time zone"};
    return (unsigned)kind < PM_ORC_KIND_COUNT ? names[kind] : "unknown";
}

const char *pm_orc_stream_kind_name(pm_orc_stream_kind kind)
{
    static const char *const names[] = {
        "PRESENT",       "DATA",      "LENGTH",       "DICTIONARY_DATA",   "DICTIONARY_COUNT",
        "SECONDARY",     "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8", "ENCRYPTED_INDEX",
        "ENCRYPTED_DATA"};
    return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "UNKNOWN";
}

const char *pm_orc_encoding_name(pm_orc_encoding_kind kind)
{
    static const char *const names[] = {"DIRECT", "DICTIONARY", "DIRECT_V2", "DICTIONARY_V2"};
    return (unsigned)kind < 4 ? names[kind] : "UNKNOWN";
}

const char *pm_orc_compression_name(pm_orc_compression c)
{
    static const char *const names[] = {"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD"};
    return (unsigned)c < 6 ? names[c] : "UNKNOWN";
}

/*
 * ORC metadata messages (apache/orc proto/orc_proto.proto; docs/format/orc.md): the
 * PostScript, the Footer with its type tree and column statistics, the Metadata section
 * (stripe statistics), stripe footers and row indexes, decoded from and encoded to the
 * protobuf wire format (orc_proto.h).
 *
 * Decoding keeps what paimon-c uses and skips the rest (encryption, bloom filters, masks):
 * a file with encrypted columns is refused (PAIMON_EUNSUPPORTED) by the reader.  Decoded
 * messages live in the caller's arena; strings that name things (field names, attribute
 * keys and values, the writer time zone, the software version) are copied NUL-terminated,
 * statistics strings are views into the decoded buffer, which the caller keeps alive.
 *
 * Every repeated field is counted before it is allocated, so an array never has more
 * entries than the message has bytes; an allocation failure is PAIMON_ENOMEM, anything
 * malformed PAIMON_ECORRUPT naming the file and offset.  A decoded footer's type tree is
 * checked (pm_orc_check_types): pre-order ids, one parent per type, arities that fit the
 * kinds, and no type deeper than PM_ORC_MAX_DEPTH, so every recursion over a file's types
 * or columns (reader, describe, data-file plans) is bounded by that depth.
 */
#ifndef PM_FORMAT_ORC_META_H
#define PM_FORMAT_ORC_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/types.h"
#include "format/orc/orc_proto.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"

/* The deepest ORC type below the root struct: the root's fields are Paimon columns at depth
 * 0 (data/types.h), so a file's types sit at most PM_MAX_NESTING + 1 levels below it. */
#define PM_ORC_MAX_DEPTH (PM_MAX_NESTING + 1)

/* Type.Kind */
typedef enum pm_orc_kind {
    PM_ORC_BOOLEAN = 0,
    PM_ORC_BYTE = 1,
    PM_ORC_SHORT = 2,
    PM_ORC_INT = 3,
    PM_ORC_LONG = 4,
    PM_ORC_FLOAT = 5,
    PM_ORC_DOUBLE = 6,
    PM_ORC_STRING = 7,
    PM_ORC_BINARY = 8,
    PM_ORC_TIMESTAMP = 9,
    PM_ORC_LIST = 10,
    PM_ORC_MAP = 11,
    PM_ORC_STRUCT = 12,
    PM_ORC_UNION = 13,
    PM_ORC_DECIMAL = 14,
    PM_ORC_DATE = 15,
    PM_ORC_VARCHAR = 16,
    PM_ORC_CHAR = 17,
    PM_ORC_TIMESTAMP_INSTANT = 18
} pm_orc_kind;
#define PM_ORC_KIND_COUNT 19

/* CompressionKind */
typedef enum pm_orc_compression {
    PM_ORC_NONE = 0,
    PM_ORC_ZLIB = 1,
    PM_ORC_SNAPPY = 2,
    PM_ORC_LZO = 3,
    PM_ORC_LZ4 = 4,
    PM_ORC_ZSTD = 5
} pm_orc_compression;

/* Stream.Kind */
typedef enum pm_orc_stream_kind {
    PM_ORC_PRESENT = 0,
    PM_ORC_DATA = 1,
    PM_ORC_LENGTH = 2,
    PM_ORC_DICTIONARY_DATA = 3,
    PM_ORC_DICTIONARY_COUNT = 4,
    PM_ORC_SECONDARY = 5,
    PM_ORC_ROW_INDEX = 6,
    PM_ORC_BLOOM_FILTER = 7,
    PM_ORC_BLOOM_FILTER_UTF8 = 8,
    PM_ORC_ENCRYPTED_INDEX = 9,
    PM_ORC_ENCRYPTED_DATA = 10
} pm_orc_stream_kind;
#define PM_ORC_STREAM_KINDS 11

/* ColumnEncoding.Kind */
typedef enum pm_orc_encoding_kind {
    PM_ORC_DIRECT = 0,
    PM_ORC_DICTIONARY = 1,
    PM_ORC_DIRECT_V2 = 2,
    PM_ORC_DICTIONARY_V2 = 3
} pm_orc_encoding_kind;

typedef pm_pb_view pm_orc_bytes; /* a view into the decoded buffer; ptr NULL when absent */

typedef struct pm_orc_attr {
    char *key;
    char *value;
} pm_orc_attr;

typedef struct pm_orc_type {
    pm_orc_kind kind;
    uint32_t *subtypes; /* column ids of the children */
    size_t subtype_count;
    char **field_names; /* STRUCT: one per subtype */
    size_t field_name_count;
    uint32_t max_length; /* CHAR, VARCHAR */
    uint32_t precision;  /* DECIMAL */
    uint32_t scale;      /* DECIMAL */
    bool has_max_length, has_precision, has_scale;
    pm_orc_attr *attrs; /* type attributes ("paimon.id") */
    size_t attr_count;
    uint32_t parent; /* derived: the parent column id (root: itself) */
    uint32_t depth;  /* derived: levels below the root (root 0, its fields 1) */
} pm_orc_type;

/* Which fields of a ColumnStatistics are present (pm_orc_stats.has). */
enum {
    PM_OS_VALUES = 1u << 0,   /* numberOfValues */
    PM_OS_HAS_NULL = 1u << 1, /* hasNull */
    PM_OS_BYTES = 1u << 2,    /* bytesOnDisk */
    PM_OS_MIN = 1u << 3,      /* the kind's minimum */
    PM_OS_MAX = 1u << 4,      /* the kind's maximum */
    PM_OS_SUM = 1u << 5,      /* the kind's sum */
    PM_OS_LOWER = 1u << 6,    /* string lowerBound */
    PM_OS_UPPER = 1u << 7,    /* string upperBound */
    PM_OS_MIN_UTC = 1u << 8,  /* timestamp minimumUtc */
    PM_OS_MAX_UTC = 1u << 9,  /* timestamp maximumUtc */
    PM_OS_MIN_NANOS = 1u << 10,
    PM_OS_MAX_NANOS = 1u << 11,
    PM_OS_COLL_TOTAL = 1u << 12 /* collection totalChildren (min/max use MIN/MAX) */
};

/* Which typed statistics sub-message a ColumnStatistics carries. */
typedef enum pm_orc_stats_kind {
    PM_OSK_NONE = 0,
    PM_OSK_INT = 2,
    PM_OSK_DOUBLE = 3,
    PM_OSK_STRING = 4,
    PM_OSK_BUCKET = 5,
    PM_OSK_DECIMAL = 6,
    PM_OSK_DATE = 7,
    PM_OSK_BINARY = 8,
    PM_OSK_TIMESTAMP = 9,
    PM_OSK_COLLECTION = 12
} pm_orc_stats_kind;

typedef struct pm_orc_stats {
    uint32_t has;           /* PM_OS_* bits */
    pm_orc_stats_kind kind; /* the sub-message present (the last one seen) */
    uint64_t number_of_values;
    bool has_null;
    uint64_t bytes_on_disk;
    /* INT, DATE (int32 range), BINARY (sum), STRING (sum), TIMESTAMP (min, max in ms) */
    int64_t i_min, i_max, i_sum;
    double d_min, d_max, d_sum;                  /* DOUBLE */
    pm_orc_bytes s_min, s_max, s_lower, s_upper; /* STRING; DECIMAL text in s_min/s_max */
    pm_orc_bytes dec_sum;                        /* DECIMAL sum text */
    int64_t ts_min_utc, ts_max_utc;              /* TIMESTAMP */
    int32_t ts_min_nanos, ts_max_nanos;          /* TIMESTAMP: 1 + nanos of the milli */
    uint64_t *buckets;                           /* BUCKET: false, true counts */
    size_t bucket_count;
    uint64_t coll_min, coll_max, coll_total; /* COLLECTION */
} pm_orc_stats;

typedef struct pm_orc_postscript {
    uint64_t footer_length;
    pm_orc_compression compression;
    uint64_t compression_block_size;
    bool has_compression_block_size;
    uint32_t version[2]; /* [major, minor]; 0.12 for every file written today */
    size_t version_count;
    uint64_t metadata_length;
    uint32_t writer_version;
    bool has_writer_version;
    uint64_t stripe_statistics_length;
    pm_orc_bytes magic; /* "ORC" (decoding only; the encoder writes it) */
} pm_orc_postscript;

typedef struct pm_orc_stripe_info {
    uint64_t offset;
    uint64_t index_length;
    uint64_t data_length;
    uint64_t footer_length;
    uint64_t number_of_rows;
} pm_orc_stripe_info;

typedef struct pm_orc_user_meta {
    char *name;
    pm_orc_bytes value;
} pm_orc_user_meta;

typedef struct pm_orc_footer {
    uint64_t header_length;
    uint64_t content_length;
    pm_orc_stripe_info *stripes;
    size_t stripe_count;
    pm_orc_type *types; /* column ids in pre-order; types[0] is the root STRUCT */
    size_t type_count;
    pm_orc_user_meta *metadata;
    size_t metadata_count;
    uint64_t number_of_rows;
    pm_orc_stats *statistics; /* one per column */
    size_t statistics_count;
    uint32_t row_index_stride;
    uint32_t writer; /* 0 ORC Java, 1 ORC C++, ... */
    bool has_writer;
    uint32_t calendar; /* 1 JULIAN_GREGORIAN, 2 PROLEPTIC_GREGORIAN */
    bool has_calendar;
    char *software_version; /* NULL when absent */
    bool has_encryption;
} pm_orc_footer;

/* Metadata: per stripe, one statistics entry per column. */
typedef struct pm_orc_stripe_stats {
    pm_orc_stats *columns;
    size_t column_count;
} pm_orc_stripe_stats;

typedef struct pm_orc_stream_info {
    pm_orc_stream_kind kind;
    uint32_t column;
    uint64_t length;
    uint64_t offset; /* derived: offset within the stripe (streams are back to back) */
} pm_orc_stream_info;

typedef struct pm_orc_encoding {
    pm_orc_encoding_kind kind;
    uint32_t dictionary_size;
} pm_orc_encoding;

typedef struct pm_orc_stripe_footer {
    pm_orc_stream_info *streams;
    size_t stream_count;
    pm_orc_encoding *encodings; /* one per column */
    size_t encoding_count;
    char *writer_timezone; /* NULL when absent */
    bool has_encryption;
    /* Set by the reader, not the decoder: the first stream of (column, kind) for columns
     * below index_columns, at first[column * PM_ORC_STREAM_KINDS + kind] as its index + 1
     * (0: none), so that finding a column's streams does not walk every stream. */
    uint32_t *first;
    size_t index_columns;
} pm_orc_stripe_footer;

typedef struct pm_orc_index_entry {
    uint64_t *positions;
    size_t position_count;
    pm_orc_stats stats;
    bool has_stats;
} pm_orc_index_entry;

typedef struct pm_orc_row_index {
    pm_orc_index_entry *entries;
    size_t entry_count;
} pm_orc_row_index;

/* ---- decoding: `off` is the file offset of `data`, for messages ---------------------- */

PM_MUST_CHECK int pm_orc_decode_postscript(const uint8_t *data, size_t len, uint64_t off,
                                           const char *path, pm_orc_postscript *out,
                                           paimon_error *err);
PM_MUST_CHECK int pm_orc_decode_footer(const uint8_t *data, size_t len, uint64_t off,
                                       const char *path, pm_arena *arena, pm_orc_footer *out,
                                       paimon_error *err);
PM_MUST_CHECK int pm_orc_decode_metadata(const uint8_t *data, size_t len, uint64_t off,
                                         const char *path, pm_arena *arena,
                                         pm_orc_stripe_stats **out, size_t *count,
                                         paimon_error *err);
PM_MUST_CHECK int pm_orc_decode_stripe_footer(const uint8_t *data, size_t len, uint64_t off,
                                              const char *path, pm_arena *arena,
                                              pm_orc_stripe_footer *out, paimon_error *err);
PM_MUST_CHECK int pm_orc_decode_row_index(const uint8_t *data, size_t len, uint64_t off,
                                          const char *path, pm_arena *arena, pm_orc_row_index *out,
                                          paimon_error *err);

/* Checks a type tree (pre-order; types[0] the root STRUCT) and sets each type's derived
 * `parent` and `depth`: children follow their parent in increasing ids, every type but the
 * root is the child of exactly one, LIST has one child, MAP two, STRUCT one name per child,
 * and none is deeper than PM_ORC_MAX_DEPTH.  Returns 0, or `code` with "WHAT: ORC type ...". */
PM_MUST_CHECK int pm_orc_check_types(pm_orc_type *types, size_t count, const char *what, int code,
                                     paimon_error *err);

/* The value of type attribute `key`, or NULL. */
const char *pm_orc_type_attr(const pm_orc_type *t, const char *key);

/* A static name: "struct", "bigint", ... (ORC's TypeDescription names). */
const char *pm_orc_kind_name(pm_orc_kind kind);
const char *pm_orc_stream_kind_name(pm_orc_stream_kind kind);
const char *pm_orc_encoding_name(pm_orc_encoding_kind kind);
const char *pm_orc_compression_name(pm_orc_compression c);

/* ---- encoding (each appends the message body; returns a pm_buf code) ------------------- */

int pm_orc_encode_postscript(pm_buf *out, const pm_orc_postscript *ps);
int pm_orc_encode_footer(pm_buf *out, const pm_orc_footer *f);
int pm_orc_encode_metadata(pm_buf *out, const pm_orc_stripe_stats *stripes, size_t count);
int pm_orc_encode_stripe_footer(pm_buf *out, const pm_orc_stripe_footer *sf);
int pm_orc_encode_row_index(pm_buf *out, const pm_orc_row_index *ri);
int pm_orc_encode_stats(pm_buf *out, const pm_orc_stats *s);

#endif /* PM_FORMAT_ORC_META_H */

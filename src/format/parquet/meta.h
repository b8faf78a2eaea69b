/*
 * Parquet metadata: the parquet.thrift structs paimon-c reads and writes (FileMetaData,
 * SchemaElement, LogicalType, RowGroup, ColumnChunk, ColumnMetaData, Statistics, PageHeader
 * with its data/dictionary/v2 headers, ColumnIndex, OffsetIndex, KeyValue).  Field numbers
 * are parquet-format's (apache/parquet-format src/main/thrift/parquet.thrift); the layout of
 * a file is drawn in docs/format/parquet.md.
 *
 * Decoded metadata borrows byte strings (statistics, paths) from the buffer it was decoded
 * from and allocates its arrays and NUL-terminated names in an arena: both must outlive it.
 * Unknown fields are skipped; the decoder checks only what the wire format guarantees,
 * semantic checks (schema shape, offsets inside the file) belong to the callers.
 */
#ifndef PM_FORMAT_PARQUET_META_H
#define PM_FORMAT_PARQUET_META_H

#include <stdbool.h>
#include <stdint.h>

#include "format/parquet/thrift.h"
#include "util/arena.h"

/* Physical types */
enum {
    PQ_BOOLEAN = 0,
    PQ_INT32 = 1,
    PQ_INT64 = 2,
    PQ_INT96 = 3,
    PQ_FLOAT = 4,
    PQ_DOUBLE = 5,
    PQ_BYTE_ARRAY = 6,
    PQ_FIXED_LEN_BYTE_ARRAY = 7
};

/* ConvertedType (the legacy annotation) */
enum {
    PQ_CT_UTF8 = 0,
    PQ_CT_MAP = 1,
    PQ_CT_MAP_KEY_VALUE = 2,
    PQ_CT_LIST = 3,
    PQ_CT_ENUM = 4,
    PQ_CT_DECIMAL = 5,
    PQ_CT_DATE = 6,
    PQ_CT_TIME_MILLIS = 7,
    PQ_CT_TIME_MICROS = 8,
    PQ_CT_TIMESTAMP_MILLIS = 9,
    PQ_CT_TIMESTAMP_MICROS = 10,
    PQ_CT_UINT_8 = 11,
    PQ_CT_UINT_16 = 12,
    PQ_CT_UINT_32 = 13,
    PQ_CT_UINT_64 = 14,
    PQ_CT_INT_8 = 15,
    PQ_CT_INT_16 = 16,
    PQ_CT_INT_32 = 17,
    PQ_CT_INT_64 = 18,
    PQ_CT_JSON = 19,
    PQ_CT_BSON = 20,
    PQ_CT_INTERVAL = 21,
    PQ_CT_NONE = -1
};

enum { PQ_REQUIRED = 0, PQ_OPTIONAL = 1, PQ_REPEATED = 2 };

/* Encodings */
enum {
    PQ_PLAIN = 0,
    PQ_PLAIN_DICTIONARY = 2,
    PQ_RLE = 3,
    PQ_BIT_PACKED = 4,
    PQ_DELTA_BINARY_PACKED = 5,
    PQ_DELTA_LENGTH_BYTE_ARRAY = 6,
    PQ_DELTA_BYTE_ARRAY = 7,
    PQ_RLE_DICTIONARY = 8,
    PQ_BYTE_STREAM_SPLIT = 9
};

/* CompressionCodec */
enum {
    PQ_UNCOMPRESSED = 0,
    PQ_SNAPPY = 1,
    PQ_GZIP = 2,
    PQ_LZO = 3,
    PQ_BROTLI = 4,
    PQ_LZ4 = 5, /* Hadoop-framed LZ4 (deprecated) */
    PQ_ZSTD = 6,
    PQ_LZ4_RAW = 7
};

/* PageType */
enum { PQ_DATA_PAGE = 0, PQ_INDEX_PAGE = 1, PQ_DICTIONARY_PAGE = 2, PQ_DATA_PAGE_V2 = 3 };

/* LogicalType union members (field ids), plus NONE */
enum {
    PQ_LT_NONE = 0,
    PQ_LT_STRING = 1,
    PQ_LT_MAP = 2,
    PQ_LT_LIST = 3,
    PQ_LT_ENUM = 4,
    PQ_LT_DECIMAL = 5,
    PQ_LT_DATE = 6,
    PQ_LT_TIME = 7,
    PQ_LT_TIMESTAMP = 8,
    PQ_LT_INTEGER = 10,
    PQ_LT_UNKNOWN = 11,
    PQ_LT_JSON = 12,
    PQ_LT_BSON = 13,
    PQ_LT_UUID = 14,
    PQ_LT_FLOAT16 = 15,
    PQ_LT_VARIANT = 16,
    PQ_LT_GEOMETRY = 17,
    PQ_LT_GEOGRAPHY = 18,
    PQ_LT_OTHER = 99 /* a member this version does not know */
};

enum { PQ_UNIT_NONE = 0, PQ_UNIT_MILLIS = 1, PQ_UNIT_MICROS = 2, PQ_UNIT_NANOS = 3 };

typedef struct pq_bytes {
    const uint8_t *ptr; /* borrowed */
    uint32_t len;
} pq_bytes;

typedef struct pq_logical {
    int kind;          /* PQ_LT_* */
    int32_t scale;     /* DECIMAL */
    int32_t precision; /* DECIMAL */
    bool utc;          /* TIME, TIMESTAMP: isAdjustedToUTC */
    int unit;          /* TIME, TIMESTAMP: PQ_UNIT_* */
    int bit_width;     /* INTEGER */
    bool is_signed;    /* INTEGER */
} pq_logical;

typedef struct pq_stats {
    bool has_max, has_min, has_max_value, has_min_value; /* which binaries are present */
    bool has_null_count, has_distinct_count, has_nan_count;
    bool has_max_exact, has_min_exact;
    pq_bytes max, min;             /* deprecated fields 1, 2: signed order */
    pq_bytes max_value, min_value; /* fields 5, 6: the column's order */
    int64_t null_count, distinct_count, nan_count;
    bool is_max_exact, is_min_exact;
} pq_stats;

typedef struct pq_schema_elem {
    bool has_type;
    int type;            /* PQ_INT32, ... (leaves) */
    int32_t type_length; /* FIXED_LEN_BYTE_ARRAY */
    bool has_repetition;
    int repetition;   /* PQ_REQUIRED, ... */
    const char *name; /* NUL-terminated, in the arena */
    int32_t num_children;
    int converted; /* PQ_CT_*, PQ_CT_NONE when absent */
    bool has_scale, has_precision;
    int32_t scale, precision;
    bool has_field_id;
    int32_t field_id;
    pq_logical logical;
} pq_schema_elem;

typedef struct pq_kv {
    const char *key;   /* NUL-terminated, in the arena */
    const char *value; /* NULL when absent */
} pq_kv;

typedef struct pq_enc_stat {
    int page_type; /* PQ_DATA_PAGE, PQ_DICTIONARY_PAGE */
    int encoding;
    int32_t count;
} pq_enc_stat;

typedef struct pq_column_meta {
    int type;
    int32_t *encodings;
    uint32_t encoding_count;
    const char **path; /* NUL-terminated names, in the arena */
    uint32_t path_len;
    int codec;
    int64_t num_values;
    int64_t total_uncompressed_size;
    int64_t total_compressed_size;
    int64_t data_page_offset;
    bool has_index_page_offset, has_dictionary_page_offset, has_stats, has_bloom;
    int64_t index_page_offset;
    int64_t dictionary_page_offset;
    pq_stats stats;
    int64_t bloom_filter_offset;
    int32_t bloom_filter_length;
    pq_enc_stat enc_stats[4]; /* written only (readers skip the field) */
    uint32_t enc_stat_count;
} pq_column_meta;

typedef struct pq_column_chunk {
    const char *file_path; /* NULL unless set (columns in another file: unsupported) */
    int64_t file_offset;
    bool has_meta;
    pq_column_meta meta;
    bool has_offset_index, has_column_index, encrypted;
    int64_t offset_index_offset;
    int32_t offset_index_length;
    int64_t column_index_offset;
    int32_t column_index_length;
} pq_column_chunk;

typedef struct pq_row_group {
    pq_column_chunk *columns;
    uint32_t column_count;
    int64_t total_byte_size;
    int64_t num_rows;
    bool has_file_offset, has_total_compressed_size, has_ordinal;
    int64_t file_offset;
    int64_t total_compressed_size;
    int16_t ordinal;
} pq_row_group;

typedef struct pq_file_meta {
    int32_t version;
    pq_schema_elem *schema;
    uint32_t schema_count;
    int64_t num_rows;
    pq_row_group *row_groups;
    uint32_t row_group_count;
    pq_kv *kv;
    uint32_t kv_count;
    const char *created_by;      /* NULL when absent */
    uint32_t column_order_count; /* ColumnOrder entries (all TYPE_ORDER when written) */
    bool encrypted;              /* encryption_algorithm present */
} pq_file_meta;

typedef struct pq_page_header {
    int type;
    int32_t uncompressed_size;
    int32_t compressed_size;
    bool has_crc;
    int32_t crc;
    bool has_data, has_dict, has_v2;
    /* DataPageHeader (v1) and DataPageHeaderV2 */
    int32_t num_values;
    int encoding;
    int def_encoding, rep_encoding; /* v1 only */
    int32_t num_nulls, num_rows;    /* v2 only */
    int32_t def_len, rep_len;       /* v2 only */
    bool is_compressed;             /* v2 only; default true */
    bool has_stats;
    pq_stats stats;
    /* DictionaryPageHeader */
    int32_t dict_num_values;
    int dict_encoding;
    bool dict_is_sorted;
} pq_page_header;

typedef struct pq_column_index {
    bool *null_pages;
    pq_bytes *min_values;
    pq_bytes *max_values;
    uint32_t page_count;
    int boundary_order;   /* 0 unordered, 1 ascending, 2 descending */
    int64_t *null_counts; /* NULL when absent */
} pq_column_index;

typedef struct pq_page_location {
    int64_t offset;
    int32_t compressed_size;
    int64_t first_row;
} pq_page_location;

typedef struct pq_offset_index {
    pq_page_location *pages;
    uint32_t page_count;
} pq_offset_index;

/* ---- decoding (each reads one struct at the reader's position) ------------------------- */

int pm_pq_read_file_meta(pm_thrift_reader *r, pm_arena *arena, pq_file_meta *out);
int pm_pq_read_page_header(pm_thrift_reader *r, pq_page_header *out);
int pm_pq_read_column_index(pm_thrift_reader *r, pm_arena *arena, pq_column_index *out);
int pm_pq_read_offset_index(pm_thrift_reader *r, pm_arena *arena, pq_offset_index *out);

/* ---- encoding ---------------------------------------------------------------------------- */

void pm_pq_write_file_meta(pm_thrift_writer *w, const pq_file_meta *m);
void pm_pq_write_page_header(pm_thrift_writer *w, const pq_page_header *h);
void pm_pq_write_column_index(pm_thrift_writer *w, const pq_column_index *ci);
void pm_pq_write_offset_index(pm_thrift_writer *w, const pq_offset_index *oi);

/* Names for `paimon file meta` (static strings; "UNKNOWN(n)" forms are not produced). */
const char *pm_pq_type_name(int type);
const char *pm_pq_encoding_name(int encoding);
const char *pm_pq_codec_name(int codec);
const char *pm_pq_converted_name(int converted);

#endif /* PM_FORMAT_PARQUET_META_H */

/*
 * Thrift compact protocol, as Parquet uses it for its footer, page headers and page indexes
 * (https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md).
 *
 *   field header   1 byte: high nibble = id delta (1..15), low nibble = type; a delta of 0
 *                  means the id follows as a zigzag varint i16; byte 0 ends a struct
 *   bool field     the value is the type nibble: 1 true, 2 false (no payload)
 *   i8             1 byte;  i16, i32, i64: zigzag ULEB128 varints
 *   double         8 bytes, little-endian
 *   binary/string  ULEB128 length, then the bytes
 *   list/set       1 byte: high nibble = size (0..14) or 15 with the size as a following
 *                  varint; low nibble = element type; bool elements are 1 byte each
 *   map            varint size; if size > 0, 1 byte: key type << 4 | value type
 *
 * The reader works on a bounded byte range that comes from an untrusted file: every length
 * is checked against what remains, element counts cannot exceed the remaining bytes (each
 * element takes at least one byte), nesting is limited to PM_THRIFT_MAX_DEPTH, and unknown
 * fields (newer parquet.thrift versions keep adding them) are skipped.  Errors are
 * PAIMON_ECORRUPT naming the path and the file offset.
 *
 * The writer appends to a pm_buf and remembers the first failure (sticky `rc`), so encoders
 * can write a whole struct and check once.
 */
#ifndef PM_FORMAT_PARQUET_THRIFT_H
#define PM_FORMAT_PARQUET_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/error.h"

enum {
    PM_TT_STOP = 0,
    PM_TT_TRUE = 1,
    PM_TT_FALSE = 2,
    PM_TT_I8 = 3,
    PM_TT_I16 = 4,
    PM_TT_I32 = 5,
    PM_TT_I64 = 6,
    PM_TT_DOUBLE = 7,
    PM_TT_BINARY = 8,
    PM_TT_LIST = 9,
    PM_TT_SET = 10,
    PM_TT_MAP = 11,
    PM_TT_STRUCT = 12
};

#define PM_THRIFT_MAX_DEPTH 64

typedef struct pm_thrift_reader {
    const uint8_t *start; /* first byte of the range */
    const uint8_t *p;     /* next byte */
    const uint8_t *end;   /* one past the last byte */
    uint64_t base_off;    /* file offset of `start`, for messages */
    const char *path;     /* file name, for messages */
    paimon_error *err;    /* where failures are reported */
    int depth;            /* struct nesting depth */
} pm_thrift_reader;

void pm_thrift_reader_init(pm_thrift_reader *r, const uint8_t *data, size_t len, uint64_t base_off,
                           const char *path, paimon_error *err);

/* File offset of the next byte. */
static inline uint64_t pm_thrift_offset(const pm_thrift_reader *r)
{
    return r->base_off + (uint64_t)(r->p - r->start);
}

/* Reports corruption at the current offset: "PATH: thrift: WHAT at offset N". */
int pm_thrift_corrupt(pm_thrift_reader *r, const char *what);

/* Struct framing: call begin before the first field, end after the stop field. */
int pm_thrift_struct_begin(pm_thrift_reader *r);
void pm_thrift_struct_end(pm_thrift_reader *r);

/* The next field header.  *type is PM_TT_STOP at the end of the struct.  `last_id` is the
 * previous field id of this struct (start at 0). */
int pm_thrift_field(pm_thrift_reader *r, int16_t *last_id, int *type, int16_t *id);

int pm_thrift_i8(pm_thrift_reader *r, int8_t *v);
int pm_thrift_i16(pm_thrift_reader *r, int16_t *v);
int pm_thrift_i32(pm_thrift_reader *r, int32_t *v);
int pm_thrift_i64(pm_thrift_reader *r, int64_t *v);
int pm_thrift_double(pm_thrift_reader *r, double *v);
/* Bytes borrowed from the range. */
int pm_thrift_binary(pm_thrift_reader *r, const uint8_t **data, uint32_t *len);
/* A bool list element (one byte). */
int pm_thrift_bool_elem(pm_thrift_reader *r, bool *v);
/* A list or set header; *count is at most the remaining byte count. */
int pm_thrift_list(pm_thrift_reader *r, int *elem_type, uint32_t *count);
/* Skips a value of `type` (a field's payload or a container element). */
int pm_thrift_skip(pm_thrift_reader *r, int type);

/* Field payload readers that check the wire type: a mismatch skips the value and leaves
 * the output untouched (*ok false), as generated Thrift code does. */
int pm_thrift_read_i32(pm_thrift_reader *r, int type, int32_t *v, bool *ok);
int pm_thrift_read_i64(pm_thrift_reader *r, int type, int64_t *v, bool *ok);
int pm_thrift_read_binary(pm_thrift_reader *r, int type, const uint8_t **data, uint32_t *len,
                          bool *ok);
/* A bool field: the value is in the type nibble. */
static inline bool pm_thrift_is_bool(int type)
{
    return type == PM_TT_TRUE || type == PM_TT_FALSE;
}

/* ---- writer ---------------------------------------------------------------------------- */

typedef struct pm_thrift_writer {
    pm_buf *out;
    int rc;                           /* first failure (0 while fine) */
    int16_t ids[PM_THRIFT_MAX_DEPTH]; /* last field id per open struct */
    int depth;                        /* open structs */
} pm_thrift_writer;

void pm_thrift_writer_init(pm_thrift_writer *w, pm_buf *out);
void pm_thrift_w_struct_begin(pm_thrift_writer *w);
void pm_thrift_w_struct_end(pm_thrift_writer *w); /* writes the stop byte */
void pm_thrift_w_field(pm_thrift_writer *w, int type, int16_t id);
void pm_thrift_w_bool(pm_thrift_writer *w, int16_t id, bool v); /* a whole bool field */
void pm_thrift_w_i32(pm_thrift_writer *w, int32_t v);
void pm_thrift_w_i64(pm_thrift_writer *w, int64_t v);
void pm_thrift_w_binary(pm_thrift_writer *w, const void *data, size_t len);
void pm_thrift_w_list(pm_thrift_writer *w, int elem_type, uint32_t count);
void pm_thrift_w_bool_elem(pm_thrift_writer *w, bool v);
/* Convenience: a field with its payload. */
void pm_thrift_w_field_i32(pm_thrift_writer *w, int16_t id, int32_t v);
void pm_thrift_w_field_i64(pm_thrift_writer *w, int16_t id, int64_t v);
void pm_thrift_w_field_binary(pm_thrift_writer *w, int16_t id, const void *data, size_t len);

#endif /* PM_FORMAT_PARQUET_THRIFT_H */

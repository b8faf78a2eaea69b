/*
 * Columnar batches: the in-memory data representation of paimon-c.
 *
 * Every reader (Parquet, ORC, Avro data files), the merge reader and every writer moves rows
 * as a pm_batch: a ROW type plus one pm_column per field.  Columns use the memory layout of
 * Apache Arrow (validity bitmap, offsets, children), so a batch leaves the library through the
 * Arrow C Data Interface (data/arrow.h, include/paimon/arrow.h) without copying a value.
 *
 * Ownership
 *   A pm_batch owns its type (a clone of the ROW type given at creation) and its columns; a
 *   pm_column owns its buffers and children and borrows its `type` from the batch's tree.
 *   pm_batch_free() releases everything.  pm_arrow_export_batch() moves the columns into
 *   ArrowArray nodes (each node owns its own buffers, so a consumer may release children on
 *   their own, as the Arrow spec allows) and frees the rest of the batch.
 *
 * Layout of a column of each Paimon type (buffers are pm_buf; `values` holds the data)
 *
 *   Paimon type                 Arrow type (format)            values / offsets / children
 *   BOOLEAN                     bool (b)                       bits, LSB first
 *   TINYINT, SMALLINT           int8 (c), int16 (s)            1, 2 bytes
 *   INT                         int32 (i)                      4 bytes
 *   BIGINT                      int64 (l)                      8 bytes
 *   FLOAT, DOUBLE               float32 (f), float64 (g)       4, 8 bytes (IEEE 754)
 *   DECIMAL(p, s)               decimal128 (d:p,s)             16 bytes: the unscaled value,
 *                                                              two's complement, little-endian
 *   CHAR, VARCHAR               utf8 (u)                       bytes + int32 offsets[length+1]
 *   BINARY, VARBINARY           binary (z)                     bytes + int32 offsets[length+1]
 *   DATE                        date32 (tdD)                   int32 days since 1970-01-01
 *   TIME(p), p <= 3             time32[ms] (ttm)               int32 milliseconds of the day
 *   TIME(p), 4 <= p <= 6        time64[us] (ttu)               int64 microseconds of the day
 *   TIME(p), p >= 7             time64[ns] (ttn)               int64 nanoseconds of the day
 *   TIMESTAMP(p)                timestamp (tss:, tsm:, tsu:,   int64 since the epoch in the
 *                               tsn:) by precision             unit of the precision: p = 0
 *                                                              seconds, 1..3 milliseconds,
 *                                                              4..6 microseconds, 7..9
 *                                                              nanoseconds (paimon-arrow's
 *                                                              ArrowFieldTypeConversion)
 *   TIMESTAMP(p) WITH LOCAL     the same with time zone "UTC"  as TIMESTAMP(p); an instant
 *   TIME ZONE                   (tsu:UTC, ...)
 *   ARRAY<T>                    list (+l)                      offsets[length+1]; children[0]
 *                                                              holds the elements
 *   MAP<K, V>                   map (+m) of struct entries     offsets[length+1]; children[0]
 *                                                              the keys, children[1] the
 *                                                              values (the "entries" struct of
 *                                                              Arrow is made on export)
 *   MULTISET<T>                 map (+m), as MAP<T, INT NOT    as MAP; the values are counts
 *                               NULL>
 *   ROW<...>                    struct (+s)                    children[i] per field, each of
 *                                                              the row's length
 *
 * TIME with a precision above 3 keeps its sub-millisecond digits here (Paimon's own rows
 * keep milliseconds only; a Parquet TIME(MICROS) read by `paimon file cat` is TIME(6)).
 *
 * Validity: bit i of `validity` is 1 when slot i holds a value.  While no slot is null the
 * bitmap is empty (validity.len == 0) and `null_count` is 0; the first null materializes it
 * with every earlier bit set.  Once materialized, validity.len == (length + 7) / 8 and bits at
 * or beyond `length` are 0.  A null slot still occupies its place in `values` (zeroed), in
 * `offsets` (an empty range) and, for ROW, in every child.  Offsets start at 0.
 *
 * Building a batch (writers, decoders, tests): either append value by value with the
 * appenders below -- scalars with pm_column_append_datum() or pm_column_append_null(); an
 * ARRAY value by appending its elements to children[0] and then pm_column_list_end(); a MAP
 * value by appending keys and values to children[0] and children[1] and then
 * pm_column_list_end(); a ROW value by appending one value to every child and then
 * pm_column_struct_end() -- and finally pm_batch_set_rows(); or, in decoders' hot loops,
 * write the buffers directly (reserve, store, bump `length`), keeping the invariants above.
 *
 * Thread safety: none; a batch belongs to one thread at a time.  A finished batch that no
 * one modifies may be read from several threads.
 */
#ifndef PM_DATA_BATCH_H
#define PM_DATA_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/datum.h"
#include "data/types.h"
#include "util/buf.h"
#include "util/error.h"

/* How a column's buffers are used (derived from its type). */
typedef enum pm_layout {
    PM_LAYOUT_BITS,   /* BOOLEAN: one bit per slot in values */
    PM_LAYOUT_FIXED,  /* fixed-width values (width bytes per slot) */
    PM_LAYOUT_VAR,    /* strings and binaries: offsets + bytes */
    PM_LAYOUT_LIST,   /* ARRAY: offsets + children[0] */
    PM_LAYOUT_MAP,    /* MAP, MULTISET: offsets + children[0] keys, children[1] values */
    PM_LAYOUT_STRUCT, /* ROW: children */
    PM_LAYOUT_NONE    /* VARIANT, BLOB: not representable */
} pm_layout;

typedef struct pm_column pm_column;

struct pm_column {
    const pm_type *type;  /* borrowed from the owning batch's type tree */
    pm_layout layout;     /* from the type */
    uint32_t width;       /* bytes per slot for PM_LAYOUT_FIXED, else 0 */
    int64_t length;       /* number of slots */
    int64_t null_count;   /* slots whose validity bit is 0 */
    pm_buf validity;      /* LSB-first bitmap; empty while no slot is null */
    pm_buf values;        /* fixed-width values, bits, or the bytes of var-width values */
    pm_buf offsets;       /* int32 offsets, length + 1 of them (VAR, LIST, MAP) */
    pm_column **children; /* owned; LIST 1, MAP 2, STRUCT field_count */
    size_t child_count;   /* entries of children */
};

typedef struct pm_batch {
    pm_type *type;       /* owned ROW type: names, types and field ids of the columns */
    int64_t row_count;   /* rows; every column has this length */
    pm_column **columns; /* owned; type->field_count of them */
    size_t column_count; /* == type->field_count */
} pm_batch;

/* The type of MULTISET counts (INT NOT NULL). */
extern const pm_type pm_multiset_count_type;

/* ---- layouts and units ----------------------------------------------------------------- */

/* The layout of a type and, for PM_LAYOUT_FIXED, its width in bytes. */
pm_layout pm_layout_of(const pm_type *t, uint32_t *width);

/* Rows per batch for a reader of `row_type` whose caller names none: 65536, fewer for wide
 * rows, so that a batch's values stay near 8 MiB however many columns the table has (600
 * INT columns at 65536 rows held 157 MB a batch).  Strings count 20 bytes a value, an
 * ARRAY or MAP value four elements; a multiple of 1024, at least 1024. */
#define PM_BATCH_DEFAULT_ROWS 65536
#define PM_BATCH_TARGET_BYTES (8u << 20)
int64_t pm_batch_default_rows(const pm_type *row_type);

/* Units per second of TIMESTAMP(p) and TIME(p) values in a batch: 1, 1000, 1000000 or
 * 1000000000 (TIME: at least 1000). */
int64_t pm_timestamp_units_per_second(int precision);
int64_t pm_time_units_per_second(int precision);

/* ---- batches and columns --------------------------------------------------------------- */

/* An empty batch of `row_type` (a ROW type, cloned).  Caller owns `*out`; release with
 * pm_batch_free().  PAIMON_EUNSUPPORTED for VARIANT and BLOB columns. */
PM_MUST_CHECK int pm_batch_new(pm_batch **out, const pm_type *row_type, paimon_error *err);
void pm_batch_free(pm_batch *b);

/* Empties the batch (row_count 0, every column length 0) and keeps the memory. */
void pm_batch_reset(pm_batch *b);

/* Sets row_count after appending to the columns; PAIMON_EINVALID (with the column name)
 * when a column's length differs. */
PM_MUST_CHECK int pm_batch_set_rows(pm_batch *b, int64_t rows, paimon_error *err);

/* A column of `type` (borrowed; it must outlive the column) with its children.  NULL on
 * allocation failure or for an unsupported type. */
pm_column *pm_column_new(const pm_type *type);
void pm_column_free(pm_column *c);
/* Points `c` and its children at `t` (borrowed), a type tree of the column's own shape, as
 * when a column moves to another batch and the tree it borrowed is freed. */
void pm_column_retype(pm_column *c, const pm_type *t);
void pm_column_reset(pm_column *c);

/* Reserves room for `n` more slots in values/offsets/validity (not in children). */
int pm_column_reserve(pm_column *c, int64_t n);

/* ---- appenders (return 0, PAIMON_ENOMEM, PAIMON_ELIMIT or PAIMON_EINVALID) ------------- */

/* A null slot; for ROW also a null in every child, for ARRAY/MAP an empty range. */
int pm_column_append_null(pm_column *c);

/* A scalar value given as a pm_datum (data/datum.h): TIMESTAMP as millis + nanos, TIME as
 * milliseconds, DECIMAL unscaled, strings and binaries as bytes.  A null datum appends a
 * null.  PAIMON_EINVALID for nested types. */
int pm_column_append_datum(pm_column *c, const pm_datum *d);

/* Fast scalar appenders without conversion (the caller knows the layout). */
int pm_column_append_i64(pm_column *c, int64_t v); /* any integer-like fixed layout */
int pm_column_append_f64(pm_column *c, double v);  /* FLOAT or DOUBLE */
int pm_column_append_bytes(pm_column *c, const void *data, size_t len); /* VAR */
int pm_column_append_raw(pm_column *c, const void *value);              /* FIXED: `width` bytes */

/* Closes one ARRAY/MAP value whose elements were appended to the children since the
 * previous slot.  `valid` false makes it null (children must then not have grown). */
int pm_column_list_end(pm_column *c, bool valid);

/* Closes one ROW value after one slot was appended to every child. */
int pm_column_struct_end(pm_column *c, bool valid);

/* Marks slot `i` (already appended) null, materializing the bitmap when needed. */
int pm_column_set_null(pm_column *c, int64_t i);

/* For code that writes a column's buffers directly: records the validity of slot c->length
 * (the caller then stores the value and bumps `length`).  Keeps the bitmap invariants. */
int pm_column_push_validity(pm_column *c, bool valid);

/* Appends slot rows[i] of column `column` of batches[i], for i < n, to `dst` (all of dst's
 * type): the gather of a merge's output, one tight loop per column. */
int pm_column_gather(pm_column *dst, const pm_batch *const *batches, const int64_t *rows, size_t n,
                     size_t column);

/* ---- reading --------------------------------------------------------------------------- */

static inline bool pm_column_is_valid(const pm_column *c, int64_t i)
{
    return c->validity.len == 0 || (c->validity.data[i >> 3] >> (i & 7)) & 1;
}

static inline int32_t pm_column_offset(const pm_column *c, int64_t i)
{
    int32_t v;
    __builtin_memcpy(&v, c->offsets.data + (size_t)i * 4, 4);
    return v;
}

/* Slot `i` of a scalar column as a pm_datum (bytes borrowed from the column).  TIMESTAMP
 * becomes millis + nanos, TIME milliseconds (floored). */
void pm_column_get_datum(const pm_column *c, int64_t i, pm_datum *out);

/* Appends the canonical JSON (shared/spec/canonical-rows.md) of slot `i`, nested types
 * included. */
PM_MUST_CHECK int pm_column_json(pm_buf *out, const pm_column *c, int64_t i, paimon_error *err);

/* Appends the canonical text of slot `i` as tables and CSV show it: the canonical JSON value
 * without the quotes of a top-level string (strings, dates, decimals, "base64:" bytes, "NaN"
 * are bare); *is_null tells a null (nothing is appended). */
PM_MUST_CHECK int pm_column_text(pm_buf *out, const pm_column *c, int64_t i, bool *is_null,
                                 paimon_error *err);

/* Appends row `row` as a canonical JSON object keyed by column name. */
PM_MUST_CHECK int pm_batch_row_json(pm_buf *out, const pm_batch *b, int64_t row, paimon_error *err);

/* Appends slot `i` of `src` to `dst` (same type), nested values included. */
int pm_column_append_from(pm_column *dst, const pm_column *src, int64_t i);

/* Appends slots idx[0..n) of `src` to `dst` (same type), in that order: buffers are copied
 * in bulk for scalar layouts (batch_take.c).  0, PAIMON_ENOMEM or PAIMON_ELIMIT. */
int pm_column_take(pm_column *dst, const pm_column *src, const int64_t *idx, int64_t n);

/* pm_column_take() over every column; dst->row_count grows by n. */
PM_MUST_CHECK int pm_batch_take(pm_batch *dst, const pm_batch *src, const int64_t *idx, int64_t n,
                                paimon_error *err);

/* A new batch of the rows of `b` whose byte in `select` is nonzero, in order.  Caller owns
 * `*out`; release with pm_batch_free(). */
PM_MUST_CHECK int pm_batch_filter(const pm_batch *b, const uint8_t *select, pm_batch **out,
                                  paimon_error *err);

/* Whether the batch is whole: one column per field of its type, each of row_count slots.
 * Debug builds assert it where batches are filtered and where they leave the library
 * (data/arrow.c); producers that fill columns directly must keep it. */
bool pm_batch_is_aligned(const pm_batch *b);

/* Checks the invariants of every column (lengths, offsets monotonic and in range, bitmap
 * sizes, null counts).  For tests and after imports; PAIMON_EINVALID names the column. */
PM_MUST_CHECK int pm_batch_validate(const pm_batch *b, paimon_error *err);

#endif /* PM_DATA_BATCH_H */

/*
 * Internals of the input reader (data/input.h), shared by its files:
 *
 *   input.c           the reader: sources (FILE, buffer), records, batches, open/next/free
 *   input_jsonl.c     JSONL rows
 *   input_csv.c       CSV header and records
 *   input_debezium.c  Debezium events and the encodings their schema names
 *   input_json.c      the JSON tokenizer and JSON values into columns (nested included)
 *   input_text.c      scalar values from text (numbers, decimals, dates and times, base64,
 *                     UTF-8), appended to columns
 *
 * Values are parsed straight into the batch's columns: no DOM, no per-value allocation.
 * Text is never NUL-terminated; every parser takes (pointer, length) and checks bounds.
 */
#ifndef PM_DATA_INPUT_INT_H
#define PM_DATA_INPUT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "data/batch.h"
#include "data/input.h"
#include "util/buf.h"
#include "util/error.h"

/* Deepest nesting of JSON values (arrays and objects) the reader walks, whatever the type:
 * bounds the recursion on hostile input. */
#define PM_INPUT_MAX_DEPTH 64

/* ---- Debezium encodings --------------------------------------------------------------- */

/* How Debezium's JSON converter encoded a value, from the envelope's schema. */
typedef enum pm_input_enc_kind {
    PM_ENC_NONE,        /* the canonical form */
    PM_ENC_DATE_DAYS,   /* io.debezium.time.Date, org.apache.kafka.connect.data.Date */
    PM_ENC_TIME_MILLIS, /* io.debezium.time.Time, org.apache.kafka.connect.data.Time */
    PM_ENC_TIME_MICROS, /* io.debezium.time.MicroTime */
    PM_ENC_TIME_NANOS,  /* io.debezium.time.NanoTime */
    PM_ENC_TS_MILLIS,   /* io.debezium.time.Timestamp, org.apache.kafka.connect.data.Timestamp */
    PM_ENC_TS_MICROS,   /* io.debezium.time.MicroTimestamp */
    PM_ENC_TS_NANOS,    /* io.debezium.time.NanoTimestamp */
    PM_ENC_ZONED,       /* io.debezium.time.ZonedTimestamp / ZonedTime: ISO text with offset */
    PM_ENC_DECIMAL,     /* org.apache.kafka.connect.data.Decimal: base64 unscaled, scale */
    PM_ENC_VAR_DECIMAL, /* io.debezium.data.VariableScaleDecimal: {"scale", "value"} */
    PM_ENC_BYTES,       /* Connect "bytes" without a logical name: bare base64 */
    PM_ENC_BITS,        /* io.debezium.data.Bits: bare base64, little-endian */
} pm_input_enc_kind;

typedef struct pm_input_enc pm_input_enc;

/* The encoding of one value, shaped like the Paimon type it is read into: `fields` is
 * aligned with the fields of a ROW type (NULL entries: canonical), `items` is the element
 * of an ARRAY/MULTISET or the key of a MAP, `values` the value of a MAP.  Built per
 * envelope schema, in an arena. */
struct pm_input_enc {
    pm_input_enc_kind kind; /* for scalars */
    int32_t scale;          /* PM_ENC_DECIMAL: the schema's "scale" parameter */
    const char *name;       /* the schema's logical name, for messages (may be NULL) */
    pm_input_enc *items;    /* ARRAY, MULTISET element; MAP key */
    pm_input_enc *values;   /* MAP value */
    pm_input_enc **fields;  /* ROW: one per field of the Paimon type, or NULL */
};

/* ---- parse context -------------------------------------------------------------------- */

/* One step of the path to a nested value, for messages. */
typedef struct pm_input_step {
    const char *field; /* ROW field name, or NULL for an index */
    int64_t index;     /* ARRAY/MAP position when field is NULL */
    int8_t part;       /* MAP: 1 key, 2 value; else 0 */
} pm_input_step;

typedef struct pm_input_ctx {
    paimon_error *err;
    bool debezium;                          /* Debezium input: mention encodings in messages */
    int64_t line;                           /* first physical line of the current record */
    const char *column;                     /* top-level column being read, or NULL */
    int depth;                              /* entries of path in use */
    pm_input_step path[PM_INPUT_MAX_DEPTH]; /* path below `column` */
    pm_buf unescaped;                       /* JSON strings that had escapes */
    pm_buf decoded;                         /* base64 decoded bytes */
} pm_input_ctx;

/* "line L, column C: " + message, PAIMON_EINVALID.  Returns the code. */
int pm_input_fail(pm_input_ctx *x, const char *fmt, ...) PM_PRINTF(2, 3);
/* A pm_buf failure (ENOMEM/ELIMIT) with the position. */
int pm_input_fail_buf(pm_input_ctx *x, int rc);

/* A printable excerpt of `len` bytes for messages: at most 48 characters, control and
 * non-UTF-8 bytes escaped, "..." when cut.  Returns `out` (PM_INPUT_SHOW_CAP bytes). */
#define PM_INPUT_SHOW_CAP 160
const char *pm_input_show(char *out, const uint8_t *s, size_t len);

/* The type as messages name it ("DECIMAL(10, 2)"), in a static-free caller buffer. */
const char *pm_input_type_name(char *out, size_t cap, const pm_type *t);

/* ---- appending slots ------------------------------------------------------------------- */

/* Sets the validity bit of the slot being appended (index c->length) when the column has
 * a bitmap; false when that needs the general path (the bitmap must grow). */
static inline bool pm_input_mark_valid(pm_column *c)
{
    size_t byte = (size_t)(c->length >> 3);
    if (c->validity.len == 0)
        return true;
    if (byte == c->validity.len) {
        if (c->validity.len + 1 >= c->validity.cap)
            return false;
        c->validity.data[c->validity.len++] = 0;
    }
    c->validity.data[byte] |= (uint8_t)(1u << (c->length & 7));
    return true;
}

/* Appends one fixed-width valid value (`width` bytes). */
static inline int pm_input_put_fixed(pm_column *c, const void *v)
{
    if (c->values.len + c->width < c->values.cap && pm_input_mark_valid(c)) {
        memcpy(c->values.data + c->values.len, v, c->width);
        c->values.len += c->width;
        c->length++;
        return 0;
    }
    return pm_column_append_raw(c, v);
}

/* Appends one valid variable-width value (string or binary bytes). */
static inline int pm_input_put_bytes(pm_column *c, const uint8_t *s, size_t n)
{
    if (c->values.len + n < c->values.cap && c->offsets.len + 4 < c->offsets.cap &&
        c->values.len + n <= INT32_MAX && pm_input_mark_valid(c)) {
        int32_t off;
        if (n > 0)
            memcpy(c->values.data + c->values.len, s, n);
        c->values.len += n;
        off = (int32_t)c->values.len;
        memcpy(c->offsets.data + c->offsets.len, &off, 4);
        c->offsets.len += 4;
        c->length++;
        return 0;
    }
    return pm_column_append_bytes(c, s, n);
}

/* Appends a null after checking nullability ("is null, but the column is NOT NULL"). */
int pm_input_put_null(pm_input_ctx *x, pm_column *c);

/* ---- scalar text (input_text.c) -------------------------------------------------------- */

/* Appends the value of a scalar column read from its canonical text (CSV fields, JSON
 * strings): s[0..len) is the text without quotes or escapes.  For a nested column the
 * text is parsed as JSON.  `enc` may name a Debezium string encoding (PM_ENC_BYTES,
 * PM_ENC_ZONED, PM_ENC_DECIMAL), else NULL. */
int pm_input_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len,
                  const pm_input_enc *enc);

/* Integer, float and double text as JSON numbers or CSV fields. */
int pm_input_int_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len);
int pm_input_real_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len);
int pm_input_decimal_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len);

/* [+-]?digits: 0, 1 not an integer, 2 out of the int64 range. */
int pm_input_parse_i64(const uint8_t *s, size_t len, int64_t *out);

/* m * 10^e10 (negated when `neg`) when it can be computed exactly rounded without strtod. */
bool pm_input_exact_double(uint64_t m, int64_t e10, bool neg, double *out);

/* DATE, TIME(p) (`zoned`: an offset may follow), TIMESTAMP(p) and LTZ from text
 * (input_time.c). */
int pm_input_date_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len);
int pm_input_time_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len, bool zoned);
int pm_input_timestamp_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len);

/* "YYYY-MM-DD HH:MM:SS[.F{1,9}]" exactly: 0 with the day, the seconds of the day and the
 * nanoseconds, 1 otherwise (the general parser then decides). */
int pm_input_timestamp_fixed(const uint8_t *s, size_t len, int64_t *days, int64_t *secs,
                             int64_t *nanos);
/* 10^(9 - p): the nanoseconds one unit of precision p spans. */
int64_t pm_input_nanos_per_unit(int precision);
/* Stores epoch seconds + nanos into a TIMESTAMP(p) column (an error when out of range;
 * `s` is the text for the message). */
int pm_input_put_timestamp(pm_input_ctx *x, pm_column *c, int64_t secs, int64_t nanos,
                           const uint8_t *s, size_t len);

/* A Debezium number encoding (epoch days, millis, micros, nanos) into a DATE, TIME or
 * TIMESTAMP column; the number is given as its text. */
int pm_input_epoch_number(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len,
                          const pm_input_enc *enc);
/* A Connect Decimal: big-endian two's complement `bytes` with `scale`, into DECIMAL. */
int pm_input_decimal_unscaled(pm_input_ctx *x, pm_column *c, const uint8_t *bytes, size_t len,
                              int64_t scale, const uint8_t *shown, size_t shown_len);

/* Standard base64 (padding optional) into `out`.  -1 when malformed. */
int pm_input_base64_decode(pm_buf *out, const uint8_t *s, size_t len);

/* ---- fast paths (input_fast.c) --------------------------------------------------------- */

/* The common shapes of the canonical form, appended without the general parser: 1 when the
 * value was appended, 0 when nothing was and the general parser must read it (it accepts
 * everything these accept, with the same result, and reports every error), -1 when out of
 * memory.  pm_input_fast_text takes a CSV field, pm_input_fast_json a JSON value at the
 * cursor (moved past it on 1). */
int pm_input_fast_text(pm_input_ctx *x, pm_column *c, const uint8_t *s, size_t len);

/* ---- JSON (input_json.c) --------------------------------------------------------------- */

/* A cursor over JSON text. */
typedef struct pm_input_cur {
    const uint8_t *p;
    const uint8_t *end;
} pm_input_cur;

int pm_input_fast_json(pm_input_ctx *x, pm_input_cur *c, pm_column *col);

static inline void pm_input_ws(pm_input_cur *c)
{
    /* the usual case, no whitespace at all, costs two comparisons */
    while (c->p < c->end && *c->p <= ' ' &&
           (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n'))
        c->p++;
}

/* Reads a JSON string at the cursor (which is on the opening quote): *s, *len is its
 * content, unescaped into `scratch` when it has escapes, else pointing into the input.
 * With `scratch` NULL the string is only checked (*s, *len untouched).  Malformed strings
 * (raw control characters, bad escapes, lone surrogates, unterminated) are an error. */
int pm_input_json_string(pm_input_ctx *x, pm_input_cur *c, pm_buf *scratch, const uint8_t **s,
                         size_t *len);

/* Skips one JSON value (any type), checking its syntax; nesting limited. */
int pm_input_json_skip(pm_input_ctx *x, pm_input_cur *c);

/* Walks the members of the JSON object at the cursor (which is on its '{'), through the
 * closing '}': for each member its key (unescaped into `scratch` when it has escapes; with
 * `scratch` NULL only checked, and `key` is NULL) and `fn`, which must read or skip the
 * value at the cursor (just past the ':').  `key_what` names a key in "expected" errors.
 * 0, or the first error (fn's own passed through). */
typedef int (*pm_input_member_fn)(void *arg, pm_input_ctx *x, pm_input_cur *c, const uint8_t *key,
                                  size_t key_len);
int pm_input_json_members(pm_input_ctx *x, pm_input_cur *c, pm_buf *scratch, const char *key_what,
                          pm_input_member_fn fn, void *arg);

/* Reads one JSON value into one slot of `col` (whitespace before it skipped). */
int pm_input_json_value(pm_input_ctx *x, pm_input_cur *c, pm_column *col, const pm_input_enc *enc);

/* The index of the field of `row` named s[0..len), trying `hint` first; -1 if none. */
long pm_input_field_index(const pm_type *row, const uint8_t *s, size_t len, size_t hint);

/* "expected X, got Y" for the JSON token at the cursor. */
int pm_input_json_wrong(pm_input_ctx *x, pm_input_cur *c, const char *expected);

/* The end of the JSON number token at `p` (strict JSON grammar); NULL when malformed. */
const uint8_t *pm_input_json_number_end(const uint8_t *p, const uint8_t *end, bool *is_integer);

/* ---- the reader (input.c) -------------------------------------------------------------- */

typedef struct pm_input_dbz pm_input_dbz;

struct pm_row_input {
    pm_input_format format;
    pm_type *row_type;      /* owned clone of the table's ROW type */
    pm_batch *batch;        /* owned; refilled by every pm_input_next() */
    pm_buf kinds;           /* int8 row kind per row of the batch */
    pm_buf lines;           /* int64 first line per row of the batch */
    int64_t rows;           /* rows appended to the batch so far */
    int64_t batch_rows;     /* at most this many rows per batch */
    size_t max_record_len;  /* longest record */
    size_t read_len;        /* bytes per fread */
    FILE *file;             /* borrowed source, or NULL for a buffer */
    pm_buf buf;             /* FILE: the bytes read and not yet consumed */
    const uint8_t *data;    /* the caller's buffer, or buf.data */
    size_t len;             /* bytes at data */
    size_t pos;             /* next unread byte of data */
    bool eof;               /* the source has no more bytes */
    int64_t line;           /* physical line number of data[pos] */
    bool started;           /* the byte-order mark check is done */
    int state;              /* 0 reading, 1 at the end, 2 failed */
    paimon_error failure;   /* the error that ended the reader (ctx.err points here) */
    pm_input_ctx ctx;       /* parse context of the current record */
    uint32_t *slots;        /* open-addressed hash of column names: index + 1, 0 empty */
    size_t slot_mask;       /* slots - 1 (a power of two minus one) */
    size_t *name_len;       /* per column: strlen of its name */
    bool *name_plain;       /* per column: its name needs no JSON escaping */
    uint64_t *name_word;    /* per column: the first 8 bytes of its name, zero padded */
    bool fast;              /* use the fast paths (off: PM_INPUT_NO_FAST_PATHS) */
    uint32_t *seen;         /* per column: the row generation that set it */
    uint32_t gen;           /* current row generation */
    bool header_done;       /* CSV: header read */
    long *csv_cols;         /* CSV: per header field, the column index, -1 for _ROW_KIND */
    size_t csv_field_count; /* CSV: fields of the header */
    bool csv_all_columns;   /* CSV: the header names every column (no nulls to fill) */
    pm_buf field;           /* CSV: a quoted field with its doubled quotes undone */
    pm_input_dbz *dbz;      /* Debezium state (schema cache), or NULL */
};

/* Makes more bytes available: data[pos..len) is kept (moved to the front for a FILE).
 * 1 when bytes were added, 0 at the end of the source, or an error. */
int pm_input_fill(pm_row_input *in);

/* The next physical line, without its LF (and CR before it), consumed; in->ctx.line is set
 * to its number.  1 with a line, 0 at the end, or an error.  Valid until the next call. */
int pm_input_next_line(pm_row_input *in, const uint8_t **s, size_t *len);

/* The column named s[0..len), or -1. */
long pm_input_column_index(pm_row_input *in, const uint8_t *s, size_t len);

/* Records the row just appended to every column: its kind and line. */
int pm_input_row_done(pm_row_input *in, int8_t kind);

/* Starts a row: a new generation for `seen`. */
void pm_input_row_begin(pm_row_input *in);

/* Appends nulls to the columns the row did not set (an error for NOT NULL columns). */
int pm_input_row_fill_nulls(pm_row_input *in);

/* "+I", "-U", "+U", "-D" to a kind; -1 for anything else. */
int pm_input_kind_parse(const uint8_t *s, size_t len);

/* The formats: each reads one record and appends its rows (0 rows for an empty line or a
 * tombstone).  1 when a record was read, 0 at the end of the input, or an error. */
int pm_input_jsonl_record(pm_row_input *in);
int pm_input_csv_record(pm_row_input *in);
int pm_input_debezium_record(pm_row_input *in);
void pm_input_debezium_free(pm_input_dbz *d);

#endif /* PM_DATA_INPUT_INT_H */

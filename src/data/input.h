/*
 * Input rows for writes: JSONL, CSV and Debezium JSON turned into columnar batches.
 *
 * A pm_row_input reads rows from a FILE or a memory buffer and returns them as pm_batches of the
 * table's row type, at most `batch_rows` rows each, with a parallel vector of row kinds
 * (RowKind byte values: 0 +I, 1 -U, 2 +U, 3 -D).  Memory is bounded by one batch plus the
 * longest record, never by the input size.  The three forms are those of the `paimon write`
 * contract (shared/DESIGN.md):
 *
 *  - JSONL: one object per line in the canonical form (shared/spec/canonical-rows.md), keys
 *    matched to columns by name, a missing key is NULL, an unknown key is an error, empty
 *    lines are skipped; an optional "_ROW_KIND" key holds "+I", "-U", "+U" or "-D" (default
 *    "+I").
 *  - CSV (RFC 4180): a header row names the columns (any order; unknown names are errors,
 *    missing columns are NULL); an empty unquoted field is NULL, `""` the empty string;
 *    values are the canonical form's text (strings unquoted, nested values as their JSON);
 *    quoted fields may span lines; CRLF or LF; an optional `_ROW_KIND` column.
 *  - Debezium JSON: one change event per line, with or without the schema/payload envelope;
 *    op c and r give +I of `after`, u gives -U of `before` (fields missing from `before`
 *    taken from `after`, as Java's Debezium parser merges them; none when `before` is null)
 *    then +U of `after`, d gives -D of `before`.  Values are canonical, or encoded as
 *    Debezium's JSON converter encodes them when the envelope's schema names the encoding.
 *    Tombstones (a line `null`, or a null payload) are skipped.
 *
 * How values are read (docs/format/input.md has the full table): every value is checked
 * against its column type, and nothing is ever rounded, truncated or padded silently:
 *  - TINYINT..BIGINT: integer literals in range.  FLOAT/DOUBLE: numbers, or "NaN",
 *    "Infinity", "-Infinity".  BOOLEAN: true/false.
 *  - DECIMAL(p, s): a string or a number; more fractional digits than s (other than trailing
 *    zeros) or more than p - s integer digits is an error, where Java's cast would round or
 *    give null.
 *  - CHAR(n)/VARCHAR(n): valid UTF-8 of at most n characters (code points); longer values
 *    are an error, where Java's cast would truncate; CHAR values are stored as given, not
 *    padded (Flink's default sink behaviour; canonical rows print the stored value).
 *  - BINARY(n)/VARBINARY(n): "base64:" + standard base64; at most n bytes, not padded.
 *  - DATE, TIME(p), TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE: the canonical text
 *    ('T' is accepted for the space; a time-zone offset or Z is accepted on timestamps and
 *    the value converted to UTC); fractional digits beyond p that are not zeros are an
 *    error, where Java's cast would floor.
 *  - NOT NULL columns (and NOT NULL nested elements and fields) reject null and absence.
 *
 * Errors: malformed or invalid input is PAIMON_EINVALID with a message naming the record's
 * first physical line (1-based), the column (with a path into nested values, `tags[2]`,
 * `m[0].key`, `r.x`) and what is wrong, e.g.
 *   "line 17, column amount: 12.345 has more digits than DECIMAL(10, 2) allows".
 * An error ends the reader: the rows before the bad record are still returned (its batch is
 * cut there), then pm_input_next() returns the error, and the same error on every later
 * call; so the rows a reader returns never depend on the batch size.
 * Read errors of the FILE are PAIMON_EIO; a record longer than `max_record_len` is
 * PAIMON_ELIMIT.  No input, whatever its bytes, makes the reader crash or allocate more
 * than the bounds above.
 *
 * Thread safety: none; one thread per reader.  Readers are independent of each other.
 */
#ifndef PM_DATA_INPUT_H
#define PM_DATA_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "data/batch.h"
#include "data/types.h"
#include "util/buf.h"
#include "util/error.h"

typedef enum pm_input_format {
    PM_INPUT_JSONL,         /* canonical JSON rows, one object per line */
    PM_INPUT_CSV,           /* RFC 4180 with a header row */
    PM_INPUT_DEBEZIUM_JSON, /* Debezium change events, one per line */
} pm_input_format;

/* Row kinds as returned in `kinds` (the RowKind byte values of BinaryRow and the LSM). */
#define PM_INPUT_KIND_INSERT        0 /* +I */
#define PM_INPUT_KIND_UPDATE_BEFORE 1 /* -U */
#define PM_INPUT_KIND_UPDATE_AFTER  2 /* +U */
#define PM_INPUT_KIND_DELETE        3 /* -D */

typedef struct pm_input_options {
    int64_t batch_rows;    /* at most this many rows per batch; 0: 4096 */
    size_t max_record_len; /* longest line or CSV record in bytes; 0: 64 MiB */
    size_t read_len;       /* bytes read from a FILE at a time; 0: 1 MiB (tests use tiny ones) */
    unsigned flags;        /* PM_INPUT_NO_FAST_PATHS */
} pm_input_options;

#define PM_INPUT_OPTIONS_INIT                                                                      \
    {                                                                                              \
        0, 0, 0, 0                                                                                 \
    }

/* Parse every value with the general parser only (tests and the fuzz target compare the two
 * ways: the fast paths must never change a result). */
#define PM_INPUT_NO_FAST_PATHS 1u

typedef struct pm_row_input pm_row_input;

/* "jsonl", "csv" or "debezium-json" (the `paimon write --format` names).  PAIMON_EINVALID
 * for another name. */
PM_MUST_CHECK int pm_input_format_parse(const char *name, pm_input_format *out, paimon_error *err);
const char *pm_input_format_name(pm_input_format format);

/* Opens a reader of `file` (borrowed; it must stay open until pm_input_free(), which does
 * not close it).  `row_type` is the table's ROW type (cloned); `opts` may be NULL.  Caller
 * owns `*out`; release with pm_input_free().  PAIMON_EUNSUPPORTED for a row type with
 * VARIANT or BLOB columns. */
PM_MUST_CHECK int pm_input_open_file(pm_row_input **out, pm_input_format format, FILE *file,
                                     const pm_type *row_type, const pm_input_options *opts,
                                     paimon_error *err);

/* The same over `len` bytes at `data` (borrowed; valid until pm_input_free()). */
PM_MUST_CHECK int pm_input_open_buffer(pm_row_input **out, pm_input_format format, const void *data,
                                       size_t len, const pm_type *row_type,
                                       const pm_input_options *opts, paimon_error *err);

/* Reads the next rows: 0 with `*batch` holding 1..batch_rows rows and `*kinds` one kind per
 * row; PAIMON_ITEROVER at the end of the input; or an error (see the top).  Borrowed: the
 * batch and the kinds are the reader's and stay valid until the next call or
 * pm_input_free().  The caller may modify or pm_batch_reset() the batch. */
PM_MUST_CHECK int pm_input_next(pm_row_input *in, pm_batch **batch, const int8_t **kinds,
                                paimon_error *err);

/* The input line (1-based, where the record starts) of row `row` of the last batch, for the
 * messages of later checks (a primary key that is null, a partition value). */
int64_t pm_input_row_line(const pm_row_input *in, int64_t row);

/* Parses one value from its text as the CSV form writes it (strings as they are, nested
 * values as their JSON, every check above applied) and appends it to `c`, a column of the
 * value's type: the one parser for values given as text outside an input (partition specs,
 * paimon_writer_write_row's nested values).  PAIMON_EINVALID says why: after "column
 * NAME[i].field: " when `column` names the value's column (the path inside a nested value
 * included), else without a position (the caller names the value). */
PM_MUST_CHECK int pm_input_value(pm_column *c, const char *column, const uint8_t *s, size_t len,
                                 paimon_error *err);

/* Releases the reader (and its batch).  Accepts NULL. */
void pm_input_free(pm_row_input *in);

/* Appends one CSV field with the quoting rules of `paimon cat --format csv`: quoted when
 * empty, when it holds a comma, a quote, CR or LF, or when it starts or ends with a space;
 * quotes doubled.  (A NULL is written as nothing, with no call.)  For tests and tools that
 * produce CSV this reader reads back. */
int pm_input_csv_field(pm_buf *out, const char *text, size_t len);

#endif /* PM_DATA_INPUT_H */

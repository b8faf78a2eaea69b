/*
 * paimon-c: single data files.
 *
 * Opens one data file of a table (or any Parquet file) on its own, without the table's
 * metadata, as `paimon file cat` and `paimon file meta` do.  The format is chosen by the
 * file's magic bytes (Parquet today; ORC and Avro data files later); another magic is
 * PAIMON_EUNSUPPORTED.  A bare file does not carry Paimon types, so its columns get the
 * types Java Paimon reads them as (shared/spec/canonical-rows.md, "A single data file"):
 * e.g. Parquet TIMESTAMP(MICROS) is TIMESTAMP(6), INT96 is TIMESTAMP(9), a LIST is ARRAY.
 *
 * Two ways to get the rows:
 *  - row at a time as canonical JSON (the form of canonical-rows.md) or canonical text per
 *    value: paimon_file_read(), then paimon_file_next_row() and the accessors;
 *  - batches through the Arrow C Stream Interface (paimon/arrow.h): paimon_file_stream(),
 *    self-contained, with zero-copy columns (Arrow formats per type: paimon/arrow.h).
 *
 * Thread safety: one thread per paimon_file at a time; an ArrowArrayStream from
 * paimon_file_stream() is independent of any paimon_file.
 */
#ifndef PAIMON_FILE_H
#define PAIMON_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/arrow.h"
#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_file paimon_file;

/* Opens the data file at `path` (a local path).  PAIMON_ENOTFOUND when it does not exist,
 * PAIMON_EUNSUPPORTED for an unknown format, PAIMON_ECORRUPT (with the offset) for a
 * malformed footer.  Caller owns `*out`; release with paimon_file_free(). */
PAIMON_API int paimon_file_open(paimon_file **out, const char *path, paimon_error *err);

/* Releases the file and everything borrowed from it.  NULL is allowed. */
PAIMON_API void paimon_file_free(paimon_file *file);

/* The format's name, "parquet".  Borrowed; valid until the file is freed. */
PAIMON_API const char *paimon_file_format(const paimon_file *file);

/* The file's columns as a Paimon ROW type string, e.g.
 * "ROW<id BIGINT NOT NULL, tags ARRAY<STRING>>".  Borrowed; valid until the file is freed. */
PAIMON_API const char *paimon_file_schema(const paimon_file *file);

/* The number of columns, and each column's name and type string ("DECIMAL(18, 2)").
 * Borrowed; valid until the file is freed.  NULL for an index out of range. */
PAIMON_API size_t paimon_file_column_count(const paimon_file *file);
PAIMON_API const char *paimon_file_column_name(const paimon_file *file, size_t column);
PAIMON_API const char *paimon_file_column_type(const paimon_file *file, size_t column);

/* Rows recorded in the file's footer. */
PAIMON_API int64_t paimon_file_row_count(const paimon_file *file);

/* A human-readable description of the file's layout: schema, row groups, column chunks
 * (encodings, codec, sizes, pages) and statistics -- what `paimon file meta` prints.
 * Borrowed; valid until the next call or paimon_file_free(). */
PAIMON_API int paimon_file_describe(paimon_file *file, const char **text, paimon_error *err);

/* What to read.  Version the struct with PAIMON_FILE_READ_OPTIONS_INIT. */
typedef struct paimon_file_read_options {
    unsigned int version;       /* PAIMON_FILE_READ_OPTIONS_VERSION */
    const char *const *columns; /* names of the columns to read, in output order; NULL: all */
    size_t column_count;
    int64_t batch_rows;        /* rows per batch; 0: the default (65536) */
    const int64_t *row_ranges; /* [start, end) row position pairs, sorted and disjoint;
                                   NULL: every row */
    size_t row_range_count;    /* number of pairs */
} paimon_file_read_options;

#define PAIMON_FILE_READ_OPTIONS_VERSION 1
#define PAIMON_FILE_READ_OPTIONS_INIT                                                              \
    {                                                                                              \
        PAIMON_FILE_READ_OPTIONS_VERSION, NULL, 0, 0, NULL, 0                                      \
    }

/* Starts (or restarts) reading rows; `options` may be NULL.  A column name that is not in
 * the file is PAIMON_ENOTFOUND, a name given twice PAIMON_EINVALID. */
PAIMON_API int paimon_file_read(paimon_file *file, const paimon_file_read_options *options,
                                paimon_error *err);

/* The columns being read (after paimon_file_read()): their number and names.  Borrowed;
 * valid until the next paimon_file_read() or paimon_file_free(). */
PAIMON_API size_t paimon_file_read_column_count(const paimon_file *file);
PAIMON_API const char *paimon_file_read_column_name(const paimon_file *file, size_t column);

/* Moves to the next row: 0, or PAIMON_ITEROVER after the last one. */
PAIMON_API int paimon_file_next_row(paimon_file *file, paimon_error *err);

/* The current row as one canonical JSON object (no newline), keys in column order.
 * Borrowed; valid until the next call of any function on `file`. */
PAIMON_API int paimon_file_row_json(paimon_file *file, const char **json, size_t *len,
                                    paimon_error *err);

/* One value of the current row as canonical text: the canonical JSON value, except that
 * top-level strings (STRING, DATE, DECIMAL, "base64:" bytes, ...) are given without their
 * quotes and escapes, as CSV and tables show them; *text is NULL for a null.  Borrowed;
 * valid until the next call of any function on `file`. */
PAIMON_API int paimon_file_value_text(paimon_file *file, size_t column, const char **text,
                                      size_t *len, paimon_error *err);

/* Opens `path` and returns its rows as an Arrow stream of struct arrays (one child per
 * column; the schema from get_schema()), `options` as for paimon_file_read().  The stream
 * is self-contained.  On success the caller owns `*out` and must call out->release(out). */
PAIMON_API int paimon_file_stream(const char *path, const paimon_file_read_options *options,
                                  struct ArrowArrayStream *out, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_FILE_H */

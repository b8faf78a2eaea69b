/*
 * paimon-c: single data files.
 *
 * Opens one data file of a table (or any Parquet, ORC or Avro data file) on its own, without
 * the table's metadata, as `paimon file cat` and `paimon file meta` do.  The format is chosen
 * by the file's magic bytes (Parquet "PAR1", ORC "ORC", Avro "Obj\x01"); another magic is
 * PAIMON_EUNSUPPORTED.  A bare file does not carry Paimon types, so its columns get the types
 * Java Paimon reads them as (shared/spec/canonical-rows.md, "A single data file"): e.g.
 * Parquet TIMESTAMP(MICROS) is TIMESTAMP(6), INT96 is TIMESTAMP(9), a LIST is ARRAY.
 *
 * The rows come out through a cursor (paimon/cursor.h): paimon_file_cursor() with the
 * columns and row ranges to read, then row at a time (canonical JSON, or canonical text per
 * value) or as an Arrow stream with zero-copy columns (paimon_cursor_arrow_stream()).
 *
 * Thread safety: one thread per paimon_file at a time; a cursor of a file reads through its
 * own handle and is independent of the paimon_file (and of other cursors).
 */
#ifndef PAIMON_FILE_H
#define PAIMON_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/arrow.h"
#include "paimon/cursor.h"
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

/* The format's name: "parquet", "orc" or "avro".  Borrowed; valid until the file is freed. */
PAIMON_API const char *paimon_file_format(const paimon_file *file);

/* The file's columns as a Paimon ROW type string, e.g.
 * "ROW<id BIGINT NOT NULL, tags ARRAY<STRING>>".  Borrowed; valid until the file is freed. */
PAIMON_API const char *paimon_file_schema(const paimon_file *file);

/* The number of columns, and each column's name and type string ("DECIMAL(18, 2)").
 * Borrowed; valid until the file is freed.  NULL for an index out of range. */
PAIMON_API size_t paimon_file_column_count(const paimon_file *file);
PAIMON_API const char *paimon_file_column_name(const paimon_file *file, size_t column);
PAIMON_API const char *paimon_file_column_type(const paimon_file *file, size_t column);

/* The file's rows: from the footer (Parquet, ORC), or counted over the blocks (Avro). */
PAIMON_API int64_t paimon_file_row_count(const paimon_file *file);

/* A human-readable description of the file's layout -- what `paimon file meta` prints: the
 * schema and the format's own structure (Parquet: row groups and column chunks with their
 * encodings, codecs, sizes, pages and statistics; ORC: the footer and stripes; Avro: codec,
 * rows and the writer schema).
 * Borrowed; valid until the next call or paimon_file_free(). */
PAIMON_API int paimon_file_describe(paimon_file *file, const char **text, paimon_error *err);

/* What to read.  Version the struct with PAIMON_FILE_READ_OPTIONS_INIT or
 * paimon_file_read_options_init(); NULL options read every column of every row. */
typedef struct paimon_file_read_options {
    unsigned int version;       /* PAIMON_FILE_READ_OPTIONS_VERSION */
    const char *const *columns; /* names of the columns to read, in output order; NULL: all */
    size_t column_count;
    int64_t batch_rows;        /* rows per batch; 0: 65536, fewer for wide rows (about
                                  8 MiB of values a batch, at least 1024 rows) */
    const int64_t *row_ranges; /* [start, end) row position pairs, sorted and disjoint;
                                   NULL: every row */
    size_t row_range_count;    /* number of pairs */
    unsigned int threads;      /* version 2: sections of the file read at once on the
                                  library's thread pool; 0 (the default) the processors
                                  online, 1 the calling thread only.  The rows and their
                                  order do not depend on it (batch boundaries may).  Files
                                  read with row_ranges are read on one thread. */
} paimon_file_read_options;

#define PAIMON_FILE_READ_OPTIONS_VERSION 2 /* version 1 (without threads) is still accepted */
#define PAIMON_FILE_READ_OPTIONS_INIT                                                              \
    {                                                                                              \
        PAIMON_FILE_READ_OPTIONS_VERSION, NULL, 0, 0, NULL, 0, 0                                   \
    }

/* Fills `options` with the defaults of version `version` of the struct (normally
 * PAIMON_FILE_READ_OPTIONS_VERSION), as PAIMON_FILE_READ_OPTIONS_INIT does, writing only the
 * bytes that version has.  0, or PAIMON_EINVALID for a version this library does not know. */
PAIMON_API int paimon_file_read_options_init(paimon_file_read_options *options,
                                             unsigned int version);

/* A cursor over the file's rows; `options` may be NULL (every column and row).  Its columns
 * are the selected ones, in the order given.  A column name that is not in the file is
 * PAIMON_ENOTFOUND, a name given twice PAIMON_EINVALID.  The cursor opens the file again on
 * a handle of its own: it (and its Arrow stream) may outlive `file`, and several cursors of
 * one file may be read at once.  `options` is borrowed for the call only.  Caller owns
 * `*out`; release with paimon_cursor_free(). */
PAIMON_API int paimon_file_cursor(paimon_cursor **out, paimon_file *file,
                                  const paimon_file_read_options *options, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_FILE_H */

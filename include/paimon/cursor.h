/*
 * paimon-c: cursors, the one way rows come out of the library.
 *
 * A paimon_cursor walks rows of any source, whatever it is (LevelDB's leveldb_iterator_t is
 * the model): every split of a scan or one split (paimon_scan_cursor(),
 * paimon_scan_split_cursor(), paimon/scan.h), the changes of a snapshot
 * (paimon_changes_cursor(), paimon/changes.h), or a single data file (paimon_file_cursor(),
 * paimon/file.h).  The same accessors serve them all:
 *
 *   paimon_cursor *cur;
 *   paimon_scan_cursor(&cur, scan, &err);
 *   while ((rc = paimon_cursor_next(cur, &err)) == 0) {
 *       paimon_cursor_row_json(cur, &json, &len, &err);         // {"id":1,"name":"a"}
 *       paimon_cursor_value_text(cur, 1, &text, &len, &err);    // a
 *   }
 *   // rc == PAIMON_ITEROVER: every row was read
 *   paimon_cursor_free(cur);
 *
 * or hands the rows on as an Arrow stream (paimon_cursor_arrow_stream()), which is how an
 * engine reads a split without a copy.  A change cursor's column 0 is `_ROW_KIND` STRING NOT
 * NULL ("+I", "-U", "+U", "-D"); paimon_cursor_row_kind() gives it as a PAIMON_ROW_* value,
 * and is PAIMON_ROW_INSERT for every row of a batch read.
 *
 * These functions replace the three row readers of paimon-c 0.1.0 (paimon_rows_*,
 * paimon_file_next_row and its accessors, paimon_changes_next_row and its accessors,
 * paimon_file_stream, paimon_changes_read and paimon_scan_read_split): removed in 0.2
 * without deprecation, since no release carried them.
 *
 * Ownership: every cursor is the caller's (release with paimon_cursor_free()); it borrows
 * its source (the scan, the table of a change read) as the function that made it says.
 * Strings returned by the accessors are borrowed and valid until the next call on the
 * cursor.
 *
 * Thread safety: one thread per cursor at a time.  Cursors of different splits of one scan
 * may run on different threads at once.
 */
#ifndef PAIMON_CURSOR_H
#define PAIMON_CURSOR_H

#include <stddef.h>
#include <stdint.h>

#include "paimon/arrow.h"
#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct paimon_cursor paimon_cursor;

/* Row kinds (Java's RowKind bytes): paimon_cursor_row_kind() and the writers' rows. */
#define PAIMON_ROW_INSERT        0 /* +I */
#define PAIMON_ROW_UPDATE_BEFORE 1 /* -U */
#define PAIMON_ROW_UPDATE_AFTER  2 /* +U */
#define PAIMON_ROW_DELETE        3 /* -D */

/* Moves to the next row: 0, PAIMON_ITEROVER after the last one (and on every later call),
 * or an error (the read failed: a corrupt or missing file, PAIMON_ENOMEM...), after which
 * only paimon_cursor_free() is meaningful. */
PAIMON_API int paimon_cursor_next(paimon_cursor *cursor, paimon_error *err);

/* The cursor's columns: their number, names and type strings ("DECIMAL(18, 2)",
 * "STRING NOT NULL").  Valid before the first row and after the last.  Borrowed; valid
 * until the cursor is freed.  NULL for a column out of range. */
PAIMON_API size_t paimon_cursor_column_count(const paimon_cursor *cursor);
PAIMON_API const char *paimon_cursor_column_name(const paimon_cursor *cursor, size_t column);
PAIMON_API const char *paimon_cursor_column_type(const paimon_cursor *cursor, size_t column);

/* One value of the current row as canonical text (shared/spec/canonical-rows.md): the
 * canonical JSON value, except that a top-level string (STRING, DATE, DECIMAL, "base64:"
 * bytes, ...) comes without its quotes and escapes, as CSV and tables show it.  *text is NULL
 * for a null; *len (len may be NULL) is its length in bytes (a value may hold NUL bytes).
 * Borrowed; valid until the next call on the cursor.  PAIMON_EINVALID without a current
 * row or for a column out of range. */
PAIMON_API int paimon_cursor_value_text(paimon_cursor *cursor, size_t column, const char **text,
                                        size_t *len, paimon_error *err);

/* The current row as one canonical JSON object (no newline), keys in column order.
 * Borrowed; valid until the next call on the cursor.  PAIMON_EINVALID without a current
 * row. */
PAIMON_API int paimon_cursor_row_json(paimon_cursor *cursor, const char **json, size_t *len,
                                      paimon_error *err);

/* The current row's kind: PAIMON_ROW_INSERT .. PAIMON_ROW_DELETE (the `_ROW_KIND` column of
 * a change cursor; PAIMON_ROW_INSERT for every other cursor), or PAIMON_EINVALID without a
 * current row. */
PAIMON_API int paimon_cursor_row_kind(const paimon_cursor *cursor);

/* The cursor's remaining rows -- those paimon_cursor_next() has not yet returned -- as an
 * Arrow stream of struct arrays, one child per column (formats: paimon/arrow.h).  The rows
 * left in the current batch come first, as a batch of their own.  On success the caller owns
 * `*out` and calls out->release(out) once.
 *
 * Afterwards the cursor has handed over its rows: paimon_cursor_next() returns
 * PAIMON_ITEROVER, there is no current row, and the column functions still work.  The cursor
 * may be freed at once; the stream does not need it.  What the cursor borrowed must outlive
 * the stream as it must outlive the cursor: the scan (and its table) for a scan's cursor,
 * the table for a change cursor; a data file's cursor borrows nothing.  A second call gives
 * an empty stream. */
PAIMON_API int paimon_cursor_arrow_stream(paimon_cursor *cursor, struct ArrowArrayStream *out,
                                          paimon_error *err);

/* Releases the cursor (and every string borrowed from it).  NULL is allowed. */
PAIMON_API void paimon_cursor_free(paimon_cursor *cursor);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_CURSOR_H */

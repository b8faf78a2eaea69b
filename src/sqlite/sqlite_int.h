/*
 * The SQLite virtual-table module `paimon` (docs/SQL.md): shared declarations of the files of
 * src/sqlite/.  The layer is a client of the public API (include/paimon.h) like the command
 * line, and of SQLite through its extension header, so the same sources build both the loadable
 * extension libpaimon_sqlite (calls through the host's sqlite3_api table) and the copy linked into
 * the `paimon` command (SQLITE_CORE: direct calls).
 *
 *   module.c   xCreate/xConnect (arguments, columns, time travel), xBestIndex (pushdown and
 *              costs), xFilter and the cursor, the registration and SQL functions
 *   batch.c    the fast read path: values straight from the cursor's Arrow batches
 *   values.c   Paimon types <-> SQLite values: affinities, results, filter literals, the
 *              checks of written values
 *   txn.c      writes: xUpdate into a per-transaction buffer, savepoints, one commit at
 *              xSync, nothing on rollback
 *   txn_arrow.c  the columnar transaction buffer, written as Arrow batches at the commit
 *   json_check.c nested columns on write: their JSON checked at the statement
 *   warehouse.c  each database of a warehouse attached as a schema (paimon sql)
 *
 * Thread safety: a virtual table and its cursors belong to their SQLite connection, which
 * SQLite uses from one thread at a time.
 */
#ifndef PM_SQLITE_INT_H
#define PM_SQLITE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "paimon.h"
#include <sqlite3ext.h>

#ifndef SQLITE_CORE
extern const sqlite3_api_routines *sqlite3_api;
#endif

/* As the library's src/util/error.h, which this layer cannot include: a function returning
 * an error code it was given a paimon_error for must have its result checked. */
#ifndef PM_MUST_CHECK
#define PM_MUST_CHECK __attribute__((warn_unused_result))
#endif

/* How a Paimon column is shown to SQLite (docs/SQL.md, "Types"). */
typedef enum ps_class {
    PS_INT,       /* TINYINT..BIGINT: INTEGER */
    PS_BOOL,      /* BOOLEAN: INTEGER 0/1 */
    PS_FLOAT,     /* FLOAT: REAL */
    PS_DOUBLE,    /* DOUBLE: REAL; NaN as the TEXT 'NaN' (SQLite has no NaN) */
    PS_DECIMAL,   /* DECIMAL(p, s): REAL when p <= 15 (exact), else TEXT */
    PS_TEXT,      /* CHAR, VARCHAR, STRING: TEXT */
    PS_BLOB,      /* BINARY, VARBINARY, BYTES: BLOB */
    PS_DATE,      /* TEXT 'YYYY-MM-DD' */
    PS_TIME,      /* TEXT 'HH:MM:SS[.f]' */
    PS_TIMESTAMP, /* TEXT 'YYYY-MM-DD HH:MM:SS[.f]' (WITH LOCAL TIME ZONE: in UTC) */
    PS_JSON       /* ARRAY, MAP, MULTISET, ROW: TEXT holding the canonical JSON */
} ps_class;

typedef struct ps_column {
    char *name;      /* the Paimon column name */
    char *type;      /* the Paimon type without NOT NULL ("DECIMAL(18, 2)") */
    ps_class cls;    /* how SQLite sees it */
    int precision;   /* DECIMAL p, TIME/TIMESTAMP p (-1: none) */
    int scale;       /* DECIMAL s */
    int not_null;    /* NOT NULL in the schema */
    int is_pk;       /* a primary-key column */
    int is_part;     /* a partition key */
    int64_t min_int; /* PS_INT: the range of the type */
    int64_t max_int;
} ps_column;

/* One buffered change (txn.c): its kind and its values, one allocation. */
typedef struct ps_change {
    int8_t kind;        /* PAIMON_ROW_* */
    uint32_t chunk;     /* the arena chunk holding it (txn.c) */
    paimon_value *vals; /* per column, as paimon_writer_write_row() takes them; texts and
                           bytes point into the same allocation */
} ps_change;

/* What the old row of an UPDATE or DELETE held, captured at xRowid. */
typedef struct ps_stash {
    char **texts; /* per column: canonical text or NULL (null); NULL array: not captured */
    size_t *lens;
} ps_stash;

typedef struct ps_module ps_module;
typedef struct ps_colbuf ps_colbuf; /* txn_arrow.c: one column of the columnar buffer */

typedef struct ps_vtab {
    sqlite3_vtab base;   /* must be first */
    sqlite3 *db;         /* the connection */
    ps_module *mod;      /* counters shared by the connection's tables */
    char *name;          /* the SQL name of the virtual table */
    char *path;          /* the table root */
    char *system;        /* system table name, or NULL */
    int64_t snapshot_id; /* time travel: > 0 a snapshot */
    char *tag;           /* time travel: a tag, or NULL */
    int use_timestamp;   /* time travel: timestamp_millis */
    int64_t timestamp_millis;
    int read_only;       /* system table or time travel: xUpdate refuses */
    paimon_table *table; /* the open table */
    ps_column *cols;     /* the columns, in schema order */
    size_t col_count;
    int has_pk;         /* a primary-key table */
    int64_t est_rows;   /* rows of the latest snapshot's files (manifests), -1 unknown */
    int64_t rowid_next; /* the next rowid handed out by xRowid in this transaction */
    ps_stash *stash;    /* old rows by rowid - 1 (xRowid), for UPDATE and DELETE */
    size_t stash_count, stash_cap;
    ps_change **changes; /* buffered changes of the open transaction, in order */
    size_t change_count, change_cap;
    size_t *savepoints;    /* change_count at each open savepoint level */
    paimon_value *scratch; /* xUpdate's old and new rows and number texts (txn.c) */
    char **chunks;         /* the changes' arena (txn.c): chunks filled in order */
    size_t *chunk_caps;    /* their sizes */
    size_t chunk_count, chunk_slots;
    size_t chunk_used; /* bytes used in the last chunk */
    size_t savepoint_cap;
    int columnar;       /* 1: changes go to the columnar buffer (txn_arrow.c), -1: to the
                           arena of ps_change rows, 0: not decided yet */
    ps_colbuf *colbufs; /* the columnar buffer: one per column, or NULL */
    int8_t *kinds;      /* its row kinds */
    size_t rows_cap;    /* its capacity in rows (change_count rows used) */
} ps_vtab;

/* Counters of the connection, for tests and EXPLAIN-like checks (paimon_stats()). */
struct ps_module {
    int64_t scans;   /* scans planned by xFilter */
    int64_t splits;  /* their splits */
    int64_t files;   /* their data files */
    int64_t rows;    /* rows handed to SQLite */
    int64_t commits; /* snapshots committed by xSync */
};

/* ---- module.c ------------------------------------------------------------------------- */

/* Registers the module `paimon` and the function paimon_stats() on `db`. */
int ps_register(sqlite3 *db, char **errmsg);

/* ---- batch.c -------------------------------------------------------------------------- */

/* The rows of a cursor as its Arrow stream: the fast path of xColumn for the classes
 * ps_batch_supported() accepts. */
#define PS_BATCH_MAX_COLUMNS 64
typedef struct ps_batch {
    struct ArrowArrayStream stream;     /* the cursor's remaining rows */
    struct ArrowArray array;            /* the current batch (release NULL: none) */
    int64_t row;                        /* the current row in it */
    size_t column_count;                /* the stream's columns */
    char formats[PS_BATCH_MAX_COLUMNS]; /* the first letter of each column's format */
} ps_batch;

int ps_batch_supported(const ps_column *col);
/* Takes the cursor's rows (it is left without any); 0, or an SQLite code and *errmsg. */
int ps_batch_open(ps_batch *b, paimon_cursor *cur, char **errmsg);
/* Moves to the next row; *eof at the end. */
int ps_batch_next(ps_batch *b, int *eof, char **errmsg);
/* The value of the stream's column `column` in the current row. */
void ps_batch_result(const ps_batch *b, sqlite3_context *ctx, size_t column);
void ps_batch_close(ps_batch *b);

/* ---- values.c ------------------------------------------------------------------------- */

/* Parses a type string of the public API ("DECIMAL(18, 2) NOT NULL") into `col` (name and
 * is_pk are set by the caller).  0, or -1 without memory. */
int ps_column_init(ps_column *col, const char *type);
void ps_column_clear(ps_column *col);

/* The declared SQL type of the column: its affinity (docs/SQL.md), naming the Paimon
 * type where the affinity is right; NULL for DECIMAL, declared as DECIMAL(p, s).  Static. */
const char *ps_column_decltype(const ps_column *col);

/* Sets the SQLite result of one value given as the cursor's canonical text (NULL: null). */
void ps_result(sqlite3_context *ctx, const ps_column *col, const char *text, size_t len);

/* Appends to `out` the Paimon filter literal for comparing `col` with `v` ("12", "'a''b'",
 * "DATE '2026-04-19'"), when that comparison means what SQLite's comparison of the column's
 * value with `v` means; returns 0 when appended, 1 when the constraint is not pushed. */
int ps_literal(sqlite3_str *out, const ps_column *col, sqlite3_value *v);

/* Checks a value written into `col` and gives it as the writer takes it (integers,
 * booleans and doubles as such; decimals, dates, times, timestamps and strings as text;
 * binary as bytes).  Text and bytes are borrowed from `v` or written into `scratch` (at
 * least 48 bytes): copy them before `v` goes away.  0, or an SQLite error code with *errmsg
 * (sqlite3_malloc'd) naming `table` and the column. */
int ps_value_get(const char *table, const ps_column *col, sqlite3_value *v, paimon_value *out,
                 char *scratch, size_t scratch_len, char **errmsg);

/* Standard base64 of `len` bytes into a sqlite3_malloc'd string; and back (NULL when `text`
 * is not base64), *out_len receiving the byte count. */
char *ps_base64_encode(const unsigned char *bytes, size_t len);
unsigned char *ps_base64_decode(const char *text, size_t len, size_t *out_len);

/* ---- txn.c ---------------------------------------------------------------------------- */

int ps_xupdate(sqlite3_vtab *vtab, int argc, sqlite3_value **argv, sqlite3_int64 *rowid);
int ps_xbegin(sqlite3_vtab *vtab);
int ps_xsync(sqlite3_vtab *vtab);
int ps_xcommit(sqlite3_vtab *vtab);
int ps_xrollback(sqlite3_vtab *vtab);
int ps_xsavepoint(sqlite3_vtab *vtab, int level);
int ps_xrelease(sqlite3_vtab *vtab, int level);
int ps_xrollback_to(sqlite3_vtab *vtab, int level);
/* Captures the cursor's current row as the old row of rowid `rowid` (xRowid). */
int ps_stash_row(ps_vtab *vt, paimon_cursor *cur, const size_t *proj, int64_t rowid);
/* Drops the buffered changes and old rows (end of a transaction, disconnect). */
void ps_txn_reset(ps_vtab *vt);

/* ---- txn_arrow.c ---------------------------------------------------------------------- */

/* Sets up the columnar buffer of `vt` when every column takes the Arrow batch path: 1 (set
 * up, or already), 0 (the table keeps the row path), -1 without memory. */
int ps_cols_init(ps_vtab *vt);
/* Appends one change (change_count is its row and grows by one): SQLITE_OK or SQLITE_NOMEM
 * (nothing appended).  Texts and bytes of `vals` are copied. */
int ps_cols_append(ps_vtab *vt, int8_t kind, const paimon_value *vals);
/* Cuts the string bytes back to `rows` rows (the caller sets change_count). */
void ps_cols_truncate(ps_vtab *vt, size_t rows);
/* Frees the columnar buffer (vt->colbufs NULL after). */
void ps_cols_free(ps_vtab *vt);
/* Writes every buffered change of `vt` (columnar) into `w` as Arrow batches; `schema` is
 * the writer's.  0, or the library's error code in `err`. */
PM_MUST_CHECK int ps_write_arrow(ps_vtab *vt, paimon_writer *w, const struct ArrowSchema *schema,
                                 paimon_error *err);

/* ---- json_check.c --------------------------------------------------------------------- */

/* NULL when `text` is one well-formed JSON value of the shape of nested column `col`, else
 * why not ("is not valid JSON").  Static strings. */
const char *ps_json_check(const ps_column *col, const char *text, size_t len);

/* ---- warehouse.c ---------------------------------------------------------------------- */

/* Attaches each database DB.db of the local warehouse `dir` as an in-memory schema DB holding
 * one virtual table per Paimon table (DB.TABLE).  `sql` (may be NULL) is the text to run:
 * past SQLite's limit of attached schemas only the databases it names are attached. */
int ps_attach_warehouse(sqlite3 *db, const char *dir, const char *sql, char **errmsg);

#endif /* PM_SQLITE_INT_H */

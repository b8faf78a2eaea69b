/*
 * paimon-c: SQL over Paimon tables through SQLite (docs/SQL.md).
 *
 * The SQLite virtual-table module `paimon` lives in libpaimon_sqlite, a loadable SQLite
 * extension (`.load libpaimon_sqlite` in the sqlite3 shell, load_extension() in Python),
 * and is linked into the `paimon` command (`paimon sql`).  Programs that link SQLite and
 * libpaimon_sqlite themselves call these functions directly.  This header needs <sqlite3.h>
 * and is not part of the umbrella header paimon.h.
 *
 * Thread safety: as SQLite's: a connection and its virtual tables are used by one thread at
 * a time.
 */
#ifndef PAIMON_SQLITE_H
#define PAIMON_SQLITE_H

#include <sqlite3.h>

#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The extension's entry point: registers the module `paimon` and the function
 * paimon_stats() on `db`.  `api` is NULL when called directly.  SQLITE_OK, or an SQLite code
 * with *errmsg (sqlite3_free it) saying why. */
PAIMON_API int sqlite3_paimon_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api);

/* Attaches every database DB.db of the warehouse `dir` as an in-memory schema DB
 * holding one virtual table per Paimon table, so that SQL names them DB.TABLE.  SQLite
 * attaches at most 10 schemas: beyond that, only the databases whose names occur in `sql`
 * (may be NULL) are attached.  A warehouse on an object store (`s3://...`), which the API
 * does not list, attaches only the tables `sql` names as DB.TABLE that exist there.  The
 * module must be registered first.  SQLITE_OK, or an
 * SQLite code with *errmsg (sqlite3_free it) naming the database or table. */
PAIMON_API int paimon_sqlite_attach_warehouse(sqlite3 *db, const char *dir, const char *sql,
                                              char **errmsg);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_SQLITE_H */

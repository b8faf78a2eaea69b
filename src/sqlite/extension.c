/*
 * The entry points of libpaimon_sqlite (include/paimon/sqlite.h): sqlite3_paimon_init, the
 * name SQLite derives from the file name as well (sqlite3_paimonsqlite_init, so that
 * `.load libpaimon_sqlite` needs no entry-point argument), and the warehouse attachment.
 */
#include "paimon/sqlite.h"
#include "sqlite_int.h"

#ifndef SQLITE_CORE
SQLITE_EXTENSION_INIT1
#endif

PAIMON_API int sqlite3_paimon_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
#ifndef SQLITE_CORE
    SQLITE_EXTENSION_INIT2(api);
#else
    (void)api;
#endif
    return ps_register(db, errmsg);
}

PAIMON_API int sqlite3_paimonsqlite_init(sqlite3 *db, char **errmsg,
                                         const sqlite3_api_routines *api);
PAIMON_API int sqlite3_paimonsqlite_init(sqlite3 *db, char **errmsg,
                                         const sqlite3_api_routines *api)
{
    return sqlite3_paimon_init(db, errmsg, api);
}

PAIMON_API int paimon_sqlite_attach_warehouse(sqlite3 *db, const char *dir, const char *sql,
                                              char **errmsg)
{
    return ps_attach_warehouse(db, dir, sql, errmsg);
}

/*
 * A warehouse as SQL schemas (paimon sql --warehouse DIR, docs/SQL.md): each database
 * folder DB.db of a local warehouse becomes an attached in-memory schema DB, and each table
 * folder in it (one holding schema/) a `paimon` virtual table DB.TABLE there.  The
 * in-memory schemas hold nothing but the virtual tables' declarations.
 *
 * SQLite attaches at most SQLITE_LIMIT_ATTACHED schemas (10 in Debian's build); a larger
 * warehouse attaches only the databases whose names occur in the SQL to run.
 *
 * A warehouse on an object store (`s3://BUCKET/wh`) cannot be listed through the public
 * API, so there the tables are those the SQL names as DB.TABLE and that exist (their
 * schema/ folder holds objects: paimon_path_exists()).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "sqlite_int.h"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the entries of `dir` that pass `keep`, sorted.  Caller frees each and the
 * array (sqlite3_free); NULL with *count 0 when there are none. */
static char **list_dir(const char *dir, int (*keep)(const char *dir, const char *name),
                       size_t *count)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    *count = 0;
    if (d == NULL)
        return NULL;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !keep(dir, e->d_name))
            continue;
        if (n == cap) {
            cap = cap == 0 ? 16 : cap * 2;
            char **grown = sqlite3_realloc64(names, cap * sizeof(*grown));
            if (grown == NULL)
                break;
            names = grown;
        }
        if ((names[n] = sqlite3_mprintf("%s", e->d_name)) == NULL)
            break;
        n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof(*names), by_name);
    *count = n;
    return names;
}

static void free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        sqlite3_free(names[i]);
    sqlite3_free(names);
}

static int keep_database(const char *dir, const char *name)
{
    size_t n = strlen(name);
    char *path;
    int ok;
    if (n <= 3 || strcmp(name + n - 3, ".db") != 0)
        return 0;
    path = sqlite3_mprintf("%s/%s", dir, name);
    ok = path != NULL && is_dir(path);
    sqlite3_free(path);
    return ok;
}

static int keep_table(const char *dir, const char *name)
{
    char *path = sqlite3_mprintf("%s/%s/schema", dir, name);
    int ok = path != NULL && is_dir(path);
    sqlite3_free(path);
    return ok;
}

/* `name` occurs in `sql` as a word (any case). */
static int named_in(const char *sql, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = sql; p != NULL && *p != '\0'; p++)
        if (strncasecmp(p, name, n) == 0 &&
            (p == sql || !(p[-1] == '_' || isalnum((unsigned char)p[-1]))) &&
            !(p[n] == '_' || isalnum((unsigned char)p[n])))
            return 1;
    return 0;
}

/* Reads an identifier at *p (a word, or one in double quotes without doubled quotes) into
 * `out` (cap bytes): 1 and *p past it, or 0. */
static int ident(const char **p, char *out, size_t cap)
{
    const char *s = *p, *start;
    size_t n;
    if (*s == '"') {
        start = ++s;
        while (*s != '\0' && *s != '"')
            s++;
        if (*s != '"')
            return 0;
        n = (size_t)(s - start);
        s++;
    } else {
        start = s;
        while (*s == '_' || isalnum((unsigned char)*s))
            s++;
        n = (size_t)(s - start);
    }
    if (n == 0 || n >= cap)
        return 0;
    memcpy(out, start, n);
    out[n] = '\0';
    *p = s;
    return 1;
}

/* `dir` is on an object store (s3://...), whose folders the public API does not list. */
static int is_remote(const char *dir)
{
    const char *colon = strstr(dir, "://");
    return colon != NULL && strncasecmp(dir, "file://", 7) != 0;
}

/* A warehouse on an object store: every DB.TABLE the SQL names (outside string literals)
 * whose table exists there (DB.db/TABLE/schema holds objects) becomes a virtual table in a
 * schema DB, attached on first use; other names are left to SQLite ("no such table"). */
static int attach_named(sqlite3 *db, const char *dir, const char *sql, char **errmsg)
{
    char a[256], b[256];
    char *stmt = NULL, *path = NULL;
    int rc = SQLITE_OK;
    for (const char *p = sql; p != NULL && *p != '\0';) {
        if (*p == '\'') { /* a string literal: skip it ('' inside) */
            for (p++; *p != '\0' && !(*p == '\'' && p[1] != '\''); p += *p == '\'' ? 2 : 1)
                ;
            if (*p != '\0')
                p++;
            continue;
        }
        const char *q = p;
        int at_word =
            (p == sql || !(p[-1] == '_' || p[-1] == '.' || isalnum((unsigned char)p[-1])));
        if (!at_word || !ident(&q, a, sizeof(a)) || *q != '.') {
            p++;
            continue;
        }
        q++;
        if (!ident(&q, b, sizeof(b))) {
            p++;
            continue;
        }
        p = q;
        bool exists = false;
        paimon_error err = {0, {0}};
        path = sqlite3_mprintf("%s/%s.db/%s", dir, a, b);
        char *schema = path == NULL ? NULL : sqlite3_mprintf("%s/schema", path);
        if (schema == NULL) {
            rc = SQLITE_NOMEM;
            goto done;
        }
        if (paimon_path_exists(schema, &exists, &err) != 0) {
            sqlite3_free(schema);
            *errmsg = sqlite3_mprintf("paimon: %s: %s", path, err.message);
            rc = SQLITE_ERROR;
            goto done;
        }
        sqlite3_free(schema);
        if (exists) {
            int attached = 0;
            sqlite3_stmt *st = NULL;
            if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_database_list WHERE name = ?1", -1,
                                   &st, NULL) == SQLITE_OK) {
                sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
                attached = sqlite3_step(st) == SQLITE_ROW;
            }
            sqlite3_finalize(st);
            if (!attached) {
                stmt = sqlite3_mprintf("ATTACH ':memory:' AS \"%w\"", a);
                if (stmt == NULL || (rc = sqlite3_exec(db, stmt, NULL, NULL, errmsg)) != SQLITE_OK)
                    goto done;
                sqlite3_free(stmt);
            }
            stmt = sqlite3_mprintf(
                "CREATE VIRTUAL TABLE IF NOT EXISTS \"%w\".\"%w\" USING paimon('%q')", a, b, path);
            if (stmt == NULL || (rc = sqlite3_exec(db, stmt, NULL, NULL, errmsg)) != SQLITE_OK)
                goto done;
            sqlite3_free(stmt);
            stmt = NULL;
        }
        sqlite3_free(path);
        path = NULL;
    }
done:
    sqlite3_free(stmt);
    sqlite3_free(path);
    return rc;
}

int ps_attach_warehouse(sqlite3 *db, const char *dir, const char *sql, char **errmsg)
{
    size_t db_count = 0, table_count = 0;
    char **dbs = NULL, **tables = NULL, *stmt = NULL, *db_dir = NULL;
    int rc = SQLITE_OK, attached = 0, limit = sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, -1);

    if (is_remote(dir))
        return attach_named(db, dir, sql, errmsg);
    if (!is_dir(dir)) {
        *errmsg = sqlite3_mprintf("paimon: %s: no such warehouse directory", dir);
        return SQLITE_ERROR;
    }
    dbs = list_dir(dir, keep_database, &db_count);
    for (size_t i = 0; i < db_count; i++) {
        dbs[i][strlen(dbs[i]) - 3] = '\0'; /* DB.db -> DB */
        if ((int)db_count > limit && (sql == NULL || !named_in(sql, dbs[i])))
            continue;
        if (attached == limit) {
            *errmsg = sqlite3_mprintf("paimon: %s: the SQL names more than %d databases, "
                                      "SQLite's limit of attached schemas",
                                      dir, limit);
            rc = SQLITE_ERROR;
            goto done;
        }
        stmt = sqlite3_mprintf("ATTACH ':memory:' AS \"%w\"", dbs[i]);
        if (stmt == NULL || (rc = sqlite3_exec(db, stmt, NULL, NULL, errmsg)) != SQLITE_OK)
            goto done;
        sqlite3_free(stmt);
        stmt = NULL;
        attached++;
        db_dir = sqlite3_mprintf("%s/%s.db", dir, dbs[i]);
        tables = db_dir == NULL ? NULL : list_dir(db_dir, keep_table, &table_count);
        for (size_t k = 0; k < table_count; k++) {
            stmt = sqlite3_mprintf("CREATE VIRTUAL TABLE \"%w\".\"%w\" USING paimon('%q/%q')",
                                   dbs[i], tables[k], db_dir, tables[k]);
            if (stmt == NULL || (rc = sqlite3_exec(db, stmt, NULL, NULL, errmsg)) != SQLITE_OK)
                goto done;
            sqlite3_free(stmt);
            stmt = NULL;
        }
        free_names(tables, table_count);
        tables = NULL;
        table_count = 0;
        sqlite3_free(db_dir);
        db_dir = NULL;
    }
done:
    sqlite3_free(stmt);
    sqlite3_free(db_dir);
    free_names(tables, table_count);
    free_names(dbs, db_count);
    return rc;
}

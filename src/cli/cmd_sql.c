/*
 * paimon sql [--warehouse DIR] [--format table|jsonl|csv] ['SQL' | < file.sql]
 *
 * Runs SQL over Paimon tables in SQLite (docs/SQL.md) through the virtual-table module
 * `paimon` (include/paimon/sqlite.h), linked into the command.  With --warehouse every
 * database DB.db of the warehouse is an attached schema and every table in it DB.TABLE;
 * without, CREATE VIRTUAL TABLE t USING paimon('PATH') names tables by hand.  Statements run
 * in order; each one that returns rows prints them:
 *   jsonl  one JSON object per row; a column that comes straight from a Paimon column is
 *          printed in the canonical form (shared/spec/canonical-rows.md) by its declared type
 *          (BOOLEAN true/false, DECIMAL(p, s) "12.30", FLOAT and DOUBLE shortest, JSON
 *          nested values as JSON, BLOB "base64:..."), so `SELECT * FROM db.t` prints what
 *          `paimon cat` prints; other values as SQLite holds them
 *   csv    RFC 4180 with a header row (a null is an empty field)
 *   table  aligned, NULL for a null (the default)
 * A failing statement stops the run: "paimon: MESSAGE", exit 1; what SQLite committed
 * before it stays committed (each statement outside BEGIN..COMMIT is its own transaction).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "paimon/sqlite.h"

static const char USAGE[] =
    "usage: paimon sql [--warehouse DIR] [--format table|jsonl|csv] ['SQL' | < file.sql]\n"
    "\n"
    "Runs SQL statements over Paimon tables with SQLite (docs/SQL.md).  --warehouse DIR\n"
    "attaches each database DB.db of the warehouse as schema DB, its tables as DB.TABLE:\n"
    "  paimon sql --warehouse wh 'SELECT dt, COUNT(*) FROM shop.orders GROUP BY dt'\n"
    "Without it, name tables by hand:\n"
    "  CREATE VIRTUAL TABLE t USING paimon('wh/shop.db/orders' [, 'snapshot=N' |\n"
    "                                       'tag=NAME' | 'timestamp=MILLIS'])\n"
    "  ('wh/shop.db/orders$snapshots' reads a system table).\n"
    "INSERT, UPDATE and DELETE write the table: one transaction is one commit.\n"
    "Without SQL on the command line, statements are read from stdin.\n"
    "--format: table (default; aligned), jsonl (a column straight from a Paimon column\n"
    "in the canonical form of `paimon cat`), csv (RFC 4180 with a header).\n";

static const cli_option OPTIONS[] = {
    {"warehouse", true, false},
    {"format", true, false},
    {NULL, false, false},
};

/* The shortest text of `v` that reads back as the same double (or float, when `single`),
 * with the canonical form's exponent ("1e-7"). */
static void shortest(char *buf, size_t len, double v, int single)
{
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, v);
        if (single ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v)
            break;
    }
    char *e = strchr(buf, 'e');
    if (e != NULL) {
        char *d = e + 1, *s = e + 1;
        if (*s == '+')
            s++;
        else if (*s == '-')
            *d++ = *s++;
        while (*s == '0' && s[1] != '\0')
            s++;
        memmove(d, s, strlen(s) + 1);
    }
}

static int decl_is(const char *decl, const char *name)
{
    size_t n = strlen(name);
    return decl != NULL && strncmp(decl, name, n) == 0 && (decl[n] == '\0' || decl[n] == '(');
}

/* The scale of DECIMAL(p, s), -1 for another type. */
static int decimal_scale(const char *decl)
{
    const char *comma;
    if (!decl_is(decl, "DECIMAL") || (comma = strchr(decl, ',')) == NULL)
        return -1;
    return (int)strtol(comma + 1, NULL, 10);
}

/* The text of column `i` of the current row (NULL for a null) and whether the JSON form is
 * a string.  *owned receives what to free (sqlite3_free). */
static const char *value_text(sqlite3_stmt *st, int i, int *is_string, char *buf, size_t len,
                              char **owned)
{
    const char *decl = sqlite3_column_decltype(st, i);
    int type = sqlite3_column_type(st, i), scale = decimal_scale(decl);
    *owned = NULL;
    *is_string = 0;
    switch (type) {
    case SQLITE_NULL: return NULL;
    case SQLITE_INTEGER:
        if (decl_is(decl, "BOOLEAN"))
            return sqlite3_column_int64(st, i) ? "true" : "false";
        if (scale >= 0) {
            *is_string = 1;
            snprintf(buf, len, "%lld", (long long)sqlite3_column_int64(st, i));
            if (scale > 0) {
                size_t n = strlen(buf);
                buf[n] = '.';
                for (int k = 0; k < scale && n + 2 + (size_t)k < len; k++)
                    buf[n + 1 + (size_t)k] = '0';
                buf[n + 1 + (size_t)scale] = '\0';
            }
            return buf;
        }
        snprintf(buf, len, "%lld", (long long)sqlite3_column_int64(st, i));
        return buf;
    case SQLITE_FLOAT: {
        double v = sqlite3_column_double(st, i);
        if (scale >= 0) {
            *is_string = 1;
            snprintf(buf, len, "%.*f", scale, v);
            return buf;
        }
        if (isinf(v)) {
            *is_string = 1;
            return v > 0 ? "Infinity" : "-Infinity";
        }
        shortest(buf, len, v, decl_is(decl, "FLOAT"));
        return buf;
    }
    case SQLITE_BLOB: {
        const unsigned char *b = sqlite3_column_blob(st, i);
        size_t n = (size_t)sqlite3_column_bytes(st, i);
        sqlite3_str *s = sqlite3_str_new(NULL);
        static const char B64[] =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        sqlite3_str_appendall(s, "base64:");
        for (size_t k = 0; k < n; k += 3) {
            unsigned v = (unsigned)b[k] << 16 | (k + 1 < n ? (unsigned)b[k + 1] << 8 : 0) |
                         (k + 2 < n ? b[k + 2] : 0);
            char q[4] = {B64[(v >> 18) & 63], B64[(v >> 12) & 63],
                         k + 1 < n ? B64[(v >> 6) & 63] : '=', k + 2 < n ? B64[v & 63] : '='};
            sqlite3_str_append(s, q, 4);
        }
        *owned = sqlite3_str_finish(s);
        *is_string = 1;
        if (*owned == NULL)
            cli_oom();
        return *owned;
    }
    default:
        /* Nested columns hold canonical JSON; every other text is a string. */
        *is_string = !decl_is(decl, "JSON");
        return (const char *)sqlite3_column_text(st, i);
    }
}

/* Prints the rows of one statement: 0, or the SQLite error code. */
static int print_rows(sqlite3_stmt *st, cli_format format)
{
    int n = sqlite3_column_count(st), rc = SQLITE_DONE;
    cli_table *table = NULL;
    const char **cells = cli_calloc((size_t)n + 1, sizeof(char *));
    char **owned = cli_calloc((size_t)n + 1, sizeof(char *));
    char(*bufs)[64] = cli_calloc((size_t)n + 1, sizeof(*bufs));
    long long rows = 0;

    if (n == 0) { /* no result columns (INSERT, CREATE...): run it, print nothing */
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            ;
        n = -1;
    } else if (format == CLI_FORMAT_TABLE) {
        table = cli_table_new((size_t)n);
        for (int i = 0; i < n; i++)
            cells[i] = sqlite3_column_name(st, i);
        cli_table_add(table, cells);
    } else if (format == CLI_FORMAT_CSV) {
        for (int i = 0; i < n; i++) {
            fputs(i > 0 ? "," : "", stdout);
            cli_csv_field(stdout, sqlite3_column_name(st, i), strlen(sqlite3_column_name(st, i)));
        }
        fputc('\n', stdout);
    }
    while (n >= 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rows++;
        if (format == CLI_FORMAT_JSONL)
            fputc('{', stdout);
        for (int i = 0; i < n; i++) {
            int is_string;
            const char *text = value_text(st, i, &is_string, bufs[i], sizeof(bufs[i]), &owned[i]);
            if (format == CLI_FORMAT_JSONL) {
                fputs(i > 0 ? "," : "", stdout);
                cli_json_string(stdout, sqlite3_column_name(st, i));
                fputc(':', stdout);
                if (text == NULL)
                    fputs("null", stdout);
                else if (is_string)
                    cli_json_string(stdout, text);
                else
                    fputs(text, stdout);
            } else if (format == CLI_FORMAT_CSV) {
                fputs(i > 0 ? "," : "", stdout);
                if (text != NULL)
                    cli_csv_field(stdout, text, strlen(text));
            } else
                cells[i] = text == NULL ? "NULL" : text;
        }
        if (format == CLI_FORMAT_JSONL)
            fputs("}\n", stdout);
        else if (format == CLI_FORMAT_CSV)
            fputc('\n', stdout);
        else
            cli_table_add(table, cells);
        for (int i = 0; i < n; i++) {
            sqlite3_free(owned[i]);
            owned[i] = NULL;
        }
    }
    if (table != NULL) {
        cli_table_print(table, stdout);
        printf("(%lld row%s)\n", rows, rows == 1 ? "" : "s");
        cli_table_free(table);
    }
    free(cells);
    free(owned);
    free(bufs);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The error text of `db` without the module's own "paimon: " (cli_error adds it). */
static const char *message(sqlite3 *db)
{
    const char *m = sqlite3_errmsg(db);
    return strncmp(m, "paimon: ", 8) == 0 ? m + 8 : m;
}

static char *read_stdin(void)
{
    size_t cap = 4096, len = 0, n;
    char *buf = cli_calloc(cap, 1);
    while ((n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *grown = realloc(buf, cap * 2);
            if (grown == NULL)
                cli_oom();
            buf = grown;
            cap *= 2;
        }
    }
    buf[len] = '\0';
    return buf;
}

int cli_cmd_sql(int argc, char **argv)
{
    cli_args a;
    cli_format format = CLI_FORMAT_TABLE;
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char *input = NULL, *errmsg = NULL;
    const char *sql, *tail;
    int rc = cli_parse("sql", argc, argv, OPTIONS, &a);

    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.help) {
        fputs(USAGE, stdout);
        return CLI_EXIT_OK;
    }
    if (a.positional_count > 1)
        return cli_usage_error("sql", "give the SQL as one argument (quote it), or on stdin");
    if (cli_get(&a, "format") != NULL &&
        (rc = cli_format_parse("sql", cli_get(&a, "format"),
                               CLI_FORMATS(CLI_FORMAT_JSONL) | CLI_FORMATS(CLI_FORMAT_CSV) |
                                   CLI_FORMATS(CLI_FORMAT_TABLE),
                               &format)) != CLI_EXIT_OK)
        return rc;
    if (a.positional_count == 1)
        sql = a.positional[0];
    else
        sql = input = read_stdin();

    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        cli_error("sql: cannot open SQLite: %s", db != NULL ? sqlite3_errmsg(db) : "no memory");
        rc = CLI_EXIT_FAILED;
        goto done;
    }
    if (sqlite3_paimon_init(db, &errmsg, NULL) != SQLITE_OK ||
        (cli_get(&a, "warehouse") != NULL &&
         paimon_sqlite_attach_warehouse(db, cli_get(&a, "warehouse"), sql, &errmsg) != SQLITE_OK)) {
        const char *m = errmsg != NULL ? errmsg : "unknown error";
        cli_error("%s", strncmp(m, "paimon: ", 8) == 0 ? m + 8 : m);
        rc = CLI_EXIT_FAILED;
        goto done;
    }
    for (; sql != NULL && *sql != '\0'; sql = tail) {
        if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
            cli_error("sql: %s", message(db));
            rc = CLI_EXIT_FAILED;
            goto done;
        }
        if (st == NULL) /* whitespace or a comment */
            continue;
        if (print_rows(st, format) != SQLITE_OK) {
            fflush(stdout);
            cli_error("%s", message(db));
            rc = CLI_EXIT_FAILED;
            goto done;
        }
        sqlite3_finalize(st);
        st = NULL;
    }
    rc = CLI_EXIT_OK;
done:
    sqlite3_finalize(st);
    sqlite3_free(errmsg);
    if (db != NULL && !sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL); /* an open transaction commits nothing */
    sqlite3_close(db);
    free(input);
    return cli_flush_output("sql", rc);
}

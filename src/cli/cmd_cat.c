/*
 * paimon cat TABLE [--snapshot N | --tag NAME | --timestamp MILLIS] [--select c[,c..]]
 *                  [--where 'EXPR'] [--limit N] [--format jsonl|csv|table]
 *
 * Prints the rows of a batch read of a snapshot (DESIGN.md): JSON lines in the canonical
 * form, RFC 4180 CSV with a header, or an aligned table.  TABLE$NAME reads system table NAME
 * of TABLE (paimon_scan_options.system_table) when no file or directory TABLE$NAME exists.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon cat TABLE [--snapshot N | --tag NAME | --timestamp MILLIS]\n"
    "                  [--select c[,c..]] [--where 'EXPR'] [--limit N]\n"
    "                  [--format jsonl|csv|table]\n"
    "\n"
    "Prints the rows Java Paimon's batch read of the snapshot returns (default: the latest).\n"
    "EXPR: comparisons (= != <> < <= > >=), IN (...), IS [NOT] NULL, AND, OR, NOT and\n"
    "parentheses over columns and literals: 12, -3.25, 1e-3, 'text', TRUE, FALSE, NULL,\n"
    "DATE '2026-04-19', TIME '10:11:12', TIMESTAMP '2026-04-19 10:11:12.123', X'0aff'.\n"
    "--format: jsonl (default; canonical rows), csv (RFC 4180 with a header), table.\n"
    "\n"
    "TABLE$NAME (quote it in a shell) reads a system table of TABLE, as Java Paimon shows it:\n"
    "  snapshots   every snapshot          schemas     every schema\n"
    "  options     the table's options     manifests   the manifests of a snapshot\n"
    "  files       the data files of a snapshot, with their statistics\n"
    "  partitions  record and file counts per partition\n"
    "  buckets     the same per bucket (latest snapshot)\n"
    "  ro          read-optimized: primary-key tables read only fully compacted files\n"
    "--snapshot, --tag and --timestamp apply to files, manifests, partitions and ro.\n";

static const cli_option OPTIONS[] = {
    {"snapshot", true, false}, {"tag", true, false},   {"timestamp", true, false},
    {"select", true, false},   {"where", true, false}, {"limit", true, false},
    {"format", true, false},   {NULL, false, false},
};

#define MAX_COLUMNS 4096

/* DESIGN.md: TABLE$NAME names system table NAME of TABLE when no file or directory of that
 * name exists.  Sets *table (caller frees) and *system (into it) when it does; else both
 * stay NULL.  Only the last path component is split. */
static int split_system_table(const char *arg, char **table, const char **system)
{
    struct stat st;
    const char *slash = strrchr(arg, '/'), *dollar = strrchr(arg, '$');
    *table = NULL;
    *system = NULL;
    if (dollar == NULL || (slash != NULL && dollar < slash) || dollar == arg || dollar[-1] == '/' ||
        stat(arg, &st) == 0)
        return 0;
    *table = strdup(arg);
    if (*table == NULL)
        return -1;
    (*table)[dollar - arg] = '\0';
    *system = *table + (dollar - arg) + 1;
    return 0;
}

static void csv_value(FILE *out, const char *text, size_t len)
{
    /* The whole length is looked at: a value may hold NUL bytes. */
    bool quote = len == 0 || text[0] == ' ' || text[len - 1] == ' ';
    for (size_t i = 0; !quote && i < len; i++)
        quote = text[i] == ',' || text[i] == '"' || text[i] == '\r' || text[i] == '\n';
    if (!quote) {
        fwrite(text, 1, len, out);
        return;
    }
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '"')
            fputc('"', out);
        fputc(text[i], out);
    }
    fputc('"', out);
}

static void csv_header(FILE *out, paimon_scan *scan)
{
    for (size_t i = 0; i < paimon_scan_column_count(scan); i++) {
        const char *name = paimon_scan_column_name(scan, i);
        if (i > 0)
            fputc(',', out);
        csv_value(out, name, strlen(name));
    }
    fputc('\n', out);
}

int cli_cmd_cat(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_scan *scan = NULL;
    paimon_rows *rows = NULL;
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    const char *format = "jsonl", *select = NULL;
    const char *columns[MAX_COLUMNS];
    char *select_copy = NULL, *base = NULL;
    long long limit = -1, count = 0, v;
    cli_table *tab = NULL;
    int rc = cli_parse("cat", argc, argv, OPTIONS, &a), given = 0;

    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.help) {
        fputs(USAGE, stdout);
        return CLI_EXIT_OK;
    }
    if (a.positional_count != 1)
        return cli_usage_error("cat", a.positional_count == 0 ? "missing TABLE"
                                                              : "more than one TABLE given");
    if (cli_get(&a, "format") != NULL)
        format = cli_get(&a, "format");
    if (strcmp(format, "jsonl") != 0 && strcmp(format, "csv") != 0 && strcmp(format, "table") != 0)
        return cli_usage_error("cat", "--format must be jsonl, csv or table, not '%s'", format);
    if (cli_get(&a, "snapshot") != NULL) {
        if (cli_parse_i64("cat", "snapshot", cli_get(&a, "snapshot"), &v) != 0)
            return CLI_EXIT_USAGE;
        if (v < 1)
            return cli_usage_error("cat", "--snapshot must be a positive id");
        o.snapshot_id = v;
        given++;
    }
    if (cli_get(&a, "tag") != NULL) {
        o.tag = cli_get(&a, "tag");
        given++;
    }
    if (cli_get(&a, "timestamp") != NULL) {
        if (cli_parse_i64("cat", "timestamp", cli_get(&a, "timestamp"), &v) != 0)
            return CLI_EXIT_USAGE;
        o.use_timestamp = 1;
        o.timestamp_millis = v;
        given++;
    }
    if (given > 1)
        return cli_usage_error("cat", "give at most one of --snapshot, --tag and --timestamp");
    if (cli_get(&a, "limit") != NULL) {
        if (cli_parse_i64("cat", "limit", cli_get(&a, "limit"), &limit) != 0)
            return CLI_EXIT_USAGE;
        if (limit < 0)
            return cli_usage_error("cat", "--limit must not be negative");
    }
    select = cli_get(&a, "select");
    if (select != NULL) {
        size_t n = 0;
        select_copy = strdup(select);
        if (select_copy == NULL)
            return cli_usage_error("cat", "out of memory");
        for (char *save = NULL, *tok = strtok_r(select_copy, ",", &save); tok != NULL;
             tok = strtok_r(NULL, ",", &save)) {
            char *end;
            while (*tok == ' ')
                tok++;
            end = tok + strlen(tok);
            while (end > tok && end[-1] == ' ')
                *--end = '\0';
            if (*tok == '\0' || n == MAX_COLUMNS) {
                free(select_copy);
                return cli_usage_error("cat", "--select: an empty column name");
            }
            columns[n++] = tok;
        }
        o.columns = columns;
        o.column_count = n;
    }
    o.filter = cli_get(&a, "where");
    if (split_system_table(a.positional[0], &base, &o.system_table) != 0) {
        free(select_copy);
        return cli_usage_error("cat", "out of memory");
    }

    if ((rc = paimon_table_open(&t, base != NULL ? base : a.positional[0], &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    if ((rc = paimon_table_scan(&scan, t, &o, &err)) != 0) {
        /* A filter or column list that does not parse is bad usage. */
        rc = cli_fail(&err, true);
        goto done;
    }
    if ((rc = paimon_scan_rows(&rows, scan, &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    if (strcmp(format, "csv") == 0)
        csv_header(stdout, scan);
    if (strcmp(format, "table") == 0) {
        const char *names[MAX_COLUMNS];
        size_t nc = paimon_scan_column_count(scan);
        tab = cli_table_new(nc);
        for (size_t i = 0; i < nc && i < MAX_COLUMNS; i++)
            names[i] = paimon_scan_column_name(scan, i);
        cli_table_add(tab, names);
    }
    while (limit < 0 || count < limit) {
        rc = paimon_rows_next(rows, &err);
        if (rc == PAIMON_ITEROVER)
            break;
        if (rc != 0) {
            fflush(stdout);
            rc = cli_fail(&err, false);
            goto done;
        }
        count++;
        if (format[0] == 'j') {
            const char *json;
            size_t len;
            if ((rc = paimon_rows_json(rows, &json, &len, &err)) != 0) {
                rc = cli_fail(&err, false);
                goto done;
            }
            fwrite(json, 1, len, stdout);
            fputc('\n', stdout);
        } else {
            size_t nc = paimon_scan_column_count(scan);
            char **cells = calloc(nc + 1, sizeof(char *));
            for (size_t i = 0; cells != NULL && i < nc; i++) {
                const char *text;
                size_t len;
                if ((rc = paimon_rows_value_text(rows, i, &text, &len, &err)) != 0) {
                    for (size_t k = 0; k < i; k++)
                        free(cells[k]);
                    free(cells);
                    rc = cli_fail(&err, false);
                    goto done;
                }
                if (format[0] == 'c') {
                    if (i > 0)
                        fputc(',', stdout);
                    if (text != NULL)
                        csv_value(stdout, text, len);
                } else {
                    cells[i] = strdup(text != NULL ? text : "NULL");
                }
            }
            if (format[0] == 'c')
                fputc('\n', stdout);
            else if (cells != NULL)
                cli_table_add(tab, (const char *const *)cells);
            for (size_t i = 0; cells != NULL && i < nc; i++)
                free(cells[i]);
            free(cells);
        }
    }
    if (tab != NULL) {
        cli_table_print(tab, stdout);
        printf("(%lld row%s)\n", count, count == 1 ? "" : "s");
    }
    rc = CLI_EXIT_OK;
done:
    if (fflush(stdout) != 0 && rc == CLI_EXIT_OK) {
        fprintf(stderr, "paimon: cat: cannot write the output\n");
        rc = CLI_EXIT_FAILED;
    }
    cli_table_free(tab);
    paimon_rows_free(rows);
    paimon_scan_free(scan);
    paimon_table_free(t);
    free(select_copy);
    free(base);
    return rc;
}

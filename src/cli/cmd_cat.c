/*
 * paimon cat TABLE [--snapshot N | --tag NAME | --timestamp MILLIS] [--select c[,c..]]
 *                  [--where 'EXPR'] [--limit N] [--format jsonl|csv|table|none]
 *                  [--threads N] [--option key=value]...
 *
 * Prints the rows of a batch read of a snapshot (DESIGN.md) through a scan's cursor, in the
 * formats of output.c: JSON lines in the canonical form, RFC 4180 CSV with a header, or an
 * aligned table; `none` decodes every row and prints only the count (a scan timed without
 * the cost of printing).  --threads N reads N splits at once (paimon_scan_options.threads);
 * the output is the same, byte for byte, for any N.  A table without snapshots prints no rows (CSV: the header; table: an empty
 * table).  TABLE$NAME reads system table NAME of TABLE (paimon_scan_options.system_table)
 * when no file or directory TABLE$NAME exists.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"

static const char USAGE[] =
    "usage: paimon cat TABLE [--snapshot N | --tag NAME | --timestamp MILLIS]\n"
    "                  [--select c[,c..]] [--where 'EXPR'] [--limit N]\n"
    "                  [--format jsonl|csv|table|none] [--threads N]\n"
    "                  [--option key=value]...\n"
    "\n"
    "Prints the rows Java Paimon's batch read of the snapshot returns (default: the latest).\n"
    "--option sets a table option for this read, as Java's dynamic options: scan.mode\n"
    "(latest-full, latest, compacted-full, from-timestamp, from-snapshot, from-snapshot-full,\n"
    "from-file-creation-time, from-creation-timestamp, incremental) and scan.snapshot-id,\n"
    "scan.tag-name, scan.watermark, scan.timestamp-millis, scan.timestamp,\n"
    "scan.file-creation-time-millis, scan.creation-time-millis, incremental-between\n"
    "('START,END': snapshot ids or tags), incremental-between-timestamp,\n"
    "incremental-between-scan-mode (auto, delta, changelog, diff).\n"
    "EXPR: comparisons (= != <> < <= > >=), IN (...), IS [NOT] NULL, AND, OR, NOT and\n"
    "parentheses over columns and literals: 12, -3.25, 1e-3, 'text', TRUE, FALSE, NULL,\n"
    "DATE '2026-04-19', TIME '10:11:12', TIMESTAMP '2026-04-19 10:11:12.123', X'0aff'.\n"
    "--format: jsonl (default; canonical rows), csv (RFC 4180 with a header; a null is an\n"
    "empty field, the empty string \"\"), table (aligned; a null is NULL, and a string that\n"
    "could pass for it -- NULL in any case, empty, with a leading or trailing space, or\n"
    "starting with a double quote -- is shown in double quotes; numeric columns are\n"
    "right-aligned), none (decode every row, print the row count).  A table without\n"
    "snapshots prints no rows.\n"
    "--threads N: splits read at once (default: the processors online); the output does\n"
    "not depend on it.\n"
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
    {"format", true, false},   {"option", true, true}, {"threads", true, false},
    {NULL, false, false},
};

int cli_cmd_cat(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_scan *scan = NULL;
    paimon_cursor *cur = NULL;
    paimon_scan_options o = PAIMON_SCAN_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    cli_format format = CLI_FORMAT_JSONL;
    cli_select select = {NULL, NULL, 0};
    cli_output *out = NULL;
    cli_option_values kv = {{NULL}, {NULL}, {NULL}, 0};
    char *base = NULL;
    long long limit = -1, count = 0, v;
    int rc = cli_parse_table_command("cat", USAGE, argc, argv, OPTIONS, 1, &a), given = 0;

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (cli_get(&a, "format") != NULL &&
        (rc = cli_format_parse("cat", cli_get(&a, "format"),
                               CLI_FORMATS(CLI_FORMAT_JSONL) | CLI_FORMATS(CLI_FORMAT_CSV) |
                                   CLI_FORMATS(CLI_FORMAT_TABLE) | CLI_FORMATS(CLI_FORMAT_NONE),
                               &format)) != CLI_EXIT_OK)
        return rc;
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
    if (cli_get(&a, "threads") != NULL &&
        (rc = cli_parse_threads("cat", cli_get(&a, "threads"), &o.threads)) != CLI_EXIT_OK)
        return rc;
    if (cli_get(&a, "select") != NULL) {
        if ((rc = cli_select_parse("cat", cli_get(&a, "select"), &select)) != CLI_EXIT_OK)
            return rc;
        o.columns = select.names;
        o.column_count = select.count;
    }
    o.filter = cli_get(&a, "where");
    if ((rc = cli_option_values_parse("cat", &a, &kv)) != CLI_EXIT_OK)
        goto done;
    o.option_keys = kv.keys;
    o.option_values = kv.values;
    o.option_count = kv.count;
    cli_split_system_table(a.positional[0], &base, &o.system_table);

    if ((rc = paimon_table_open(&t, base != NULL ? base : a.positional[0], &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    if ((rc = paimon_table_scan(&scan, t, &o, &err)) != 0) {
        /* A filter or column list that does not parse is bad usage. */
        rc = cli_fail(&err, true);
        goto done;
    }
    if ((rc = paimon_scan_cursor(&cur, scan, &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    out = cli_output_of(format, stdout, cur);
    cli_progress_start("cat", CLI_PROGRESS_OUTPUT);
    while (limit < 0 || count < limit) {
        rc = paimon_cursor_next(cur, &err);
        if (rc == PAIMON_ITEROVER)
            break;
        if (rc == 0)
            rc = cli_output_row(out, cur, &err);
        if (rc != 0) {
            fflush(stdout);
            rc = cli_fail(&err, false);
            goto done;
        }
        count++;
        cli_progress_add(1, 0, 0);
    }
    cli_progress_end();
    cli_output_end(out);
    rc = CLI_EXIT_OK;
done:
    rc = cli_flush_output("cat", rc);
    cli_output_free(out);
    paimon_cursor_free(cur);
    paimon_scan_free(scan);
    paimon_table_free(t);
    cli_select_free(&select);
    cli_option_values_free(&kv);
    free(base);
    return rc;
}

/*
 * paimon tail TABLE [--from earliest|latest|snapshot:N|timestamp:MS] [--to snapshot:M]
 *                   [--select c[,c..]] [--consumer ID] [--follow] [--format jsonl|csv|table]
 *
 * Prints the changes of each snapshot of a range (include/paimon/changes.h), read through
 * one cursor per snapshot, in the formats of output.c: canonical JSON lines with
 * "_ROW_KIND" first (DESIGN.md), CSV with a `_ROW_KIND` column first (which
 * `paimon write --format csv` reads back as the row kinds), or an aligned table.  Without --to the range
 * ends at the latest snapshot; without --from it starts at the latest, as `tail` shows the
 * end of a file.  --follow and --consumer belong to streaming reads and are refused until
 * they exist.
 *
 * How the starts differ from Java's streaming startup modes, which begin a stream rather
 * than list past changes: Java's `latest` starts after the latest snapshot (without
 * --follow there would be nothing to print) and its `latest-full` and `from-snapshot-full`
 * begin with a full read of one snapshot; here every start names the first snapshot whose
 * own changes are printed, as DESIGN.md asks.  `snapshot:N` before the earliest snapshot is
 * an error here where Java clamps it to the earliest (a listing should not skip silently);
 * `timestamp:MS` follows Java's from-timestamp rule exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon tail TABLE [--from earliest|latest|snapshot:N|timestamp:MS]\n"
    "                   [--to snapshot:M] [--select c[,c..]] [--format jsonl|csv|table]\n"
    "\n"
    "Prints the changes of each snapshot from --from (default: latest) to --to (default: the\n"
    "latest), as Java Paimon's streaming read returns them, each row with its \"_ROW_KIND\"\n"
    "(+I, -U, +U, -D).  changelog-producer none: the rows APPEND snapshots wrote (COMPACT\n"
    "and OVERWRITE snapshots add none); input, lookup, full-compaction: the changelog files.\n"
    "  earliest      the earliest snapshot still there\n"
    "  latest        the latest snapshot\n"
    "  snapshot:N    snapshot N\n"
    "  timestamp:MS  the first snapshot committed at or after MS (epoch milliseconds)\n"
    "--select: the columns to print after _ROW_KIND (default: all).\n"
    "--format: jsonl (default; canonical rows), csv (RFC 4180 with a header; a null is an\n"
    "empty field, the empty string \"\"), table (aligned; a null is NULL, and a string that\n"
    "could pass for it -- NULL in any case, empty, with a leading or trailing space, or\n"
    "starting with a double quote -- is shown in double quotes; numeric columns are\n"
    "right-aligned).\n"
    "--follow and --consumer (streaming reads) are not supported yet.\n";

static const cli_option OPTIONS[] = {
    {"from", true, false},    {"to", true, false},     {"consumer", true, false},
    {"follow", false, false}, {"format", true, false}, {"select", true, false},
    {NULL, false, false},
};

/* "PREFIX:NUMBER" -> the number; 0 when `text` does not start with prefix. */
static int parse_point(const char *opt, const char *text, const char *prefix, long long *out,
                       int *matched)
{
    size_t n = strlen(prefix);
    *matched = 0;
    if (strncmp(text, prefix, n) != 0)
        return 0;
    *matched = 1;
    return cli_parse_i64("tail", opt, text + n, out);
}

static int parse_from(const char *text, paimon_changes_options *o)
{
    long long v;
    int matched, rc;
    if (strcmp(text, "earliest") == 0) {
        o->from = PAIMON_CHANGES_FROM_EARLIEST;
        return 0;
    }
    if (strcmp(text, "latest") == 0) {
        o->from = PAIMON_CHANGES_FROM_LATEST;
        return 0;
    }
    if ((rc = parse_point("from", text, "snapshot:", &v, &matched)) != 0 || matched) {
        if (rc != 0)
            return rc;
        if (v < 1)
            return cli_usage_error("tail", "--from snapshot:N needs a positive id");
        o->from = PAIMON_CHANGES_FROM_SNAPSHOT;
        o->from_value = v;
        return 0;
    }
    if ((rc = parse_point("from", text, "timestamp:", &v, &matched)) != 0 || matched) {
        if (rc != 0)
            return rc;
        o->from = PAIMON_CHANGES_FROM_TIMESTAMP;
        o->from_value = v;
        return 0;
    }
    return cli_usage_error(
        "tail", "--from must be earliest, latest, snapshot:N or timestamp:MS, not '%s'", text);
}

/* Prints the current snapshot's rows; returns an exit code. */
static int print_rows(paimon_changes *ch, cli_output *out)
{
    paimon_error err = {0, {0}};
    paimon_cursor *cur = NULL;
    int rc = paimon_changes_cursor(&cur, ch, &err);
    while (rc == 0 && (rc = paimon_cursor_next(cur, &err)) == 0)
        rc = cli_output_row(out, cur, &err);
    paimon_cursor_free(cur);
    if (rc == PAIMON_ITEROVER)
        return CLI_EXIT_OK;
    fflush(stdout);
    return cli_fail(&err, false);
}

int cli_cmd_tail(int argc, char **argv)
{
    cli_args a;
    paimon_table *t = NULL;
    paimon_changes *ch = NULL;
    paimon_changes_options o = PAIMON_CHANGES_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    cli_format format = CLI_FORMAT_JSONL;
    cli_select select = {NULL, NULL, 0};
    cli_output *out = NULL;
    const char **names = NULL, **types = NULL;
    const char *to;
    int rc = cli_parse_table_command("tail", USAGE, argc, argv, OPTIONS, 1, &a);

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    if (cli_get(&a, "format") != NULL &&
        (rc = cli_format_parse("tail", cli_get(&a, "format"),
                               CLI_FORMATS(CLI_FORMAT_JSONL) | CLI_FORMATS(CLI_FORMAT_CSV) |
                                   CLI_FORMATS(CLI_FORMAT_TABLE),
                               &format)) != CLI_EXIT_OK)
        return rc;
    o.from = PAIMON_CHANGES_FROM_LATEST;
    if (cli_get(&a, "from") != NULL && (rc = parse_from(cli_get(&a, "from"), &o)) != 0)
        return rc;
    to = cli_get(&a, "to");
    if (to != NULL) {
        long long v;
        int matched;
        if ((rc = parse_point("to", to, "snapshot:", &v, &matched)) != 0)
            return rc;
        if (!matched)
            return cli_usage_error("tail", "--to must be snapshot:M, not '%s'", to);
        if (v < 1)
            return cli_usage_error("tail", "--to snapshot:M needs a positive id");
        o.to_snapshot = v;
    }
    if (cli_has(&a, "follow")) {
        fprintf(stderr, "paimon: tail: --follow (a streaming read) is not supported yet\n");
        return CLI_EXIT_FAILED;
    }
    if (cli_get(&a, "consumer") != NULL) {
        fprintf(stderr, "paimon: tail: --consumer (consumer progress) is not supported yet\n");
        return CLI_EXIT_FAILED;
    }
    if (cli_get(&a, "select") != NULL) {
        if ((rc = cli_select_parse("tail", cli_get(&a, "select"), &select)) != CLI_EXIT_OK)
            return rc;
        o.columns = select.names;
        o.column_count = select.count;
    }

    if ((rc = paimon_table_open(&t, a.positional[0], &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    if ((rc = paimon_table_changes(&ch, t, &o, &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    {
        size_t nc = paimon_changes_column_count(ch);
        names = cli_calloc(nc, sizeof(char *));
        types = cli_calloc(nc, sizeof(char *));
        for (size_t i = 0; i < nc; i++) {
            names[i] = paimon_changes_column_name(ch, i);
            types[i] = paimon_changes_column_type(ch, i);
        }
        out = cli_output_new(format, stdout, nc, names, types);
    }
    for (;;) {
        rc = paimon_changes_next_snapshot(ch, NULL, &err);
        if (rc == PAIMON_ITEROVER)
            break;
        if (rc != 0) {
            fflush(stdout);
            rc = cli_fail(&err, false);
            goto done;
        }
        if ((rc = print_rows(ch, out)) != CLI_EXIT_OK)
            goto done;
    }
    cli_output_end(out);
    rc = CLI_EXIT_OK;
done:
    rc = cli_flush_output("tail", rc);
    cli_output_free(out);
    free(names);
    free(types);
    paimon_changes_free(ch);
    paimon_table_free(t);
    cli_select_free(&select);
    return rc;
}

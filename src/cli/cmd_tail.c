/*
 * paimon tail TABLE [--from earliest|latest|snapshot:N|timestamp:MS] [--to snapshot:M]
 *                   [--mode SCAN_MODE] [--consumer ID] [--follow] [--idle-exit DURATION]
 *                   [--max-snapshots N] [--select c[,c..]] [--format jsonl|csv|table]
 *                   [--threads N]
 *
 * Prints the changes of each snapshot of a range (include/paimon/changes.h), read through
 * one cursor per snapshot, in the formats of output.c: canonical JSON lines with
 * "_ROW_KIND" first (DESIGN.md), CSV with a `_ROW_KIND` column first (which
 * `paimon write --format csv` reads back as the row kinds), or an aligned table.  Without --to the range
 * ends at the latest snapshot; without --from it starts at the latest, as `tail` shows the
 * end of a file.
 *
 * With --follow the command is a streaming read (include/paimon/stream.h): it prints each new snapshot's changes as soon as it is
 * committed, flushing after each, and records `--consumer ID`'s position after each snapshot
 * is printed and flushed.  SIGINT and SIGTERM stop it after the current snapshot, with the
 * position saved (exit 0).  Without --from the start is Java's scan.mode (--mode, or the
 * table's; default latest-full: the latest snapshot fully, then its changes).
 * `TABLE$audit_log` and `TABLE$binlog` are read through a stream (with --follow or over the
 * range), in the shapes of Java's system tables (include/paimon/stream.h).
 *
 * How the starts differ from Java's streaming startup modes, which begin a stream rather
 * than list past changes: Java's `latest` starts after the latest snapshot (without
 * --follow there would be nothing to print) and its `latest-full` and `from-snapshot-full`
 * begin with a full read of one snapshot; here every start names the first snapshot whose
 * own changes are printed, as DESIGN.md asks.  `snapshot:N` before the earliest snapshot is
 * an error here where Java clamps it to the earliest (a listing should not skip silently);
 * `timestamp:MS` follows Java's from-timestamp rule exactly.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "commands.h"

static const char USAGE[] =
    "usage: paimon tail TABLE [--from earliest|latest|snapshot:N|timestamp:MS]\n"
    "                   [--to snapshot:M] [--select c[,c..]] [--format jsonl|csv|table]\n"
    "                   [--threads N]\n"
    "                   [--follow [--mode SCAN_MODE] [--consumer ID] [--max-snapshots N]\n"
    "                    [--idle-exit DURATION] [--option key=value]... [--no-inotify]]\n"
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
    "--threads N: splits of a snapshot read at once (default: the processors online); the\n"
    "output does not depend on it.\n"
    "\n"
    "--follow: keep following the table, printing each new snapshot's changes as soon as it\n"
    "is committed (inotify on a local disk, else polling every continuous.discovery-interval,\n"
    "here 100 ms unless set; --no-inotify polls only).  Without --from it starts as Java's\n"
    "streaming read does, by --mode (default: the table's scan.mode, whose default latest-full\n"
    "prints the latest snapshot fully, each row with its kind, +I or +U, then the changes\n"
    "after it):\n"
    "  latest-full|full, latest, compacted-full, from-timestamp, from-snapshot,\n"
    "  from-snapshot-full, from-file-creation-time, from-creation-timestamp\n"
    "  (their options with --option, e.g. --option scan.snapshot-id=5).\n"
    "--consumer ID: record the position in consumer/consumer-ID after each snapshot is\n"
    "printed; restarted with the same ID it resumes there (unless consumer.ignore-progress).\n"
    "--max-snapshots N: stop after N snapshots; --idle-exit DURATION (e.g. 5s, 200ms): stop\n"
    "after that long without a new one; --to snapshot:M: stop after snapshot M.  SIGINT and\n"
    "SIGTERM stop after the current snapshot, its position saved (exit 0).\n"
    "--mode, --consumer, --max-snapshots, --idle-exit and --option need --follow.\n"
    "TABLE$audit_log: the same changes with the kind as a `rowkind` column; TABLE$binlog:\n"
    "`rowkind`, then every column as an array, [v], or [before, after] for an update\n"
    "(-U and +U packed into one +U row), as Java's system tables read as a stream.\n";

static const cli_option OPTIONS[] = {
    {"from", true, false},        {"to", true, false},
    {"consumer", true, false},    {"follow", false, false},
    {"format", true, false},      {"select", true, false},
    {"mode", true, false},        {"max-snapshots", true, false},
    {"idle-exit", true, false},   {"option", true, true},
    {"no-inotify", false, false}, {"threads", true, false},
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

/* Prints the rows of a snapshot's cursor (`rc`: how getting it went); frees the cursor and
 * returns an exit code. */
static int print_rows(int rc, paimon_cursor *cur, cli_output *out, paimon_error *err)
{
    while (rc == 0 && (rc = paimon_cursor_next(cur, err)) == 0)
        rc = cli_output_row(out, cur, err);
    paimon_cursor_free(cur);
    if (rc == PAIMON_ITEROVER)
        return CLI_EXIT_OK;
    fflush(stdout);
    return cli_fail(err, false);
}

/* ---- --follow -------------------------------------------------------------------------------- */

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

/* SIGINT and SIGTERM set the flag; without SA_RESTART a wait in paimon_stream_next() ends at
 * once, and the loop stops after the snapshot it is printing. */
static void catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Records the stream's position for --consumer; an exit code. */
static int save_position(paimon_stream *st, bool has_consumer)
{
    paimon_error err = {0, {0}};
    if (!has_consumer || paimon_stream_checkpoint(st, &err) == 0)
        return CLI_EXIT_OK;
    return cli_fail(&err, false);
}

/* `tail --follow`: see the file comment. */
/* `tail --follow` (bound < 0), or a bounded read of system table `system` from the range's
 * start to snapshot `bound` (0: an empty range), which only a stream reads. */
static int follow(const cli_args *a, const char *path, const char *system,
                  const paimon_changes_options *range, bool has_from, int64_t bound,
                  cli_format format)
{
    paimon_stream_options so = PAIMON_STREAM_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    paimon_table *t = NULL;
    paimon_stream *st = NULL;
    cli_output *out = NULL;
    cli_option_values kv = {{NULL}, {NULL}, {NULL}, 0};
    const char *keys[CLI_MAX_VALUES + 1], *vals[CLI_MAX_VALUES + 1]; /* --option, --mode */
    const char **names = NULL, **types = NULL;
    size_t nopt = 0, nc = 0;
    long long max_snapshots = 0;
    int64_t idle_ms = -1, last_activity, printed = 0;
    int rc = CLI_EXIT_OK;

    if ((rc = cli_option_values_parse("tail", a, &kv)) != CLI_EXIT_OK)
        goto done;
    for (nopt = 0; nopt < kv.count; nopt++) {
        keys[nopt] = kv.keys[nopt];
        vals[nopt] = kv.values[nopt];
    }
    if (cli_get(a, "mode") != NULL) {
        if (has_from) {
            rc = cli_usage_error("tail", "--from and --mode cannot be given together");
            goto done;
        }
        keys[nopt] = "scan.mode";
        vals[nopt++] = cli_get(a, "mode");
    }
    if (cli_get(a, "max-snapshots") != NULL) {
        if ((rc = cli_parse_i64("tail", "max-snapshots", cli_get(a, "max-snapshots"),
                                &max_snapshots)) != 0)
            goto done;
        if (max_snapshots < 1) {
            rc = cli_usage_error("tail", "--max-snapshots needs a positive count");
            goto done;
        }
    }
    if (cli_get(a, "idle-exit") != NULL &&
        (idle_ms = cli_duration_ms(cli_get(a, "idle-exit"))) < 0) {
        rc = cli_usage_error("tail", "--idle-exit must be a duration such as 5s or 200ms, not '%s'",
                             cli_get(a, "idle-exit"));
        goto done;
    }
    so.option_keys = keys;
    so.option_values = vals;
    so.option_count = nopt;
    so.consumer_id = cli_get(a, "consumer");
    so.from = has_from ? range->from : PAIMON_STREAM_FROM_SCAN_MODE;
    so.from_value = range->from_value;
    so.to_snapshot = range->to_snapshot;
    so.columns = range->columns;
    so.column_count = range->column_count;
    so.threads = range->threads;
    so.no_inotify = cli_has(a, "no-inotify");

    so.system_table = system;
    if (bound >= 0) {
        so.from = range->from;
        so.to_snapshot = bound;
    }
    if (paimon_table_open(&t, path, &err) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    /* options that do not go together (a mode without its option, incremental) are usage */
    if (paimon_stream_open(&st, t, &so, &err) != 0) {
        rc = cli_fail(&err, true);
        goto done;
    }
    nc = paimon_stream_column_count(st);
    names = cli_calloc(nc, sizeof(char *));
    types = cli_calloc(nc, sizeof(char *));
    for (size_t i = 0; i < nc; i++) {
        names[i] = paimon_stream_column_name(st, i);
        types[i] = paimon_stream_column_type(st, i);
    }
    if (format != CLI_FORMAT_TABLE) {
        out = cli_output_new(format, stdout, nc, names, types);
        fflush(stdout);
    }
    if (bound == 0) /* an empty range: nothing to read */
        goto end;
    catch_stop_signals();
    last_activity = monotonic_ms();
    while (!stop_requested && (max_snapshots == 0 || printed < max_snapshots)) {
        int64_t wait = 1000;
        int next;
        if (idle_ms >= 0) {
            int64_t left = last_activity + idle_ms - monotonic_ms();
            if (left <= 0)
                break;
            if (left < wait)
                wait = left;
        }
        next = paimon_stream_next(st, wait, NULL, &err);
        if (next == PAIMON_STREAM_IDLE)
            continue;
        if (next == PAIMON_ITEROVER)
            break;
        if (next != 0) {
            fflush(stdout);
            rc = cli_fail(&err, false);
            goto done;
        }
        if (format == CLI_FORMAT_TABLE) /* one aligned table per snapshot */
            out = cli_output_new(format, stdout, nc, names, types);
        {
            paimon_cursor *cur = NULL;
            int got = paimon_stream_cursor(&cur, st, &err);
            if ((rc = print_rows(got, cur, out, &err)) != CLI_EXIT_OK)
                goto done;
        }
        if (format == CLI_FORMAT_TABLE) {
            cli_output_end(out);
            cli_output_free(out);
            out = NULL;
        }
        /* the position is recorded only once the rows are out of the process */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            rc = cli_flush_output("tail", CLI_EXIT_OK);
            goto done;
        }
        if ((rc = save_position(st, so.consumer_id != NULL)) != CLI_EXIT_OK)
            goto done;
        printed++;
        last_activity = monotonic_ms();
    }
    /* snapshots stepped over since the last one printed count as read too */
    rc = save_position(st, so.consumer_id != NULL);
end:
    if (out != NULL)
        cli_output_end(out);
done:
    rc = cli_flush_output("tail", rc);
    cli_output_free(out);
    free(names);
    free(types);
    cli_option_values_free(&kv);
    paimon_stream_free(st);
    paimon_table_free(t);
    return rc;
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
    const char *to, *system = NULL, *path;
    char *base = NULL;
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
    if (cli_get(&a, "threads") != NULL &&
        (rc = cli_parse_threads("tail", cli_get(&a, "threads"), &o.threads)) != CLI_EXIT_OK)
        return rc;
    if (!cli_has(&a, "follow")) {
        static const char *const FOLLOW_ONLY[] = {"mode",      "consumer", "max-snapshots",
                                                  "idle-exit", "option",   "no-inotify"};
        for (size_t i = 0; i < sizeof(FOLLOW_ONLY) / sizeof(FOLLOW_ONLY[0]); i++)
            if (cli_get(&a, FOLLOW_ONLY[i]) != NULL || cli_has(&a, FOLLOW_ONLY[i]))
                return cli_usage_error("tail", "--%s needs --follow", FOLLOW_ONLY[i]);
    }
    if (cli_get(&a, "select") != NULL) {
        if ((rc = cli_select_parse("tail", cli_get(&a, "select"), &select)) != CLI_EXIT_OK)
            return rc;
        o.columns = select.names;
        o.column_count = select.count;
    }
    cli_split_system_table(a.positional[0], &base, &system);
    path = base != NULL ? base : a.positional[0];
    if (cli_has(&a, "follow")) {
        rc = follow(&a, path, system, &o, cli_get(&a, "from") != NULL, -1, format);
        goto done;
    }

    if ((rc = paimon_table_open(&t, path, &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    if ((rc = paimon_table_changes(&ch, t, &o, &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    if (system != NULL) {
        /* a system table's changes come from a stream over the range just checked */
        int64_t first, last;
        paimon_changes_range(ch, &first, &last);
        o.from = PAIMON_CHANGES_FROM_SNAPSHOT;
        o.from_value = first;
        paimon_changes_free(ch);
        ch = NULL;
        paimon_table_free(t);
        t = NULL;
        rc = follow(&a, path, system, &o, true, first > last ? 0 : last, format);
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
        {
            paimon_cursor *cur = NULL;
            int got = paimon_changes_cursor(&cur, ch, &err);
            if ((rc = print_rows(got, cur, out, &err)) != CLI_EXIT_OK)
                goto done;
        }
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
    free(base);
    return rc;
}

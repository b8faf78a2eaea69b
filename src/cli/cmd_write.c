/*
 * paimon write TABLE [--input FILE|-] [--format jsonl|csv|debezium-json]
 *                    [--commit-every ROWS | --overwrite [--partition k=v[,k=v..]]]
 *                    [--commit-user USER [--commit-identifier N]] [--threads N]
 *                    [--fixed-compaction]
 *
 * Reads rows (standard input by default) and commits them (DESIGN.md): one commit at the
 * end, or one every ROWS rows.  A bad row stops the write with a message naming its input
 * line and column, and nothing of the commit being prepared is committed (with
 * --commit-every, the commits made before it stay, each a complete snapshot, and a second
 * line says which).
 *
 * The exit status tells the truth (DESIGN.md invariant 9): when a commit fails, none of its
 * rows are in the table and the files written for it are removed; when its data landed and
 * only the writers' own compaction lost a conflict to another writer, the write succeeded
 * and stderr says that the compaction was not committed.  --commit-user and
 * --commit-identifier make a retried write commit nothing again (paimon_table_commit's
 * exactly-once retries).  --overwrite with --commit-every is refused: an overwrite replaces
 * partitions in one commit, so that readers see the old rows or the new ones, never a mix,
 * and a failed overwrite changes nothing; the writer streams rows into files, so one
 * commit at the end needs no more memory.
 *
 * --threads N flushes and compacts N buckets at once (paimon_writer_options.threads); the
 * files, sequence numbers and rows do not depend on it.  With --commit-every the writer
 * compacts in the background (PAIMON_COMPACTION_ASYNC): a commit waits for compaction only
 * where Java's streaming writer waits, and takes the compactions that finished since; the
 * last commit waits for all of them (end of input), and when the input ends right after a
 * commit, one more commit holds what the compactions left running did.  --fixed-compaction
 * (PAIMON_COMPACTION_ASYNC_FIXED) takes each result at the bucket's next flush or commit,
 * waiting for it there, so that the files committed do not depend on timing or --threads.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"
#include "paimon/write.h"

static const char USAGE[] =
    "usage: paimon write TABLE [--input FILE|-] [--format jsonl|csv|debezium-json]\n"
    "                          [--commit-every ROWS | --overwrite [--partition k=v[,k=v..]]]\n"
    "                          [--commit-user USER [--commit-identifier N]] [--threads N]\n"
    "                          [--fixed-compaction]\n"
    "\n"
    "Writes rows into the table and commits them: once at the end, or every ROWS rows.\n"
    "--input     the rows (default - : standard input)\n"
    "--format    jsonl (default: canonical rows, one object a line, an optional \"_ROW_KIND\"\n"
    "            of +I -U +U -D), csv (a header row names the columns) or debezium-json\n"
    "            (change events, op c r u d)\n"
    "--overwrite replaces the data of the partitions written (or of the whole table when it\n"
    "            is not partitioned) in one commit; --partition names the partitions to\n"
    "            replace instead (values written as in rows: dt=2026-04-19;\n"
    "            __DEFAULT_PARTITION__ for null), and every row must lie in them.  Not\n"
    "            with --commit-every:\n"
    "            readers see the old rows or the new ones, never a mix\n"
    "--commit-user, --commit-identifier\n"
    "            exactly-once retries: commit K of this write (0, 1, ...) is identifier N+K of\n"
    "            USER, and a commit whose identifier (or a later one) USER has committed\n"
    "            before commits nothing again, so that re-running a write that failed or was\n"
    "            killed never duplicates rows; identifiers must grow from write to write\n"
    "--threads N buckets flushed and compacted at once (default: the processors online);\n"
    "            the rows do not depend on it.  With --commit-every, compaction runs in the\n"
    "            background and a commit waits for it only where Java's streaming writer\n"
    "            does (num-sorted-run.stop-trigger, lookup-wait, full compaction): a commit\n"
    "            takes the compactions finished by then; the last commit waits for all\n"
    "--fixed-compaction  with --commit-every: a compaction's result is taken at its\n"
    "            bucket's next flush or commit, waiting for it there, so that the files\n"
    "            committed do not depend on timing or --threads (commits may wait)\n"
    "Exit 0: every commit landed (or had landed before, with --commit-identifier).  When a\n"
    "commit's data landed but the writers' own compaction lost a conflict with another\n"
    "writer, the write still succeeded: stderr says so.  Exit 1: the commit that failed left\n"
    "nothing in the table; with --commit-every, the commits before it stay (stderr says\n"
    "which).  A bad row stops the write, naming its input line and column.\n";

static const cli_option OPTIONS[] = {
    {"input", true, false},
    {"format", true, false},
    {"commit-every", true, false},
    {"overwrite", false, false},
    {"partition", true, false},
    {"commit-user", true, false},
    {"commit-identifier", true, false},
    {"threads", true, false},
    {"fixed-compaction", false, false},
    {NULL, false, false},
};

/* Splits "k=v,k=v" into items (pointers into `text`, which is modified). */
static size_t split_partition(char *text, const char **items, size_t cap)
{
    size_t n = 0;
    for (char *p = text; p != NULL && n < cap;) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        items[n++] = p;
        p = comma != NULL ? comma + 1 : NULL;
    }
    return n;
}

/* After a failed commit or input: a second line when earlier commits of this write stay
 * (made by this run as snapshots first..last, or found committed before). */
static void say_committed_before(const char *table, int64_t commits, int64_t rows, int64_t first,
                                 int64_t last)
{
    if (commits == 0)
        return;
    fprintf(stderr, "paimon: %s: the %lld commit%s before it stay%s committed (%lld rows", table,
            (long long)commits, commits == 1 ? "" : "s", commits == 1 ? "s" : "", (long long)rows);
    if (first > 0)
        fprintf(stderr, "; snapshot%s %lld", first == last ? "" : "s", (long long)first);
    if (first > 0 && last != first)
        fprintf(stderr, " to %lld", (long long)last);
    fprintf(stderr, ")\n");
}

int cli_cmd_write(int argc, char **argv)
{
    cli_args a;
    const char *table_path, *input_path, *format, *part_text, *user;
    const char *items[64];
    char *part_copy = NULL;
    size_t nitems = 0;
    long long every = 0, ident = -1;
    int64_t total = 0, commits = 0, skipped = 0, committed_rows = 0, first_snapshot = 0,
            last_snapshot = 0;
    paimon_table *table = NULL;
    paimon_writer *writer = NULL;
    paimon_input *input = NULL;
    paimon_commit_messages *messages = NULL;
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    FILE *file = NULL;
    const char *input_name;
    bool at_end = false, tail = false;
    int rc = cli_parse_table_command("write", USAGE, argc, argv, OPTIONS, 1, &a),
        exit_code = CLI_EXIT_FAILED;

    if (rc != CLI_EXIT_OK)
        return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
    table_path = a.positional[0];
    input_path = cli_get(&a, "input");
    format = cli_get(&a, "format");
    part_text = cli_get(&a, "partition");
    user = cli_get(&a, "commit-user");
    if (format == NULL)
        format = "jsonl";
    if (strcmp(format, "jsonl") != 0 && strcmp(format, "csv") != 0 &&
        strcmp(format, "debezium-json") != 0)
        return cli_usage_error("write", "unknown --format '%s' (jsonl, csv or debezium-json)",
                               format);
    if (cli_get(&a, "commit-every") != NULL) {
        if ((rc = cli_parse_i64("write", "commit-every", cli_get(&a, "commit-every"), &every)) !=
            CLI_EXIT_OK)
            return rc;
        if (every <= 0)
            return cli_usage_error("write", "--commit-every must be a positive number of rows");
    }
    if (cli_has(&a, "fixed-compaction") && every == 0)
        return cli_usage_error("write", "--fixed-compaction needs --commit-every (a single "
                                        "commit always waits for its compactions)");
    if (part_text != NULL && !cli_has(&a, "overwrite"))
        return cli_usage_error("write", "--partition needs --overwrite");
    if (every > 0 && cli_has(&a, "overwrite"))
        return cli_usage_error("write", "--overwrite commits once: it cannot be combined with "
                                        "--commit-every (readers would see partitions half "
                                        "replaced)");
    if (user != NULL && user[0] == '\0')
        return cli_usage_error("write", "--commit-user must not be empty");
    if (cli_get(&a, "commit-identifier") != NULL) {
        if (user == NULL)
            return cli_usage_error("write", "--commit-identifier needs --commit-user");
        if ((rc = cli_parse_i64("write", "commit-identifier", cli_get(&a, "commit-identifier"),
                                &ident)) != CLI_EXIT_OK)
            return rc;
        if (ident < 0 || ident == INT64_MAX)
            return cli_usage_error("write", "--commit-identifier must be an integer from 0 to %lld",
                                   (long long)INT64_MAX - 1);
    }
    if (part_text != NULL) {
        part_copy = cli_strdup(part_text);
        nitems = split_partition(part_copy, items, sizeof(items) / sizeof(items[0]));
        for (size_t i = 0; i < nitems; i++)
            if (strchr(items[i], '=') == NULL || items[i][0] == '=') {
                rc = cli_usage_error("write", "--partition: '%s' is not k=v", items[i]);
                free(part_copy);
                return rc;
            }
    }

    if (cli_get(&a, "threads") != NULL &&
        (rc = cli_parse_threads("write", cli_get(&a, "threads"), &wo.threads)) != CLI_EXIT_OK) {
        free(part_copy);
        return rc;
    }
    wo.async_compaction = every == 0                        ? PAIMON_COMPACTION_SYNC
                          : cli_has(&a, "fixed-compaction") ? PAIMON_COMPACTION_ASYNC_FIXED
                                                            : PAIMON_COMPACTION_ASYNC;

    if (input_path == NULL || strcmp(input_path, "-") == 0) {
        file = stdin;
        input_name = "stdin";
    } else if ((file = fopen(input_path, "rb")) == NULL) {
        cli_error("%s: cannot open the input: %s", input_path, strerror(errno));
        free(part_copy);
        return CLI_EXIT_FAILED;
    } else {
        input_name = input_path;
    }

    wo.overwrite = cli_has(&a, "overwrite");
    wo.commit_user = user;
    if (paimon_table_open(&table, table_path, &err) != 0) {
        exit_code = cli_fail(&err, false);
        goto done;
    }
    if (paimon_table_check_partition(table, items, nitems, &err) != 0) {
        exit_code = cli_fail(&err, true); /* a value that does not parse: bad usage */
        goto done;
    }
    if (paimon_writer_open(&writer, table, &wo, &err) != 0 ||
        paimon_input_open(&input, writer, file, format, &err) != 0 ||
        paimon_input_set_name(input, input_name, &err) != 0) {
        exit_code = cli_fail(&err, false);
        goto done;
    }
    cli_progress_start("write", CLI_PROGRESS_WRITTEN);
    while (!at_end) {
        paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
        paimon_commit_result res = PAIMON_COMMIT_RESULT_INIT;
        int64_t rows = 0, snapshot = 0;
        bool refresh = false;
        rc = paimon_input_write(input, writer, (int64_t)every, &rows, &err);
        if (rc == PAIMON_ITEROVER)
            at_end = true;
        else if (rc != 0) {
            /* one line (DESIGN.md): the input's errors name it and the line ("stdin: line L,
             * column C: ..."), those of the table's files name the file */
            cli_fail(&err, false);
            say_committed_before(table_path, commits, committed_rows, first_snapshot,
                                 last_snapshot);
            goto done;
        }
        total += rows;
        /* nothing more (an overwrite commits even when the input is empty), but what the
         * compactions of the last commit left running: a commit of theirs, if any */
        tail = rows == 0 && at_end && (commits > 0 || !wo.overwrite);
        if (tail && (!wo.async_compaction || commits == 0))
            break;
        if (at_end && paimon_writer_end_input(writer, &err) != 0) {
            exit_code = cli_fail(&err, false);
            goto done;
        }
        co.overwrite = wo.overwrite;
        co.partition = co.overwrite && nitems > 0 ? items : NULL;
        co.partition_count = co.overwrite ? nitems : 0;
        co.commit_user = user;
        /* without an identifier: a batch commit (INT64_MAX) of the user, never skipped */
        co.identifier = user == NULL ? commits : ident >= 0 ? ident + commits : INT64_MAX;
        co.result = &res;
        if (ident >= 0 && co.identifier == INT64_MAX) {
            cli_error("%s: commit identifier %lld + %lld is too large", table_path, ident,
                      (long long)commits);
            goto done;
        }
        paimon_commit_messages_free(messages);
        messages = NULL;
        if (paimon_commit_messages_new(&messages, &err) != 0 ||
            paimon_writer_prepare_commit(writer, messages, &err) != 0 ||
            (tail && paimon_commit_messages_empty(messages)) ||
            paimon_table_commit(table, messages, &co, &snapshot, &err) != 0) {
            if (err.code == 0)
                break; /* the tail had nothing to commit */
            paimon_error ignored;
            /* nothing of this commit is in the table: its files go too (unless the snapshot
             * write's outcome is unknown: then they may be named, and stay) */
            if (messages != NULL && !res.uncertain)
                (void)paimon_commit_messages_abort(table, messages, &ignored);
            exit_code = cli_fail(&err, false);
            say_committed_before(table_path, commits, committed_rows, first_snapshot,
                                 last_snapshot);
            goto done;
        }
        commits++;
        committed_rows += rows;
        if (res.committed_before > 0) {
            skipped++;
            refresh = true;
            paimon_error ignored;
            /* this run wrote the rows anew: their files are not the committed ones */
            (void)paimon_commit_messages_abort(table, messages, &ignored);
            printf("already committed: snapshot %lld of commit user %s has identifier %lld or a "
                   "later one (%lld rows not written again)\n",
                   (long long)res.committed_before, user, (long long)co.identifier,
                   (long long)rows);
        } else if (snapshot > 0) {
            printf("committed snapshot %lld: %lld rows\n", (long long)snapshot, (long long)rows);
            if (first_snapshot == 0)
                first_snapshot = res.snapshot_id != 0 ? res.snapshot_id : snapshot;
            last_snapshot = snapshot;
        } else {
            printf("nothing to commit (%lld rows)\n", (long long)rows);
        }
        if (res.compact_err.code != 0) {
            fprintf(stderr,
                    "paimon: %s (the rows are committed, in snapshot %lld; only the writers' "
                    "compaction was not)\n",
                    res.compact_err.message, (long long)res.snapshot_id);
            refresh = true;
        }
        if (res.maintain_err.code != 0)
            fprintf(stderr, "paimon: %s (the rows are committed, in snapshot %lld)\n",
                    res.maintain_err.message, (long long)snapshot);
        fflush(stdout);
        /* The writer's view of its buckets includes files that are not in the table (a lost
         * compaction, or a skipped commit, whose files were removed): the next rows go to a
         * writer restored from the table as it is now. */
        if (refresh && !at_end) {
            paimon_writer_free(writer);
            writer = NULL;
            if (paimon_writer_open(&writer, table, &wo, &err) != 0) {
                exit_code = cli_fail(&err, false);
                say_committed_before(table_path, commits, committed_rows, first_snapshot,
                                     last_snapshot);
                goto done;
            }
        }
    }
    cli_progress_end();
    if (skipped > 0)
        printf("wrote %lld rows in %lld commit%s (%lld of them committed before)\n",
               (long long)total, (long long)commits, commits == 1 ? "" : "s", (long long)skipped);
    else
        printf("wrote %lld rows in %lld commit%s\n", (long long)total, (long long)commits,
               commits == 1 ? "" : "s");
    exit_code = CLI_EXIT_OK;
done:
    paimon_commit_messages_free(messages);
    paimon_input_free(input);
    paimon_writer_free(writer);
    paimon_table_free(table);
    if (file != NULL && file != stdin)
        fclose(file);
    free(part_copy);
    return exit_code;
}

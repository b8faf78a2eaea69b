/*
 * paimon write TABLE [--input FILE|-] [--format jsonl|csv|debezium-json]
 *                    [--commit-every ROWS] [--overwrite [--partition k=v[,k=v..]]]
 *
 * Reads rows (standard input by default) and commits them (DESIGN.md): one commit at the
 * end, or one every ROWS rows.  A bad row stops the write with a message naming its input
 * line and column, and nothing of the commit being prepared is committed (with
 * --commit-every, the commits made before it stay, each a complete snapshot).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "paimon/write.h"

static const char USAGE[] =
    "usage: paimon write TABLE [--input FILE|-] [--format jsonl|csv|debezium-json]\n"
    "                          [--commit-every ROWS] [--overwrite [--partition k=v[,k=v..]]]\n"
    "\n"
    "Writes rows into the table and commits them: once at the end, or every ROWS rows.\n"
    "--input     the rows (default - : standard input)\n"
    "--format    jsonl (default: canonical rows, one object a line, an optional \"_ROW_KIND\"\n"
    "            of +I -U +U -D), csv (a header row names the columns) or debezium-json\n"
    "            (change events, op c r u d)\n"
    "--overwrite replaces the data of the partitions written (or of the whole table when it\n"
    "            is not partitioned); --partition names the partitions to replace instead,\n"
    "            and every row must lie in them\n"
    "A bad row stops the write, naming its input line and column; nothing of the commit being\n"
    "prepared is committed.\n";

static const cli_option OPTIONS[] = {
    {"input", true, false},      {"format", true, false},    {"commit-every", true, false},
    {"overwrite", false, false}, {"partition", true, false}, {NULL, false, false},
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

int cli_cmd_write(int argc, char **argv)
{
    cli_args a;
    const char *table_path, *input_path, *format, *part_text;
    const char *items[64];
    char *part_copy = NULL;
    size_t nitems = 0;
    long long every = 0;
    int64_t total = 0, commits = 0;
    paimon_table *table = NULL;
    paimon_writer *writer = NULL;
    paimon_input *input = NULL;
    paimon_commit_messages *messages = NULL;
    paimon_writer_options wo = PAIMON_WRITER_OPTIONS_INIT;
    paimon_error err = {0, {0}};
    FILE *file = NULL;
    const char *input_name;
    bool at_end = false;
    int rc = cli_parse("write", argc, argv, OPTIONS, &a), exit_code = CLI_EXIT_FAILED;

    if (rc != CLI_EXIT_OK)
        return rc;
    if (a.help) {
        fputs(USAGE, stdout);
        return CLI_EXIT_OK;
    }
    if (a.positional_count != 1)
        return cli_usage_error(
            "write", a.positional_count == 0 ? "missing TABLE" : "unexpected argument '%s'",
            a.positional_count > 1 ? a.positional[1] : "");
    table_path = a.positional[0];
    input_path = cli_get(&a, "input");
    format = cli_get(&a, "format");
    part_text = cli_get(&a, "partition");
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
    if (part_text != NULL && !cli_has(&a, "overwrite"))
        return cli_usage_error("write", "--partition needs --overwrite");
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

    if (input_path == NULL || strcmp(input_path, "-") == 0) {
        file = stdin;
        input_name = "stdin";
    } else if ((file = fopen(input_path, "rb")) == NULL) {
        fprintf(stderr, "paimon: %s: cannot open the input\n", input_path);
        free(part_copy);
        return CLI_EXIT_FAILED;
    } else {
        input_name = input_path;
    }

    wo.overwrite = cli_has(&a, "overwrite");
    if (paimon_table_open(&table, table_path, &err) != 0 ||
        paimon_writer_open(&writer, table, &wo, &err) != 0 ||
        paimon_input_open(&input, writer, file, format, &err) != 0) {
        exit_code = cli_fail(&err, false);
        goto done;
    }
    while (!at_end) {
        paimon_commit_options co = PAIMON_COMMIT_OPTIONS_INIT;
        int64_t rows = 0, snapshot = 0;
        rc = paimon_input_write(input, writer, (int64_t)every, &rows, &err);
        if (rc == PAIMON_ITEROVER)
            at_end = true;
        else if (rc != 0) {
            /* one line (DESIGN.md): the input, then the reader's "line L, column C: ..." */
            fprintf(stderr, "paimon: %s: %s\n", input_name, err.message);
            goto done;
        }
        total += rows;
        if (rows == 0 && at_end && (commits > 0 || !wo.overwrite))
            break; /* nothing more (an overwrite commits even when the input is empty) */
        co.overwrite = wo.overwrite && commits == 0;
        co.partition = co.overwrite && nitems > 0 ? items : NULL;
        co.partition_count = co.overwrite ? nitems : 0;
        co.identifier = commits;
        paimon_commit_messages_free(messages);
        messages = NULL;
        if (paimon_commit_messages_new(&messages, &err) != 0 ||
            paimon_writer_prepare_commit(writer, messages, &err) != 0 ||
            paimon_table_commit(table, messages, &co, &snapshot, &err) != 0) {
            exit_code = cli_fail(&err, false);
            goto done;
        }
        commits++;
        if (snapshot > 0)
            printf("committed snapshot %lld: %lld rows\n", (long long)snapshot, (long long)rows);
        else
            printf("nothing to commit (%lld rows)\n", (long long)rows);
        fflush(stdout);
    }
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

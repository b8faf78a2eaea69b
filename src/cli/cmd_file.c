/*
 * `paimon file cat FILE [--select c,..] [--format jsonl|csv|table|none] [--threads N]` and
 * `paimon file meta FILE`: the rows and the layout of one data file (include/paimon/file.h).
 *
 * The rows are read through the file's cursor and printed as `cat` prints them (output.c):
 *
 *   jsonl  one canonical JSON object per row (shared/spec/canonical-rows.md)
 *   csv    RFC 4180 with a header; NULL is an empty unquoted field, "" the empty string
 *   table  an aligned table, a null shown as NULL (strings that could pass for it quoted)
 *   none   decode every selected column (the cursor's Arrow stream), print the row count
 *
 * --threads N reads sections of a large file at once (paimon_file_read_options.threads);
 * the output is the same for any N.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: paimon file cat FILE [--select c[,c..]] [--format jsonl|csv|table|none]\n"
                 "                     [--threads N]\n"
                 "       paimon file meta FILE\n\n"
                 "cat prints the rows of one data file (Parquet, ORC or Avro) in the canonical\n"
                 "form, as `paimon cat` prints a table's: --format jsonl (default), csv (a null\n"
                 "is an empty field, the empty string \"\"), table (a null is NULL; a string\n"
                 "that could pass for it is shown in double quotes), none (decode, print the\n"
                 "row count); meta prints its schema and layout (row groups, stripes, blocks).\n"
                 "--threads N: sections of the file read at once (default: the processors\n"
                 "online); the output does not depend on it.\n");
    fputs(CLI_STORAGE_USAGE, out);
}

/* --format none: every selected column decoded through the cursor's Arrow stream, the row
 * count printed. */
static int count_rows(paimon_cursor *cur)
{
    struct ArrowArrayStream s;
    struct ArrowArray a;
    paimon_error err = {0, {0}};
    long long rows = 0;
    if (paimon_cursor_arrow_stream(cur, &s, &err) != 0)
        return cli_fail(&err, false);
    for (;;) {
        if (s.get_next(&s, &a) != 0) {
            const char *msg = s.get_last_error(&s);
            cli_error("%s", msg != NULL ? msg : "read failed");
            s.release(&s);
            return CLI_EXIT_FAILED;
        }
        if (a.release == NULL)
            break;
        rows += a.length;
        a.release(&a);
    }
    s.release(&s);
    printf("%lld\n", rows);
    return CLI_EXIT_OK;
}

static int cat(const char *path, const paimon_file_read_options *o, cli_format format)
{
    paimon_file *f = NULL;
    paimon_cursor *cur = NULL;
    paimon_error err = {0, {0}};
    cli_output *out = NULL;
    int rc;

    if ((rc = paimon_file_open(&f, path, &err)) != 0 ||
        (rc = paimon_file_cursor(&cur, f, o, &err)) != 0) {
        rc = cli_fail(&err, false);
        goto done;
    }
    if (format == CLI_FORMAT_NONE) {
        rc = count_rows(cur);
        goto done;
    }
    out = cli_output_of(format, stdout, cur);
    while ((rc = paimon_cursor_next(cur, &err)) == 0 && (rc = cli_output_row(out, cur, &err)) == 0)
        ;
    if (rc != PAIMON_ITEROVER) {
        fflush(stdout);
        rc = cli_fail(&err, false);
        goto done;
    }
    cli_output_end(out);
    rc = CLI_EXIT_OK;
done:
    rc = cli_flush_output("file", rc);
    cli_output_free(out);
    paimon_cursor_free(cur);
    paimon_file_free(f);
    return rc;
}

static int meta(const char *path)
{
    paimon_file *f = NULL;
    paimon_error err = {0};
    const char *text;
    if (paimon_file_open(&f, path, &err) != 0 || paimon_file_describe(f, &text, &err) != 0) {
        paimon_file_free(f);
        return cli_fail(&err, false);
    }
    fputs(text, stdout);
    paimon_file_free(f);
    return cli_flush_output("file", CLI_EXIT_OK);
}

int cli_cmd_file(int argc, char **argv)
{
    static const cli_option opts[] = {{"select", true, false},
                                      {"format", true, false},
                                      {"threads", true, false},
                                      {NULL, false, false}};
    cli_args args;
    const char *sub;
    cli_select select = {NULL, NULL, 0};
    cli_format format = CLI_FORMAT_JSONL;
    paimon_file_read_options o = PAIMON_FILE_READ_OPTIONS_INIT;
    int rc;

    if (argc < 1 || strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        usage(argc < 1 ? stderr : stdout);
        return argc < 1 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
    }
    sub = argv[0];
    if (strcmp(sub, "cat") != 0 && strcmp(sub, "meta") != 0)
        return cli_usage_error("file", "unknown subcommand '%s'", sub);
    if ((rc = cli_parse("file", argc - 1, argv + 1, opts, &args)) != CLI_EXIT_OK)
        return rc;
    if (args.help) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (args.positional_count != 1)
        return cli_usage_error("file", "%s needs exactly one FILE", sub);
    if (strcmp(sub, "meta") == 0) {
        if (cli_get(&args, "format") != NULL || cli_get(&args, "select") != NULL ||
            cli_get(&args, "threads") != NULL)
            return cli_usage_error("file", "meta takes no --format, --select or --threads");
        return meta(args.positional[0]);
    }
    if (cli_get(&args, "format") != NULL &&
        (rc = cli_format_parse("file", cli_get(&args, "format"),
                               CLI_FORMATS(CLI_FORMAT_JSONL) | CLI_FORMATS(CLI_FORMAT_CSV) |
                                   CLI_FORMATS(CLI_FORMAT_TABLE) | CLI_FORMATS(CLI_FORMAT_NONE),
                               &format)) != CLI_EXIT_OK)
        return rc;
    if (cli_get(&args, "threads") != NULL &&
        (rc = cli_parse_threads("file", cli_get(&args, "threads"), &o.threads)) != CLI_EXIT_OK)
        return rc;
    if (cli_get(&args, "select") != NULL) {
        if ((rc = cli_select_parse("file", cli_get(&args, "select"), &select)) != CLI_EXIT_OK)
            return rc;
        o.columns = select.names;
        o.column_count = select.count;
    }
    rc = cat(args.positional[0], &o, format);
    cli_select_free(&select);
    return rc;
}

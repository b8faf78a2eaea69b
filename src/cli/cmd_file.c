/*
 * `paimon file cat FILE [--select c,..] [--format jsonl|csv|table|none]` and
 * `paimon file meta FILE`: the rows and the layout of one data file (include/paimon/file.h).
 *
 *   jsonl  one canonical JSON object per row (shared/spec/canonical-rows.md)
 *   csv    RFC 4180 with a header; NULL is an empty unquoted field, "" the empty string
 *   table  an aligned table (NULL shown as null)
 *   none   decode every selected column, print only the row count (for timing)
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#define MAX_SELECT 1024

static void usage(FILE *out)
{
    fprintf(out, "usage: paimon file cat FILE [--select c[,c..]] [--format jsonl|csv|table|none]\n"
                 "       paimon file meta FILE\n\n"
                 "cat prints the rows of one data file (Parquet, ORC or Avro) in the canonical\n"
                 "form; meta prints its schema and layout (Parquet row groups and column chunks,\n"
                 "ORC stripes, the Avro codec) with their statistics.\n");
}

/* Splits "a, b,c" into trimmed names (in place). */
static size_t split_names(char *list, const char **names, size_t cap)
{
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok != NULL && n < cap;
         tok = strtok_r(NULL, ",", &save)) {
        char *end;
        while (*tok == ' ' || *tok == '\t')
            tok++;
        end = tok + strlen(tok);
        while (end > tok && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (*tok != '\0')
            names[n++] = tok;
    }
    return n;
}

static void csv_field(FILE *out, const char *s, size_t len, bool is_null)
{
    bool quote = false;
    if (is_null)
        return;
    if (len == 0)
        quote = true;
    for (size_t i = 0; i < len && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        fwrite(s, 1, len, out);
        return;
    }
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            fputc('"', out);
        fputc(s[i], out);
    }
    fputc('"', out);
}

static int count_rows(const char *path, const paimon_file_read_options *o)
{
    struct ArrowArrayStream s;
    struct ArrowArray a;
    paimon_error err = {0};
    long long rows = 0;
    int rc = paimon_file_stream(path, o, &s, &err);
    if (rc != 0)
        return cli_fail(&err, false);
    for (;;) {
        if (s.get_next(&s, &a) != 0) {
            const char *msg = s.get_last_error(&s);
            fprintf(stderr, "paimon: %s\n", msg != NULL ? msg : "read failed");
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

static int cat(const char *path, const paimon_file_read_options *o, const char *format)
{
    paimon_file *f = NULL;
    paimon_error err = {0};
    cli_table *table = NULL;
    size_t ncols;
    char **cells = NULL;
    int rc, status = CLI_EXIT_OK;

    if (strcmp(format, "none") == 0)
        return count_rows(path, o);
    if ((rc = paimon_file_open(&f, path, &err)) != 0 || (rc = paimon_file_read(f, o, &err)) != 0) {
        paimon_file_free(f);
        return cli_fail(&err, false);
    }
    ncols = paimon_file_read_column_count(f);
    if (strcmp(format, "csv") == 0) {
        for (size_t c = 0; c < ncols; c++) {
            const char *name = paimon_file_read_column_name(f, c);
            if (c > 0)
                fputc(',', stdout);
            csv_field(stdout, name, strlen(name), false);
        }
        fputc('\n', stdout);
    } else if (strcmp(format, "table") == 0) {
        const char **head = calloc(ncols + 1, sizeof(char *));
        cells = calloc(ncols + 1, sizeof(char *));
        if (head == NULL || cells == NULL || (table = cli_table_new(ncols)) == NULL) {
            free(head);
            free(cells);
            paimon_file_free(f);
            fprintf(stderr, "paimon: out of memory\n");
            return CLI_EXIT_FAILED;
        }
        for (size_t c = 0; c < ncols; c++)
            head[c] = paimon_file_read_column_name(f, c);
        cli_table_add(table, head);
        free(head);
    }
    while ((rc = paimon_file_next_row(f, &err)) == 0) {
        if (strcmp(format, "jsonl") == 0) {
            const char *json;
            size_t len;
            if ((rc = paimon_file_row_json(f, &json, &len, &err)) != 0)
                break;
            fwrite(json, 1, len, stdout);
            fputc('\n', stdout);
            continue;
        }
        for (size_t c = 0; c < ncols; c++) {
            const char *text;
            size_t len;
            if ((rc = paimon_file_value_text(f, c, &text, &len, &err)) != 0)
                break;
            if (table != NULL) {
                cells[c] = strdup(text != NULL ? text : "null");
                if (cells[c] == NULL) {
                    fprintf(stderr, "paimon: out of memory\n");
                    exit(CLI_EXIT_FAILED);
                }
            } else {
                if (c > 0)
                    fputc(',', stdout);
                csv_field(stdout, text, len, text == NULL);
            }
        }
        if (rc != 0)
            break;
        if (table != NULL) {
            cli_table_add(table, (const char *const *)cells);
            for (size_t c = 0; c < ncols; c++)
                free(cells[c]);
        } else {
            fputc('\n', stdout);
        }
    }
    if (rc != PAIMON_ITEROVER)
        status = cli_fail(&err, false);
    else if (table != NULL)
        cli_table_print(table, stdout);
    cli_table_free(table);
    free(cells);
    paimon_file_free(f);
    return status;
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
    return CLI_EXIT_OK;
}

int cli_cmd_file(int argc, char **argv)
{
    static const cli_option opts[] = {
        {"select", true, false}, {"format", true, false}, {NULL, false, false}};
    cli_args args;
    const char *sub, *format, *select;
    const char *names[MAX_SELECT];
    char *list = NULL;
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
    format = cli_get(&args, "format");
    select = cli_get(&args, "select");
    if (strcmp(sub, "meta") == 0) {
        if (format != NULL || select != NULL)
            return cli_usage_error("file", "meta takes no --format or --select");
        return meta(args.positional[0]);
    }
    if (format == NULL)
        format = "jsonl";
    if (strcmp(format, "jsonl") != 0 && strcmp(format, "csv") != 0 &&
        strcmp(format, "table") != 0 && strcmp(format, "none") != 0)
        return cli_usage_error("file", "--format must be jsonl, csv, table or none, not '%s'",
                               format);
    if (select != NULL) {
        if ((list = strdup(select)) == NULL) {
            fprintf(stderr, "paimon: out of memory\n");
            return CLI_EXIT_FAILED;
        }
        o.columns = names;
        o.column_count = split_names(list, names, MAX_SELECT);
        if (o.column_count == 0) {
            free(list);
            return cli_usage_error("file", "--select needs column names");
        }
    }
    rc = cat(args.positional[0], &o, format);
    free(list);
    return rc;
}

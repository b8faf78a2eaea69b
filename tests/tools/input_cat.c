/*
 * input_cat: reads rows in one input form of `paimon write` (data/input.h) and prints them in
 * the canonical JSONL form or as CSV, so a round trip can be checked end to end:
 *
 *   input_cat (--columns 'a INT, b STRING' | --schema SCHEMA_FILE)
 *             [--format jsonl|csv|debezium-json] [--output jsonl|csv] [--kinds]
 *             [--batch-rows N] [--read-len N] [FILE | -]
 *
 * JSONL output puts "_ROW_KIND" first on rows that are not +I (on every row with --kinds);
 * CSV output has a header and, with --kinds, a _ROW_KIND column first, and quotes fields as
 * `paimon cat --format csv` does.  Errors: "input_cat: FILE: MESSAGE" and exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/input.h"
#include "meta/schema.h"
#include "util/alloc.h"

static const char *KIND_NAMES[] = {"+I", "-U", "+U", "-D"};

static int usage(void)
{
    fprintf(stderr, "usage: input_cat (--columns 'COLUMNS' | --schema FILE) [--format jsonl|csv|"
                    "debezium-json] [--output jsonl|csv] [--kinds] [--batch-rows N] "
                    "[--read-len N] [FILE|-]\n");
    return 2;
}

static pm_type *load_schema(const char *path, paimon_error *err)
{
    FILE *f = fopen(path, "rb");
    pm_buf b;
    pm_schema *s = NULL;
    pm_type *row = NULL;
    uint8_t chunk[65536];
    size_t n;
    pm_buf_init(&b, 0);
    if (f == NULL) {
        snprintf(err->message, sizeof(err->message), "cannot open %s", path);
        return NULL;
    }
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        pm_buf_append(&b, chunk, n);
    fclose(f);
    if (pm_schema_parse(b.data, b.len, path, &s, err) == 0) {
        row = pm_type_clone(s->row);
        pm_schema_free(s);
    }
    pm_buf_free(&b);
    return row;
}

static void print_csv_header(const pm_batch *b, bool kinds)
{
    pm_buf out;
    pm_buf_init(&out, 0);
    if (kinds)
        pm_buf_puts(&out, "_ROW_KIND");
    for (size_t i = 0; i < b->column_count; i++) {
        const char *name = b->type->fields[i].name;
        if (i > 0 || kinds)
            pm_buf_putc(&out, ',');
        pm_input_csv_field(&out, name, strlen(name));
    }
    pm_buf_putc(&out, '\n');
    fwrite(out.data, 1, out.len, stdout);
    pm_buf_free(&out);
}

static int print_batch(const pm_batch *b, const int8_t *kinds, bool csv, bool all_kinds,
                       paimon_error *err)
{
    pm_buf out, text;
    int rc = 0;
    pm_buf_init(&out, 0);
    pm_buf_init(&text, 0);
    for (int64_t r = 0; rc == 0 && r < b->row_count; r++) {
        if (csv) {
            if (all_kinds)
                pm_buf_puts(&out, KIND_NAMES[kinds[r]]);
            for (size_t i = 0; rc == 0 && i < b->column_count; i++) {
                bool is_null;
                if (i > 0 || all_kinds)
                    pm_buf_putc(&out, ',');
                pm_buf_reset(&text);
                rc = pm_column_text(&text, b->columns[i], r, &is_null, err);
                if (rc == 0 && !is_null)
                    pm_input_csv_field(&out, (const char *)text.data, text.len);
            }
        } else {
            size_t start = out.len;
            rc = pm_batch_row_json(&out, b, r, err);
            if (rc == 0 && (all_kinds || kinds[r] != 0)) {
                /* insert "_ROW_KIND":"..", after the opening brace */
                char head[32];
                int hn = snprintf(head, sizeof(head), "\"_ROW_KIND\":\"%s\"%s",
                                  KIND_NAMES[kinds[r]], b->column_count > 0 ? "," : "");
                pm_buf_zero(&out, (size_t)hn);
                memmove(out.data + start + 1 + hn, out.data + start + 1, out.len - start - 1 - hn);
                memcpy(out.data + start + 1, head, (size_t)hn);
            }
        }
        pm_buf_putc(&out, '\n');
    }
    fwrite(out.data, 1, out.len, stdout);
    pm_buf_free(&out);
    pm_buf_free(&text);
    return rc;
}

int main(int argc, char **argv)
{
    const char *columns = NULL, *schema = NULL, *format = "jsonl", *output = "jsonl";
    const char *path = "-";
    bool kinds = false, header = false;
    pm_input_options opts = PM_INPUT_OPTIONS_INIT;
    pm_input_format fmt;
    paimon_error err = {0};
    pm_type *row = NULL;
    pm_row_input *in = NULL;
    FILE *f = stdin;
    pm_batch *b;
    const int8_t *k;
    int rc = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--kinds") == 0)
            kinds = true;
        else if (i + 1 < argc && strcmp(argv[i], "--columns") == 0)
            columns = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--schema") == 0)
            schema = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--format") == 0)
            format = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--output") == 0)
            output = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--batch-rows") == 0)
            opts.batch_rows = atoll(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--read-len") == 0)
            opts.read_len = (size_t)atoll(argv[++i]);
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage();
        else
            path = argv[i];
    }
    if ((columns == NULL) == (schema == NULL) ||
        (strcmp(output, "jsonl") != 0 && strcmp(output, "csv") != 0))
        return usage();
    if (pm_input_format_parse(format, &fmt, &err) != 0) {
        fprintf(stderr, "input_cat: %s\n", err.message);
        return 2;
    }
    row = columns != NULL ? (pm_columns_parse(columns, &row, &err) == 0 ? row : NULL)
                          : load_schema(schema, &err);
    if (row == NULL) {
        fprintf(stderr, "input_cat: %s\n", err.message);
        return 2;
    }
    if (strcmp(path, "-") != 0 && (f = fopen(path, "rb")) == NULL) {
        fprintf(stderr, "input_cat: cannot open %s\n", path);
        pm_type_free(row);
        return 1;
    }
    if ((rc = pm_input_open_file(&in, fmt, f, row, &opts, &err)) == 0) {
        while ((rc = pm_input_next(in, &b, &k, &err)) == 0) {
            if (output[0] == 'c' && !header) {
                print_csv_header(b, kinds);
                header = true;
            }
            if ((rc = print_batch(b, k, output[0] == 'c', kinds, &err)) != 0)
                break;
        }
    }
    if (rc == PAIMON_ITEROVER)
        rc = 0;
    if (rc != 0)
        fprintf(stderr, "input_cat: %s: %s\n", path, err.message);
    pm_input_free(in);
    pm_type_free(row);
    if (f != stdin)
        fclose(f);
    return rc != 0 ? 1 : 0;
}

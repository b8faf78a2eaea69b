/*
 * Fuzz target: the input reader (data/input.h) over JSONL, CSV and Debezium JSON, with a
 * fixed row type of every Paimon type.
 *
 * Byte 0 chooses the format (bits 0-1), the batch size (bits 2-4) and the read size of the
 * FILE pass (bits 5-7); the rest is the input.  Every input is read twice: from memory with
 * the fast paths, and through a FILE with tiny reads, one-row batches and the general
 * parser only.  Besides the sanitizers, three oracles abort on a difference:
 *  1. both passes give the same rows, kinds and final error;
 *  2. rows that were read, printed in the canonical form, read back as JSONL to the same
 *     canonical text (the parser is the printer's inverse);
 *  3. an error is PAIMON_EINVALID or PAIMON_ELIMIT with a "line N" message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/input.h"
#include "util/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *COLUMNS =
    "b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(10, 2), "
    "big DECIMAL(38, 6), c CHAR(3), v VARCHAR(5), str STRING, bin BINARY(2), by BYTES, dt DATE, "
    "tm TIME(3), tm9 TIME(9), ts TIMESTAMP(3), ts0 TIMESTAMP(0), ts9 TIMESTAMP(9), "
    "lz TIMESTAMP(6) WITH LOCAL TIME ZONE, a ARRAY<INT NOT NULL>, m MAP<STRING, DOUBLE>, "
    "ms MULTISET<BIGINT>, r ROW<x INT NOT NULL, y ARRAY<DATE>>, mr MAP<INT, ROW<z BYTES>>";

static const char *KINDS[] = {"+I", "-U", "+U", "-D"};

static pm_type *row_type(void)
{
    static pm_type *row = NULL;
    paimon_error err;
    if (row == NULL && pm_columns_parse(COLUMNS, &row, &err) != 0)
        abort();
    return row;
}

/* Reads everything into `out`: one canonical line per row ("_ROW_KIND" first), then
 * "END" or "ERROR <code> <message>".  Returns the final code (PAIMON_ITEROVER at the end). */
static int read_all(pm_input_format fmt, const uint8_t *data, size_t size, bool via_file,
                    int64_t batch_rows, size_t read_len, bool fast, pm_buf *out)
{
    pm_input_options opts = PM_INPUT_OPTIONS_INIT;
    pm_row_input *in = NULL;
    paimon_error err = {0};
    FILE *f = NULL;
    pm_batch *b;
    const int8_t *k;
    size_t start;
    int rc;

    opts.batch_rows = batch_rows;
    opts.read_len = read_len;
    opts.max_record_len = 1 << 16;
    opts.flags = fast ? 0 : PM_INPUT_NO_FAST_PATHS;
    if (via_file) {
        f = fmemopen(size > 0 ? (void *)data : (void *)"", size > 0 ? size : 1, "r");
        if (f == NULL)
            abort();
        if (size == 0)
            fgetc(f); /* an empty stream */
        rc = pm_input_open_file(&in, fmt, f, row_type(), &opts, &err);
    } else {
        rc = pm_input_open_buffer(&in, fmt, data, size, row_type(), &opts, &err);
    }
    if (rc != 0)
        abort();
    while ((rc = pm_input_next(in, &b, &k, &err)) == 0) {
        if (b->row_count < 1 || b->row_count > batch_rows || pm_batch_validate(b, &err) != 0)
            abort();
        for (int64_t r = 0; r < b->row_count; r++) {
            if (k[r] < 0 || k[r] > 3 || pm_input_row_line(in, r) < 1)
                abort();
            /* "_ROW_KIND" first, then the row's members */
            pm_buf_printf(out, "{\"_ROW_KIND\":\"%s\",", KINDS[k[r]]);
            start = out->len;
            if (pm_batch_row_json(out, b, r, &err) != 0)
                abort();
            memmove(out->data + start, out->data + start + 1, out->len - start - 1);
            out->len--;
            pm_buf_putc(out, '\n');
        }
    }
    if (rc == PAIMON_ITEROVER) {
        pm_buf_puts(out, "END\n");
    } else {
        if ((rc != PAIMON_EINVALID && rc != PAIMON_ELIMIT) || strncmp(err.message, "line ", 5) != 0)
            abort();
        pm_buf_printf(out, "ERROR %d %s\n", rc, err.message);
    }
    pm_input_free(in);
    if (f != NULL)
        fclose(f);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pm_input_format fmt;
    int64_t batch_rows;
    size_t read_len;
    pm_buf a, b, c, d;
    int rc;

    if (size < 1)
        return 0;
    fmt = (pm_input_format)(data[0] & 3) == 3 ? PM_INPUT_JSONL : (pm_input_format)(data[0] & 3);
    batch_rows = 1 + ((data[0] >> 2) & 7);
    read_len = 1 + ((data[0] >> 5) & 7) * 3;
    data++;
    size--;

    pm_buf_init(&a, 0);
    pm_buf_init(&b, 0);
    pm_buf_init(&c, 0);
    pm_buf_init(&d, 0);
    rc = read_all(fmt, data, size, false, batch_rows, 0, true, &a);
    read_all(fmt, data, size, true, 1, read_len, false, &b);
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) {
        fprintf(stderr, "memory/fast and FILE/general differ:\n%.*s\n----\n%.*s\n", (int)a.len,
                (const char *)a.data, (int)b.len, (const char *)b.data);
        abort();
    }
    /* the rows read so far, printed, read back as JSONL to the same text */
    {
        size_t end = a.len;
        /* strip the final END/ERROR line */
        while (end > 0 && a.data[end - 1] == '\n')
            end--;
        while (end > 0 && a.data[end - 1] != '\n')
            end--;
        if (end > 0) {
            read_all(PM_INPUT_JSONL, a.data, end, false, 8, 0, true, &c);
            pm_buf_append(&d, a.data, end);
            pm_buf_puts(&d, "END\n");
            if (c.len != d.len || memcmp(c.data, d.data, c.len) != 0) {
                fprintf(stderr, "printed rows do not read back:\n%.*s\n----\n%.*s\n", (int)d.len,
                        (const char *)d.data, (int)c.len, (const char *)c.data);
                abort();
            }
        }
    }
    (void)rc;
    pm_buf_free(&a);
    pm_buf_free(&b);
    pm_buf_free(&c);
    pm_buf_free(&d);
    return 0;
}

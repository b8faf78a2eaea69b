/*
 * libFuzzer target: a whole Parquet file.  Opens it (footer, schema, row groups), reads every
 * batch of every column (pages, dictionaries, levels, values, nested assembly) with a row
 * range and a filter now and then, and describes it (statistics, page indexes).  Any input
 * must end in an error code or a valid decode: a crash, a sanitizer report or a leak is a
 * finding.  Each read is made twice, in place and with pages decompressed ahead on a thread
 * pool (format/parquet/column.h), and must end the same way: the same rows, or the same
 * error after the same rows.  Corpus: tests/fuzz/corpus/parquet (files paimon-c writes); seeds:
 * the fixtures.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "data/predicate.h"
#include "format/data_file.h"
#include "util/alloc.h"
#include "util/pool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads the file with `o` to its end: the rows as JSON lines into `rows`, the end's code (0
 * at the last batch) and message. */
static int read_rows(pm_data_file *f, const pm_read_options *o, pm_buf *rows, paimon_error *err)
{
    pm_batch *b;
    int rc = f->format->start(f->impl, o, err);
    while (rc == 0 && (rc = f->format->next(f->impl, &b, err)) == 0) {
        paimon_error v = {0};
        if (pm_batch_validate(b, &v) != 0)
            __builtin_trap(); /* a decode that succeeds must be a valid batch */
        for (int64_t i = 0; i < b->row_count && rc == 0; i++)
            if ((rc = pm_batch_row_json(rows, b, i, err)) == 0)
                rc = pm_buf_putc(rows, '\n') == 0 ? 0 : PAIMON_ENOMEM;
        pm_batch_free(b);
    }
    return rc == PAIMON_ITEROVER ? 0 : rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_data_file *f = NULL;
    paimon_error err = {0};
    pm_predicate *filter = NULL;
    pm_read_options o = {0};
    int64_t ranges[4] = {1, 3, 5, 1000};
    static pm_pool *pool; /* made once, for every input */
    pm_buf text;

    if (fs == NULL || pm_fs_write_file(fs, "/f.parquet", data, size, &err) != 0)
        goto done;
    if (pm_data_file_open(&f, fs, "/f.parquet", &err) != 0)
        goto done;
    if (pool == NULL && pm_pool_new(&pool, 2, &err) != 0)
        __builtin_trap();
    for (int pass = 0; pass < 2; pass++) {
        const pm_type *t = f->format->type(f->impl);
        paimon_error e1 = {0}, e2 = {0};
        pm_buf rows1, rows2;
        int rc1, rc2;
        o.batch_rows = pass == 0 ? 0 : 3;
        if (pass == 1) {
            /* IS NOT NULL on the first column exercises statistics and page indexes */
            if (t->field_count > 0)
                PM_IGNORE(pm_predicate_is_null(&filter, t, 0, true, NULL));
            o.filter = filter;
            o.ranges = ranges;
            o.range_count = 2;
        }
        /* in place, then with pages decompressed ahead (pages skipped by the ranges and the
         * filter drop their jobs): the same rows, or the same error after the same rows */
        pm_buf_init(&rows1, 0);
        pm_buf_init(&rows2, 0);
        o.pool = NULL;
        rc1 = read_rows(f, &o, &rows1, &e1);
        o.pool = pool;
        rc2 = read_rows(f, &o, &rows2, &e2);
        if (rc1 != rc2 || strcmp(e1.message, e2.message) != 0 || rows1.len != rows2.len ||
            (rows1.len > 0 && memcmp(rows1.data, rows2.data, rows1.len) != 0))
            __builtin_trap();
        pm_buf_free(&rows1);
        pm_buf_free(&rows2);
    }
    pm_buf_init(&text, 1 << 20);
    f->format->describe(f->impl, &text, &err);
    pm_buf_free(&text);
done:
    pm_predicate_free(filter);
    pm_data_file_free(f);
    pm_fs_free(fs);
    return 0;
}

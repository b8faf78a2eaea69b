/*
 * libFuzzer target: a whole Parquet file.  Opens it (footer, schema, row groups), reads every
 * batch of every column (pages, dictionaries, levels, values, nested assembly) with a row
 * range and a filter now and then, and describes it (statistics, page indexes).  Any input
 * must end in an error code or a valid decode: a crash, a sanitizer report or a leak is a
 * finding.  Corpus: tests/fuzz/corpus/parquet (files paimon-c writes); seeds: the fixtures.
 */
#include <stddef.h>
#include <stdint.h>

#include "data/predicate.h"
#include "format/data_file.h"
#include "util/alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_data_file *f = NULL;
    paimon_error err = {0};
    pm_predicate *filter = NULL;
    pm_read_options o = {0};
    int64_t ranges[4] = {1, 3, 5, 1000};
    pm_batch *b;
    pm_buf text;
    int rc;

    if (fs == NULL || pm_fs_write_file(fs, "/f.parquet", data, size, &err) != 0)
        goto done;
    if (pm_data_file_open(&f, fs, "/f.parquet", &err) != 0)
        goto done;
    for (int pass = 0; pass < 2; pass++) {
        const pm_type *t = f->format->type(f->impl);
        o.batch_rows = pass == 0 ? 0 : 3;
        if (pass == 1) {
            /* IS NOT NULL on the first column exercises statistics and page indexes */
            if (t->field_count > 0)
                PM_IGNORE(pm_predicate_is_null(&filter, t, 0, true, NULL));
            o.filter = filter;
            o.ranges = ranges;
            o.range_count = 2;
        }
        rc = f->format->start(f->impl, &o, &err);
        while (rc == 0 && (rc = f->format->next(f->impl, &b, &err)) == 0) {
            paimon_error v = {0};
            if (pm_batch_validate(b, &v) != 0)
                __builtin_trap(); /* a decode that succeeds must be a valid batch */
            pm_batch_free(b);
        }
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

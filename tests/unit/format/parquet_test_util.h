/* Helpers shared by the Parquet unit tests: batches from JSON-ish literals, writing to and
 * reading from an in-memory file system, canonical JSON of whole reads. */
#ifndef PARQUET_TEST_UTIL_H
#define PARQUET_TEST_UTIL_H

#include <string.h>

#include "data/batch.h"
#include "format/parquet/reader.h"
#include "format/parquet/writer.h"
#include "io/fs.h"
#include "testlib.h"
#include "util/alloc.h"

static inline pm_type *ptu_type(const char *columns)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    if (pm_columns_parse(columns, &t, &err) != 0)
        fail_msg("columns '%s': %s", columns, err.message);
    return t;
}

/* Writes batches to `path` on `fs` with options `o` (NULL: defaults). */
static inline void ptu_write(pm_fs *fs, const char *path, const pm_type *t, pm_batch *const *b,
                             size_t n, const pm_pq_writer_options *o)
{
    paimon_error err = {0};
    pm_output *out = NULL;
    pm_pq_writer *w = NULL;
    fs->remove(fs, path, NULL);
    if (fs->create(fs, path, &out, &err) != 0 || pm_pq_writer_open(&w, out, t, o, &err) != 0)
        fail_msg("open %s: %s", path, err.message);
    for (size_t i = 0; i < n; i++)
        if (pm_pq_writer_write(w, b[i], &err) != 0)
            fail_msg("write %s: %s", path, err.message);
    if (pm_pq_writer_close(w, NULL, &err) != 0)
        fail_msg("close %s: %s", path, err.message);
}

static inline pm_pq_reader *ptu_open(pm_fs *fs, const char *path)
{
    paimon_error err = {0};
    pm_input *in = NULL;
    pm_pq_reader *r = NULL;
    if (fs->open(fs, path, &in, &err) != 0 || pm_pq_reader_open(&r, in, path, &err) != 0)
        fail_msg("read %s: %s", path, err.message);
    return r;
}

/* Every row of a read as JSON lines (caller frees with pm_free); rc of the read in *rc. */
static inline char *ptu_read_json(pm_pq_reader *r, const pm_pq_read_options *o, int *rc_out,
                                  paimon_error *err)
{
    pm_buf out;
    pm_batch *b;
    int rc;
    pm_buf_init(&out, 0);
    rc = pm_pq_reader_start(r, o, err);
    while (rc == 0 && (rc = pm_pq_reader_next(r, &b, err)) == 0) {
        paimon_error verr = {0};
        if (pm_batch_validate(b, &verr) != 0)
            fail_msg("invalid batch: %s", verr.message);
        for (int64_t i = 0; i < b->row_count; i++) {
            assert_int_equal(pm_batch_row_json(&out, b, i, err), 0);
            pm_buf_putc(&out, '\n');
        }
        pm_batch_free(b);
    }
    if (rc_out != NULL)
        *rc_out = rc == PAIMON_ITEROVER ? 0 : rc;
    else if (rc != PAIMON_ITEROVER)
        fail_msg("read: %s", err->message);
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

/* JSON lines of the rows of batches. */
static inline char *ptu_batches_json(pm_batch *const *b, size_t n)
{
    paimon_error err = {0};
    pm_buf out;
    pm_buf_init(&out, 0);
    for (size_t k = 0; k < n; k++)
        for (int64_t i = 0; i < b[k]->row_count; i++) {
            assert_int_equal(pm_batch_row_json(&out, b[k], i, &err), 0);
            pm_buf_putc(&out, '\n');
        }
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

/* Appends one row given as datums to the flat columns of `b` (NULL entries are nulls). */
static inline void ptu_row(pm_batch *b, const pm_datum *values)
{
    for (size_t c = 0; c < b->column_count; c++)
        assert_int_equal(pm_column_append_datum(b->columns[c], &values[c]), 0);
    b->row_count++;
}

/* The whole file as bytes (for corruption tests). */
static inline uint8_t *ptu_file_bytes(pm_fs *fs, const char *path, size_t *len)
{
    uint8_t *data = NULL;
    paimon_error err = {0};
    if (pm_fs_read_all(fs, path, 0, &data, len, &err) != 0)
        fail_msg("read %s: %s", path, err.message);
    return data;
}

#endif

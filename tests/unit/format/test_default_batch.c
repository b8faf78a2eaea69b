/*
 * Rows per batch when a reader names none (pm_read_options.batch_rows = 0): every format
 * reads pm_batch_default_rows() of its read type, so a file of 600 INT columns is read in
 * batches of about 8 MiB, not 65,536 rows (157 MB a batch), and a narrow file still in
 * batches of 65,536.
 */
#include <stdio.h>
#include <string.h>

#include "testlib.h"

#include "data/types.h"
#include "format/data_file.h"
#include "format/file_writer.h"
#include "io/fs.h"
#include "util/buf.h"

static pm_type *int_columns(int n)
{
    pm_buf text;
    pm_type *row = NULL;
    paimon_error err = {0};
    pm_buf_init(&text, 0);
    for (int i = 0; i < n; i++) {
        char one[32];
        snprintf(one, sizeof(one), "%sc%d INT", i > 0 ? ", " : "", i);
        assert_int_equal(pm_buf_append(&text, one, strlen(one)), 0);
    }
    assert_int_equal(pm_buf_append(&text, "", 1), 0);
    if (pm_columns_parse((const char *)text.data, &row, &err) != 0)
        fail_msg("%s", err.message);
    pm_buf_free(&text);
    return row;
}

/* A batch of `rows` rows of `row` (every column INT or BIGINT: the row number). */
static pm_batch *numbers(const pm_type *row, int64_t rows)
{
    pm_batch *b = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_batch_new(&b, row, &err), 0);
    for (int64_t r = 0; r < rows; r++)
        for (size_t c = 0; c < b->column_count; c++)
            assert_int_equal(pm_column_append_i64(b->columns[c], r + (int64_t)c), 0);
    assert_int_equal(pm_batch_set_rows(b, rows, &err), 0);
    return b;
}

/* Writes `rows` rows of `row` in `format` and returns the largest batch a read with
 * batch_rows 0 gives, checking that the rows all come back. */
static int64_t largest_batch(const char *format, const pm_type *row, int64_t rows)
{
    const pm_file_format *ff = NULL;
    pm_fs *fs = pm_fs_memory_new();
    pm_file_writer *w = NULL;
    pm_data_file *f = NULL;
    pm_read_options ro;
    pm_batch *b = numbers(row, rows), *got = NULL;
    pm_options opts;
    paimon_error err = {0};
    int64_t largest = 0, total = 0;
    uint64_t size = 0;
    int rc;
    pm_options_init(&opts);
    assert_int_equal(pm_file_format_find(format, &ff, &err), 0);
    if (pm_file_writer_open(&w, ff, fs, "/f", row, "zstd", &opts, &err) != 0 ||
        pm_file_writer_write(w, b, 0, rows, &err) != 0 || pm_file_writer_close(w, &size, &err) != 0)
        fail_msg("%s: %s", format, err.message);
    assert_int_equal(pm_data_file_open(&f, fs, "/f", &err), 0);
    memset(&ro, 0, sizeof(ro));
    if (f->format->start(f->impl, &ro, &err) != 0)
        fail_msg("%s: %s", format, err.message);
    while ((rc = f->format->next(f->impl, &got, &err)) == 0) {
        /* the last value of the batch is its last row's number */
        int64_t last = total + got->row_count - 1;
        assert_int_equal(
            ((const int32_t *)(const void *)got->columns[0]->values.data)[got->row_count - 1],
            (int32_t)last);
        total += got->row_count;
        if (got->row_count > largest)
            largest = got->row_count;
        pm_batch_free(got);
    }
    if (rc != PAIMON_ITEROVER)
        fail_msg("%s: %s", format, err.message);
    assert_int_equal(total, rows);
    pm_data_file_free(f);
    pm_batch_free(b);
    pm_options_free(&opts);
    pm_fs_free(fs);
    return largest;
}

static void test_estimate(void **state)
{
    pm_type *narrow = NULL, *deep = NULL, *wide = int_columns(600), *widest = int_columns(5000);
    paimon_error err = {0};
    char text[2048];
    size_t n = 0;
    (void)state;
    assert_int_equal(pm_columns_parse("id BIGINT, v STRING, m MAP<STRING, INT>", &narrow, &err), 0);
    assert_int_equal(pm_batch_default_rows(narrow), PM_BATCH_DEFAULT_ROWS);
    /* 600 x 4 bytes a row: 3,495 rows in 8 MiB, down to a multiple of 1024 */
    assert_int_equal(pm_batch_default_rows(wide), 3072);
    assert_int_equal(pm_batch_default_rows(widest), 1024);
    /* ARRAY nested 64 deep multiplies past 2^64 unless the estimate saturates */
    n += (size_t)snprintf(text, sizeof(text), "a ");
    for (int i = 0; i < PM_MAX_NESTING; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "ARRAY<");
    n += (size_t)snprintf(text + n, sizeof(text) - n, "INT");
    for (int i = 0; i < PM_MAX_NESTING; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, ">");
    if (pm_columns_parse(text, &deep, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(pm_batch_default_rows(deep), 1024);
    assert_int_equal(pm_batch_default_rows(NULL), PM_BATCH_DEFAULT_ROWS);
    pm_type_free(narrow);
    pm_type_free(deep);
    pm_type_free(wide);
    pm_type_free(widest);
}

static void test_every_format_reads_default_rows(void **state)
{
    static const char *formats[] = {"parquet", "orc", "avro"};
    pm_type *wide = int_columns(600), *narrow = int_columns(2);
    (void)state;
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        int64_t w = largest_batch(formats[i], wide, 4000),
                n = largest_batch(formats[i], narrow, 70000);
        if (w != pm_batch_default_rows(wide) || n != PM_BATCH_DEFAULT_ROWS)
            fail_msg("%s: batches of %lld rows of 600 columns (want %lld), %lld of 2 (want %d)",
                     formats[i], (long long)w, (long long)pm_batch_default_rows(wide), (long long)n,
                     PM_BATCH_DEFAULT_ROWS);
    }
    pm_type_free(wide);
    pm_type_free(narrow);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate),
        cmocka_unit_test(test_every_format_reads_default_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

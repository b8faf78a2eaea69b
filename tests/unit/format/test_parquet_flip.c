/* Byte-flip sweep: every byte of small files paimon-c writes, and a stride of bytes of every
 * Parquet fixture, flipped one at a time, then the whole file decoded (footer, every batch,
 * the page indexes): each must give an error or a valid decode, never a crash or a
 * sanitizer report.  Truncations at every length of the small file too. */
#include <stdio.h>

#include "format/data_file.h"
#include "parquet_test_util.h"

static int decoded, failed_cleanly;

/* Decodes everything; the return code only matters for the counts. */
static void decode_all(pm_fs *fs, const char *path)
{
    paimon_error err = {0};
    pm_data_file *f = NULL;
    pm_batch *b;
    pm_buf text;
    int rc;
    if (pm_data_file_open(&f, fs, path, &err) != 0) {
        failed_cleanly++;
        return;
    }
    rc = f->format->start(f->impl, NULL, &err);
    while (rc == 0 && (rc = f->format->next(f->impl, &b, &err)) == 0) {
        paimon_error v = {0};
        assert_int_equal(pm_batch_validate(b, &v), 0);
        pm_batch_free(b);
    }
    pm_buf_init(&text, 0);
    f->format->describe(f->impl, &text, &err);
    pm_buf_free(&text);
    if (rc == PAIMON_ITEROVER)
        decoded++;
    else
        failed_cleanly++;
    pm_data_file_free(f);
}

/* The same file through the Parquet reader with every chunk streamed in small windows. */
static void decode_streamed(pm_fs *fs, const char *path)
{
    paimon_error err = {0};
    pm_input *in = NULL;
    pm_pq_reader *r = NULL;
    pm_pq_read_options o = {0};
    pm_batch *b;
    int rc;
    if (fs->open(fs, path, &in, &err) != 0 || pm_pq_reader_open(&r, in, path, &err) != 0)
        return;
    o.stream_chunk_bytes = 1;
    o.stream_window_bytes = 13;
    rc = pm_pq_reader_start(r, &o, &err);
    while (rc == 0 && (rc = pm_pq_reader_next(r, &b, &err)) == 0) {
        paimon_error v = {0};
        assert_int_equal(pm_batch_validate(b, &v), 0);
        pm_batch_free(b);
    }
    assert_true(rc == PAIMON_ITEROVER || err.message[0] != '\0');
    pm_pq_reader_free(r);
}

static void sweep(const uint8_t *orig, size_t len, size_t stride, bool truncations)
{
    pm_fs *fs = pm_fs_memory_new();
    uint8_t *copy = pm_malloc(len);
    paimon_error err = {0};
    for (size_t i = 0; i < len; i += stride) {
        memcpy(copy, orig, len);
        copy[i] ^= (uint8_t)(i % 3 == 0 ? 0xff : i % 3 == 1 ? 0x01 : 0x80);
        fs->remove(fs, "/f.parquet", NULL);
        assert_int_equal(pm_fs_write_file(fs, "/f.parquet", copy, len, &err), 0);
        decode_all(fs, "/f.parquet");
        decode_streamed(fs, "/f.parquet");
    }
    for (size_t n = 0; truncations && n < len; n += 1 + n / 64) {
        fs->remove(fs, "/f.parquet", NULL);
        assert_int_equal(pm_fs_write_file(fs, "/f.parquet", orig, n, &err), 0);
        decode_all(fs, "/f.parquet");
    }
    pm_free(copy);
    pm_fs_free(fs);
}

static void test_flip_written(void **state)
{
    static const char *const schemas[] = {
        "id BIGINT NOT NULL, s STRING, d DECIMAL(30, 2), ts TIMESTAMP(9), f FLOAT",
        "a ARRAY<INT>, m MAP<STRING, ARRAY<BIGINT>>, r ROW<x INT, y ROW<z STRING>>",
    };
    (void)state;
    for (size_t k = 0; k < 2; k++) {
        pm_fs *fs = pm_fs_memory_new();
        pm_type *t = ptu_type(schemas[k]);
        pm_batch *b = NULL;
        pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
        paimon_error err = {0};
        uint8_t *bytes;
        size_t len;
        assert_int_equal(pm_batch_new(&b, t, &err), 0);
        for (int64_t i = 0; i < 40; i++)
            for (size_t c = 0; c < b->column_count; c++) {
                pm_column *col = b->columns[c];
                if (i % 5 == 3 && col->type->nullable) {
                    assert_int_equal(pm_column_append_null(col), 0);
                    continue;
                }
                switch (col->type->id) {
                case PM_TYPE_ARRAY:
                    for (int64_t e = 0; e < i % 3; e++)
                        assert_int_equal(pm_column_append_i64(col->children[0], i * e), 0);
                    assert_int_equal(pm_column_list_end(col, true), 0);
                    break;
                case PM_TYPE_MAP: {
                    pm_datum key = pm_datum_bytes("key", 3);
                    if (i % 2) {
                        assert_int_equal(pm_column_append_datum(col->children[0], &key), 0);
                        assert_int_equal(pm_column_append_i64(col->children[1]->children[0], i), 0);
                        assert_int_equal(pm_column_list_end(col->children[1], true), 0);
                    }
                    assert_int_equal(pm_column_list_end(col, true), 0);
                    break;
                }
                case PM_TYPE_ROW: {
                    pm_datum s = pm_datum_bytes("zz", 2);
                    assert_int_equal(pm_column_append_i64(col->children[0], i), 0);
                    assert_int_equal(pm_column_append_datum(col->children[1]->children[0], &s), 0);
                    assert_int_equal(pm_column_struct_end(col->children[1], true), 0);
                    assert_int_equal(pm_column_struct_end(col, true), 0);
                    break;
                }
                case PM_TYPE_VARCHAR: {
                    pm_datum s = pm_datum_bytes(i % 2 ? "odd" : "even", i % 2 ? 3 : 4);
                    assert_int_equal(pm_column_append_datum(col, &s), 0);
                    break;
                }
                case PM_TYPE_FLOAT:
                    assert_int_equal(pm_column_append_f64(col, (double)i / 4), 0);
                    break;
                case PM_TYPE_TIMESTAMP: {
                    pm_datum ts = {.is_null = false};
                    ts.v.ts.millis = i * 86400000 - 5;
                    ts.v.ts.nanos = (int32_t)i;
                    assert_int_equal(pm_column_append_datum(col, &ts), 0);
                    break;
                }
                default: assert_int_equal(pm_column_append_i64(col, i * 17 - 300), 0); break;
                }
            }
        assert_int_equal(pm_batch_set_rows(b, 40, &err), 0);
        o.page_row_limit = 16;
        ptu_write(fs, "/w.parquet", t, &b, 1, &o);
        bytes = ptu_file_bytes(fs, "/w.parquet", &len);
        decoded = failed_cleanly = 0;
        sweep(bytes, len, 1, true);
        printf("written file %zu: %zu bytes; decoded %d, failed cleanly %d\n", k, len, decoded,
               failed_cleanly);
        assert_true(failed_cleanly > 0);
        pm_free(bytes);
        pm_batch_free(b);
        pm_type_free(t);
        pm_fs_free(fs);
    }
}

static void test_flip_fixtures(void **state)
{
    pm_strlist files;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "data-", &files);
    decoded = failed_cleanly = 0;
    for (size_t i = 0; i < files.count; i++) {
        size_t len, n = strlen(files.items[i]);
        uint8_t *bytes;
        if (n < 8 || strcmp(files.items[i] + n - 8, ".parquet") != 0)
            continue;
        bytes = pm_test_read_file(files.items[i], &len);
        sweep(bytes, len, len / 97 + 1, false);
        pm_free(bytes);
    }
    printf("fixtures: decoded %d, failed cleanly %d\n", decoded, failed_cleanly);
    assert_true(decoded + failed_cleanly > 1000);
    pm_strlist_free(&files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flip_written),
        cmocka_unit_test(test_flip_fixtures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Avro data files (format/avro/avro_data.h) through the data-file interface: batches of
 * every type Paimon writes to Avro, with nulls, written with each codec and read back
 * equal; the writer schema is Java's text; reading resolves by field name (projection,
 * reordering, missing fields as null, int widened to long); row ranges return exactly
 * their rows; what Avro cannot hold (TIMESTAMP(9)) and nulls in NOT NULL columns are
 * refused; truncated files and flipped bytes give errors, never crashes.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "data/batch.h"
#include "format/avro/avro_container.h"
#include "format/avro/avro_data.h"
#include "format/data_file.h"
#include "util/alloc.h"

static const char COLUMNS[] =
    "b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
    "dec DECIMAL(10, 2), big DECIMAL(38, 10), c CHAR(3), str STRING, bin BYTES, dt DATE, "
    "tm TIME(3), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ltz TIMESTAMP(6) WITH LOCAL TIME ZONE, "
    "arr ARRAY<INT>, m MAP<STRING, BIGINT>, im MAP<INT, STRING>, "
    "r ROW<x INT, y ARRAY<STRING>>, ms MULTISET<STRING>";

static uint64_t seed = 7;
static uint64_t rnd(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 17;
}

static void append_value(pm_column *c, int64_t row)
{
    const pm_type *t = c->type;
    char buf[32];
    pm_datum d;
    memset(&d, 0, sizeof(d));
    if (t->nullable && rnd() % 7 == 0) {
        assert_int_equal(pm_column_append_null(c), 0);
        return;
    }
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        int n = (int)(rnd() % 4);
        for (int k = 0; k < n; k++) {
            if (t->id == PM_TYPE_ARRAY) {
                append_value(c->children[0], row);
            } else { /* distinct keys */
                if (pm_type_is_string(t->element)) {
                    int len = snprintf(buf, sizeof(buf), "k%d", k);
                    d.v.s.ptr = (const uint8_t *)buf;
                    d.v.s.len = (size_t)len;
                } else {
                    d.v.i = k * 3 - row;
                }
                assert_int_equal(pm_column_append_datum(c->children[0], &d), 0);
            }
            if (c->child_count > 1)
                append_value(c->children[1], row);
        }
        assert_int_equal(pm_column_list_end(c, true), 0);
        return;
    }
    case PM_TYPE_ROW:
        for (size_t k = 0; k < c->child_count; k++)
            append_value(c->children[k], row);
        assert_int_equal(pm_column_struct_end(c, true), 0);
        return;
    case PM_TYPE_BOOLEAN: d.v.b = rnd() % 2; break;
    case PM_TYPE_TINYINT: d.v.i = (int8_t)rnd(); break;
    case PM_TYPE_SMALLINT: d.v.i = (int16_t)rnd(); break;
    case PM_TYPE_INT: d.v.i = row; break; /* the row position: ranges are checked by it */
    case PM_TYPE_BIGINT: d.v.i = row == 3 ? INT64_MIN : (int64_t)(rnd() << 22) - row; break;
    case PM_TYPE_FLOAT: d.v.f = (float)(rnd() % 10000) / 8.0f; break;
    case PM_TYPE_DOUBLE: d.v.d = row % 50 == 0 ? -0.0 : (double)(rnd() % 1000000) / 3.0; break;
    case PM_TYPE_DECIMAL:
        d.v.dec = t->precision > 18 ? ((pm_int128)rnd() * 1000000007 - (pm_int128)row * 17)
                                    : (pm_int128)(rnd() % 100000) - 50000;
        break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_VARBINARY: {
        int len = snprintf(buf, sizeof(buf), "%s%lld", t->id == PM_TYPE_CHAR ? "" : "é-",
                           (long long)(rnd() % 100000));
        if (t->id == PM_TYPE_CHAR)
            len = len > 3 ? 3 : len;
        d.v.s.ptr = (const uint8_t *)buf;
        d.v.s.len = (size_t)len;
        break;
    }
    case PM_TYPE_DATE: d.v.i = (int64_t)(rnd() % 40000) - 10000; break;
    case PM_TYPE_TIME: d.v.i = (int64_t)(rnd() % 86400000); break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        d.v.ts.millis = (int64_t)(rnd() % 4000000000000ULL) - 1000000000000LL;
        d.v.ts.nanos = t->precision > 3 ? (int32_t)(rnd() % 1000) * 1000 : 0;
        break;
    default: break;
    }
    assert_int_equal(pm_column_append_datum(c, &d), 0);
}

static pm_batch *make_batch(const pm_type *row, int64_t first, int64_t n)
{
    pm_batch *b;
    paimon_error err = {0};
    assert_int_equal(pm_batch_new(&b, row, &err), 0);
    for (int64_t r = 0; r < n; r++)
        for (size_t c = 0; c < b->column_count; c++)
            append_value(b->columns[c], first + r);
    assert_int_equal(pm_batch_set_rows(b, n, &err), 0);
    assert_int_equal(pm_batch_validate(b, &err), 0);
    return b;
}

static void rows_json(const pm_batch *b, pm_buf *out)
{
    paimon_error err = {0};
    for (int64_t r = 0; r < b->row_count; r++) {
        assert_int_equal(pm_batch_row_json(out, b, r, &err), 0);
        pm_buf_putc(out, '\n');
    }
}

/* Writes `nb` batches of `rows` rows to `path`; appends the rows' JSON to `json`. */
static void write_file(pm_fs *fs, const char *path, const pm_type *row, int nb, int64_t rows,
                       const char *compression, pm_buf *json)
{
    pm_output *out;
    pm_avro_data_writer *w;
    paimon_error err = {0};
    uint64_t size = 0, on_disk = 0;
    assert_int_equal(fs->create(fs, path, &out, &err), 0);
    if (pm_avro_data_writer_open(&w, out, row, compression, 0, &err) != 0)
        fail_msg("%s", err.message);
    for (int i = 0; i < nb; i++) {
        pm_batch *b = make_batch(row, i * rows, rows);
        if (pm_avro_data_writer_write(w, b, &err) != 0)
            fail_msg("%s", err.message);
        if (json != NULL)
            rows_json(b, json);
        pm_batch_free(b);
    }
    assert_int_equal(pm_avro_data_writer_rows(w), nb * rows);
    if (pm_avro_data_writer_close(w, &size, &err) != 0)
        fail_msg("%s", err.message);
    assert_int_equal(pm_fs_size(fs, path, &on_disk, &err), 0);
    assert_int_equal(on_disk, size);
}

/* Reads `path` with `ro`; appends the rows' JSON; returns the rows or -1 with `err` set. */
static int64_t read_file(pm_fs *fs, const char *path, const pm_read_options *ro, pm_buf *json,
                         paimon_error *err)
{
    pm_data_file *f;
    pm_batch *b;
    int64_t rows = 0;
    int rc;
    if (pm_data_file_open(&f, fs, path, err) != 0)
        return -1;
    assert_string_equal(f->format->name, "avro");
    if ((rc = f->format->start(f->impl, ro, err)) == 0) {
        while ((rc = f->format->next(f->impl, &b, err)) == 0) {
            assert_int_equal(pm_batch_validate(b, err), 0);
            if (json != NULL)
                rows_json(b, json);
            rows += b->row_count;
            pm_batch_free(b);
        }
    }
    pm_data_file_free(f);
    return rc == PAIMON_ITEROVER ? rows : -1;
}

static void assert_same_rows(pm_buf *want, pm_buf *got)
{
    const char *a = pm_buf_cstr(want), *b = pm_buf_cstr(got);
    size_t line = 0;
    if (strcmp(a, b) == 0)
        return;
    for (;;) {
        const char *na = strchr(a, '\n'), *nb = strchr(b, '\n');
        if (na == NULL || nb == NULL || na - a != nb - b || memcmp(a, b, (size_t)(na - a)) != 0)
            fail_msg("row %zu differs:\nwrote %.*s\nread  %.*s", line,
                     na != NULL ? (int)(na - a) : 20, a, nb != NULL ? (int)(nb - b) : 20, b);
        a = na + 1;
        b = nb + 1;
        line++;
    }
}

static void test_every_type_round_trips(void **state)
{
    static const char *const codecs[] = {"zstd", "snappy", "deflate", "none"};
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    (void)state;
    assert_int_equal(pm_columns_parse(COLUMNS, &row, &err), 0);
    for (size_t k = 0; k < 4; k++) {
        pm_buf wrote, read;
        pm_read_options ro;
        char path[64];
        pm_buf_init(&wrote, 0);
        pm_buf_init(&read, 0);
        snprintf(path, sizeof(path), "/t/data-%zu.avro", k);
        /* 3 x 3001 rows: several 64 KiB blocks */
        write_file(fs, path, row, 3, 3001, codecs[k], &wrote);
        memset(&ro, 0, sizeof(ro));
        ro.read_type = row;
        ro.batch_rows = k == 1 ? 1000 : 0;
        if (read_file(fs, path, &ro, &read, &err) != 3 * 3001)
            fail_msg("%s: %s", codecs[k], err.message);
        assert_same_rows(&wrote, &read);
        pm_buf_free(&wrote);
        pm_buf_free(&read);
    }
    pm_type_free(row);
    pm_fs_free(fs);
}

/* Java's writer schema for a few columns, as AvroSchemaConverter prints it (a nullable map
 * key is a union without a default, as Java's builder leaves it). */
static void test_schema_text(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_buf json;
    (void)state;
    assert_int_equal(pm_columns_parse("a INT NOT NULL, b DECIMAL(5, 2), c TIMESTAMP(3), "
                                      "d TIMESTAMP(6) WITH LOCAL TIME ZONE, e MAP<INT, STRING>",
                                      &row, &err),
                     0);
    pm_buf_init(&json, 0);
    assert_int_equal(pm_avro_data_schema_json(row, &json, &err), 0);
    assert_string_equal(
        pm_buf_cstr(&json),
        "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro."
        "generated\","
        "\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
        "{\"name\":\"b\",\"type\":[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\","
        "\"precision\":5,\"scale\":2}],\"default\":null},"
        "{\"name\":\"c\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-"
        "millis\"}],"
        "\"default\":null},"
        "{\"name\":\"d\",\"type\":[\"null\",{\"type\":\"long\","
        "\"logicalType\":\"local-timestamp-micros\"}],\"default\":null},"
        "{\"name\":\"e\",\"type\":[\"null\",{\"type\":\"array\",\"items\":{\"type\":\"record\","
        "\"name\":\"record_e\",\"fields\":[{\"name\":\"key\",\"type\":[\"null\",\"int\"]},{"
        "\"name\":\"value\","
        "\"type\":[\"null\",\"string\"],\"default\":null}]},\"logicalType\":\"map\"}],"
        "\"default\":null}]}");
    pm_buf_free(&json);
    pm_type_free(row);
}

/* Columns resolve by name: a projection in another order, a column the file lacks (null),
 * INT read as BIGINT; ranges return exactly their rows (the INT column is the position). */
static void test_resolution_and_ranges(void **state)
{
    pm_type *row, *proj;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_read_options ro;
    pm_buf read;
    static const int64_t ranges[] = {0, 2, 1500, 1503, 5999, 6000};
    const char *p;
    int64_t want[] = {0, 1, 1500, 1501, 1502, 5999};
    size_t k = 0;
    (void)state;
    assert_int_equal(pm_columns_parse("i INT NOT NULL, str STRING, l BIGINT", &row, &err), 0);
    write_file(fs, "/t/r.avro", row, 2, 3000, "zstd", NULL);
    assert_int_equal(pm_columns_parse("l BIGINT, gone DOUBLE, i BIGINT NOT NULL", &proj, &err), 0);
    memset(&ro, 0, sizeof(ro));
    ro.read_type = proj;
    ro.ranges = ranges;
    ro.range_count = 3;
    ro.batch_rows = 2;
    pm_buf_init(&read, 0);
    assert_int_equal(read_file(fs, "/t/r.avro", &ro, &read, &err), 6);
    for (p = pm_buf_cstr(&read); *p != '\0'; p = strchr(p, '\n') + 1, k++) {
        char expect[64];
        /* {"l":…,"gone":null,"i":N} */
        snprintf(expect, sizeof(expect), "\"gone\":null,\"i\":%lld}", (long long)want[k]);
        if (strstr(p, expect) == NULL || strstr(p, expect) > strchr(p, '\n'))
            fail_msg("row %zu: %.80s lacks %s", k, p, expect);
    }
    assert_int_equal(k, 6);
    pm_buf_free(&read);
    /* a NOT NULL read of a nullable column holding nulls fails on the null */
    pm_type_free(proj);
    assert_int_equal(pm_columns_parse("str STRING NOT NULL", &proj, &err), 0);
    ro.ranges = NULL;
    ro.read_type = proj;
    assert_int_equal(read_file(fs, "/t/r.avro", &ro, NULL, &err), -1);
    assert_int_equal(err.code, PAIMON_ECORRUPT);
    /* a column read as an unrelated type is refused */
    pm_type_free(proj);
    assert_int_equal(pm_columns_parse("str INT", &proj, &err), 0);
    ro.read_type = proj;
    assert_int_equal(read_file(fs, "/t/r.avro", &ro, NULL, &err), -1);
    assert_non_null(strstr(err.message, "cannot be read as"));
    pm_type_free(proj);
    pm_type_free(row);
    pm_fs_free(fs);
}

static void test_refused(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_output *out;
    pm_avro_data_writer *w;
    pm_batch *b;
    pm_datum d;
    (void)state;
    /* TIMESTAMP(9) does not fit Avro's micros, as Java refuses */
    assert_int_equal(pm_columns_parse("ts TIMESTAMP(9)", &row, &err), 0);
    assert_int_equal(fs->create(fs, "/t/a.avro", &out, &err), 0);
    assert_int_equal(pm_avro_data_writer_open(&w, out, row, NULL, 0, &err), PAIMON_EUNSUPPORTED);
    pm_type_free(row);
    /* a null in a NOT NULL column */
    assert_int_equal(pm_columns_parse("i INT NOT NULL", &row, &err), 0);
    assert_int_equal(fs->create(fs, "/t/b.avro", &out, &err), 0);
    assert_int_equal(pm_avro_data_writer_open(&w, out, row, "none", 0, &err), 0);
    assert_int_equal(pm_batch_new(&b, row, &err), 0);
    memset(&d, 0, sizeof(d));
    assert_int_equal(pm_column_append_datum(b->columns[0], &d), 0);
    assert_int_equal(pm_column_append_null(b->columns[0]), 0);
    assert_int_equal(pm_batch_set_rows(b, 2, &err), 0);
    assert_int_not_equal(pm_avro_data_writer_write(w, b, &err), 0);
    pm_avro_data_writer_abort(w);
    pm_batch_free(b);
    pm_type_free(row);
    /* an unknown compression option */
    assert_int_equal(pm_columns_parse("i INT", &row, &err), 0);
    assert_int_equal(fs->create(fs, "/t/c.avro", &out, &err), 0);
    assert_int_not_equal(pm_avro_data_writer_open(&w, out, row, "brotli9", 0, &err), 0);
    pm_type_free(row);
    pm_fs_free(fs);
}

/* Every truncation and a sweep of byte flips: an error or a decode, never a crash (the
 * sanitizers watch) and never more rows than written. */
static void test_damaged_files(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    uint8_t *data, *copy;
    uint64_t size;
    pm_input *in;
    size_t errors = 0, decodes = 0;
    (void)state;
    assert_int_equal(pm_columns_parse(COLUMNS, &row, &err), 0);
    write_file(fs, "/t/good.avro", row, 1, 40, "none", NULL);
    assert_int_equal(pm_fs_size(fs, "/t/good.avro", &size, &err), 0);
    data = pm_malloc((size_t)size);
    copy = pm_malloc((size_t)size);
    assert_int_equal(fs->open(fs, "/t/good.avro", &in, &err), 0);
    assert_int_equal(in->read_at(in, 0, (size_t)size, data, &err), 0);
    in->close(in);
    for (size_t cut = 0; cut <= size; cut += cut < 600 ? 1 : 97) {
        int64_t rows;
        assert_int_equal(fs->write_atomic(fs, "/t/x.avro", data, cut, true, &err), 0);
        rows = read_file(fs, "/t/x.avro", NULL, NULL, &err);
        assert_true(rows <= 40);
        rows < 0 ? errors++ : decodes++;
    }
    for (size_t pos = 0; pos < size; pos += 3) {
        int64_t rows;
        memcpy(copy, data, (size_t)size);
        copy[pos] ^= (uint8_t)(1u << (pos % 8));
        assert_int_equal(fs->write_atomic(fs, "/t/y.avro", copy, (size_t)size, true, &err), 0);
        rows = read_file(fs, "/t/y.avro", NULL, NULL, &err);
        rows < 0 ? errors++ : decodes++;
    }
    /* the whole file decodes; most truncations do not */
    assert_true(errors > 100);
    assert_true(decodes > 1);
    pm_free(data);
    pm_free(copy);
    pm_type_free(row);
    pm_fs_free(fs);
}

/* Opening counts rows from the block frames alone (nothing is decompressed until a block is
 * read): a file whose frames hold, with one damaged block payload, opens with its full row
 * count and fails when that block is read (ECORRUPT naming the file and the block). */
static void test_count_from_frames(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_avro_reader r;
    pm_data_file *f;
    uint8_t *data;
    uint64_t size;
    pm_input *in;
    size_t offs[64], nblocks = 0, off;
    int64_t n, total = 0;
    int rc;
    (void)state;
    assert_int_equal(pm_columns_parse(COLUMNS, &row, &err), 0);
    write_file(fs, "/t/z.avro", row, 8, 2000, "deflate", NULL);
    assert_int_equal(pm_fs_size(fs, "/t/z.avro", &size, &err), 0);
    data = pm_malloc((size_t)size);
    assert_int_equal(fs->open(fs, "/t/z.avro", &in, &err), 0);
    assert_int_equal(in->read_at(in, 0, (size_t)size, data, &err), 0);
    in->close(in);
    /* the frames alone give every block and the rows written */
    assert_int_equal(pm_avro_reader_open(&r, data, (size_t)size, "z", &err), 0);
    while ((rc = pm_avro_reader_next_block(&r, NULL, &n, &off, &err)) == 0 && nblocks < 64) {
        offs[nblocks++] = off;
        total += n;
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    pm_avro_reader_close(&r);
    assert_int_equal(total, 8 * 2000);
    assert_true(nblocks >= 2);
    /* damage the middle of the second block's payload: the frame still holds */
    {
        size_t end = (nblocks > 2 ? offs[2] : (size_t)size) - 16; /* its sync marker */
        data[offs[1] + (end - offs[1]) / 2] ^= 0xff;
    }
    assert_int_equal(fs->write_atomic(fs, "/t/d.avro", data, (size_t)size, true, &err), 0);
    assert_int_equal(pm_data_file_open(&f, fs, "/t/d.avro", &err), 0);
    assert_int_equal(f->format->row_count(f->impl), 8 * 2000);
    pm_data_file_free(f);
    assert_int_equal(read_file(fs, "/t/d.avro", NULL, NULL, &err), -1);
    assert_true(err.code == PAIMON_ECORRUPT);
    if (strstr(err.message, "/t/d.avro") == NULL || strstr(err.message, "block") == NULL)
        fail_msg("%s", err.message);
    pm_free(data);
    pm_type_free(row);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type_round_trips), cmocka_unit_test(test_schema_text),
        cmocka_unit_test(test_resolution_and_ranges),  cmocka_unit_test(test_refused),
        cmocka_unit_test(test_damaged_files),          cmocka_unit_test(test_count_from_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

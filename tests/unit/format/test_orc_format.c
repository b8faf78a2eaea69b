/*
 * ORC data files through the data-file interface: batches of every Paimon type, with
 * nulls, written by pm_orc_file_writer and read back by pm_data_file (format_orc.c) equal
 * the rows written, whatever the codec, stripe size and batch sizes; row ranges return
 * exactly their rows; predicates prune stripes and row groups by statistics and never lose
 * a matching row; the written layout is Java's (dictionary choice, encodings, row index
 * count, attributes); a null in a NOT NULL column is refused.  Read with a pool, the streams
 * of each stripe are decompressed at once on it (orc_stream_jobs.h): the same rows, and on
 * a corrupt file or a failing read the same error after the same rows; a file's sections for several
 * threads begin at its stripes (pm_data_file_sections).
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "data/batch.h"
#include "data/predicate.h"
#include "format/data_file.h"
#include "format/orc/orc_describe.h"
#include "format/orc/orc_format.h"
#include "format/orc/orc_reader.h"
#include "util/alloc.h"
#include "util/pool.h"

static const char COLUMNS[] =
    "b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
    "dec DECIMAL(10, 2), big DECIMAL(38, 10), c CHAR(3), vc VARCHAR(5), str STRING, "
    "bin BYTES, dt DATE, tm TIME, ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), "
    "ltz TIMESTAMP(6) WITH LOCAL TIME ZONE, arr ARRAY<INT>, m MAP<STRING, BIGINT>, "
    "r ROW<x INT, y ARRAY<STRING>>, ms MULTISET<STRING>";

static uint64_t seed = 42;
static uint64_t rnd(void)
{
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 17;
}

/* One value of a scalar type for row `row` (nulls one in seven except in NOT NULL). */
static void scalar(const pm_type *t, int64_t row, pm_datum *d, char *buf)
{
    bool null = t->nullable && rnd() % 7 == 0;
    memset(d, 0, sizeof(*d));
    d->is_null = null;
    if (null)
        return;
    switch (t->id) {
    case PM_TYPE_BOOLEAN: d->v.b = rnd() % 3 == 0; break;
    case PM_TYPE_TINYINT: d->v.i = (int8_t)rnd(); break;
    case PM_TYPE_SMALLINT: d->v.i = (int16_t)rnd(); break;
    case PM_TYPE_INT: d->v.i = row % 100 == 0 ? INT32_MIN : (int32_t)(rnd() % 1000) + row; break;
    case PM_TYPE_BIGINT: d->v.i = row * 1000 + (int64_t)(rnd() % 3); break;
    case PM_TYPE_FLOAT: d->v.f = (float)(rnd() % 10000) / 8.0f; break;
    case PM_TYPE_DOUBLE: d->v.d = row % 50 == 0 ? -0.0 : (double)(rnd() % 1000000) / 3.0; break;
    case PM_TYPE_DECIMAL:
        d->v.dec = t->precision > 18 ? ((pm_int128)rnd() * 1000000007 - (pm_int128)row * 17)
                                     : (pm_int128)(rnd() % 100000) - 50000;
        break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: {
        /* few distinct values (a dictionary), or many (direct) */
        size_t n = t->id == PM_TYPE_CHAR ? 3 : t->length < 10 ? 1 + rnd() % 5 : rnd() % 20;
        for (size_t k = 0; k < n; k++)
            buf[k] = t->length < 10 ? (char)('a' + rnd() % 3) : (char)('A' + (row * 7 + k) % 26);
        if (t->length >= 10) /* STRING values distinct: a direct encoding */
            n = (size_t)snprintf(buf, 32, "%lld-%u", (long long)row, (unsigned)(rnd() % 1000));
        d->v.s.ptr = (const uint8_t *)buf;
        d->v.s.len = n;
        break;
    }
    case PM_TYPE_VARBINARY:
        for (int k = 0; k < 9; k++)
            buf[k] = (char)rnd();
        d->v.s.ptr = (const uint8_t *)buf;
        d->v.s.len = rnd() % 10;
        break;
    case PM_TYPE_DATE: d->v.i = (int64_t)(rnd() % 40000) - 10000; break;
    case PM_TYPE_TIME: d->v.i = (int64_t)(rnd() % 86400000); break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        /* before and after the epoch, and 2015; nanos as the precision keeps them */
        int64_t ms = (int64_t)(rnd() % 4000000000000ULL) - 1000000000000LL;
        int32_t ns = t->precision <= 3   ? 0
                     : t->precision <= 6 ? (int32_t)(rnd() % 1000) * 1000
                                         : (int32_t)(rnd() % 1000000);
        d->v.ts.millis = ms;
        d->v.ts.nanos = ns;
        break;
    }
    default: break;
    }
}

static void append_value(pm_column *c, int64_t row)
{
    const pm_type *t = c->type;
    char buf[32];
    pm_datum d;
    if (!pm_type_is_nested(t)) {
        scalar(t, row, &d, buf);
        assert_int_equal(pm_column_append_datum(c, &d), 0);
        return;
    }
    if (t->nullable && rnd() % 9 == 0) {
        assert_int_equal(pm_column_append_null(c), 0);
        return;
    }
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        int n = (int)(rnd() % 4);
        for (int k = 0; k < n; k++)
            for (size_t ch = 0; ch < c->child_count; ch++)
                append_value(c->children[ch], row);
        assert_int_equal(pm_column_list_end(c, true), 0);
        break;
    }
    case PM_TYPE_ROW:
        for (size_t ch = 0; ch < c->child_count; ch++)
            append_value(c->children[ch], row);
        assert_int_equal(pm_column_struct_end(c, true), 0);
        break;
    default: break;
    }
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

/* Writes `nb` batches of `rows` rows to `path` and returns the rows' JSON. */
static void write_file(pm_fs *fs, const char *path, const pm_type *row, int nb, int64_t rows,
                       const pm_orc_writer_options *o, pm_buf *json)
{
    pm_output *out;
    pm_orc_file_writer *w;
    paimon_error err = {0};
    uint64_t size = 0;
    assert_int_equal(fs->create(fs, path, &out, &err), 0);
    assert_int_equal(pm_orc_file_writer_open(&w, out, row, o, &err), 0);
    for (int i = 0; i < nb; i++) {
        pm_batch *b = make_batch(row, i * rows, rows);
        if (pm_orc_file_writer_write(w, b, &err) != 0)
            fail_msg("%s", err.message);
        rows_json(b, json);
        pm_batch_free(b);
    }
    assert_int_equal(pm_orc_file_writer_rows(w), nb * rows);
    if (pm_orc_file_writer_close(w, &size, &err) != 0)
        fail_msg("%s", err.message);
    {
        uint64_t on_disk;
        assert_int_equal(pm_fs_size(fs, path, &on_disk, &err), 0);
        assert_int_equal(on_disk, size);
    }
}

static int64_t read_file(pm_fs *fs, const char *path, const pm_read_options *ro, pm_buf *json)
{
    pm_data_file *f;
    pm_batch *b;
    paimon_error err = {0};
    int64_t rows = 0;
    int rc;
    if (pm_data_file_open(&f, fs, path, &err) != 0)
        fail_msg("%s", err.message);
    assert_string_equal(f->format->name, "orc");
    if (f->format->start(f->impl, ro, &err) != 0)
        fail_msg("%s", err.message);
    while ((rc = f->format->next(f->impl, &b, &err)) == 0) {
        assert_int_equal(pm_batch_validate(b, &err), 0);
        rows_json(b, json);
        rows += b->row_count;
        pm_batch_free(b);
    }
    if (rc != PAIMON_ITEROVER)
        fail_msg("%s", err.message);
    pm_data_file_free(f);
    return rows;
}

/* The first line where two row dumps differ, as a failure message. */
static void assert_same_rows(const pm_buf *want, const pm_buf *got)
{
    const char *a = (const char *)want->data, *b = (const char *)got->data;
    size_t line = 0;
    if (want->len == got->len && (want->len == 0 || memcmp(a, b, want->len) == 0))
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
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    static const pm_orc_compression codecs[] = {PM_ORC_ZSTD, PM_ORC_NONE, PM_ORC_ZLIB,
                                                PM_ORC_SNAPPY, PM_ORC_LZ4};
    (void)state;
    assert_int_equal(pm_columns_parse(COLUMNS, &row, &err), 0);
    for (size_t k = 0; k < sizeof(codecs) / sizeof(codecs[0]); k++) {
        pm_orc_writer_options o;
        pm_buf wrote, read;
        pm_read_options ro;
        char path[64];
        memset(&o, 0, sizeof(o));
        o.compression = codecs[k];
        o.compression_set = true;
        /* small stripes and chunks: several stripes and many chunks */
        o.stripe_size = k == 0 ? 0 : 200000;
        o.block_size = k == 1 ? 0 : 4096;
        pm_buf_init(&wrote, 0);
        pm_buf_init(&read, 0);
        snprintf(path, sizeof(path), "/t/data-%zu.orc", k);
        write_file(fs, path, row, 5, 5003, &o, &wrote);
        memset(&ro, 0, sizeof(ro));
        ro.read_type = row; /* as a table reads it: TIME and TIMESTAMP(p) as declared */
        ro.batch_rows = k == 2 ? 1000 : 0;
        assert_int_equal(read_file(fs, path, &ro, &read), 5 * 5003);
        pm_buf_cstr(&read);
        pm_buf_cstr(&wrote);
        assert_same_rows(&wrote, &read);
        pm_buf_free(&wrote);
        pm_buf_free(&read);
    }
    pm_type_free(row);
    pm_fs_free(fs);
}

/* The layout Java would write: attributes, encodings and one index entry per 10,000 rows. */
static void test_layout(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_buf wrote, text;
    uint8_t *data;
    size_t len;
    pm_orc_reader *r;
    (void)state;
    assert_int_equal(pm_columns_parse(COLUMNS, &row, &err), 0);
    pm_buf_init(&wrote, 0);
    pm_buf_init(&text, 0);
    write_file(fs, "/t/x.orc", row, 3, 10000, NULL, &wrote);
    assert_int_equal(pm_fs_read_all(fs, "/t/x.orc", 0, &data, &len, &err), 0);
    assert_int_equal(pm_orc_reader_open_memory(&r, data, len, "x", &err), 0);
    assert_int_equal(pm_orc_describe(r, NULL, &text, &err), 0);
    /* Java's type tree for the row type (OrcTypeUtil): ids, element/key/value ids */
    assert_non_null(strstr(pm_buf_cstr(&text), "type 4 1 i int paimon.id=3\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "type 10 1 c char(3) paimon.id=9\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "type 11 1 vc varchar(5) paimon.id=10\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "type 13 1 bin binary paimon.id=12\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "type 15 1 tm int paimon.id=14\n"));
    assert_non_null(
        strstr(pm_buf_cstr(&text), "ltz timestamp with local time zone paimon.id=18\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "arr array paimon.id=19\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "(element) int paimon.id=536890368\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "(key) string paimon.id=536850430\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "(value) bigint paimon.id=536891392\n"));
    /* a nested row's fields keep their own ids; its list element uses the field's id */
    assert_non_null(strstr(pm_buf_cstr(&text), "r struct paimon.id=21\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "type 28 3 (element) string paimon.id=536894464\n"));
    /* MULTISET<STRING> is map<string, int> */
    assert_non_null(strstr(pm_buf_cstr(&text), "type 31 2 (value) int paimon.id=536895488\n"));
    /* strings: few distinct values get a dictionary, many do not */
    assert_non_null(strstr(pm_buf_cstr(&text), "encoding 11 DICTIONARY_V2"));
    assert_non_null(strstr(pm_buf_cstr(&text), "encoding 12 DIRECT_V2\n"));
    assert_non_null(strstr(pm_buf_cstr(&text), "timezone UTC\n"));
    assert_int_equal(pm_orc_reader_footer(r)->number_of_rows, 30000);
    {
        const pm_orc_row_index *ri;
        assert_int_equal(pm_orc_reader_row_index(r, 0, 4, &ri, &err), 0);
        assert_int_equal(ri->entry_count, 3);
    }
    pm_orc_reader_free(r);
    pm_free(data);
    pm_buf_free(&wrote);
    pm_buf_free(&text);
    pm_type_free(row);
    pm_fs_free(fs);
}

static void test_ranges_and_pruning(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_buf wrote, read;
    pm_read_options ro;
    pm_predicate *p;
    pm_datum lit = pm_datum_int(42000);
    int64_t ranges[] = {3, 5, 9999, 10002, 24000, 24001, 49990, 50000};
    int64_t rows;
    (void)state;
    assert_int_equal(pm_columns_parse("id BIGINT NOT NULL, v STRING", &row, &err), 0);
    pm_buf_init(&wrote, 0);
    pm_buf_init(&read, 0);
    write_file(fs, "/t/r.orc", row, 10, 5000, NULL, &wrote);
    /* exact ranges */
    memset(&ro, 0, sizeof(ro));
    ro.ranges = ranges;
    ro.range_count = 4;
    ro.batch_rows = 3;
    rows = read_file(fs, "/t/r.orc", &ro, &read);
    assert_int_equal(rows, 2 + 3 + 1 + 10);
    {
        const char *all = pm_buf_cstr(&wrote), *got = pm_buf_cstr(&read);
        int64_t line = 0, k = 0;
        for (const char *p1 = all; *p1 != '\0'; line++) {
            const char *nl = strchr(p1, '\n');
            bool want = false;
            for (int i = 0; i < 4; i++)
                want |= line >= ranges[2 * i] && line < ranges[2 * i + 1];
            if (want) {
                assert_int_equal(strncmp(got, p1, (size_t)(nl - p1 + 1)), 0);
                got += nl - p1 + 1;
                k++;
            }
            p1 = nl + 1;
        }
        assert_int_equal(k, rows);
    }
    /* ids are row * 1000 + 0..2: id < 42000 holds for rows 0..41 only, in the first of the
     * five row groups; the other four are pruned by their statistics */
    pm_buf_reset(&read);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_LT, row, 0, &lit, &err), 0);
    memset(&ro, 0, sizeof(ro));
    ro.filter = p;
    rows = read_file(fs, "/t/r.orc", &ro, &read);
    assert_int_equal(rows, 10000);
    assert_non_null(strstr(pm_buf_cstr(&read), "{\"id\":41"));
    pm_predicate_free(p);
    /* id >= 42000 prunes nothing; ranges and the filter together: rows 49990..49999 */
    pm_buf_reset(&read);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_GE, row, 0, &lit, &err), 0);
    memset(&ro, 0, sizeof(ro));
    ro.filter = p;
    ro.ranges = ranges + 6;
    ro.range_count = 1;
    assert_int_equal(read_file(fs, "/t/r.orc", &ro, &read), 10);
    pm_predicate_free(p);
    pm_buf_free(&wrote);
    pm_buf_free(&read);
    pm_type_free(row);
    pm_fs_free(fs);
}

static void test_not_null_refused(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_output *out;
    pm_orc_file_writer *w;
    pm_batch *b;
    pm_datum null = pm_datum_null();
    (void)state;
    assert_int_equal(pm_columns_parse("a INT NOT NULL", &row, &err), 0);
    assert_int_equal(pm_batch_new(&b, row, &err), 0);
    assert_int_equal(pm_column_append_datum(b->columns[0], &null), 0);
    assert_int_equal(pm_batch_set_rows(b, 1, &err), 0);
    assert_int_equal(fs->create(fs, "/t/n.orc", &out, &err), 0);
    assert_int_equal(pm_orc_file_writer_open(&w, out, row, NULL, &err), 0);
    assert_int_equal(pm_orc_file_writer_write(w, b, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "Field 'a' expected not null"));
    pm_orc_file_writer_abort(w);
    pm_batch_free(b);
    pm_type_free(row);
    pm_fs_free(fs);
}

/* A file written from a type without distinct field ids (a bare Parquet file's columns all
 * carry id 0) reads back by name: an id several fields share identifies none of them. */
static void test_shared_ids_read_by_name(void **state)
{
    pm_type *row, *proj;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_buf wrote, read;
    pm_read_options ro;
    (void)state;
    assert_int_equal(pm_columns_parse("a INT NOT NULL, b BIGINT, c STRING", &row, &err), 0);
    for (size_t i = 0; i < row->field_count; i++)
        row->fields[i].id = 0;
    pm_buf_init(&wrote, 0);
    pm_buf_init(&read, 0);
    write_file(fs, "/t/ids.orc", row, 1, 300, NULL, &wrote);
    memset(&ro, 0, sizeof(ro));
    assert_int_equal(read_file(fs, "/t/ids.orc", &ro, &read), 300); /* the file's own type */
    assert_same_rows(&wrote, &read);
    /* a projection by name, in another order */
    assert_int_equal(pm_columns_parse("c STRING, a INT NOT NULL", &proj, &err), 0);
    for (size_t i = 0; i < proj->field_count; i++)
        proj->fields[i].id = 0;
    ro.read_type = proj;
    pm_buf_reset(&read);
    assert_int_equal(read_file(fs, "/t/ids.orc", &ro, &read), 300);
    {
        /* {"a":A,"b":B,"c":C} written reads as {"c":C,"a":A} */
        pm_buf want;
        const char *p = pm_buf_cstr(&wrote);
        pm_buf_init(&want, 0);
        while (*p != '\0') {
            const char *a = strstr(p, "\"a\":") + 4, *ae = strchr(a, ',');
            const char *c = strstr(p, "\"c\":") + 4, *nl = strchr(p, '\n');
            pm_buf_printf(&want, "{\"c\":%.*s,\"a\":%.*s}\n", (int)(nl - 1 - c), c, (int)(ae - a),
                          a);
            p = nl + 1;
        }
        assert_same_rows(&want, &read);
        pm_buf_free(&want);
    }
    pm_buf_free(&wrote);
    pm_buf_free(&read);
    pm_type_free(proj);
    pm_type_free(row);
    pm_fs_free(fs);
}

static void test_options(void **state)
{
    pm_orc_writer_options o;
    paimon_error err = {0};
    const char *k1[] = {"file.compression", "orc.compress", "file.block-size",
                        "orc.dictionary.key.threshold", "file.compression.zstd-level"};
    const char *v1[] = {"snappy", "lz4", "8 mb", "0", "3"};
    const char *k2[] = {"orc.compress"};
    const char *v2[] = {"brotli"};
    (void)state;
    memset(&o, 0, sizeof(o));
    assert_int_equal(pm_orc_writer_options_parse(&o, k1, v1, 5, &err), 0);
    assert_int_equal(o.compression, PM_ORC_LZ4); /* orc.compress wins */
    assert_int_equal(o.stripe_size, 8 << 20);
    assert_true(o.dictionary_threshold < 0);
    assert_int_equal(o.level, 3);
    assert_int_equal(pm_orc_writer_options_parse(&o, k2, v2, 1, &err), PAIMON_EINVALID);
    /* Java's chunk size: 64 MiB / (20 * columns), a power of two, 4 KiB .. 256 KiB */
    assert_int_equal(pm_orc_block_size(64 << 20, 38), 131072);
    assert_int_equal(pm_orc_block_size(64 << 20, 18), 262144);
    assert_int_equal(pm_orc_block_size(64 << 20, 3000), 4096);
}

/* Reads ORC bytes to their end through pm_orc_reader with `pool` (NULL: in place): the
 * number of values of every column summed into `digest` with their bytes, the end's code
 * and message, and the streams decompressed on the pool. */
static int read_orc_bytes(const uint8_t *data, size_t len, pm_pool *pool, const int64_t *ranges,
                          size_t range_count, uint64_t *digest, int64_t *rows_out,
                          paimon_error *err, int64_t *on_pool)
{
    pm_orc_reader *r = NULL;
    pm_orc_read_options o;
    const pm_orc_vec *v;
    int64_t rows = 0;
    int rc;
    *digest = 1469598103934665603ULL;
    if ((rc = pm_orc_reader_open_memory(&r, data, len, "x.orc", err)) != 0)
        return rc;
    memset(&o, 0, sizeof(o));
    o.pool = pool;
    o.batch_rows = 777;
    o.ranges = ranges;
    o.range_count = range_count;
    rc = pm_orc_reader_start(r, &o, err);
    while (rc == 0 && (rc = pm_orc_reader_next(r, &v, err)) == 0) {
        /* the root's children: every top-level column's values, offsets and validity */
        rows += v->length;
        for (size_t c = 0; c < v->child_count; c++) {
            const pm_orc_vec *k = v->children[c];
            const pm_buf *parts[] = {&k->values, &k->offsets, &k->validity, &k->nanos};
            if (k == NULL)
                continue;
            for (size_t q = 0; q < 4; q++)
                for (size_t i = 0; i < parts[q]->len; i++)
                    *digest = (*digest ^ parts[q]->data[i]) * 1099511628211ULL;
        }
    }
    *rows_out = rows;
    *on_pool = pm_orc_reader_streams_on_pool(r);
    pm_orc_reader_free(r);
    return rc == PAIMON_ITEROVER ? 0 : rc;
}

static void test_streams_decompressed_on_pool(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_pool *pool = NULL;
    static const pm_orc_compression codecs[] = {PM_ORC_ZSTD, PM_ORC_ZLIB, PM_ORC_SNAPPY, PM_ORC_LZ4,
                                                PM_ORC_NONE};
    int failures = 0, reads = 0;
    (void)state;
    assert_int_equal(pm_pool_new(&pool, 2, &err), 0);
    assert_int_equal(pm_columns_parse(COLUMNS, &row, &err), 0);
    for (size_t k = 0; k < sizeof(codecs) / sizeof(codecs[0]); k++) {
        pm_orc_writer_options o;
        pm_buf wrote, read;
        pm_read_options ro;
        char path[64];
        uint8_t *data = NULL;
        size_t len = 0;
        int64_t ranges[] = {2, 700, 9000, 9001, 14000, 20000};
        memset(&o, 0, sizeof(o));
        o.compression = codecs[k];
        o.compression_set = true;
        o.stripe_size = 200000; /* several stripes, many chunks */
        o.block_size = 4096;
        pm_buf_init(&wrote, 0);
        pm_buf_init(&read, 0);
        snprintf(path, sizeof(path), "/t/pool-%zu.orc", k);
        write_file(fs, path, row, 4, 5003, &o, &wrote);
        /* through the data-file interface, as a table's raw split reads it */
        memset(&ro, 0, sizeof(ro));
        ro.read_type = row;
        ro.pool = pool;
        assert_int_equal(read_file(fs, path, &ro, &read), 4 * 5003);
        assert_same_rows(&wrote, &read);
        /* the reader itself: every column's bytes, whole and in ranges, the same with the
         * pool as without; compressed streams went to the pool */
        assert_int_equal(pm_fs_read_all(fs, path, 0, &data, &len, &err), 0);
        for (int ranged = 0; ranged < 2; ranged++) {
            uint64_t d1, d2;
            int64_t n1, n2, p1, p2;
            assert_int_equal(read_orc_bytes(data, len, NULL, ranged ? ranges : NULL, ranged ? 3 : 0,
                                            &d1, &n1, &err, &p1),
                             0);
            assert_int_equal(read_orc_bytes(data, len, pool, ranged ? ranges : NULL, ranged ? 3 : 0,
                                            &d2, &n2, &err, &p2),
                             0);
            assert_int_equal(n1, ranged ? 698 + 1 + 6000 : 4 * 5003);
            assert_int_equal(n2, n1);
            assert_true(d1 == d2);
            assert_int_equal(p1, 0);
            if (codecs[k] == PM_ORC_NONE)
                assert_int_equal(p2, 0); /* nothing to decompress */
            else
                assert_true(p2 > 20); /* 23 columns' streams, stripe after stripe */
        }
        /* corrupt bytes: the same end either way -- the same rows, code and message */
        for (size_t at = 64; at < len - 64 && codecs[k] != PM_ORC_NONE; at += len / 19) {
            uint8_t saved = data[at];
            uint64_t d1, d2;
            int64_t n1, n2, p1, p2;
            paimon_error e1 = {0}, e2 = {0};
            int rc1, rc2;
            data[at] ^= 0x5a;
            rc1 = read_orc_bytes(data, len, NULL, NULL, 0, &d1, &n1, &e1, &p1);
            rc2 = read_orc_bytes(data, len, pool, NULL, 0, &d2, &n2, &e2, &p2);
            data[at] = saved;
            reads++;
            failures += rc1 != 0;
            if (rc1 != rc2 || n1 != n2 || d1 != d2 || strcmp(e1.message, e2.message) != 0)
                fail_msg("byte %zu of %s: in place %d after %lld rows (%s), on the pool %d "
                         "after %lld rows (%s)",
                         at, path, rc1, (long long)n1, e1.message, rc2, (long long)n2, e2.message);
        }
        pm_free(data);
        pm_buf_free(&wrote);
        pm_buf_free(&read);
    }
    /* the corruption loop met failures, not only harmless bytes */
    assert_true(reads > 60);
    assert_true(failures > reads / 4);
    pm_type_free(row);
    pm_pool_free(pool);
    pm_fs_free(fs);
}

/* Where a file's sections begin: anywhere for Parquet, at stripes for ORC. */
static void test_sections_begin_at_stripes(void **state)
{
    static const int64_t stripes[] = {0, 300, 600, 900};
    int64_t b[9];
    pm_type *row;
    paimon_error err = {0};
    pm_fs *fs = pm_fs_memory_new();
    pm_data_file *f = NULL;
    pm_orc_writer_options o;
    pm_buf wrote;
    size_t count = 0;
    (void)state;
    /* anywhere: equal cuts */
    assert_int_equal(pm_section_bounds(1000, 4, NULL, 0, b), 4);
    assert_true(b[0] == 0 && b[1] == 250 && b[2] == 500 && b[3] == 750 && b[4] == 1000);
    /* at stripes: the nearest start (ties: the lower), none twice */
    assert_int_equal(pm_section_bounds(1000, 2, stripes, 4, b), 2);
    assert_true(b[0] == 0 && b[1] == 600 && b[2] == 1000);
    assert_int_equal(pm_section_bounds(1000, 4, stripes, 4, b), 3);
    assert_true(b[0] == 0 && b[1] == 300 && b[2] == 600 && b[3] == 1000);
    /* one stripe: read whole */
    assert_int_equal(pm_section_bounds(1000, 8, stripes, 1, b), 1);
    assert_true(b[0] == 0 && b[1] == 1000);
    assert_int_equal(pm_section_bounds(0, 4, NULL, 0, b), 1);
    /* a file: its stripes' first rows */
    assert_int_equal(pm_columns_parse("id BIGINT NOT NULL, v STRING", &row, &err), 0);
    memset(&o, 0, sizeof(o));
    o.stripe_size = 20000; /* about ten stripes */
    pm_buf_init(&wrote, 0);
    write_file(fs, "/t/s.orc", row, 8, 5000, &o, &wrote);
    assert_int_equal(pm_data_file_open(&f, fs, "/t/s.orc", &err), 0);
    assert_int_equal(pm_data_file_sections(f, 4, b, &count, &err), 0);
    assert_true(count >= 2);
    assert_int_equal(b[0], 0);
    assert_int_equal(b[count], 40000);
    {
        const int64_t *starts = NULL;
        size_t n = 0;
        assert_int_equal(f->format->section_starts(f->impl, &starts, &n, &err), 0);
        if (n <= count)
            fail_msg("%zu stripes, %zu sections", n, count);
        for (size_t i = 1; i < count; i++) {
            bool at_stripe = false;
            for (size_t j = 0; j < n; j++)
                at_stripe |= starts[j] == b[i];
            assert_true(at_stripe);
        }
    }
    pm_data_file_free(f);
    pm_buf_free(&wrote);
    pm_type_free(row);
    pm_fs_free(fs);
}

/* Reads `path` through the data-file interface with `pool` to its end or first failure:
 * the rows as JSON, the code. */
static int read_outcome(pm_fs *fs, const char *path, pm_pool *pool, pm_buf *json, paimon_error *err)
{
    pm_data_file *f = NULL;
    pm_read_options ro;
    pm_batch *b;
    int rc;
    if ((rc = pm_data_file_open(&f, fs, path, err)) != 0)
        return rc;
    memset(&ro, 0, sizeof(ro));
    ro.pool = pool;
    rc = f->format->start(f->impl, &ro, err);
    while (rc == 0 && (rc = f->format->next(f->impl, &b, err)) == 0) {
        rows_json(b, json);
        pm_batch_free(b);
    }
    pm_data_file_free(f);
    return rc == PAIMON_ITEROVER ? 0 : rc;
}

/* A read of the file that fails (every read in turn, by fault injection) fails the same way
 * with a stripe's streams decompressed on the pool as in place: the reads of a stripe's
 * streams happen before their decompression there, and each failure is reported where the
 * read in place would meet it. */
static void test_stream_read_failures_on_pool(void **state)
{
    pm_type *row;
    paimon_error err = {0};
    pm_fs *mem = pm_fs_memory_new();
    pm_pool *pool = NULL;
    pm_orc_writer_options o;
    pm_buf wrote;
    uint8_t *data = NULL;
    size_t len = 0;
    long k;
    (void)state;
    assert_int_equal(pm_pool_new(&pool, 2, &err), 0);
    assert_int_equal(pm_columns_parse("id BIGINT NOT NULL, v STRING, d DOUBLE", &row, &err), 0);
    memset(&o, 0, sizeof(o));
    o.stripe_size = 30000; /* a few stripes */
    pm_buf_init(&wrote, 0);
    write_file(mem, "/t/f.orc", row, 4, 4000, &o, &wrote);
    assert_int_equal(pm_fs_read_all(mem, "/t/f.orc", 0, &data, &len, &err), 0);
    for (k = 1;; k++) {
        pm_buf j1, j2;
        paimon_error e1 = {0}, e2 = {0};
        int rc1, rc2;
        pm_fs *f1 = pm_fs_memory_new(), *f2 = pm_fs_memory_new();
        assert_int_equal(pm_fs_write_file(f1, "/f.orc", data, len, &err), 0);
        assert_int_equal(pm_fs_write_file(f2, "/f.orc", data, len, &err), 0);
        f1 = pm_fs_fault_new(f1, k, PM_FAULT_FAIL);
        f2 = pm_fs_fault_new(f2, k, PM_FAULT_FAIL);
        pm_buf_init(&j1, 0);
        pm_buf_init(&j2, 0);
        rc1 = read_outcome(f1, "/f.orc", NULL, &j1, &e1);
        rc2 = read_outcome(f2, "/f.orc", pool, &j2, &e2);
        if (rc1 != rc2 || strcmp(e1.message, e2.message) != 0 || j1.len != j2.len ||
            (j1.len > 0 && memcmp(j1.data, j2.data, j1.len) != 0))
            fail_msg("read %ld failing: in place %d (%s) after %zu bytes of rows, on the pool "
                     "%d (%s) after %zu",
                     k, rc1, e1.message, j1.len, rc2, e2.message, j2.len);
        pm_buf_free(&j1);
        pm_buf_free(&j2);
        pm_fs_free(f1);
        pm_fs_free(f2);
        if (rc1 == 0)
            break; /* past the last read */
        assert_int_equal(rc1, PAIMON_EIO);
    }
    /* the tail, a stripe footer and several streams a stripe, for a few stripes */
    assert_true(k > 20);
    pm_free(data);
    pm_buf_free(&wrote);
    pm_type_free(row);
    pm_pool_free(pool);
    pm_fs_free(mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_type_round_trips),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_ranges_and_pruning),
        cmocka_unit_test(test_not_null_refused),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_shared_ids_read_by_name),
        cmocka_unit_test(test_streams_decompressed_on_pool),
        cmocka_unit_test(test_sections_begin_at_stripes),
        cmocka_unit_test(test_stream_read_failures_on_pool),
    };
    /* PAIMON_TEST_FILTER=pattern runs the matching cases only (the TSan subset runs
     * test_streams_decompressed_on_pool: tests/threads/CMakeLists.txt) */
    if (getenv("PAIMON_TEST_FILTER") != NULL)
        cmocka_set_test_filter(getenv("PAIMON_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}

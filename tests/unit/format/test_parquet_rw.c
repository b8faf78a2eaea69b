/* The Parquet writer and reader together: round trips of every type (nested included), Java
 * Paimon's layout (field ids, system columns, list/map ids, encodings, CRCs, page indexes),
 * dictionary fallback, statistics ordering (NaN, -0.0, unsigned strings, signed decimals),
 * projection by id and by name, row ranges, pruning by statistics and page indexes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "data/predicate.h"
#include "format/parquet/column.h"
#include "format/parquet/stats.h"
#include "paimon/version.h"
#include "parquet_test_util.h"
#include "util/bytes.h"
#include "util/hash.h"
#include "util/pool.h"

static uint64_t seed = 12345;
static uint64_t rnd(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

/* Appends a pseudo-random value (nested ones too) to `c`. */
static void gen(pm_column *c, int depth)
{
    const pm_type *t = c->type;
    pm_datum d;
    memset(&d, 0, sizeof(d));
    if (t->nullable && rnd() % 5 == 0) {
        assert_int_equal(pm_column_append_null(c), 0);
        return;
    }
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        int n = (int)(rnd() % (depth > 0 ? 3 : 4));
        char k[16];
        for (int i = 0; i < n; i++) {
            if (t->id == PM_TYPE_ARRAY) {
                gen(c->children[0], depth + 1);
                continue;
            }
            if (pm_type_is_string(c->children[0]->type)) {
                int l = snprintf(k, sizeof(k), "k%d", i);
                d = pm_datum_bytes(k, (size_t)l);
            } else {
                d = pm_datum_int(i * 7);
            }
            assert_int_equal(pm_column_append_datum(c->children[0], &d), 0);
            if (t->id == PM_TYPE_MAP)
                gen(c->children[1], depth + 1);
            else
                assert_int_equal(pm_column_append_i64(c->children[1], i + 1), 0);
        }
        assert_int_equal(pm_column_list_end(c, true), 0);
        return;
    }
    case PM_TYPE_ROW:
        for (size_t i = 0; i < c->child_count; i++)
            gen(c->children[i], depth + 1);
        assert_int_equal(pm_column_struct_end(c, true), 0);
        return;
    case PM_TYPE_BOOLEAN: d.v.b = rnd() & 1; break;
    case PM_TYPE_FLOAT:
        d.v.f = rnd() % 9 == 0 ? (float)NAN : (float)(int64_t)(rnd() % 2001) / 8.0f - 100.0f;
        break;
    case PM_TYPE_DOUBLE:
        d.v.d = rnd() % 9 == 0 ? -0.0 : (double)(int64_t)(rnd() % 20001) / 16.0 - 600.0;
        break;
    case PM_TYPE_DECIMAL: {
        pm_int128 lim = 1;
        for (int k = 0; k < t->precision; k++)
            lim *= 10;
        d.v.dec = ((pm_int128)(int64_t)rnd() * (t->precision > 18 ? 1000000 : 1)) % lim;
        break;
    }
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: {
        static const char *const words[] = {"",  "a",    "héllo",
                                            "z", "日本", "long enough to be a bit longer"};
        const char *w = words[rnd() % 6];
        d = pm_datum_bytes(w, strlen(w));
        break;
    }
    case PM_TYPE_DATE: d.v.i = (int64_t)(rnd() % 100000) - 50000; break;
    case PM_TYPE_TIME: d.v.i = (int64_t)(rnd() % 86400000); break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        d.v.ts.millis = (int64_t)(rnd() % 8000000000000ull) - 4000000000000ll;
        d.v.ts.nanos = t->precision > 6   ? (int32_t)(rnd() % 1000000)
                       : t->precision > 3 ? (int32_t)(rnd() % 1000) * 1000
                                          : 0;
        if (t->precision == 0)
            d.v.ts.millis -= ((d.v.ts.millis % 1000) + 1000) % 1000;
        break;
    case PM_TYPE_TINYINT: d.v.i = (int8_t)rnd(); break;
    case PM_TYPE_SMALLINT: d.v.i = (int16_t)rnd(); break;
    case PM_TYPE_INT: d.v.i = (int32_t)(rnd() % 1000); break;
    default: d.v.i = (int64_t)rnd(); break;
    }
    assert_int_equal(pm_column_append_datum(c, &d), 0);
}

static pm_batch *gen_batch(const pm_type *t, int64_t rows)
{
    pm_batch *b = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    for (int64_t r = 0; r < rows; r++)
        for (size_t c = 0; c < b->column_count; c++)
            gen(b->columns[c], 0);
    assert_int_equal(pm_batch_set_rows(b, rows, &err), 0);
    assert_int_equal(pm_batch_validate(b, &err), 0);
    return b;
}

static const char *ALL_TYPES =
    "b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT, d DOUBLE, "
    "d1 DECIMAL(9, 2), d2 DECIMAL(18, 4), d3 DECIMAL(38, 6), c CHAR(3), v STRING, "
    "bin BYTES, dt DATE, tm TIME(3), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), "
    "ts9 TIMESTAMP(9), lz TIMESTAMP(6) WITH LOCAL TIME ZONE, "
    "a ARRAY<INT>, an ARRAY<STRING NOT NULL>, m MAP<STRING, BIGINT>, "
    "r ROW<x INT, y ARRAY<DOUBLE>, z ROW<w STRING> NOT NULL>, ar ARRAY<ROW<p INT, q STRING>>, "
    "mm MAP<INT, ARRAY<STRING>>, ms MULTISET<STRING>, aa ARRAY<ARRAY<BIGINT>>";

static void roundtrip(const char *columns, int64_t rows, const pm_pq_writer_options *o)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type(columns);
    pm_batch *b[3];
    pm_pq_reader *r;
    pm_pq_read_options ro = {0};
    paimon_error err = {0};
    char *want, *got;
    for (int i = 0; i < 3; i++)
        b[i] = gen_batch(t, rows / 3 + i);
    ptu_write(fs, "/rt.parquet", t, b, 3, o);
    r = ptu_open(fs, "/rt.parquet");
    assert_int_equal(pm_pq_reader_meta(r)->num_rows, 3 * (rows / 3) + 3);
    ro.read_type = t; /* the written type: same precisions */
    ro.batch_rows = 97;
    got = ptu_read_json(r, &ro, NULL, &err);
    want = ptu_batches_json(b, 3);
    if (strcmp(got, want) != 0) {
        /* show the first line that differs */
        size_t i = 0, line = 0;
        while (got[i] == want[i])
            line += got[i++] == '\n';
        while (i > 0 && got[i - 1] != '\n')
            i--;
        fail_msg("line %zu differs:\n got  %.400s\n want %.400s", line, got + i, want + i);
    }
    pm_free(got);
    /* the same rows with every chunk streamed through windows of 1 and 100 bytes (a page at
     * a time, and windows that end inside headers and bodies) */
    for (size_t w = 1; w <= 100; w += 99) {
        pm_pq_read_options so = ro;
        so.stream_chunk_bytes = 1;
        so.stream_window_bytes = w;
        got = ptu_read_json(r, &so, NULL, &err);
        assert_string_equal(got, want);
        pm_free(got);
    }
    /* the same rows into one reused batch */
    {
        pm_batch *reuse = NULL;
        pm_buf all;
        int rc;
        pm_buf_init(&all, 0);
        assert_int_equal(pm_pq_reader_start(r, &ro, &err), 0);
        assert_int_equal(pm_batch_new(&reuse, t, &err), 0);
        while ((rc = pm_pq_reader_next_into(r, reuse, &err)) == 0) {
            assert_int_equal(pm_batch_validate(reuse, &err), 0);
            for (int64_t i = 0; i < reuse->row_count; i++) {
                assert_int_equal(pm_batch_row_json(&all, reuse, i, &err), 0);
                pm_buf_putc(&all, '\n');
            }
        }
        assert_int_equal(rc, PAIMON_ITEROVER);
        assert_string_equal(pm_buf_cstr(&all), want);
        pm_buf_free(&all);
        pm_batch_free(reuse);
    }
    pm_free(want);
    pm_pq_reader_free(r);
    for (int i = 0; i < 3; i++)
        pm_batch_free(b[i]);
    pm_type_free(t);
    pm_fs_free(fs);
}

static void test_roundtrip_all_types(void **state)
{
    pm_pq_writer_options small = PM_PQ_WRITER_OPTIONS_INIT;
    pm_pq_writer_options plain = PM_PQ_WRITER_OPTIONS_INIT;
    (void)state;
    roundtrip(ALL_TYPES, 900, NULL);
    /* many small pages and row groups */
    small.page_size = 512;
    small.page_row_limit = 50;
    small.block_size = 8192;
    roundtrip(ALL_TYPES, 900, &small);
    plain.dictionary = false;
    plain.codec = PQ_SNAPPY;
    roundtrip(ALL_TYPES, 300, &plain);
}

/* The schema and chunk layout Java Paimon writes (metadata.md §3.4, §13). */
static void test_java_layout(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("a ARRAY<INT>, m MAP<STRING, INT>, v STRING");
    pm_type *row = pm_type_new(PM_TYPE_ROW);
    pm_type *k = pm_type_new(PM_TYPE_BIGINT), *seq = pm_type_new(PM_TYPE_BIGINT),
            *kind = pm_type_new(PM_TYPE_TINYINT), *id = pm_type_new(PM_TYPE_BIGINT);
    pm_batch *b = NULL;
    pm_pq_reader *r;
    const pq_file_meta *m;
    const pq_schema_elem *e;
    paimon_error err = {0};
    (void)state;
    k->nullable = seq->nullable = kind->nullable = id->nullable = false;
    assert_int_equal(pm_type_row_add(row, 1073741823 + 7, "_KEY_id", k), 0);
    assert_int_equal(pm_type_row_add(row, 2147483646, "_SEQUENCE_NUMBER", seq), 0);
    assert_int_equal(pm_type_row_add(row, 2147483645, "_VALUE_KIND", kind), 0);
    assert_int_equal(pm_type_row_add(row, 7, "id", id), 0);
    for (size_t i = 0; i < t->field_count; i++)
        assert_int_equal(pm_type_row_add(row, (int32_t)(10 + i), t->fields[i].name,
                                         pm_type_clone(t->fields[i].type)),
                         0);
    b = gen_batch(row, 50);
    ptu_write(fs, "/pk.parquet", row, &b, 1, NULL);
    r = ptu_open(fs, "/pk.parquet");
    m = pm_pq_reader_meta(r);
    e = m->schema;
    assert_string_equal(e[0].name, "paimon_schema");
    assert_string_equal(e[1].name, "_KEY_id");
    assert_int_equal(e[1].field_id, 1073741830);
    assert_int_equal(e[1].repetition, PQ_REQUIRED);
    assert_int_equal(e[2].field_id, 2147483646);
    assert_int_equal(e[3].field_id, 2147483645);
    assert_int_equal(e[3].type, PQ_INT32);
    assert_int_equal(e[3].logical.kind, PQ_LT_INTEGER);
    assert_int_equal(e[3].logical.bit_width, 8);
    assert_int_equal(e[3].converted, PQ_CT_INT_8);
    /* a ARRAY<INT> (id 10): optional group (LIST) { repeated group list { optional element } } */
    assert_string_equal(e[5].name, "a");
    assert_int_equal(e[5].converted, PQ_CT_LIST);
    assert_string_equal(e[6].name, "list");
    assert_int_equal(e[6].repetition, PQ_REPEATED);
    assert_false(e[6].has_field_id);
    assert_string_equal(e[7].name, "element");
    assert_int_equal(e[7].field_id, 2147483647 / 4 + 10 * 1024 + 1);
    /* m MAP<STRING, INT> (id 11): key REQUIRED with MAX/4 - id*1024 - 1 */
    assert_string_equal(e[8].name, "m");
    assert_int_equal(e[8].converted, PQ_CT_MAP);
    assert_string_equal(e[9].name, "key_value");
    assert_int_equal(e[9].converted, PQ_CT_MAP_KEY_VALUE);
    assert_string_equal(e[10].name, "key");
    assert_int_equal(e[10].repetition, PQ_REQUIRED);
    assert_int_equal(e[10].field_id, 2147483647 / 4 - 11 * 1024 - 1);
    assert_int_equal(e[11].field_id, 2147483647 / 4 + 11 * 1024 + 1);
    {
        char want[128];
        snprintf(want, sizeof(want), "paimon-c version %s (build paimon-c)", paimon_version());
        assert_string_equal(m->created_by, want);
    }
    assert_int_equal(m->column_order_count, 8);
    /* chunks: required columns declare BIT_PACKED levels; every chunk has page indexes */
    for (uint32_t c = 0; c < m->row_groups[0].column_count; c++) {
        const pq_column_chunk *cc = &m->row_groups[0].columns[c];
        assert_true(cc->has_offset_index);
        assert_true(cc->meta.has_stats);
        assert_int_equal(cc->meta.codec, PQ_ZSTD);
    }
    {
        /* the first page of _SEQUENCE_NUMBER: v1, CRC present and right, levels BIT_PACKED */
        const pq_column_meta *cm = &m->row_groups[0].columns[1].meta;
        size_t len;
        uint8_t *bytes = ptu_file_bytes(fs, "/pk.parquet", &len);
        int64_t off =
            cm->has_dictionary_page_offset ? cm->dictionary_page_offset : cm->data_page_offset;
        pm_thrift_reader tr;
        pq_page_header h;
        pm_thrift_reader_init(&tr, bytes + off, len - (size_t)off, (uint64_t)off, "x", &err);
        assert_int_equal(pm_pq_read_page_header(&tr, &h), 0);
        assert_true(h.has_crc);
        assert_int_equal((uint32_t)h.crc, pm_crc32(tr.p, (size_t)h.compressed_size));
        if (h.type == PQ_DATA_PAGE) {
            assert_int_equal(h.def_encoding, PQ_BIT_PACKED);
            assert_int_equal(h.rep_encoding, PQ_BIT_PACKED);
        }
        assert_false(h.has_stats);
        pm_free(bytes);
    }
    pm_pq_reader_free(r);
    pm_batch_free(b);
    pm_type_free(row);
    pm_type_free(t);
    pm_fs_free(fs);
}

static bool has_encoding(const pq_column_meta *m, int e)
{
    for (uint32_t i = 0; i < m->encoding_count; i++)
        if (m->encodings[i] == e)
            return true;
    return false;
}

/* Dictionary kept, dropped at the first page, and abandoned mid-chunk. */
static void test_dictionary_fallback(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("few BIGINT, uniq BIGINT, grow STRING");
    pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
    pm_batch *b = NULL;
    pm_pq_reader *r;
    const pq_row_group *rg;
    paimon_error err = {0};
    char *got, *want;
    (void)state;
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    for (int64_t i = 0; i < 6000; i++) {
        char s[32];
        pm_datum v[3];
        int n = snprintf(s, sizeof(s), "value-%lld", (long long)(i < 3000 ? i % 10 : i));
        v[0] = pm_datum_int(i % 3);
        v[1] = pm_datum_int(i * 1000003);
        v[2] = pm_datum_bytes(s, (size_t)n);
        ptu_row(b, v);
    }
    o.page_row_limit = 1000;
    o.dict_page_size = 2000; /* grow's dictionary overflows after row 3000 */
    ptu_write(fs, "/dict.parquet", t, &b, 1, &o);
    r = ptu_open(fs, "/dict.parquet");
    rg = &pm_pq_reader_meta(r)->row_groups[0];
    /* few: dictionary only */
    assert_true(rg->columns[0].meta.has_dictionary_page_offset);
    assert_true(has_encoding(&rg->columns[0].meta, PQ_PLAIN_DICTIONARY));
    assert_false(has_encoding(&rg->columns[0].meta, PQ_PLAIN));
    /* uniq: the first page is not smaller with a dictionary: PLAIN, no dictionary page */
    assert_false(rg->columns[1].meta.has_dictionary_page_offset);
    assert_false(has_encoding(&rg->columns[1].meta, PQ_PLAIN_DICTIONARY));
    assert_true(has_encoding(&rg->columns[1].meta, PQ_PLAIN));
    /* grow: dictionary pages first, PLAIN after the overflow */
    assert_true(rg->columns[2].meta.has_dictionary_page_offset);
    assert_true(has_encoding(&rg->columns[2].meta, PQ_PLAIN_DICTIONARY));
    assert_true(has_encoding(&rg->columns[2].meta, PQ_PLAIN));
    got = ptu_read_json(r, NULL, NULL, &err);
    want = ptu_batches_json(&b, 1);
    assert_string_equal(got, want);
    pm_free(got);
    pm_free(want);
    pm_pq_reader_free(r);
    pm_batch_free(b);
    pm_type_free(t);
    pm_fs_free(fs);
}

/* Chunk statistics: orders, NaN excluded, zeros widened, deprecated fields when signed. */
static void test_statistics(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t =
        ptu_type("s STRING, i INT, d DOUBLE, z FLOAT, dec DECIMAL(30, 2), ts TIMESTAMP(9), "
                 "nn DOUBLE");
    pm_batch *b = NULL;
    pm_pq_reader *r;
    const pq_row_group *rg;
    paimon_error err = {0};
    pm_datum rows[4][7];
    (void)state;
    memset(rows, 0, sizeof(rows));
    rows[0][0] = pm_datum_bytes("z", 1);
    rows[1][0] = pm_datum_bytes("\xc3\xa9", 2); /* é sorts after z as unsigned bytes */
    rows[2][0] = pm_datum_bytes("A", 1);
    rows[3][0] = pm_datum_null();
    rows[0][1] = pm_datum_int(-5);
    rows[1][1] = pm_datum_int(3);
    rows[2][1] = pm_datum_int(-100);
    rows[3][1] = pm_datum_int(7);
    rows[0][2].v.d = NAN;
    rows[1][2].v.d = 2.5;
    rows[2][2].v.d = -1.0;
    rows[3][2] = pm_datum_null();
    for (int i = 0; i < 4; i++)
        rows[i][3].v.f = i % 2 ? 0.0f : -0.0f;
    rows[0][4].v.dec = -12345;
    rows[1][4].v.dec = 999;
    rows[2][4].v.dec = -1;
    rows[3][4].v.dec = 0;
    for (int i = 0; i < 4; i++) {
        rows[i][5].v.ts.millis = i * 1000;
        rows[i][6].v.d = NAN;
    }
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    for (int i = 0; i < 4; i++)
        ptu_row(b, rows[i]);
    ptu_write(fs, "/stats.parquet", t, &b, 1, NULL);
    r = ptu_open(fs, "/stats.parquet");
    rg = &pm_pq_reader_meta(r)->row_groups[0];
    {
        const pq_stats *s = &rg->columns[0].meta.stats;
        assert_int_equal(s->null_count, 1);
        assert_memory_equal(s->min_value.ptr, "A", 1);
        assert_memory_equal(s->max_value.ptr, "\xc3\xa9", 2);
        assert_false(s->has_min); /* unsigned order: no deprecated signed min/max */
    }
    {
        const pq_stats *s = &rg->columns[1].meta.stats;
        assert_int_equal((int32_t)pm_load_le32(s->min_value.ptr), -100);
        assert_int_equal((int32_t)pm_load_le32(s->max_value.ptr), 7);
        assert_true(s->has_min && s->has_max); /* signed: the deprecated fields too */
    }
    {
        const pq_stats *s = &rg->columns[2].meta.stats;
        double lo, hi;
        memcpy(&lo, s->min_value.ptr, 8);
        memcpy(&hi, s->max_value.ptr, 8);
        assert_true(lo == -1.0 && hi == 2.5); /* NaN left out */
    }
    {
        const pq_stats *s = &rg->columns[3].meta.stats;
        float lo, hi;
        memcpy(&lo, s->min_value.ptr, 4);
        memcpy(&hi, s->max_value.ptr, 4);
        assert_true(lo == 0.0f && signbit(lo));  /* -0.0 */
        assert_true(hi == 0.0f && !signbit(hi)); /* +0.0 */
    }
    {
        const pq_stats *s = &rg->columns[4].meta.stats;
        assert_int_equal(s->min_value.len, 13); /* FLBA(13) for precision 30 */
        assert_int_equal(s->min_value.ptr[0], 0xff);
        assert_int_equal(s->max_value.ptr[12], 0xe7); /* 999 = 0x03e7 */
        assert_true(s->has_min);                      /* decimals are signed */
    }
    assert_false(rg->columns[5].meta.stats.has_min_value); /* INT96: no order */
    assert_false(rg->columns[6].meta.stats.has_min_value); /* only NaN: no bounds */
    {
        /* the reader widens and converts the bounds for pruning */
        pq_plan plan;
        pm_type *vt = NULL;
        pm_col_stats cs;
        const pq_schema *s = pm_pq_reader_schema(r);
        assert_int_equal(pm_pq_leaf_value_plan(s, 4, &plan, &vt, "", &err), 0);
        pm_pq_stats_convert(&plan, &s->leaves[4], &rg->columns[4].meta.stats, &cs);
        assert_true(cs.has_min_max);
        assert_true(cs.min.v.dec == -12345);
        assert_true(cs.max.v.dec == 999);
        pm_type_free(vt);
    }
    pm_pq_reader_free(r);
    pm_batch_free(b);
    pm_type_free(t);
    pm_fs_free(fs);
}

static pm_batch *id_batch(const pm_type *t, int64_t from, int64_t n)
{
    pm_batch *b = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    for (int64_t i = from; i < from + n; i++) {
        char s[32];
        int len = snprintf(s, sizeof(s), "row %lld", (long long)i);
        pm_datum v = pm_datum_int(i), sv = pm_datum_bytes(s, (size_t)len);
        assert_int_equal(pm_column_append_datum(b->columns[0], &v), 0);
        assert_int_equal(pm_column_append_datum(b->columns[1], &sv), 0);
        /* tags ARRAY<INT>: i % 3 elements */
        for (int64_t k = 0; k < i % 3; k++)
            assert_int_equal(pm_column_append_i64(b->columns[2]->children[0], i + k), 0);
        assert_int_equal(pm_column_list_end(b->columns[2], true), 0);
    }
    assert_int_equal(pm_batch_set_rows(b, n, &err), 0);
    return b;
}

/* Column chunks of several MiB: the writer's page store spans several blocks and the
 * reader streams the chunks; every value and the chunk statistics come back, compressed
 * or not, with every chunk streamed or read whole. */
static void test_large_chunks(void **state)
{
    pm_type *t = ptu_type("id BIGINT NOT NULL, name STRING, tags ARRAY<INT>");
    const int64_t rows = 300000;
    pm_batch *b = id_batch(t, 0, rows);
    (void)state;
    for (int codec = 0; codec < 2; codec++) {
        pm_fs *fs = pm_fs_memory_new();
        pm_pq_writer_options wo = PM_PQ_WRITER_OPTIONS_INIT;
        pm_pq_read_options o = {0};
        const pq_column_meta *m;
        pm_pq_reader *r;
        paimon_error err = {0};
        wo.codec = codec == 0 ? PQ_UNCOMPRESSED : PQ_ZSTD;
        wo.dictionary = false;
        ptu_write(fs, "/big.parquet", t, &b, 1, &wo);
        r = ptu_open(fs, "/big.parquet");
        assert_int_equal(pm_pq_reader_meta(r)->row_group_count, 1);
        m = &pm_pq_reader_meta(r)->row_groups[0].columns[0].meta;
        if (codec == 0)
            assert_true(m->total_compressed_size > 2 * (1 << 20)); /* three blocks at least */
        assert_int_equal(pm_load_le64(m->stats.min_value.ptr), 0);
        assert_int_equal(pm_load_le64(m->stats.max_value.ptr), rows - 1);
        for (int pass = 0; pass < 2; pass++) {
            pm_batch *out;
            int64_t next = 0;
            int rc;
            o.stream_chunk_bytes = pass == 0 ? SIZE_MAX : 1;
            o.stream_window_bytes = 100000;
            assert_int_equal(pm_pq_reader_start(r, &o, &err), 0);
            while ((rc = pm_pq_reader_next(r, &out, &err)) == 0) {
                for (int64_t i = 0; i < out->row_count; i++, next++) {
                    pm_datum d, s;
                    char want[32];
                    int len = snprintf(want, sizeof(want), "row %lld", (long long)next);
                    pm_column_get_datum(out->columns[0], i, &d);
                    pm_column_get_datum(out->columns[1], i, &s);
                    assert_int_equal(d.v.i, next);
                    assert_int_equal(s.v.s.len, len);
                    assert_memory_equal(s.v.s.ptr, want, (size_t)len);
                    assert_int_equal(pm_column_offset(out->columns[2], i + 1) -
                                         pm_column_offset(out->columns[2], i),
                                     next % 3);
                }
                pm_batch_free(out);
            }
            assert_int_equal(rc, PAIMON_ITEROVER);
            assert_int_equal(next, rows);
        }
        pm_pq_reader_free(r);
        pm_fs_free(fs);
    }
    pm_batch_free(b);
    pm_type_free(t);
}

/* Writes batches b[0..n) into `path` with pages compressed on `pool` (NULL: in place),
 * recording after each batch the data size reported (size[i], may be NULL) and whether it
 * reached `target` (reach[i]). */
static int write_on_pool(pm_fs *fs, const char *path, const pm_type *t, pm_batch *const *b,
                         size_t n, const pm_pq_writer_options *o, pm_pool *pool, int64_t target,
                         bool *reach, int64_t *size, paimon_error *err)
{
    pm_output *out = NULL;
    pm_pq_writer *w = NULL;
    int rc;
    fs->remove(fs, path, NULL);
    if ((rc = fs->create(fs, path, &out, err)) != 0 ||
        (rc = pm_pq_writer_open(&w, out, t, o, err)) != 0)
        return rc;
    if ((rc = pm_pq_writer_set_pool(w, pool, err)) != 0) {
        pm_pq_writer_abort(w);
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        if ((rc = pm_pq_writer_write(w, b[i], err)) != 0) {
            pm_pq_writer_abort(w);
            return rc;
        }
        if (size != NULL)
            size[i] = pm_pq_writer_data_size(w);
        reach[i] = pm_pq_writer_reach_target(w, target);
    }
    return pm_pq_writer_close(w, NULL, err);
}

/* Pages compressed on a pool (pm_pq_writer_set_pool): the file is byte for byte the one
 * written in place, for every codec, with many pages and row groups; the size checks answer
 * the same after every batch; a failed allocation anywhere fails the write cleanly. */
static void test_pages_on_pool(void **state)
{
    static const int codecs[] = {PQ_ZSTD, PQ_SNAPPY, PQ_GZIP, PQ_LZ4_RAW, PQ_UNCOMPRESSED};
    pm_type *t = ptu_type(ALL_TYPES);
    pm_fs *fs = pm_fs_memory_new();
    pm_pool *pool = NULL;
    pm_batch *b[12];
    bool reach_here[12], reach_pool[12];
    int64_t size_here[12], size_pool[12];
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_pool_new(&pool, 3, &err), 0);
    for (size_t i = 0; i < 12; i++)
        b[i] = gen_batch(t, 300 + (int64_t)i * 17);
    for (size_t k = 0; k < sizeof(codecs) / sizeof(codecs[0]); k++) {
        pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
        uint8_t *here, *there;
        size_t here_len, there_len;
        pm_pq_reader *r;
        o.codec = codecs[k];
        o.page_size = 2048;
        o.page_row_limit = 200;
        o.block_size = 40000;
        assert_int_equal(write_on_pool(fs, "/here.parquet", t, b, 12, &o, NULL, 60000, reach_here,
                                       size_here, &err),
                         0);
        assert_int_equal(write_on_pool(fs, "/pool.parquet", t, b, 12, &o, pool, 60000, reach_pool,
                                       size_pool, &err),
                         0);
        here = ptu_file_bytes(fs, "/here.parquet", &here_len);
        there = ptu_file_bytes(fs, "/pool.parquet", &there_len);
        assert_int_equal(here_len, there_len);
        assert_memory_equal(here, there, here_len);
        assert_memory_equal(reach_here, reach_pool, sizeof(reach_here));
        r = ptu_open(fs, "/pool.parquet");
        assert_true(pm_pq_reader_meta(r)->row_group_count > 2);
        assert_true(reach_here[11] && !reach_here[0]); /* the checks could fail both ways */
        pm_pq_reader_free(r);
        pm_free(here);
        pm_free(there);
    }
    /* the pool is used: with one row group open across the batches, pages are still out
     * when the size is asked (a bound above the exact size), and the file is the same */
    {
        pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
        uint8_t *here, *there;
        size_t here_len, there_len;
        bool out = false;
        o.page_size = 2048;
        o.page_row_limit = 200;
        assert_int_equal(write_on_pool(fs, "/here.parquet", t, b, 12, &o, NULL, INT64_MAX,
                                       reach_here, size_here, &err),
                         0);
        assert_int_equal(write_on_pool(fs, "/pool.parquet", t, b, 12, &o, pool, INT64_MAX,
                                       reach_pool, size_pool, &err),
                         0);
        for (size_t i = 0; i < 12; i++) {
            assert_true(size_pool[i] >= size_here[i]);
            out |= size_pool[i] > size_here[i];
        }
        assert_true(out);
        here = ptu_file_bytes(fs, "/here.parquet", &here_len);
        there = ptu_file_bytes(fs, "/pool.parquet", &there_len);
        assert_int_equal(here_len, there_len);
        assert_memory_equal(here, there, here_len);
        pm_free(here);
        pm_free(there);
    }
    /* every allocation of a write on the pool failed in turn: a clean error or the same file */
    {
        pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
        uint8_t *want;
        size_t want_len;
        int failures = 0;
        o.page_size = 2048;
        o.page_row_limit = 200;
        o.block_size = 40000;
        assert_int_equal(
            write_on_pool(fs, "/here.parquet", t, b, 3, &o, NULL, 60000, reach_here, NULL, &err),
            0);
        want = ptu_file_bytes(fs, "/here.parquet", &want_len);
        for (long n = 1;; n++) {
            int rc;
            pm_alloc_fail_after(n);
            rc = write_on_pool(fs, "/pool.parquet", t, b, 3, &o, pool, 60000, reach_pool, NULL,
                               &err);
            pm_alloc_fail_after(0);
            if (rc == 0) {
                uint8_t *got;
                size_t got_len;
                got = ptu_file_bytes(fs, "/pool.parquet", &got_len);
                assert_int_equal(got_len, want_len);
                assert_memory_equal(got, want, want_len);
                pm_free(got);
                break;
            }
            assert_int_equal(rc, PAIMON_ENOMEM);
            failures++;
        }
        assert_true(failures > 50);
        pm_free(want);
    }
    for (size_t i = 0; i < 12; i++)
        pm_batch_free(b[i]);
    pm_pool_free(pool);
    pm_type_free(t);
    pm_fs_free(fs);
}

/* The lines of `all` (one row each) whose numbers lie in the [start, end) pairs of `ranges`
 * (caller frees). */
static char *lines_in_ranges(const char *all, const int64_t *ranges, size_t n)
{
    pm_buf out;
    int64_t line = 0;
    pm_buf_init(&out, 0);
    for (const char *p = all; *p != '\0'; line++) {
        const char *nl = strchr(p, '\n');
        for (size_t k = 0; k < n; k++)
            if (line >= ranges[2 * k] && line < ranges[2 * k + 1])
                assert_int_equal(pm_buf_append(&out, p, (size_t)(nl - p) + 1), 0);
        p = nl + 1;
    }
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

/* The rows of a read with pages decompressed ahead on `pool` and in place are the same, and
 * so is its end (rc and message, into *end when not NULL); returns the pages the pool
 * decompressed.  The rows go to *rows (caller frees) when it is not NULL. */
static int64_t same_read_ahead(pm_pq_reader *r, const pm_pq_read_options *o, pm_pool *pool,
                               paimon_error *end, char **rows)
{
    pm_pq_read_options ahead = *o;
    paimon_error e1 = {0}, e2 = {0};
    int rc1, rc2;
    char *here = ptu_read_json(r, o, &rc1, &e1), *there;
    int64_t pages;
    ahead.pool = pool;
    there = ptu_read_json(r, &ahead, &rc2, &e2);
    pages = pm_pq_reader_pages_ahead(r);
    assert_int_equal(rc1, rc2);
    assert_string_equal(e1.message, e2.message);
    assert_string_equal(here != NULL ? here : "", there != NULL ? there : ""); /* NULL: no rows */
    if (end != NULL) {
        *end = e1;
        end->code = rc1;
    }
    if (rows != NULL)
        *rows = here;
    else
        pm_free(here);
    pm_free(there);
    return pages;
}

/* Pages decompressed ahead on a pool (pm_pq_read_options.pool): the same rows as in place for
 * every codec, with row ranges and pruning skipping pages; a corrupt page fails with the same
 * message after the same rows; a failed allocation anywhere fails the read cleanly. */
static void test_pages_decompressed_ahead(void **state)
{
    static const int codecs[] = {PQ_ZSTD, PQ_SNAPPY, PQ_GZIP, PQ_LZ4_RAW, PQ_UNCOMPRESSED};
    pm_type *t = ptu_type(ALL_TYPES);
    pm_fs *fs = pm_fs_memory_new();
    pm_pool *pool = NULL;
    pm_batch *b[6];
    paimon_error err = {0};
    int64_t ranges[] = {5, 10, 700, 703, 1100, 1460};
    (void)state;
    assert_int_equal(pm_pool_new(&pool, 2, &err), 0);
    for (size_t i = 0; i < 6; i++)
        b[i] = gen_batch(t, 250 + (int64_t)i * 13);
    for (size_t k = 0; k < sizeof(codecs) / sizeof(codecs[0]); k++) {
        pm_pq_writer_options wo = PM_PQ_WRITER_OPTIONS_INIT;
        pm_pq_read_options o = {0};
        pm_predicate *p = NULL;
        pm_datum lit = pm_datum_int(990);
        pm_pq_reader *r;
        int64_t pages;
        char *all = NULL, *got = NULL, *want;
        wo.codec = codecs[k];
        wo.page_size = 2048;
        wo.page_row_limit = 100;
        wo.block_size = 60000;
        ptu_write(fs, "/ahead.parquet", t, b, 6, &wo);
        r = ptu_open(fs, "/ahead.parquet");
        assert_true(pm_pq_reader_meta(r)->row_group_count > 1);
        o.read_type = t;
        o.batch_rows = 97;
        pages = same_read_ahead(r, &o, pool, NULL, &all);
        /* every compressed data page but each chunk's first went through a job */
        if (codecs[k] == PQ_UNCOMPRESSED)
            assert_int_equal(pages, 0);
        else
            assert_true(pages > 100);
        /* pages skipped between the ranges (their jobs are dropped): exactly the ranges' rows
         * of the whole read, nested fields too (a ROW's nullable field skips through its
         * levels: pm_pq_col_skip_rows) */
        o.ranges = ranges;
        o.range_count = 3;
        assert_true(same_read_ahead(r, &o, pool, NULL, &got) > 0 || codecs[k] == PQ_UNCOMPRESSED);
        want = lines_in_ranges(all, ranges, 3);
        assert_true(want != NULL && strlen(want) > 1000); /* the ranges hold rows */
        assert_string_equal(got != NULL ? got : "", want);
        pm_free(got);
        pm_free(want);
        pm_free(all);
        /* i INT NOT NULL holds 0 to 999: pages without a value above 990 are pruned */
        assert_int_equal(pm_predicate_compare(&p, PM_PRED_GT, t, 3, &lit, &err), 0);
        o.filter = p;
        (void)same_read_ahead(r, &o, pool, NULL, NULL);
        pm_predicate_free(p);
        pm_pq_reader_free(r);
    }
    /* corrupt bytes in page bodies: the same message at the same row for any byte */
    {
        pm_pq_writer_options wo = PM_PQ_WRITER_OPTIONS_INIT;
        pm_pq_read_options o = {0};
        uint8_t *good;
        size_t len;
        int crc_failures = 0, codec_failures = 0;
        wo.codec = PQ_ZSTD;
        wo.page_size = 2048;
        wo.page_row_limit = 100;
        ptu_write(fs, "/good.parquet", t, b, 6, &wo);
        good = ptu_file_bytes(fs, "/good.parquet", &len);
        o.read_type = t;
        for (size_t at = 200; at < len - 2000; at += len / 23) {
            uint8_t *bad = pm_malloc(len);
            pm_pq_reader *r;
            memcpy(bad, good, len);
            for (size_t i = 0; i < 16; i++)
                bad[at + i] ^= 0x5a;
            fs->remove(fs, "/bad.parquet", NULL);
            assert_int_equal(pm_fs_write_file(fs, "/bad.parquet", bad, len, &err), 0);
            r = ptu_open(fs, "/bad.parquet");
            for (int crc = 0; crc < 2; crc++) { /* the CRC first, then the codec's own checks */
                paimon_error end;
                o.skip_crc = crc == 1;
                (void)same_read_ahead(r, &o, pool, &end, NULL);
                if (end.code != 0 && strstr(end.message, "CRC") != NULL)
                    crc_failures++;
                else if (end.code != 0 && crc == 1)
                    codec_failures++;
            }
            pm_pq_reader_free(r);
            pm_free(bad);
        }
        /* the comparisons above met both kinds of failure */
        assert_true(crc_failures > 5 && codec_failures > 0);
        pm_free(good);
    }
    /* every allocation of a read on the pool failed in turn: a clean error or the same rows
     * (one batch of the rows, a few pages a column) */
    {
        pm_pq_writer_options wo = PM_PQ_WRITER_OPTIONS_INIT;
        pm_pq_read_options o = {0};
        pm_pq_reader *r;
        char *want;
        int failures = 0;
        wo.page_size = 2048;
        wo.page_row_limit = 60;
        ptu_write(fs, "/small.parquet", t, b, 1, &wo);
        r = ptu_open(fs, "/small.parquet");
        o.read_type = t;
        want = ptu_read_json(r, &o, NULL, &err);
        o.pool = pool;
        for (long n = 1;; n++) {
            pm_batch *got[64];
            size_t count = 0;
            int rc;
            pm_alloc_fail_after(n); /* the read only: the rows are compared after */
            rc = pm_pq_reader_start(r, &o, &err);
            while (rc == 0 && count < 64 && (rc = pm_pq_reader_next(r, &got[count], &err)) == 0)
                count++;
            pm_alloc_fail_after(0);
            if (rc == PAIMON_ITEROVER) {
                char *json = ptu_batches_json(got, count);
                assert_string_equal(json, want);
                pm_free(json);
            } else {
                assert_int_equal(rc, PAIMON_ENOMEM);
                failures++;
            }
            for (size_t i = 0; i < count; i++)
                pm_batch_free(got[i]);
            if (rc == PAIMON_ITEROVER)
                break;
        }
        assert_true(failures > 50);
        pm_free(want);
        pm_pq_reader_free(r);
    }
    for (size_t i = 0; i < 6; i++)
        pm_batch_free(b[i]);
    pm_pool_free(pool);
    pm_type_free(t);
    pm_fs_free(fs);
}

/* Projection by field id (renamed columns), by name (files without ids), missing columns. */
static void test_projection(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("id BIGINT NOT NULL, name STRING, tags ARRAY<INT>");
    pm_type *want;
    pm_batch *b = id_batch(t, 0, 3);
    pm_pq_reader *r;
    pm_pq_read_options o = {0};
    paimon_error err = {0};
    char *got;
    int rc;
    (void)state;
    ptu_write(fs, "/p.parquet", t, &b, 1, NULL);
    r = ptu_open(fs, "/p.parquet");
    /* renamed and reordered, matched by id (name is id 1, id is id 0); a new column (id 9) */
    want = ptu_type("label STRING, key BIGINT NOT NULL, extra INT");
    want->fields[0].id = 1;
    want->fields[1].id = 0;
    want->fields[2].id = 9;
    o.read_type = want;
    got = ptu_read_json(r, &o, NULL, &err);
    assert_string_equal(got, "{\"label\":\"row 0\",\"key\":0,\"extra\":null}\n"
                             "{\"label\":\"row 1\",\"key\":1,\"extra\":null}\n"
                             "{\"label\":\"row 2\",\"key\":2,\"extra\":null}\n");
    pm_free(got);
    /* a missing NOT NULL column cannot be read */
    want->fields[2].type->nullable = false;
    pm_free(ptu_read_json(r, &o, &rc, &err));
    assert_int_equal(rc, PAIMON_ENOTFOUND);
    pm_type_free(want);
    pm_pq_reader_free(r);

    /* without field ids (ids -1): matched by name */
    for (size_t i = 0; i < t->field_count; i++)
        t->fields[i].id = -1;
    ptu_write(fs, "/noid.parquet", t, &b, 1, NULL);
    r = ptu_open(fs, "/noid.parquet");
    assert_false(pm_pq_reader_schema(r)->has_ids);
    want = ptu_type("tags ARRAY<INT>, id BIGINT NOT NULL");
    o.read_type = want;
    got = ptu_read_json(r, &o, NULL, &err);
    assert_string_equal(got, "{\"tags\":[],\"id\":0}\n{\"tags\":[1],\"id\":1}\n"
                             "{\"tags\":[2,3],\"id\":2}\n");
    pm_free(got);
    /* a type the file cannot be read as */
    want->fields[0].type->element->id = PM_TYPE_VARCHAR;
    pm_free(ptu_read_json(r, &o, &rc, &err));
    assert_int_equal(rc, PAIMON_EINVALID);
    pm_type_free(want);
    pm_pq_reader_free(r);
    pm_batch_free(b);
    pm_type_free(t);
    pm_fs_free(fs);
}

/* Row ranges return exactly their rows, across pages and row groups, flat and nested. */
static void test_row_ranges(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("id BIGINT NOT NULL, name STRING, tags ARRAY<INT>");
    pm_batch *b = id_batch(t, 0, 10000);
    pm_pq_writer_options wo = PM_PQ_WRITER_OPTIONS_INIT;
    pm_pq_read_options o = {0};
    int64_t ranges[] = {5, 10, 2000, 2003, 4999, 5001, 9990, 10000};
    pm_pq_reader *r;
    pm_batch *out;
    paimon_error err = {0};
    int64_t seen = 0, expect[32];
    size_t ne = 0;
    int rc;
    (void)state;
    wo.page_row_limit = 300;
    wo.block_size = 8000;
    ptu_write(fs, "/ranges.parquet", t, &b, 1, &wo);
    r = ptu_open(fs, "/ranges.parquet");
    assert_true(pm_pq_reader_meta(r)->row_group_count > 1);
    for (size_t i = 0; i < 4; i++)
        for (int64_t k = ranges[2 * i]; k < ranges[2 * i + 1]; k++)
            expect[ne++] = k;
    o.ranges = ranges;
    o.range_count = 4;
    o.batch_rows = 4;
    /* once reading chunks whole, once streamed (skipped pages are never read) */
    for (int pass = 0; pass < 2; pass++) {
        seen = 0;
        o.stream_chunk_bytes = pass == 0 ? 0 : 1;
        o.stream_window_bytes = 333;
        assert_int_equal(pm_pq_reader_start(r, &o, &err), 0);
        while ((rc = pm_pq_reader_next(r, &out, &err)) == 0) {
            for (int64_t i = 0; i < out->row_count; i++) {
                pm_datum d;
                int32_t a = pm_column_offset(out->columns[2], i),
                        e = pm_column_offset(out->columns[2], i + 1);
                pm_column_get_datum(out->columns[0], i, &d);
                assert_true((size_t)seen < ne);
                assert_int_equal(d.v.i, expect[seen]);
                assert_int_equal(e - a, d.v.i % 3); /* the nested column stays aligned */
                if (e > a) {
                    pm_datum x;
                    pm_column_get_datum(out->columns[2]->children[0], a, &x);
                    assert_int_equal(x.v.i, d.v.i);
                }
                seen++;
            }
            pm_batch_free(out);
        }
        assert_int_equal(rc, PAIMON_ITEROVER);
        assert_int_equal(seen, (int64_t)ne);
    }
    /* an empty selection reads nothing */
    o.range_count = 0;
    assert_int_equal(pm_pq_reader_start(r, &o, &err), 0);
    assert_int_equal(pm_pq_reader_next(r, &out, &err), PAIMON_ITEROVER);
    pm_pq_reader_free(r);
    pm_batch_free(b);
    pm_type_free(t);
    pm_fs_free(fs);
}

/* Row groups and pages whose statistics exclude the filter are skipped; no match is lost. */
static void test_pruning(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("id BIGINT NOT NULL, name STRING, tags ARRAY<INT>");
    pm_batch *b = id_batch(t, 0, 20000);
    pm_pq_writer_options wo = PM_PQ_WRITER_OPTIONS_INIT;
    pm_pq_read_options o = {0};
    pm_predicate *p = NULL;
    pm_datum lit = pm_datum_int(15000);
    pm_pq_reader *r;
    pm_batch *out;
    paimon_error err = {0};
    int64_t groups, rows, found = 0, total = 0;
    int rc;
    (void)state;
    wo.page_row_limit = 500;
    wo.block_size = 16000;
    ptu_write(fs, "/prune.parquet", t, &b, 1, &wo);
    r = ptu_open(fs, "/prune.parquet");
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_GE, t, 0, &lit, &err), 0);
    o.filter = p;
    assert_int_equal(pm_pq_reader_start(r, &o, &err), 0);
    while ((rc = pm_pq_reader_next(r, &out, &err)) == 0) {
        for (int64_t i = 0; i < out->row_count; i++) {
            pm_datum d;
            pm_column_get_datum(out->columns[0], i, &d);
            found += d.v.i >= 15000;
        }
        total += out->row_count;
        pm_batch_free(out);
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    assert_int_equal(found, 5000);
    pm_pq_reader_skipped(r, &groups, &rows);
    assert_true(groups > 0);
    assert_int_equal(total + rows, 20000);
    assert_true(total < 20000);
    pm_predicate_free(p);

    /* id = 1234: one page of one row group survives the page index */
    lit = pm_datum_int(1234);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_EQ, t, 0, &lit, &err), 0);
    o.filter = p;
    assert_int_equal(pm_pq_reader_start(r, &o, &err), 0);
    total = found = 0;
    while ((rc = pm_pq_reader_next(r, &out, &err)) == 0) {
        for (int64_t i = 0; i < out->row_count; i++) {
            pm_datum d;
            pm_column_get_datum(out->columns[0], i, &d);
            found += d.v.i == 1234;
        }
        total += out->row_count;
        pm_batch_free(out);
    }
    assert_int_equal(found, 1);
    assert_true(total <= 500);
    pm_predicate_free(p);
    pm_pq_reader_free(r);
    pm_batch_free(b);
    pm_type_free(t);
    pm_fs_free(fs);
}

static void test_writer_errors_and_empty(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("id BIGINT NOT NULL, v STRING");
    pm_batch *b = NULL;
    pm_output *out = NULL;
    pm_pq_writer *w = NULL;
    pm_pq_reader *r;
    pm_batch *got;
    paimon_error err = {0};
    pm_datum row[2] = {pm_datum_null(), pm_datum_bytes("x", 1)};
    (void)state;
    /* a null in a NOT NULL column */
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    ptu_row(b, row);
    assert_int_equal(fs->create(fs, "/bad.parquet", &out, &err), 0);
    assert_int_equal(pm_pq_writer_open(&w, out, t, NULL, &err), 0);
    assert_int_equal(pm_pq_writer_write(w, b, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "NOT NULL"));
    assert_int_equal(pm_pq_writer_close(w, NULL, &err), PAIMON_EINVALID);
    pm_batch_free(b);
    /* no rows: a valid file with no row group */
    ptu_write(fs, "/empty.parquet", t, NULL, 0, NULL);
    r = ptu_open(fs, "/empty.parquet");
    assert_int_equal(pm_pq_reader_meta(r)->num_rows, 0);
    assert_int_equal(pm_pq_reader_meta(r)->row_group_count, 0);
    assert_int_equal(pm_pq_reader_next(r, &got, &err), PAIMON_ITEROVER);
    pm_pq_reader_free(r);
    /* options from table options */
    {
        pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
        const char *keys[] = {"file.compression", "parquet.compression", "parquet.block.size",
                              "parquet.enable.dictionary", "unrelated"};
        const char *values[] = {"snappy", "gzip", "1024", "false", "x"};
        assert_int_equal(pm_pq_writer_options_parse(&o, keys, values, 5, &err), 0);
        assert_int_equal(o.codec, PQ_GZIP); /* parquet.compression wins */
        assert_int_equal(o.block_size, 1024);
        assert_false(o.dictionary);
        values[2] = "big";
        assert_int_equal(pm_pq_writer_options_parse(&o, keys, values, 5, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "parquet.block.size"));
    }
    pm_type_free(t);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_all_types),
        cmocka_unit_test(test_java_layout),
        cmocka_unit_test(test_dictionary_fallback),
        cmocka_unit_test(test_statistics),
        cmocka_unit_test(test_projection),
        cmocka_unit_test(test_row_ranges),
        cmocka_unit_test(test_large_chunks),
        cmocka_unit_test(test_pages_on_pool),
        cmocka_unit_test(test_pages_decompressed_ahead),
        cmocka_unit_test(test_pruning),
        cmocka_unit_test(test_writer_errors_and_empty),
    };
    /* PAIMON_TEST_FILTER=pattern runs the matching cases only (the TSan subset runs
     * test_pages_on_pool: tests/threads/CMakeLists.txt) */
    if (getenv("PAIMON_TEST_FILTER") != NULL)
        cmocka_set_test_filter(getenv("PAIMON_TEST_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}

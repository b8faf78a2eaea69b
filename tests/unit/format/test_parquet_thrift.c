/* Thrift compact protocol and the parquet.thrift structs: encodings, unknown fields,
 * bounds, and round trips of FileMetaData, PageHeader and the page indexes. */
#include "format/parquet/meta.h"
#include "format/parquet/thrift.h"
#include <string.h>

#include "testlib.h"

static void reader(pm_thrift_reader *r, const uint8_t *d, size_t n, paimon_error *err)
{
    pm_thrift_reader_init(r, d, n, 1000, "t.parquet", err);
}

/* Bytes from the compact protocol spec: field deltas, long ids, zigzag varints, binaries,
 * bools in the type nibble. */
static void test_primitives(void **state)
{
    /* struct { 1: i32 = -1; 2: true; 20: binary "ab"; 21: i64 = 300 } */
    static const uint8_t in[] = {0x15, 0x01, 0x11, 0x08, 0x28, 0x02,
                                 'a',  'b',  0x16, 0xd8, 0x04, 0x00};
    pm_thrift_reader r;
    paimon_error err = {0};
    int16_t last = 0, id;
    int t;
    int32_t v32;
    int64_t v64;
    const uint8_t *s;
    uint32_t n;
    (void)state;
    reader(&r, in, sizeof(in), &err);
    assert_int_equal(pm_thrift_struct_begin(&r), 0);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(t, PM_TT_I32);
    assert_int_equal(id, 1);
    assert_int_equal(pm_thrift_i32(&r, &v32), 0);
    assert_int_equal(v32, -1);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(t, PM_TT_TRUE);
    assert_int_equal(id, 2);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(id, 20);
    assert_int_equal(pm_thrift_binary(&r, &s, &n), 0);
    assert_int_equal(n, 2);
    assert_memory_equal(s, "ab", 2);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(id, 21);
    assert_int_equal(pm_thrift_i64(&r, &v64), 0);
    assert_int_equal(v64, 300);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(t, PM_TT_STOP);
    pm_thrift_struct_end(&r);
}

/* The writer produces what the reader reads back, including ids that need the long form. */
static void test_writer_roundtrip(void **state)
{
    pm_buf b;
    pm_thrift_writer w;
    pm_thrift_reader r;
    paimon_error err = {0};
    int16_t last = 0, id;
    int t;
    int32_t v;
    (void)state;
    pm_buf_init(&b, 0);
    pm_thrift_writer_init(&w, &b);
    pm_thrift_w_struct_begin(&w);
    pm_thrift_w_field_i32(&w, 3, 123456);
    pm_thrift_w_field_i32(&w, 300, -5); /* delta > 15: long form */
    pm_thrift_w_bool(&w, 301, false);
    pm_thrift_w_field(&w, PM_TT_LIST, 302);
    pm_thrift_w_list(&w, PM_TT_I32, 20); /* count >= 15: varint form */
    for (int i = 0; i < 20; i++)
        pm_thrift_w_i32(&w, i * 1000);
    pm_thrift_w_struct_end(&w);
    assert_int_equal(w.rc, 0);

    reader(&r, b.data, b.len, &err);
    assert_int_equal(pm_thrift_struct_begin(&r), 0);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(id, 3);
    assert_int_equal(pm_thrift_i32(&r, &v), 0);
    assert_int_equal(v, 123456);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(id, 300);
    assert_int_equal(pm_thrift_i32(&r, &v), 0);
    assert_int_equal(v, -5);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(id, 301);
    assert_int_equal(t, PM_TT_FALSE);
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(id, 302);
    {
        int et;
        uint32_t n;
        assert_int_equal(pm_thrift_list(&r, &et, &n), 0);
        assert_int_equal(n, 20);
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(pm_thrift_i32(&r, &v), 0);
            assert_int_equal(v, (int32_t)i * 1000);
        }
    }
    assert_int_equal(pm_thrift_field(&r, &last, &t, &id), 0);
    assert_int_equal(t, PM_TT_STOP);
    pm_buf_free(&b);
}

/* Unknown fields of every type are skipped; truncated and oversized values are corrupt. */
static void test_skip_and_bounds(void **state)
{
    /* struct { 9: struct { 1: list<binary> ["x"]; 2: map<i32,i32> {1:2}; 3: double } 10: i8 } */
    static const uint8_t skipme[] = {0x9c, 0x19, 0x18, 0x01, 'x',  0x1b, 0x01, 0x55,
                                     0x02, 0x04, 0x17, 0,    0,    0,    0,    0,
                                     0,    0xf0, 0x3f, 0x00, 0x13, 0x07, 0x00};
    static const uint8_t long_binary[] = {0x18, 0x7f, 'a'};
    static const uint8_t long_list[] = {0x19, 0xf5, 0x7f, 0x00};
    static const uint8_t bad_varint[] = {0x15, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    uint8_t deep[200];
    pm_thrift_reader r;
    paimon_error err = {0};
    (void)state;
    reader(&r, skipme, sizeof(skipme), &err);
    assert_int_equal(pm_thrift_skip(&r, PM_TT_STRUCT), 0);
    assert_ptr_equal(r.p, r.end);

    reader(&r, long_binary, sizeof(long_binary), &err);
    assert_int_equal(pm_thrift_skip(&r, PM_TT_STRUCT), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "t.parquet"));
    assert_non_null(strstr(err.message, "offset 100"));

    reader(&r, long_list, sizeof(long_list), &err);
    assert_int_equal(pm_thrift_skip(&r, PM_TT_STRUCT), PAIMON_ECORRUPT);

    reader(&r, bad_varint, sizeof(bad_varint), &err);
    assert_int_equal(pm_thrift_skip(&r, PM_TT_STRUCT), PAIMON_ECORRUPT);

    /* nested structs beyond the depth limit */
    for (size_t i = 0; i < sizeof(deep); i++)
        deep[i] = 0x1c; /* field 1: struct */
    reader(&r, deep, sizeof(deep), &err);
    assert_int_equal(pm_thrift_skip(&r, PM_TT_STRUCT), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "deeply"));

    /* every truncation of a valid struct fails cleanly */
    for (size_t n = 0; n < sizeof(skipme) - 1; n++) {
        reader(&r, skipme, n, &err);
        assert_int_equal(pm_thrift_skip(&r, PM_TT_STRUCT), PAIMON_ECORRUPT);
    }
}

static void test_file_meta_roundtrip(void **state)
{
    pq_schema_elem schema[3];
    pq_column_chunk cc;
    pq_row_group rg;
    pq_file_meta m, back;
    const char *path[] = {"ts"};
    int32_t encodings[] = {PQ_PLAIN, PQ_RLE};
    pm_buf b;
    pm_thrift_writer w;
    pm_thrift_reader r;
    pm_arena a;
    paimon_error err = {0};
    (void)state;
    memset(schema, 0, sizeof(schema));
    schema[0].name = "paimon_schema";
    schema[0].num_children = 2;
    schema[0].converted = PQ_CT_NONE;
    schema[1].name = "ts";
    schema[1].has_type = schema[1].has_repetition = schema[1].has_field_id = true;
    schema[1].type = PQ_INT64;
    schema[1].repetition = PQ_OPTIONAL;
    schema[1].field_id = 2147483646;
    schema[1].converted = PQ_CT_TIMESTAMP_MICROS;
    schema[1].logical.kind = PQ_LT_TIMESTAMP;
    schema[1].logical.unit = PQ_UNIT_MICROS;
    schema[1].logical.utc = true;
    schema[2].name = "d";
    schema[2].has_type = schema[2].has_repetition = true;
    schema[2].type = PQ_FIXED_LEN_BYTE_ARRAY;
    schema[2].type_length = 16;
    schema[2].repetition = PQ_REQUIRED;
    schema[2].converted = PQ_CT_DECIMAL;
    schema[2].logical.kind = PQ_LT_DECIMAL;
    schema[2].logical.precision = 38;
    schema[2].logical.scale = 10;
    schema[2].has_precision = schema[2].has_scale = true;
    schema[2].precision = 38;
    schema[2].scale = 10;
    memset(&cc, 0, sizeof(cc));
    cc.has_meta = true;
    cc.meta.type = PQ_INT64;
    cc.meta.encodings = encodings;
    cc.meta.encoding_count = 2;
    cc.meta.path = path;
    cc.meta.path_len = 1;
    cc.meta.codec = PQ_ZSTD;
    cc.meta.num_values = 7;
    cc.meta.total_compressed_size = 99;
    cc.meta.total_uncompressed_size = 120;
    cc.meta.data_page_offset = 4;
    cc.meta.has_stats = true;
    cc.meta.stats.has_null_count = cc.meta.stats.has_min_value = cc.meta.stats.has_max_value = true;
    cc.meta.stats.null_count = 3;
    cc.meta.stats.min_value = (pq_bytes){(const uint8_t *)"\x01\0\0\0\0\0\0\0", 8};
    cc.meta.stats.max_value = (pq_bytes){(const uint8_t *)"\x09\0\0\0\0\0\0\0", 8};
    cc.has_offset_index = true;
    cc.offset_index_offset = 500;
    cc.offset_index_length = 20;
    memset(&rg, 0, sizeof(rg));
    rg.columns = &cc;
    rg.column_count = 1;
    rg.num_rows = 7;
    rg.total_byte_size = 120;
    memset(&m, 0, sizeof(m));
    m.version = 1;
    m.schema = schema;
    m.schema_count = 3;
    m.num_rows = 7;
    m.row_groups = &rg;
    m.row_group_count = 1;
    m.created_by = "paimon-c test";
    m.column_order_count = 2;

    pm_buf_init(&b, 0);
    pm_thrift_writer_init(&w, &b);
    pm_pq_write_file_meta(&w, &m);
    assert_int_equal(w.rc, 0);
    pm_arena_init(&a, 1024);
    reader(&r, b.data, b.len, &err);
    assert_int_equal(pm_pq_read_file_meta(&r, &a, &back), 0);
    assert_int_equal(back.schema_count, 3);
    assert_string_equal(back.schema[1].name, "ts");
    assert_int_equal(back.schema[1].field_id, 2147483646);
    assert_int_equal(back.schema[1].logical.kind, PQ_LT_TIMESTAMP);
    assert_int_equal(back.schema[1].logical.unit, PQ_UNIT_MICROS);
    assert_true(back.schema[1].logical.utc);
    assert_int_equal(back.schema[2].logical.precision, 38);
    assert_int_equal(back.schema[2].type_length, 16);
    assert_int_equal(back.row_groups[0].columns[0].meta.stats.null_count, 3);
    assert_memory_equal(back.row_groups[0].columns[0].meta.stats.max_value.ptr, "\x09", 1);
    assert_int_equal(back.row_groups[0].columns[0].offset_index_offset, 500);
    assert_string_equal(back.row_groups[0].columns[0].meta.path[0], "ts");
    assert_string_equal(back.created_by, "paimon-c test");
    assert_int_equal(back.column_order_count, 2);
    /* a footer without its required lists is corrupt */
    reader(&r, (const uint8_t *)"\x15\x02\x00", 3, &err);
    assert_int_equal(pm_pq_read_file_meta(&r, &a, &back), PAIMON_ECORRUPT);
    pm_arena_free(&a);
    pm_buf_free(&b);
}

static void test_page_header_and_indexes(void **state)
{
    pq_page_header h, back;
    pq_column_index ci, ci2;
    pq_offset_index oi, oi2;
    bool nulls[2] = {false, true};
    pq_bytes mins[2] = {{(const uint8_t *)"a", 1}, {(const uint8_t *)"", 0}};
    pq_bytes maxs[2] = {{(const uint8_t *)"zz", 2}, {(const uint8_t *)"", 0}};
    int64_t counts[2] = {0, 5};
    pq_page_location locs[2] = {{4, 100, 0}, {104, 90, 10}};
    pm_buf b;
    pm_thrift_writer w;
    pm_thrift_reader r;
    pm_arena a;
    paimon_error err = {0};
    (void)state;
    memset(&h, 0, sizeof(h));
    h.type = PQ_DATA_PAGE_V2;
    h.uncompressed_size = 10;
    h.compressed_size = 8;
    h.has_crc = true;
    h.crc = -123;
    h.has_v2 = true;
    h.num_values = 5;
    h.num_nulls = 1;
    h.num_rows = 4;
    h.encoding = PQ_DELTA_BINARY_PACKED;
    h.def_len = 2;
    h.rep_len = 1;
    h.is_compressed = false;
    pm_buf_init(&b, 0);
    pm_thrift_writer_init(&w, &b);
    pm_pq_write_page_header(&w, &h);
    reader(&r, b.data, b.len, &err);
    assert_int_equal(pm_pq_read_page_header(&r, &back), 0);
    assert_int_equal(back.type, PQ_DATA_PAGE_V2);
    assert_int_equal(back.crc, -123);
    assert_int_equal(back.num_rows, 4);
    assert_int_equal(back.def_len, 2);
    assert_false(back.is_compressed);

    ci.null_pages = nulls;
    ci.min_values = mins;
    ci.max_values = maxs;
    ci.page_count = 2;
    ci.boundary_order = 1;
    ci.null_counts = counts;
    oi.pages = locs;
    oi.page_count = 2;
    pm_arena_init(&a, 1024);
    b.len = 0;
    pm_thrift_writer_init(&w, &b);
    pm_pq_write_column_index(&w, &ci);
    reader(&r, b.data, b.len, &err);
    assert_int_equal(pm_pq_read_column_index(&r, &a, &ci2), 0);
    assert_int_equal(ci2.page_count, 2);
    assert_true(ci2.null_pages[1]);
    assert_int_equal(ci2.max_values[0].len, 2);
    assert_int_equal(ci2.null_counts[1], 5);
    b.len = 0;
    pm_thrift_writer_init(&w, &b);
    pm_pq_write_offset_index(&w, &oi);
    reader(&r, b.data, b.len, &err);
    assert_int_equal(pm_pq_read_offset_index(&r, &a, &oi2), 0);
    assert_int_equal(oi2.page_count, 2);
    assert_int_equal(oi2.pages[1].first_row, 10);
    assert_int_equal(oi2.pages[1].offset, 104);
    /* a page header without its sizes is corrupt */
    reader(&r, (const uint8_t *)"\x15\x00\x00", 3, &err);
    assert_int_equal(pm_pq_read_page_header(&r, &back), PAIMON_ECORRUPT);
    pm_arena_free(&a);
    pm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_primitives),
        cmocka_unit_test(test_writer_roundtrip),
        cmocka_unit_test(test_skip_and_bounds),
        cmocka_unit_test(test_file_meta_roundtrip),
        cmocka_unit_test(test_page_header_and_indexes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

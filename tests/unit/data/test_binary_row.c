/* BinaryRow: the worked examples of metadata.md §10.4 byte for byte, every type round trip,
 * the Java quirks (zero-extended INT, non-compact DECIMAL/TIMESTAMP and their nulls), nested
 * arrays and maps, corrupt references, and the Java-pinned bucket vectors 96, 27, 40. */
#include <string.h>

#include "testlib.h"

#include "data/binary_row.h"
#include "data/canonical.h"
#include "util/alloc.h"
#include "util/bytes.h"
#include "util/hash.h"

static pm_type T(pm_type_id id)
{
    pm_type t;
    memset(&t, 0, sizeof(t));
    t.id = id;
    t.nullable = true;
    return t;
}

static void expect_row(const pm_type *const *types, const pm_datum *values, int32_t arity,
                       const char *hex)
{
    uint8_t want[512];
    size_t n = pm_test_unhex(hex, want, sizeof(want));
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_binrow_write(&b, types, values, arity, 0), 0);
    if (b.len != n || memcmp(b.data, want, n) != 0)
        fail_msg("row bytes %s, expected %s", pm_test_hex(b.data, b.len), hex);
    pm_buf_free(&b);
}

static void test_worked_examples(void **state)
{
    pm_type i = T(PM_TYPE_INT), l = T(PM_TYPE_BIGINT), s = T(PM_TYPE_VARCHAR);
    const pm_type *ti[] = {&i}, *tl[] = {&l}, *ts[] = {&s}, *tsi[] = {&s, &i}, *tis[] = {&i, &s};
    pm_datum v[2];
    (void)state;
    v[0] = pm_datum_int(5);
    expect_row(ti, v, 1, "0000000000000000 0500000000000000");
    v[0] = pm_datum_int(1);
    expect_row(tl, v, 1, "0000000000000000 0100000000000000");
    v[0] = pm_datum_bytes("hello", 5);
    expect_row(ts, v, 1, "0000000000000000 68656c6c6f000085");
    v[0] = pm_datum_bytes("hello world!", 12);
    expect_row(ts, v, 1, "0000000000000000 0c00000010000000 68656c6c6f20776f726c642100000000");
    v[0] = pm_datum_null();
    expect_row(ts, v, 1, "0001000000000000 0000000000000000");
    v[0] = pm_datum_bytes("20240514", 8);
    v[1] = pm_datum_int(12);
    expect_row(tsi, v, 2, "0000000000000000 0800000018000000 0c00000000000000 3230323430353134");
    v[0] = pm_datum_int(1);
    v[1] = pm_datum_bytes("1", 1);
    expect_row(tis, v, 2, "0000000000000000 0100000000000000 3100000000000081");
    expect_row(NULL, NULL, 0, "0000000000000000");
    /* INT slots are zero-extended: -1 is ffffffff00000000, not all ones. */
    v[0] = pm_datum_int(-1);
    expect_row(ti, v, 1, "0000000000000000 ffffffff00000000");
}

static void test_header_sizes(void **state)
{
    (void)state;
    assert_int_equal(pm_binrow_header_size(0), 8);
    assert_int_equal(pm_binrow_header_size(56), 8);
    assert_int_equal(pm_binrow_header_size(57), 16);
    assert_int_equal(pm_binrow_header_size(120), 16);
    assert_int_equal(pm_binrow_header_size(121), 24);
}

/* Java: a null DECIMAL(p > 18) keeps an offset and 16 reserved zero bytes; a null
 * TIMESTAMP(p > 3) an offset and 8. */
static void test_non_compact_nulls(void **state)
{
    pm_type d = T(PM_TYPE_DECIMAL), t = T(PM_TYPE_TIMESTAMP);
    const pm_type *types[] = {&d, &t};
    pm_datum v[2] = {pm_datum_null(), pm_datum_null()};
    (void)state;
    d.precision = 20;
    d.scale = 2;
    t.precision = 6;
    expect_row(types, v, 2,
               "0003000000000000 0000000018000000 0000000028000000"
               "00000000000000000000000000000000 0000000000000000");
}

static void test_round_trip_every_type(void **state)
{
    pm_type types_store[16];
    const pm_type *types[16];
    pm_datum in[16], out;
    pm_buf b;
    pm_binrow row;
    paimon_error err = {0};
    int n = 0;
    (void)state;
#define ADD(tid, setup, value)                                                                     \
    do {                                                                                           \
        types_store[n] = T(tid);                                                                   \
        setup;                                                                                     \
        types[n] = &types_store[n];                                                                \
        in[n] = value;                                                                             \
        n++;                                                                                       \
    } while (0)
    pm_datum x;
    x.is_null = false;
    x.v.b = true;
    ADD(PM_TYPE_BOOLEAN, (void)0, x);
    ADD(PM_TYPE_TINYINT, (void)0, pm_datum_int(-7));
    ADD(PM_TYPE_SMALLINT, (void)0, pm_datum_int(-30000));
    ADD(PM_TYPE_INT, (void)0, pm_datum_int(-2147483647 - 1));
    ADD(PM_TYPE_BIGINT, (void)0, pm_datum_int(INT64_MIN));
    x.v.f = -1.5f;
    ADD(PM_TYPE_FLOAT, (void)0, x);
    x.v.d = 1e300;
    ADD(PM_TYPE_DOUBLE, (void)0, x);
    x.v.dec = -12345;
    ADD(PM_TYPE_DECIMAL, (types_store[n].precision = 10, types_store[n].scale = 2), x);
    x.v.dec = (pm_int128)-99999999999999999LL * 100000000000LL;
    ADD(PM_TYPE_DECIMAL, (types_store[n].precision = 38, types_store[n].scale = 10), x);
    x.v.ts.millis = -1;
    x.v.ts.nanos = 0;
    ADD(PM_TYPE_TIMESTAMP, types_store[n].precision = 3, x);
    x.v.ts.millis = 1700000000123LL;
    x.v.ts.nanos = 456789;
    ADD(PM_TYPE_TIMESTAMP, types_store[n].precision = 9, x);
    ADD(PM_TYPE_DATE, (void)0, pm_datum_int(-719528));
    ADD(PM_TYPE_VARCHAR, (void)0, pm_datum_bytes("seven77", 7));
    ADD(PM_TYPE_VARBINARY, (void)0, pm_datum_bytes("\0\1\2\3\4\5\6\7\10", 9));
    ADD(PM_TYPE_VARCHAR, (void)0, pm_datum_null());
    ADD(PM_TYPE_TIME, (void)0, pm_datum_int(86399999));
#undef ADD
    pm_buf_init(&b, 0);
    assert_int_equal(pm_binrow_serialize(&b, types, in, n), 0);
    assert_int_equal(b.len % 8, 4); /* 4-byte arity prefix + a multiple of 8 */
    assert_int_equal(pm_binrow_deserialize(&row, b.data, b.len, &err), 0);
    assert_int_equal(row.arity, n);
    for (int i = 0; i < n; i++) {
        pm_buf a1, a2;
        assert_int_equal(pm_binrow_get(&row, i, types[i], &out, &err), 0);
        pm_buf_init(&a1, 0);
        pm_buf_init(&a2, 0);
        assert_int_equal(pm_canonical_json(&a1, types[i], &in[i], &err), 0);
        assert_int_equal(pm_canonical_json(&a2, types[i], &out, &err), 0);
        assert_string_equal(pm_buf_cstr(&a1), pm_buf_cstr(&a2));
        pm_buf_free(&a1);
        pm_buf_free(&a2);
    }
    pm_buf_free(&b);
}

static void test_nested_array_and_map(void **state)
{
    pm_type elem = T(PM_TYPE_INT), key = T(PM_TYPE_VARCHAR), arr = T(PM_TYPE_ARRAY),
            map = T(PM_TYPE_MAP);
    const pm_type *types[2] = {&arr, &map};
    pm_datum items[3] = {pm_datum_int(1), pm_datum_null(), pm_datum_int(3)};
    pm_datum keys[2] = {pm_datum_bytes("a", 1), pm_datum_bytes("a long key!", 11)};
    pm_datum vals[2] = {pm_datum_int(10), pm_datum_null()};
    pm_buf a, m, row, json;
    pm_datum v[2];
    pm_binrow r;
    paimon_error err = {0};
    uint8_t len4[4];
    (void)state;
    arr.element = &elem;
    map.element = &key;
    map.value = &elem;
    pm_buf_init(&a, 0);
    pm_buf_init(&m, 0);
    pm_buf_init(&row, 0);
    pm_buf_init(&json, 0);
    assert_int_equal(pm_binarray_write(&a, &elem, items, 3), 0);
    /* BinaryMap: [int32 key-array bytes][keys][values] */
    assert_int_equal(pm_binarray_write(&m, &key, keys, 2), 0);
    {
        pm_buf vals_buf;
        size_t key_bytes = m.len;
        pm_buf_init(&vals_buf, 0);
        assert_int_equal(pm_binarray_write(&vals_buf, &elem, vals, 2), 0);
        pm_store_le32(len4, (uint32_t)key_bytes);
        {
            pm_buf full;
            pm_buf_init(&full, 0);
            assert_int_equal(pm_buf_append(&full, len4, 4), 0);
            assert_int_equal(pm_buf_append(&full, m.data, m.len), 0);
            assert_int_equal(pm_buf_append(&full, vals_buf.data, vals_buf.len), 0);
            pm_buf_free(&m);
            m = full;
        }
        pm_buf_free(&vals_buf);
    }
    v[0] = pm_datum_bytes(a.data, a.len);
    v[1] = pm_datum_bytes(m.data, m.len);
    assert_int_equal(pm_binrow_write(&row, types, v, 2, 0), 0);
    assert_int_equal(pm_binrow_view(&r, row.data, row.len, 2, &err), 0);
    for (int i = 0; i < 2; i++) {
        pm_datum got;
        assert_int_equal(pm_binrow_get(&r, i, types[i], &got, &err), 0);
        if (i > 0)
            assert_int_equal(pm_buf_putc(&json, ' '), 0);
        assert_int_equal(pm_canonical_json(&json, types[i], &got, &err), 0);
    }
    assert_string_equal(pm_buf_cstr(&json), "[1,null,3] [[\"a\",10],[\"a long key!\",null]]");
    pm_buf_free(&a);
    pm_buf_free(&m);
    pm_buf_free(&row);
    pm_buf_free(&json);
}

static void test_corrupt_references(void **state)
{
    pm_type s = T(PM_TYPE_VARCHAR), d = T(PM_TYPE_DECIMAL);
    uint8_t bytes[16] = {0}, serialized[3] = {0, 0, 0};
    pm_binrow row;
    pm_datum out;
    paimon_error err = {0};
    (void)state;
    /* offset 0x40 + len 8 lies beyond the 16-byte row */
    bytes[8] = 8;
    bytes[12] = 0x40;
    assert_int_equal(pm_binrow_view(&row, bytes, 16, 1, &err), 0);
    assert_int_equal(pm_binrow_get(&row, 0, &s, &out, &err), PAIMON_ECORRUPT);
    d.precision = 30;
    bytes[8] = 17; /* a 17-byte decimal */
    bytes[12] = 0;
    assert_int_equal(pm_binrow_get(&row, 0, &d, &out, &err), PAIMON_ECORRUPT);
    assert_int_equal(pm_binrow_view(&row, bytes, 15, 1, &err), PAIMON_ECORRUPT);
    assert_int_equal(pm_binrow_deserialize(&row, serialized, 3, &err), PAIMON_ECORRUPT);
    assert_int_equal(pm_binrow_view(&row, bytes, 16, -1, &err), PAIMON_ECORRUPT);
}

/* FixedBucketRowKeyExtractorTest.testBucket: INT a=5, b=6, c=7, 100 buckets. */
static void test_java_bucket_vectors(void **state)
{
    pm_type i = T(PM_TYPE_INT);
    const pm_type *types[] = {&i, &i, &i};
    pm_datum v[3] = {pm_datum_int(5), pm_datum_int(6), pm_datum_int(7)};
    static const int32_t hashes[] = {260196596, 131015827, 1805332940};
    static const int32_t buckets[] = {96, 27, 40};
    (void)state;
    for (int arity = 1; arity <= 3; arity++) {
        pm_buf b;
        int32_t h;
        pm_buf_init(&b, 0);
        assert_int_equal(pm_binrow_write(&b, types, v, arity, 0), 0);
        h = pm_binrow_hash(b.data, b.len);
        assert_int_equal(h, hashes[arity - 1]);
        assert_int_equal(pm_bucket_of_hash(h, 100), buckets[arity - 1]);
        pm_buf_free(&b);
    }
}

/* metadata.md §11.3: values computed by the same algorithm (BIGINT 1, bucket=4 -> 2). */
static void test_more_hash_values(void **state)
{
    pm_type l = T(PM_TYPE_BIGINT), s = T(PM_TYPE_VARCHAR);
    const pm_type *tl[] = {&l}, *ts[] = {&s}, *tls[] = {&l, &s};
    static const struct {
        int64_t v;
        int32_t hash, b4, b10;
    } longs[] = {{0, -300363099, 3, 9},
                 {1, 1465514398, 2, 8},
                 {2, 1340390384, 0, 4},
                 {3, -771300025, 1, 5},
                 {-1, -821098432, 0, 2}};
    static const struct {
        const char *s;
        int32_t hash, b4, b10;
    } strings[] = {
        {"a", 943281246, 2, 6}, {"hello", 243722546, 2, 6}, {"hello world!", 609810467, 3, 7}};
    pm_datum v[2];
    pm_buf b;
    (void)state;
    pm_buf_init(&b, 0);
    for (size_t k = 0; k < 5; k++) {
        pm_buf_reset(&b);
        v[0] = pm_datum_int(longs[k].v);
        assert_int_equal(pm_binrow_write(&b, tl, v, 1, 0), 0);
        assert_int_equal(pm_binrow_hash(b.data, b.len), longs[k].hash);
        assert_int_equal(pm_bucket_of_hash(longs[k].hash, 4), longs[k].b4);
        assert_int_equal(pm_bucket_of_hash(longs[k].hash, 10), longs[k].b10);
    }
    for (size_t k = 0; k < 3; k++) {
        pm_buf_reset(&b);
        v[0] = pm_datum_bytes(strings[k].s, strlen(strings[k].s));
        assert_int_equal(pm_binrow_write(&b, ts, v, 1, 0), 0);
        assert_int_equal(pm_binrow_hash(b.data, b.len), strings[k].hash);
        assert_int_equal(pm_bucket_of_hash(strings[k].hash, 4), strings[k].b4);
    }
    pm_buf_reset(&b);
    v[0] = pm_datum_int(1);
    v[1] = pm_datum_bytes("abc", 3);
    assert_int_equal(pm_binrow_write(&b, tls, v, 2, 0), 0);
    assert_int_equal(pm_binrow_hash(b.data, b.len), 261371745);
    pm_buf_reset(&b);
    assert_int_equal(pm_binrow_write(&b, NULL, NULL, 0, 0), 0);
    assert_int_equal(pm_binrow_hash(b.data, b.len), -1670924195);
    pm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_examples),      cmocka_unit_test(test_header_sizes),
        cmocka_unit_test(test_non_compact_nulls),    cmocka_unit_test(test_round_trip_every_type),
        cmocka_unit_test(test_nested_array_and_map), cmocka_unit_test(test_corrupt_references),
        cmocka_unit_test(test_java_bucket_vectors),  cmocka_unit_test(test_more_hash_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * ORC's run-length encodings (orc_rle.h) and protobuf (orc_proto.h): the examples of the
 * ORCv1 specification decode to their values and, where ORC Java's writer would choose the
 * same run, encode to their bytes; random sequences of every shape round-trip; positions
 * recorded while writing seek back to the same values; truncated input is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "format/orc/orc_proto.h"
#include "format/orc/orc_rle.h"
#include "util/alloc.h"

static pm_orc_codec NONE = {PM_ORC_NONE, 0, 0, NULL};

static void decode_ints(const uint8_t *bytes, size_t len, bool is_signed, int version,
                        const int64_t *want, size_t n)
{
    pm_orc_int_rle *r = test_malloc(sizeof(*r));
    int64_t *got = test_calloc(n + 1, sizeof(int64_t));
    pm_orc_int_rle_init(r, bytes, len, is_signed, version);
    assert_true(pm_orc_int_rle_read(r, got, n));
    assert_memory_equal(got, want, n * sizeof(int64_t));
    /* nothing more */
    assert_false(pm_orc_int_rle_read(r, got, 1));
    test_free(got);
    test_free(r);
}

static void encode_ints(const int64_t *v, size_t n, bool is_signed, pm_buf *out)
{
    pm_orc_outstream s;
    pm_orc_int_rle_writer *w;
    pm_orc_outstream_init(&s, &NONE);
    w = pm_orc_int_rle_writer_new(&s, is_signed);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(pm_orc_int_rle_write(w, v[i]), 0);
    assert_int_equal(pm_orc_int_rle_flush(w), 0);
    assert_int_equal(pm_buf_append(out, s.out.data, s.out.len), 0);
    pm_orc_int_rle_writer_free(w);
    pm_orc_outstream_free(&s);
}

static void both_ways(const uint8_t *bytes, size_t len, bool is_signed, const int64_t *v, size_t n)
{
    pm_buf b;
    decode_ints(bytes, len, is_signed, 2, v, n);
    pm_buf_init(&b, 0);
    encode_ints(v, n, is_signed, &b);
    assert_int_equal(b.len, len);
    assert_memory_equal(b.data, bytes, len);
    pm_buf_free(&b);
}

static void test_rle_v2_spec_examples(void **state)
{
    static const uint8_t short_repeat[] = {0x0a, 0x27, 0x10};
    static const int64_t sr[] = {10000, 10000, 10000, 10000, 10000};
    static const uint8_t direct[] = {0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef};
    static const int64_t dv[] = {23713, 43806, 57005, 48879};
    static const uint8_t patched[] = {0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70,
                                      0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82,
                                      0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8};
    static const int64_t pv[] = {2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090,
                                 2100, 2110, 2120, 2130,    2140, 2150, 2160, 2170, 2180, 2190};
    static const uint8_t delta[] = {0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46};
    static const int64_t dl[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
    (void)state;
    both_ways(short_repeat, sizeof(short_repeat), false, sr, 5);
    both_ways(direct, sizeof(direct), false, dv, 4);
    both_ways(patched, sizeof(patched), false, pv, 20);
    both_ways(delta, sizeof(delta), false, dl, 10);
}

static void test_rle_v1_and_byte_rle(void **state)
{
    static const uint8_t run[] = {0x61, 0x00, 0x07};
    static const uint8_t down[] = {0x61, 0xff, 0x64};
    static const uint8_t lits[] = {0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b};
    static const int64_t lv[] = {2, 3, 6, 7, 11};
    static const uint8_t zeros[] = {0x61, 0x00};
    static const uint8_t two[] = {0xfe, 0x44, 0x45};
    static const uint8_t bits[] = {0xff, 0x80};
    int64_t v[100];
    uint8_t b[100];
    pm_orc_byte_rle br;
    pm_orc_bool_rle bl;
    pm_orc_outstream s;
    pm_orc_byte_rle_writer bw;
    (void)state;
    for (int i = 0; i < 100; i++)
        v[i] = 7;
    decode_ints(run, sizeof(run), false, 1, v, 100);
    for (int i = 0; i < 100; i++)
        v[i] = 100 - i;
    decode_ints(down, sizeof(down), false, 1, v, 100);
    decode_ints(lits, sizeof(lits), false, 1, lv, 5);
    pm_orc_byte_rle_init(&br, zeros, sizeof(zeros));
    assert_true(pm_orc_byte_rle_read(&br, b, 100));
    for (int i = 0; i < 100; i++)
        assert_int_equal(b[i], 0);
    assert_false(pm_orc_byte_rle_read(&br, b, 1));
    pm_orc_byte_rle_init(&br, two, sizeof(two));
    assert_true(pm_orc_byte_rle_read(&br, b, 2));
    assert_int_equal(b[0], 0x44);
    assert_int_equal(b[1], 0x45);
    pm_orc_bool_rle_init(&bl, bits, sizeof(bits));
    assert_true(pm_orc_bool_rle_read(&bl, b, 8));
    assert_int_equal(b[0], 1);
    for (int i = 1; i < 8; i++)
        assert_int_equal(b[i], 0);
    /* the byte writer makes the same runs */
    pm_orc_outstream_init(&s, &NONE);
    pm_orc_byte_rle_writer_init(&bw, &s);
    for (int i = 0; i < 100; i++)
        assert_int_equal(pm_orc_byte_rle_write(&bw, 0), 0);
    assert_int_equal(pm_orc_byte_rle_write(&bw, 0x44), 0);
    assert_int_equal(pm_orc_byte_rle_write(&bw, 0x45), 0);
    assert_int_equal(pm_orc_byte_rle_flush(&bw), 0);
    assert_int_equal(s.out.len, 5);
    assert_memory_equal(s.out.data, "\x61\x00\xfe\x44\x45", 5);
    pm_orc_outstream_free(&s);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Sequences of every shape: repeats (short and long), deltas, random widths, outliers
 * (patched base), extremes. */
static size_t make_sequence(int shape, int64_t *v, size_t cap, bool is_signed)
{
    size_t n = 0;
    while (n < cap) {
        int kind = (int)(next_rand() % 7), len = 1 + (int)(next_rand() % 700);
        int64_t base = (int64_t)(next_rand() % 100000) - (is_signed ? 50000 : 0);
        for (int i = 0; i < len && n < cap; i++) {
            int64_t x;
            switch ((kind + shape) % 7) {
            case 0: x = base; break;
            case 1: x = base + i * 3; break;
            case 2: x = base - i * (int64_t)(next_rand() % 5); break;
            case 3: x = (int64_t)(next_rand() % 1000); break;
            case 4:
                x = i % 17 == 5 ? (int64_t)(next_rand() >> 8) : (int64_t)(next_rand() % 64);
                break;
            case 5: x = is_signed ? (int64_t)next_rand() : (int64_t)(next_rand() >> 1); break;
            default: x = i % 2 ? (is_signed ? INT64_MIN : 0) : INT64_MAX; break;
            }
            if (!is_signed && x < 0)
                x = -(x + 1);
            v[n++] = x;
        }
    }
    return n;
}

static void test_rle_v2_round_trips(void **state)
{
    enum { N = 20000 };
    int64_t *v = test_malloc(N * sizeof(int64_t)), *got = test_malloc(N * sizeof(int64_t));
    (void)state;
    for (int shape = 0; shape < 14; shape++) {
        bool is_signed = shape % 2 == 0;
        size_t n = make_sequence(shape, v, N, is_signed);
        pm_buf b;
        pm_orc_int_rle *r = test_malloc(sizeof(*r));
        pm_buf_init(&b, 0);
        encode_ints(v, n, is_signed, &b);
        pm_orc_int_rle_init(r, b.data, b.len, is_signed, 2);
        assert_true(pm_orc_int_rle_read(r, got, n));
        assert_memory_equal(got, v, n * sizeof(int64_t));
        assert_false(pm_orc_int_rle_read(r, got, 1));
        /* every strict prefix of the bytes is truncated */
        for (size_t cut = 0; cut < b.len; cut += 1 + b.len / 50) {
            pm_orc_int_rle_init(r, b.data, cut, is_signed, 2);
            assert_false(pm_orc_int_rle_read(r, got, n));
        }
        test_free(r);
        pm_buf_free(&b);
    }
    test_free(v);
    test_free(got);
}

/* Positions recorded while writing (as row indexes record them) seek to the same values,
 * with and without compression chunks. */
static void test_positions_seek(void **state)
{
    enum { N = 30000 };
    pm_orc_compression kinds[] = {PM_ORC_NONE, PM_ORC_ZSTD};
    int64_t *v = test_malloc(N * sizeof(int64_t));
    (void)state;
    make_sequence(3, v, N, true);
    for (size_t k = 0; k < 2; k++) {
        pm_orc_codec codec = {kinds[k], 4096, 1, pm_codec_ctx_new()};
        pm_orc_outstream s;
        pm_orc_int_rle_writer *w;
        pm_orc_positions pos[N / 1000];
        pm_buf plain;
        pm_orc_chunk_map map;
        paimon_error err = {0};
        pm_orc_outstream_init(&s, &codec);
        w = pm_orc_int_rle_writer_new(&s, true);
        for (int i = 0; i < N; i++) {
            if (i % 1000 == 0) {
                pos[i / 1000].count = 0;
                assert_int_equal(pm_orc_int_rle_position(w, &pos[i / 1000]), 0);
            }
            assert_int_equal(pm_orc_int_rle_write(w, v[i]), 0);
        }
        assert_int_equal(pm_orc_int_rle_flush(w), 0);
        assert_int_equal(pm_orc_outstream_flush(&s, &err), 0);
        pm_buf_init(&plain, 0);
        pm_buf_init(&map.pairs, 0);
        assert_int_equal(
            pm_orc_decompress(&codec, s.out.data, s.out.len, 0, "t", "s", &plain, &map, &err), 0);
        for (int g = 0; g < N / 1000; g++) {
            pm_orc_int_rle *r = test_malloc(sizeof(*r));
            uint64_t raw = pos[g].v[0], skip;
            int64_t got[10];
            size_t at = 1;
            if (kinds[k] != PM_ORC_NONE) {
                assert_true(pm_orc_chunk_lookup(&map, pos[g].v[0], &raw));
                raw += pos[g].v[1];
                at = 2;
            }
            skip = pos[g].v[at];
            pm_orc_int_rle_init(r, plain.data + raw, plain.len - raw, true, 2);
            assert_true(pm_orc_int_rle_skip(r, skip));
            assert_true(pm_orc_int_rle_read(r, got, 10));
            assert_memory_equal(got, v + g * 1000, sizeof(got));
            test_free(r);
        }
        pm_buf_free(&plain);
        pm_buf_free(&map.pairs);
        pm_orc_int_rle_writer_free(w);
        pm_orc_outstream_free(&s);
        pm_codec_ctx_free(codec.ctx);
    }
    test_free(v);
}

static void test_bool_positions_and_varint128(void **state)
{
    pm_orc_outstream s;
    pm_orc_bool_rle_writer w;
    pm_orc_bool_rle r;
    pm_orc_positions p[10];
    uint8_t bits[1000], got[50];
    __int128 y;
    __int128 vals[] = {
        0, 1, -1, (__int128)INT64_MAX * 1000, -((__int128)1 << 126), ((__int128)1 << 126)};
    (void)state;
    pm_orc_outstream_init(&s, &NONE);
    pm_orc_bool_rle_writer_init(&w, &s);
    for (int i = 0; i < 1000; i++) {
        bits[i] = (uint8_t)((i * 7 / 3 + i / 100) % 3 == 0);
        if (i % 100 == 37) {
            p[i / 100].count = 0;
            assert_int_equal(pm_orc_bool_rle_position(&w, &p[i / 100]), 0);
        }
        assert_int_equal(pm_orc_bool_rle_write(&w, bits[i]), 0);
    }
    assert_int_equal(pm_orc_bool_rle_flush(&w), 0);
    for (int g = 0; g < 10; g++) {
        pm_orc_bool_rle_init(&r, s.out.data + p[g].v[0], s.out.len - p[g].v[0]);
        assert_true(pm_orc_bool_rle_skip(&r, p[g].v[1] * 8 + p[g].v[2]));
        assert_true(pm_orc_bool_rle_read(&r, got, 50));
        assert_memory_equal(got, bits + g * 100 + 37, 50);
    }
    pm_orc_outstream_free(&s);
    /* unbounded zigzag varints (decimal DATA) */
    pm_orc_outstream_init(&s, &NONE);
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
        assert_int_equal(pm_orc_write_varint128(&s, vals[i]), 0);
    {
        const uint8_t *q = s.out.data, *end = s.out.data + s.out.len;
        for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
            __int128 x;
            assert_true(pm_orc_read_varint128(&q, end, &x));
            assert_true(x == vals[i]);
        }
        assert_true(q == end);
    }
    pm_orc_outstream_free(&s);
    /* every varint length (1..19 bytes) both signs, back to back: the 8-byte fast path,
     * its end (fewer than 8 bytes left) and the long values all decode */
    pm_orc_outstream_init(&s, &NONE);
    for (int width = 0; width < 127; width++) {
        __int128 x = ((__int128)1 << width) - 1;
        assert_int_equal(pm_orc_write_varint128(&s, x), 0);
        assert_int_equal(pm_orc_write_varint128(&s, -x - 1), 0);
    }
    {
        const uint8_t *q = s.out.data, *end = s.out.data + s.out.len;
        for (int width = 0; width < 127; width++) {
            __int128 x, want = ((__int128)1 << width) - 1;
            assert_true(pm_orc_read_varint128(&q, end, &x));
            assert_true(x == want);
            assert_true(pm_orc_read_varint128(&q, end, &x));
            assert_true(x == -want - 1);
        }
        assert_true(q == end);
        /* a varint cut short is refused (the last one is 19 bytes long) */
        q = s.out.data + s.out.len - 19;
        assert_false(pm_orc_read_varint128(&q, end - 1, &y));
    }
    pm_orc_outstream_free(&s);
}

static void test_protobuf(void **state)
{
    pm_buf b;
    pm_pb c;
    uint32_t field = 0;
    int wire = 0;
    uint64_t v;
    const uint8_t *d;
    size_t len;
    double x;
    uint64_t packed[] = {1, 300, 0, 1ULL << 63};
    (void)state;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_pb_put_uint(&b, 1, 150), 0);
    assert_memory_equal(b.data, "\x08\x96\x01", 3); /* the protobuf documentation's example */
    assert_int_equal(pm_pb_put_sint(&b, 2, -3), 0);
    assert_int_equal(pm_pb_put_string(&b, 8000, "ORC"), 0);
    assert_int_equal(pm_pb_put_double(&b, 3, 2.5), 0);
    assert_int_equal(pm_pb_put_packed(&b, 4, packed, 4), 0);
    c = pm_pb_init(b.data, b.len, 0);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_true(field == 1 && wire == PM_PB_VARINT && pm_pb_varint(&c, &v) && v == 150);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_true(field == 2 && pm_pb_varint(&c, &v) && pm_zigzag_decode(v) == -3);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_true(field == 8000 && wire == PM_PB_LEN && pm_pb_bytes(&c, &d, &len) && len == 3);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_true(field == 3 && pm_pb_double(&c, &x) && x == 2.5);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_true(field == 4 && pm_pb_skip(&c, wire));
    assert_int_equal(pm_pb_next(&c, &field, &wire), 0);
    /* truncated: a length beyond the end, a varint without its last byte */
    c = pm_pb_init((const uint8_t *)"\x22\x05\x01", 3, 0);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_false(pm_pb_bytes(&c, &d, &len));
    c = pm_pb_init((const uint8_t *)"\x08\x96", 2, 0);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_false(pm_pb_varint(&c, &v));
    /* groups (wire types 3 and 4) and field number 0 are malformed */
    c = pm_pb_init((const uint8_t *)"\x0b", 1, 0);
    assert_int_equal(pm_pb_next(&c, &field, &wire), 1);
    assert_false(pm_pb_skip(&c, wire));
    c = pm_pb_init((const uint8_t *)"\x00", 1, 0);
    assert_int_equal(pm_pb_next(&c, &field, &wire), -1);
    pm_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rle_v2_spec_examples),
        cmocka_unit_test(test_rle_v1_and_byte_rle),
        cmocka_unit_test(test_rle_v2_round_trips),
        cmocka_unit_test(test_positions_seek),
        cmocka_unit_test(test_bool_positions_and_varint128),
        cmocka_unit_test(test_protobuf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

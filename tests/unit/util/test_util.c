/* util: bounded buffers, arenas, varints, codecs (every one round-trips; Java-style zstd
 * frames without a content size; corrupt and oversized input), JSON printing, calendar. */
#include <string.h>
#include <zstd.h>

#include "testlib.h"

#include "util/alloc.h"
#include "util/arena.h"
#include "util/compress.h"
#include "util/json.h"
#include "util/time.h"
#include "util/varint.h"

static void test_buf_limits(void **state)
{
    pm_buf b;
    (void)state;
    pm_buf_init(&b, 10);
    assert_int_equal(pm_buf_append(&b, "0123456789", 10), 0);
    assert_int_equal(pm_buf_putc(&b, 'x'), PAIMON_ELIMIT);
    assert_int_equal(b.len, 10);
    assert_string_equal(pm_buf_cstr(&b), "0123456789");
    pm_buf_reset(&b);
    assert_int_equal(pm_buf_printf(&b, "%d-%s", 42, "ab"), 0);
    assert_string_equal(pm_buf_cstr(&b), "42-ab");
    assert_int_equal(pm_buf_reserve(&b, SIZE_MAX), PAIMON_ELIMIT);
    pm_buf_free(&b);
}

static void test_arena(void **state)
{
    pm_arena a;
    char *big;
    (void)state;
    pm_arena_init(&a, 256);
    for (int i = 0; i < 1000; i++) {
        char *s = pm_arena_strndup(&a, "abcdefghij", 10);
        assert_non_null(s);
        assert_int_equal((uintptr_t)s % 8, 0);
        assert_string_equal(s, "abcdefghij");
    }
    big = pm_arena_alloc(&a, 100000);
    assert_non_null(big);
    memset(big, 1, 100000);
    assert_int_equal(pm_arena_adopt(&a, pm_malloc(64), 64), 0);
    assert_true(a.bytes > 100000);
    pm_arena_free(&a);
}

static void test_varints(void **state)
{
    static const int64_t values[] = {0,   1,         -1,        63,        -64,      64,
                                     300, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    uint8_t buf[PM_UVARINT_MAX];
    (void)state;
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        uint64_t z = pm_zigzag_encode(values[i]), back = 0;
        size_t n = pm_uvarint_encode(buf, z);
        assert_int_equal(pm_uvarint_decode(buf, buf + n, &back), n);
        assert_int_equal(pm_zigzag_decode(back), values[i]);
        if (n > 1) /* truncated */
            assert_int_equal(pm_uvarint_decode(buf, buf + n - 1, &back), 0);
    }
    memset(buf, 0x80, sizeof(buf)); /* 10 continuation bytes: overlong */
    {
        uint64_t v;
        assert_int_equal(pm_uvarint_decode(buf, buf + sizeof(buf), &v), 0);
    }
}

static void test_codecs_round_trip(void **state)
{
    static const pm_codec codecs[] = {PM_CODEC_NONE,        PM_CODEC_ZSTD, PM_CODEC_SNAPPY,
                                      PM_CODEC_DEFLATE_RAW, PM_CODEC_GZIP, PM_CODEC_LZ4_RAW};
    enum { N = 300000 };
    uint8_t *input = pm_malloc(N);
    pm_codec_ctx *ctx = pm_codec_ctx_new();
    (void)state;
    for (int i = 0; i < N; i++)
        input[i] = (uint8_t)((i * 7) % 251 < 100 ? 'a' : i % 13);
    for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++) {
        pm_buf packed, back;
        paimon_error err = {0};
        pm_buf_init(&packed, 0);
        pm_buf_init(&back, 0);
        assert_int_equal(pm_compress(ctx, codecs[c], 0, input, N, &packed, &err), 0);
        assert_int_equal(pm_decompress(ctx, codecs[c], packed.data, packed.len, N, &back, &err), 0);
        assert_int_equal(back.len, N);
        assert_memory_equal(back.data, input, N);
        /* A limit below the output size: PAIMON_ELIMIT, not an allocation. */
        if (codecs[c] != PM_CODEC_NONE) {
            pm_buf small;
            pm_buf_init(&small, 1000);
            assert_int_equal(pm_decompress(ctx, codecs[c], packed.data, packed.len,
                                           codecs[c] == PM_CODEC_LZ4_RAW ? N : 0, &small, &err),
                             PAIMON_ELIMIT);
            pm_buf_free(&small);
            /* Truncated input is corrupt. */
            pm_buf_reset(&back);
            assert_int_equal(pm_decompress(ctx, codecs[c], packed.data, packed.len / 2,
                                           codecs[c] == PM_CODEC_LZ4_RAW ? N : 0, &back, &err),
                             PAIMON_ECORRUPT);
        }
        pm_buf_free(&packed);
        pm_buf_free(&back);
    }
    pm_codec_ctx_free(ctx);
    pm_free(input);
}

/* Java's zstd-jni ZstdOutputStream writes frames without a content size. */
static void test_zstd_stream_frames(void **state)
{
    ZSTD_CStream *cs = ZSTD_createCStream();
    uint8_t out[4096], input[3000];
    ZSTD_outBuffer o = {out, sizeof(out), 0};
    ZSTD_inBuffer in = {input, sizeof(input), 0};
    pm_buf back;
    paimon_error err = {0};
    (void)state;
    for (size_t i = 0; i < sizeof(input); i++)
        input[i] = (uint8_t)(i % 17);
    ZSTD_initCStream(cs, 1);
    ZSTD_compressStream(cs, &o, &in);
    ZSTD_endStream(cs, &o);
    ZSTD_freeCStream(cs);
    assert_int_equal(ZSTD_getFrameContentSize(out, o.pos), ZSTD_CONTENTSIZE_UNKNOWN);
    pm_buf_init(&back, 0);
    assert_int_equal(pm_decompress(NULL, PM_CODEC_ZSTD, out, o.pos, 0, &back, &err), 0);
    assert_int_equal(back.len, sizeof(input));
    assert_memory_equal(back.data, input, sizeof(input));
    pm_buf_free(&back);
}

/* A frame whose header claims less content than its blocks hold is corrupt, and says so:
 * zstd's "Destination buffer is too small" for it depends on the buffers a reused context
 * kept, so paimon-c tells it as "Data corruption detected" (util/compress.c). */
static void test_zstd_overrun_is_corruption(void **state)
{
    uint8_t input[4096];
    pm_buf packed, back;
    paimon_error err = {0};
    unsigned fcs;
    (void)state;
    for (size_t i = 0; i < sizeof(input); i++)
        input[i] = (uint8_t)("abcdefgh"[(i * 7 / 3) % 8] ^ (i % 97 == 0));
    pm_buf_init(&packed, 0);
    pm_buf_init(&back, 0);
    assert_int_equal(pm_compress(NULL, PM_CODEC_ZSTD, 3, input, sizeof(input), &packed, &err), 0);
    /* one segment, a 2-byte content size (value - 256) right after the descriptor */
    assert_int_equal(packed.data[4] & 0xe3, 0x60);
    fcs = (unsigned)(packed.data[5] | packed.data[6] << 8) + 256;
    assert_int_equal(fcs, sizeof(input));
    fcs = fcs / 2 - 256;
    packed.data[5] = (uint8_t)fcs;
    packed.data[6] = (uint8_t)(fcs >> 8);
    assert_int_equal(pm_decompress(NULL, PM_CODEC_ZSTD, packed.data, packed.len, 0, &back, &err),
                     PAIMON_ECORRUPT);
    assert_string_equal(err.message, "zstd: Data corruption detected");
    pm_buf_free(&packed);
    pm_buf_free(&back);
}

static void test_jackson_printer(void **state)
{
    json_t *j = json_loads("{\"a\":1,\"b\":[],\"c\":{},\"d\":[\"x\",\"y\"],\"e\":[{\"f\":true},{}],"
                           "\"g\":\"q\\\"\\u0001\\u00e9\",\"h\":null,\"i\":2.5}",
                           0, NULL);
    pm_buf b;
    (void)state;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_json_write_jackson(&b, j), 0);
    assert_string_equal(pm_buf_cstr(&b), "{\n"
                                         "  \"a\" : 1,\n"
                                         "  \"b\" : [ ],\n"
                                         "  \"c\" : { },\n"
                                         "  \"d\" : [ \"x\", \"y\" ],\n"
                                         "  \"e\" : [ {\n"
                                         "    \"f\" : true\n"
                                         "  }, { } ],\n"
                                         "  \"g\" : \"q\\\"\\u0001\xc3\xa9\",\n"
                                         "  \"h\" : null,\n"
                                         "  \"i\" : 2.5\n"
                                         "}");
    pm_buf_reset(&b);
    assert_int_equal(pm_json_quote(&b,
                                   "a\xff"
                                   "b",
                                   3),
                     0); /* invalid UTF-8 -> U+FFFD */
    assert_string_equal(pm_buf_cstr(&b), "\"a\xef\xbf\xbd"
                                         "b\"");
    pm_buf_free(&b);
    json_decref(j);
}

static void test_calendar(void **state)
{
    int64_t y;
    unsigned m, d;
    (void)state;
    assert_int_equal(pm_days_from_civil(1970, 1, 1), 0);
    assert_int_equal(pm_days_from_civil(2024, 5, 14), 19857);
    assert_int_equal(pm_days_from_civil(0, 1, 1), -719528);
    for (int64_t days = -800000; days < 3000000; days += 997) {
        pm_civil_from_days(days, &y, &m, &d);
        assert_int_equal(pm_days_from_civil(y, m, d), days);
    }
    assert_int_equal(pm_floor_div(-1, 1000), -1);
    assert_int_equal(pm_floor_mod(-1, 1000), 999);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf_limits),
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_varints),
        cmocka_unit_test(test_codecs_round_trip),
        cmocka_unit_test(test_zstd_stream_frames),
        cmocka_unit_test(test_zstd_overrun_is_corruption),
        cmocka_unit_test(test_jackson_printer),
        cmocka_unit_test(test_calendar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

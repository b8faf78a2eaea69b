/* Parquet encodings: the RLE/bit-packed hybrid (with parquet-format's examples), legacy
 * BIT_PACKED, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT, PLAIN, dictionaries, and spacing values over nulls. */
#include <stdlib.h>
#include <string.h>

#include "format/parquet/column.h"
#include "format/parquet/encoding.h"
#include "testlib.h"
#include "util/varint.h"

/* Copies test bytes into a padded buffer, as decoders require. */
static uint8_t *padded(const void *data, size_t len)
{
    uint8_t *p = calloc(1, len + PM_PQ_PADDING);
    memcpy(p, data, len);
    return p;
}

static void test_rle_spec_examples(void **state)
{
    /* Encodings.md: bit-packed 0..7 with width 3 is header 3 then 0x88 0xC6 0xFA */
    static const uint8_t packed[] = {0x03, 0x88, 0xc6, 0xfa};
    /* an RLE run of 300 copies of 5 (width 3): header 600 as varint, value 1 byte */
    static const uint8_t run[] = {0xd8, 0x04, 0x05};
    uint32_t out[300];
    uint8_t *buf = padded(packed, sizeof(packed));
    pm_rle_decoder d;
    paimon_error err = {0};
    (void)state;
    pm_rle_init(&d, buf, sizeof(packed), 3);
    assert_int_equal(pm_rle_get_u32(&d, out, 8, &err), 8);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(out[i], i);
    assert_int_equal(pm_rle_get_u32(&d, out, 1, &err), 0); /* the data ends */
    free(buf);
    buf = padded(run, sizeof(run));
    pm_rle_init(&d, buf, sizeof(run), 3);
    assert_int_equal(pm_rle_get_u32(&d, out, 300, &err), 300);
    assert_int_equal(out[0], 5);
    assert_int_equal(out[299], 5);
    free(buf);
    /* a bit-packed run longer than its bytes is corrupt */
    buf = padded("\x05\x01", 2);
    pm_rle_init(&d, buf, 2, 3);
    assert_int_equal(pm_rle_get_u32(&d, out, 8, &err), PAIMON_ECORRUPT);
    free(buf);
}

/* The encoder's output decodes to its input for every width, with runs and noise mixed. */
static void test_rle_roundtrip(void **state)
{
    uint32_t in[3000], out[3000];
    uint8_t small[3000];
    uint64_t seed = 7;
    (void)state;
    for (int width = 0; width <= 32; width++) {
        pm_buf b;
        pm_rle_encoder e;
        pm_rle_decoder d;
        paimon_error err = {0};
        uint64_t mask = width == 32 ? 0xffffffffu : ((1ull << width) - 1);
        uint8_t *copy;
        for (size_t i = 0; i < 3000; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            in[i] = (uint32_t)((i / 100) % 3 == 0 ? (i / 100) & mask : (seed >> 20) & mask);
        }
        pm_buf_init(&b, 0);
        pm_rle_encoder_init(&e, &b, width);
        for (size_t i = 0; i < 3000; i++)
            pm_rle_put(&e, in[i]);
        assert_int_equal(pm_rle_finish(&e), 0);
        copy = padded(b.data, b.len);
        pm_rle_init(&d, copy, b.len, width);
        /* decode in uneven steps to cross run boundaries mid-run */
        for (size_t at = 0; at < 3000;) {
            size_t step = at % 7 == 0 ? 13 : 101;
            if (step > 3000 - at)
                step = 3000 - at;
            assert_int_equal(pm_rle_get_u32(&d, out + at, step, &err), (long)step);
            at += step;
        }
        assert_memory_equal(in, out, sizeof(in));
        if (width <= 8) {
            pm_rle_init(&d, copy, b.len, width);
            assert_int_equal(pm_rle_get_u8(&d, small, 3000, &err), 3000);
            for (size_t i = 0; i < 3000; i++)
                assert_int_equal(small[i], in[i]);
        }
        free(copy);
        pm_buf_free(&b);
    }
}

static void test_bit_packed_levels(void **state)
{
    /* Encodings.md: BIT_PACKED 0..7 with width 3 is 00000101 00111001 01110111 */
    static const uint8_t in[] = {0x05, 0x39, 0x77};
    uint8_t out[8];
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_pq_bitpacked_levels(in, 3, 3, out, 8, &err), 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], i);
    assert_int_equal(pm_pq_bitpacked_levels(in, 2, 3, out, 8, &err), PAIMON_ECORRUPT);
}

/* ---- DELTA_BINARY_PACKED: a small reference encoder -------------------------------------- */

static void put_uvar(pm_buf *b, uint64_t v)
{
    uint8_t tmp[10];
    pm_buf_append(b, tmp, pm_uvarint_encode(tmp, v));
}

/* Blocks of 128 values in 4 miniblocks of 32, as parquet-java writes them. */
static void delta_encode(pm_buf *b, const int64_t *v, size_t n)
{
    put_uvar(b, 128);
    put_uvar(b, 4);
    put_uvar(b, n);
    put_uvar(b, pm_zigzag_encode(n > 0 ? v[0] : 0));
    for (size_t start = 1; start < n; start += 128) {
        size_t count = n - start < 128 ? n - start : 128;
        uint64_t deltas[128] = {0};
        int64_t min = INT64_MAX;
        uint8_t widths[4] = {0};
        for (size_t i = 0; i < count; i++) {
            int64_t d = (int64_t)((uint64_t)v[start + i] - (uint64_t)v[start + i - 1]);
            min = d < min ? d : min;
            deltas[i] = (uint64_t)d;
        }
        for (size_t i = 0; i < count; i++)
            deltas[i] -= (uint64_t)min;
        put_uvar(b, pm_zigzag_encode(min));
        for (int m = 0; m < 4; m++)
            for (size_t i = (size_t)m * 32; i < (size_t)m * 32 + 32 && i < count; i++) {
                int w = pm_pq_bit_width(deltas[i]);
                widths[m] = (uint8_t)(w > widths[m] ? w : widths[m]);
            }
        pm_buf_append(b, widths, 4);
        for (int m = 0; m < 4 && (size_t)m * 32 < count; m++) {
            uint8_t packed[8 * 33] = {0};
            uint64_t bit = 0;
            for (int i = 0; i < 32; i++)
                for (int k = 0; k < widths[m]; k++, bit++)
                    if ((deltas[m * 32 + i] >> k) & 1)
                        packed[bit >> 3] |= (uint8_t)(1u << (bit & 7));
            pm_buf_append(b, packed, (size_t)widths[m] * 4);
        }
    }
}

static void test_delta_binary_packed(void **state)
{
    int64_t v[1000], out[1000];
    int32_t out32[1000];
    pm_buf b;
    pm_delta_decoder d;
    paimon_error err = {0};
    const uint8_t *end;
    uint8_t *copy;
    (void)state;
    for (int i = 0; i < 1000; i++)
        v[i] = i % 97 == 0   ? INT64_MIN
               : i % 89 == 0 ? INT64_MAX
                             : (int64_t)i * i * (i % 2 ? -1 : 1);
    pm_buf_init(&b, 0);
    delta_encode(&b, v, 1000);
    pm_buf_append(&b, "TAIL", 4);
    copy = padded(b.data, b.len);
    assert_int_equal(pm_delta_init(&d, copy, b.len, 64, &err), 0);
    assert_int_equal(pm_delta_remaining(&d), 1000);
    assert_int_equal(pm_delta_get64(&d, out, 3, &err), 0);
    assert_int_equal(pm_delta_get64(&d, out + 3, 997, &err), 0);
    assert_memory_equal(v, out, sizeof(v));
    assert_int_equal(pm_delta_end(&d, &end, &err), 0);
    assert_memory_equal(end, "TAIL", 4);
    assert_int_equal(pm_delta_get64(&d, out, 1, &err), PAIMON_ECORRUPT); /* none left */
    free(copy);

    /* INT32 streams wrap at 32 bits */
    for (int i = 0; i < 1000; i++)
        v[i] = (int32_t)(i % 3 == 0 ? INT32_MIN : i % 5 == 0 ? INT32_MAX : i * 7919);
    b.len = 0;
    delta_encode(&b, v, 1000);
    copy = padded(b.data, b.len);
    assert_int_equal(pm_delta_init(&d, copy, b.len, 32, &err), 0);
    assert_int_equal(pm_delta_get32(&d, out32, 1000, &err), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(out32[i], (int32_t)v[i]);
    free(copy);

    /* a block size that is not a multiple of 128 is corrupt; so is a truncated stream */
    b.len = 0;
    put_uvar(&b, 100);
    put_uvar(&b, 4);
    put_uvar(&b, 1);
    put_uvar(&b, 0);
    copy = padded(b.data, b.len);
    assert_int_equal(pm_delta_init(&d, copy, b.len, 64, &err), PAIMON_ECORRUPT);
    free(copy);
    b.len = 0;
    delta_encode(&b, v, 300);
    copy = padded(b.data, b.len);
    assert_int_equal(pm_delta_init(&d, copy, b.len / 2, 64, &err), 0);
    assert_int_equal(pm_delta_get64(&d, out, 300, &err), PAIMON_ECORRUPT);
    free(copy);
    pm_buf_free(&b);
    free(NULL);
}

/* ---- page values through the column reader's decoders ------------------------------------ */

typedef struct page_ctx {
    pq_col_reader r;
    pq_leaf leaf;
    pq_plan plan;
    pm_type *type;
    pm_column *col;
    uint8_t *data;
} page_ctx;

static void page_setup(page_ctx *p, const char *type, int phys, int32_t len, int encoding,
                       const void *data, size_t n, int32_t values)
{
    paimon_error err = {0};
    memset(p, 0, sizeof(*p));
    assert_int_equal(pm_type_parse(type, &p->type, &err), 0);
    p->leaf.type = phys;
    p->leaf.type_length = len;
    p->plan.kind = PQ_PLAN_LEAF;
    p->plan.type = p->type;
    p->plan.conv = PQ_CONV_NONE;
    p->plan.mul = p->plan.div = 1;
    pm_pq_col_init(&p->r, "p.parquet", &p->leaf, &p->plan, PQ_UNCOMPRESSED, NULL);
    p->data = padded(data, n);
    p->r.data = p->data;
    p->r.data_len = n;
    p->r.encoding = encoding;
    p->r.page_values = values;
    p->col = pm_column_new(p->type);
}

static void page_free(page_ctx *p)
{
    pm_pq_col_free(&p->r);
    pm_column_free(p->col);
    pm_type_free(p->type);
    free(p->data);
}

static void assert_strings(const pm_column *c, const char *const *want, size_t n)
{
    assert_int_equal(c->length, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        pm_datum d;
        pm_column_get_datum(c, (int64_t)i, &d);
        assert_int_equal(d.v.s.len, strlen(want[i]));
        if (d.v.s.len > 0)
            assert_memory_equal(d.v.s.ptr, want[i], d.v.s.len);
    }
}

static void test_delta_byte_arrays(void **state)
{
    static const char *const words[] = {"axis", "axle", "babble", "babyhood", "", "b"};
    int64_t lens[6], prefix[6] = {0, 2, 0, 3, 0, 0}, suffix[6];
    pm_buf b;
    page_ctx p;
    paimon_error err = {0};
    (void)state;
    for (int i = 0; i < 6; i++) {
        lens[i] = (int64_t)strlen(words[i]);
        suffix[i] = lens[i] - prefix[i];
    }
    /* DELTA_LENGTH_BYTE_ARRAY: lengths, then the bytes */
    pm_buf_init(&b, 0);
    delta_encode(&b, lens, 6);
    for (int i = 0; i < 6; i++)
        pm_buf_puts(&b, words[i]);
    page_setup(&p, "STRING", PQ_BYTE_ARRAY, 0, PQ_DELTA_LENGTH_BYTE_ARRAY, b.data, b.len, 6);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 2, p.col, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 4, p.col, &err), 0);
    assert_strings(p.col, words, 6);
    assert_int_equal(pm_pq_values_decode(&p.r, 1, p.col, &err), PAIMON_ECORRUPT);
    page_free(&p);
    /* DELTA_BYTE_ARRAY: prefix lengths, then the suffixes as DELTA_LENGTH_BYTE_ARRAY */
    b.len = 0;
    delta_encode(&b, prefix, 6);
    delta_encode(&b, suffix, 6);
    for (int i = 0; i < 6; i++)
        pm_buf_puts(&b, words[i] + prefix[i]);
    page_setup(&p, "BYTES", PQ_BYTE_ARRAY, 0, PQ_DELTA_BYTE_ARRAY, b.data, b.len, 6);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 3, p.col, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 3, p.col, &err), 0);
    assert_strings(p.col, words, 6);
    page_free(&p);
    /* a prefix longer than the previous value is corrupt */
    b.len = 0;
    {
        int64_t bad_prefix[2] = {0, 9}, bad_suffix[2] = {1, 1};
        delta_encode(&b, bad_prefix, 2);
        delta_encode(&b, bad_suffix, 2);
        pm_buf_puts(&b, "ab");
    }
    page_setup(&p, "BYTES", PQ_BYTE_ARRAY, 0, PQ_DELTA_BYTE_ARRAY, b.data, b.len, 2);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), PAIMON_ECORRUPT);
    page_free(&p);
    /* lengths the page's bytes cannot back are refused before anything is allocated (a
     * fuzz finding: 2 GiB reserved for a 20-byte page) */
    b.len = 0;
    {
        int64_t huge[2] = {2000000000, 100000000};
        delta_encode(&b, huge, 2);
        pm_buf_puts(&b, "ab");
    }
    page_setup(&p, "STRING", PQ_BYTE_ARRAY, 0, PQ_DELTA_LENGTH_BYTE_ARRAY, b.data, b.len, 2);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), PAIMON_ECORRUPT);
    page_free(&p);
    pm_buf_free(&b);
}

static void test_byte_stream_split_and_plain(void **state)
{
    double in[5] = {1.5, -0.0, 1e300, -2.25, 3.0}, out[5];
    uint8_t streams[40];
    page_ctx p;
    paimon_error err = {0};
    (void)state;
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 8; k++)
            streams[k * 5 + i] = ((const uint8_t *)&in[i])[k];
    page_setup(&p, "DOUBLE", PQ_DOUBLE, 0, PQ_BYTE_STREAM_SPLIT, streams, sizeof(streams), 5);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 2, p.col, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 3, p.col, &err), 0);
    memcpy(out, p.col->values.data, sizeof(out));
    assert_memory_equal(in, out, sizeof(in));
    page_free(&p);
    /* streams shorter than the page's values are corrupt */
    page_setup(&p, "DOUBLE", PQ_DOUBLE, 0, PQ_BYTE_STREAM_SPLIT, streams, 30, 5);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), PAIMON_ECORRUPT);
    page_free(&p);

    /* PLAIN byte arrays with a length running past the page */
    page_setup(&p, "STRING", PQ_BYTE_ARRAY, 0, PQ_PLAIN, "\x02\0\0\0ab\x09\0\0\0c", 11, 2);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 1, p.col, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 1, p.col, &err), PAIMON_ECORRUPT);
    page_free(&p);
    /* PLAIN booleans: LSB first */
    page_setup(&p, "BOOLEAN", PQ_BOOLEAN, 0, PQ_PLAIN, "\x05", 1, 3);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 3, p.col, &err), 0);
    assert_int_equal(p.col->values.data[0] & 7, 5);
    page_free(&p);
    /* RLE booleans (length-prefixed): 10 trues */
    page_setup(&p, "BOOLEAN", PQ_BOOLEAN, 0, PQ_RLE, "\x02\0\0\0\x14\x01", 6, 10);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 10, p.col, &err), 0);
    assert_int_equal(p.col->values.data[0], 0xff);
    assert_int_equal(p.col->values.data[1] & 3, 3);
    page_free(&p);
}

static void test_dictionary_and_spread(void **state)
{
    static const char dict[] = "\x01\0\0\0x\x02\0\0\0yy";
    /* width 2, RLE run of 3 x index 1, then bit-packed 8 values */
    static const uint8_t idx[] = {0x02, 0x06, 0x01, 0x03, 0x04, 0x00};
    page_ctx p;
    paimon_error err = {0};
    uint8_t valid[6] = {1, 0, 1, 1, 0, 1};
    static const char *const want[] = {"yy", "", "yy", "yy", "", "x"};
    (void)state;
    page_setup(&p, "STRING", PQ_BYTE_ARRAY, 0, PQ_RLE_DICTIONARY, idx, sizeof(idx), 4);
    assert_int_equal(pm_pq_dict_load(&p.r, (const uint8_t *)dict, sizeof(dict) - 1, 2, &err), 0);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 4, p.col, &err), 0);
    /* the 4 dense values spread over 6 slots with nulls at 1 and 4 */
    assert_int_equal(pm_pq_spread(p.col, 4, valid, 6), 0);
    assert_strings(p.col, want, 6);
    assert_int_equal(p.col->null_count, 2);
    assert_false(pm_column_is_valid(p.col, 1));
    assert_true(pm_column_is_valid(p.col, 5));
    page_free(&p);
    /* an index beyond the dictionary is corrupt */
    page_setup(&p, "STRING", PQ_BYTE_ARRAY, 0, PQ_RLE_DICTIONARY, "\x02\x02\x03", 3, 1);
    assert_int_equal(pm_pq_dict_load(&p.r, (const uint8_t *)dict, sizeof(dict) - 1, 2, &err), 0);
    assert_int_equal(pm_pq_values_begin(&p.r, &err), 0);
    assert_int_equal(pm_pq_values_decode(&p.r, 1, p.col, &err), PAIMON_ECORRUPT);
    page_free(&p);
    /* a dictionary page shorter than its count */
    page_setup(&p, "STRING", PQ_BYTE_ARRAY, 0, PQ_RLE_DICTIONARY, "\x01\x00", 2, 1);
    assert_int_equal(pm_pq_dict_load(&p.r, (const uint8_t *)dict, sizeof(dict) - 1, 3, &err),
                     PAIMON_ECORRUPT);
    page_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rle_spec_examples),
        cmocka_unit_test(test_rle_roundtrip),
        cmocka_unit_test(test_bit_packed_levels),
        cmocka_unit_test(test_delta_binary_packed),
        cmocka_unit_test(test_delta_byte_arrays),
        cmocka_unit_test(test_byte_stream_split_and_plain),
        cmocka_unit_test(test_dictionary_and_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Codecs: every one the writer writes round-trips through the reader; Hadoop-framed LZ4
 * (which no producer here writes) from frames built by the test; page CRC mismatches. */
#include <lz4.h>
#include <stdio.h>

#include "format/parquet/column.h"
#include "parquet_test_util.h"

static void test_codecs_roundtrip(void **state)
{
    static const int codecs[] = {PQ_ZSTD, PQ_SNAPPY, PQ_GZIP, PQ_LZ4_RAW, PQ_UNCOMPRESSED};
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("id BIGINT, s STRING, d DOUBLE");
    pm_batch *b = NULL;
    paimon_error err = {0};
    char *want;
    (void)state;
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    for (int64_t i = 0; i < 3000; i++) {
        char s[40];
        int n = snprintf(s, sizeof(s), "text %lld %s", (long long)(i % 77), i % 5 ? "x" : "yy");
        pm_datum v[3] = {pm_datum_int(i * 31), pm_datum_bytes(s, (size_t)n), pm_datum_null()};
        if (i % 7 != 0) {
            v[2].is_null = false;
            v[2].v.d = (double)i / 3.0;
        }
        ptu_row(b, v);
    }
    want = ptu_batches_json(&b, 1);
    for (size_t k = 0; k < sizeof(codecs) / sizeof(codecs[0]); k++) {
        pm_pq_writer_options o = PM_PQ_WRITER_OPTIONS_INIT;
        pm_pq_reader *r;
        char *got;
        o.codec = codecs[k];
        o.page_row_limit = 700;
        ptu_write(fs, "/c.parquet", t, &b, 1, &o);
        r = ptu_open(fs, "/c.parquet");
        assert_int_equal(pm_pq_reader_meta(r)->row_groups[0].columns[0].meta.codec, codecs[k]);
        got = ptu_read_json(r, NULL, NULL, &err);
        assert_string_equal(got, want);
        pm_free(got);
        pm_pq_reader_free(r);
    }
    pm_free(want);
    pm_batch_free(b);
    pm_type_free(t);
    pm_fs_free(fs);
}

/* Hadoop's LZ4 codec: [BE raw size][BE compressed size][LZ4 block] frames; a bare LZ4
 * block under the same codec id is accepted too (as Arrow does). */
static void test_hadoop_lz4(void **state)
{
    char raw[5000];
    uint8_t framed[12000];
    size_t at = 0;
    pm_buf out;
    paimon_error err = {0};
    (void)state;
    for (size_t i = 0; i < sizeof(raw); i++)
        raw[i] = (char)("abcdefgh"[i % 8] + (i / 1000));
    /* two frames of 3000 and 2000 bytes */
    for (int f = 0; f < 2; f++) {
        const char *src = raw + (f == 0 ? 0 : 3000);
        int len = f == 0 ? 3000 : 2000;
        int n = LZ4_compress_default(src, (char *)framed + at + 8, len, 4000);
        assert_true(n > 0);
        framed[at] = (uint8_t)(len >> 24);
        framed[at + 1] = (uint8_t)(len >> 16);
        framed[at + 2] = (uint8_t)(len >> 8);
        framed[at + 3] = (uint8_t)len;
        framed[at + 4] = (uint8_t)(n >> 24);
        framed[at + 5] = (uint8_t)(n >> 16);
        framed[at + 6] = (uint8_t)(n >> 8);
        framed[at + 7] = (uint8_t)n;
        at += 8 + (size_t)n;
    }
    pm_buf_init(&out, 0);
    assert_int_equal(pm_pq_decompress(NULL, PQ_LZ4, framed, at, sizeof(raw), &out, &err), 0);
    assert_int_equal(out.len, sizeof(raw));
    assert_memory_equal(out.data, raw, sizeof(raw));
    /* a bare block */
    out.len = 0;
    {
        int n = LZ4_compress_default(raw, (char *)framed, sizeof(raw), sizeof(framed));
        assert_int_equal(pm_pq_decompress(NULL, PQ_LZ4, framed, (size_t)n, sizeof(raw), &out, &err),
                         0);
        assert_memory_equal(out.data, raw, sizeof(raw));
    }
    /* neither framing nor a block: corrupt */
    out.len = 0;
    memset(framed, 0xee, 64);
    assert_int_equal(pm_pq_decompress(NULL, PQ_LZ4, framed, 64, sizeof(raw), &out, &err),
                     PAIMON_ECORRUPT);
    /* codecs without an implementation */
    assert_int_equal(pm_pq_decompress(NULL, PQ_BROTLI, framed, 64, 10, &out, &err),
                     PAIMON_EUNSUPPORTED);
    pm_buf_free(&out);
}

/* A flipped byte in a page body fails its CRC, naming the file and page offset. */
static void test_page_crc(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_type *t = ptu_type("id BIGINT");
    pm_batch *b = NULL;
    pm_pq_reader *r;
    paimon_error err = {0};
    uint8_t *bytes;
    size_t len;
    int64_t off;
    int rc;
    (void)state;
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    for (int64_t i = 0; i < 100; i++) {
        pm_datum v = pm_datum_int(i * i);
        ptu_row(b, &v);
    }
    ptu_write(fs, "/crc.parquet", t, &b, 1, NULL);
    r = ptu_open(fs, "/crc.parquet");
    off = pm_pq_reader_meta(r)->row_groups[0].columns[0].meta.data_page_offset;
    pm_pq_reader_free(r);
    bytes = ptu_file_bytes(fs, "/crc.parquet", &len);
    bytes[off + 30] ^= 0x40; /* inside the first page's body */
    fs->remove(fs, "/crc.parquet", NULL);
    assert_int_equal(pm_fs_write_file(fs, "/crc.parquet", bytes, len, &err), 0);
    r = ptu_open(fs, "/crc.parquet");
    pm_free(ptu_read_json(r, NULL, &rc, &err));
    assert_int_equal(rc, PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "/crc.parquet"));
    assert_non_null(strstr(err.message, "offset"));
    pm_pq_reader_free(r);
    pm_free(bytes);
    pm_batch_free(b);
    pm_type_free(t);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codecs_roundtrip),
        cmocka_unit_test(test_hadoop_lz4),
        cmocka_unit_test(test_page_crc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

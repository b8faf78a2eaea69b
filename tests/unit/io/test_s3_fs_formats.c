/* A Parquet or ORC file on S3 read with a projection fetches the projected columns and not the
 * others: the reader announces the chunks of a row group, or the streams of a stripe
 * (pm_input_prefetch), the S3 input fetches them at once (adjacent ones in one request), and
 * the bytes that cross the wire are the first window, the end of the file and those columns.  PAIMON_NEEDS_S3_SERVER: ctest runs this against tests/s3/server.mjs;
 * requests are counted by its proxy, bytes by the client's own counters.
 *
 * And a Parquet file written to S3, whose column chunks stream out as multipart parts while
 * the row group is encoded (the S3 output's segments), is byte for byte the file the writer
 * makes on a local disk, and its part list is one AWS accepts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "s3_admin.h"
#include "../format/parquet_test_util.h"

#include "format/data_file.h"
#include "format/file_writer.h"
#include "io/fs.h"
#include "io/s3/s3_fs_int.h"
#include "util/alloc.h"

#define SAME_PATH "s3://warehouse/unit-s3fs-formats/same.parquet"
#define FILE_PATH "s3://warehouse/unit-s3fs-formats/data-1.parquet"
#define ORC_PATH  "s3://warehouse/unit-s3fs-formats/data-1.orc"
#define ROWS      100000

static uint64_t bytes_in(pm_fs *fs)
{
    pm_s3_stats st;
    pm_s3_client_stats(((pm_s3_fs *)fs)->client, &st);
    return st.bytes_in;
}

/* a and c: noise, b: 40 bytes of noise (the bulk); ~3 MB.  `want` gets the rows of
 * the projection (a, c) as JSON lines. */
static pm_batch *make_rows(const pm_type *t, pm_buf *want)
{
    paimon_error err = {0};
    pm_batch *b = NULL;
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    pm_buf_init(want, 0);
    for (int64_t i = 0; i < ROWS; i++) {
        char s[48];
        pm_datum v[3];
        uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        int n = snprintf(s, sizeof(s), "%016llx%016llx%08llx", (unsigned long long)x,
                         (unsigned long long)(x ^ (x >> 29)), (unsigned long long)(x >> 7));
        int64_t a = (int64_t)(x ^ (x >> 17)), c = (int64_t)(x * 31 + 17);
        v[0] = pm_datum_int(a);
        v[1] = pm_datum_int(c);
        v[2] = pm_datum_bytes(s, (size_t)n);
        ptu_row(b, v);
        pm_buf_printf(want, "{\"a\":%lld,\"c\":%lld}\n", (long long)a, (long long)c);
    }
    return b;
}

static pm_fs *s3_fs(void)
{
    pm_options o;
    pm_fs *fs = NULL;
    paimon_error err = {0};
    pm_options_init(&o);
    assert_int_equal(pm_options_set(&o, "s3.readahead.range", "64 kb"), 0);
    if (pm_fs_s3_new(&fs, &o, &err) != 0)
        fail_msg("pm_fs_s3_new: %s", err.message);
    pm_options_free(&o);
    return fs;
}

static void test_projection_fetches_its_chunks(void **state)
{
    pm_fs *fs = NULL;
    paimon_error err = {0};
    pm_type *t = ptu_type("a BIGINT, c BIGINT, b STRING"), *proj = ptu_type("a BIGINT, c BIGINT");
    pm_batch *b = NULL;
    pm_pq_reader *r;
    pm_pq_read_options ro = {0};
    const pq_row_group *rg;
    uint64_t before, used, chunks, file_size;
    char *got;
    pm_buf want;
    (void)state;

    fs = s3_fs();
    b = make_rows(t, &want);
    ptu_write(fs, FILE_PATH, t, &b, 1, NULL);

    pm_test_s3_admin_do("/reset");
    before = bytes_in(fs);
    r = ptu_open(fs, FILE_PATH);
    file_size = pm_pq_reader_file_size(r);
    assert_int_equal(pm_pq_reader_meta(r)->row_group_count, 1);
    rg = &pm_pq_reader_meta(r)->row_groups[0];
    chunks = (uint64_t)(rg->columns[0].meta.total_compressed_size +
                        rg->columns[1].meta.total_compressed_size);
    proj->fields[0].id = t->fields[0].id; /* columns are matched by field id */
    proj->fields[1].id = t->fields[1].id;
    ro.read_type = proj;
    got = ptu_read_json(r, &ro, NULL, &err);
    assert_string_equal(got, pm_buf_cstr(&want));
    used = bytes_in(fs) - before;
    /* the first window (64 KiB), the file's last 64 KiB and columns a and c: nothing of b */
    assert_true(file_size > 2 * chunks); /* b is the bulk of the file */
    assert_true(used >= chunks);
    if (used > chunks + 2 * 65536 + 4096)
        fail_msg("read %llu bytes of a %llu-byte file for %llu bytes of chunks",
                 (unsigned long long)used, (unsigned long long)file_size,
                 (unsigned long long)chunks);
    /* open: the first window (its Content-Range gives the size: no HEAD), one read of the
     * end (length, magic and footer); the row group: one GET of both chunks, adjacent and
     * coalesced (read one by one, they would be two) */
    assert_int_equal(pm_test_s3_requests("HEAD"), 0);
    assert_int_equal(pm_test_s3_requests("GET"), 3);
    assert_int_equal(pm_test_s3_requests(NULL), 3);
    pm_free(got);
    pm_pq_reader_free(r);
    pm_buf_free(&want);
    pm_batch_free(b);
    pm_type_free(t);
    pm_type_free(proj);
    pm_fs_free(fs);
}

/* ORC: the stripe's streams of a and c (adjacent) are one request; nothing of b is read. */
static void test_orc_projection_fetches_its_streams(void **state)
{
    pm_fs *fs = s3_fs();
    paimon_error err = {0};
    pm_type *t = ptu_type("a BIGINT, c BIGINT, b STRING"), *proj = ptu_type("a BIGINT, c BIGINT");
    const pm_file_format *orc = NULL;
    pm_file_writer *w = NULL;
    pm_data_file *f = NULL;
    pm_read_options ro = {0};
    pm_batch *b, *got_b;
    pm_buf want, got;
    uint64_t size = 0, before, used;
    int rc;
    pm_options opts;
    (void)state;
    pm_options_init(&opts);
    b = make_rows(t, &want);
    assert_int_equal(pm_file_format_find("orc", &orc, &err), 0);
    if (pm_file_writer_open(&w, orc, fs, ORC_PATH, t, "zstd", &opts, &err) != 0 ||
        pm_file_writer_write(w, b, 0, b->row_count, &err) != 0 ||
        pm_file_writer_close(w, &size, &err) != 0)
        fail_msg("write %s: %s", ORC_PATH, err.message);
    pm_test_s3_admin_do("/reset");
    before = bytes_in(fs);
    if (pm_data_file_open(&f, fs, ORC_PATH, &err) != 0)
        fail_msg("open: %s", err.message);
    proj->fields[0].id = t->fields[0].id;
    proj->fields[1].id = t->fields[1].id;
    ro.read_type = proj;
    assert_int_equal(f->format->start(f->impl, &ro, &err), 0);
    pm_buf_init(&got, 0);
    while ((rc = f->format->next(f->impl, &got_b, &err)) == 0) {
        for (int64_t i = 0; i < got_b->row_count; i++) {
            assert_int_equal(pm_batch_row_json(&got, got_b, i, &err), 0);
            pm_buf_putc(&got, '\n');
        }
        pm_batch_free(got_b);
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    assert_string_equal(pm_buf_cstr(&got), pm_buf_cstr(&want));
    used = bytes_in(fs) - before;
    if (used * 2 > size)
        fail_msg("read %llu bytes of a %llu-byte file for two of its three columns",
                 (unsigned long long)used, (unsigned long long)size);
    /* open: the first window (kept: the reader checks the magic at 0 after the tail; its
     * Content-Range gives the size: no HEAD), the tail (whose window holds the stripe's
     * footer too); the stripe: one GET of the streams of a and c (read one by one, they
     * would be two) */
    assert_int_equal(pm_test_s3_requests("HEAD"), 0);
    assert_int_equal(pm_test_s3_requests("GET"), 3);
    pm_data_file_free(f);
    pm_options_free(&opts);
    pm_buf_free(&got);
    pm_buf_free(&want);
    pm_batch_free(b);
    pm_type_free(t);
    pm_type_free(proj);
    pm_fs_free(fs);
}

/* Rows for the streamed file: a sequence, a dictionary-encoded column with nulls (so chunks
 * have dictionary pages, a segment of their own) and noise. */
static pm_batch *mixed_rows(const pm_type *t)
{
    paimon_error err = {0};
    pm_batch *b = NULL;
    static const char *const words[] = {"alpha", "beta", "gamma", "delta", "epsilon"};
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    for (int64_t i = 0; i < ROWS; i++) {
        char s[40];
        pm_datum v[3];
        uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        int n = snprintf(s, sizeof(s), "%016llx%08llx", (unsigned long long)x,
                         (unsigned long long)(x >> 13));
        const char *w = words[i % 5];
        v[0] = pm_datum_int(i);
        v[1] = i % 11 == 0 ? pm_datum_null() : pm_datum_bytes(w, strlen(w));
        v[2] = pm_datum_bytes(s, (size_t)n);
        ptu_row(b, v);
    }
    return b;
}

/* Several row groups of three chunks each, parts of 64 KiB: the S3 object and the file on a
 * local disk are the same bytes. */
static void test_streamed_file_is_the_local_file(void **state)
{
    pm_options o;
    pm_fs *fs = NULL, *local = pm_fs_local_new(false);
    paimon_error err = {0};
    pm_type *t = ptu_type("a BIGINT, w STRING, b STRING");
    pm_batch *b = NULL;
    pm_pq_writer_options wo = PM_PQ_WRITER_OPTIONS_INIT;
    pm_pq_reader *r;
    char dir[] = "/tmp/pm-s3same-XXXXXX", path[64];
    uint8_t *s3_bytes = NULL, *local_bytes = NULL;
    size_t s3_len = 0, local_len = 0;
    uint32_t groups;
    (void)state;
    pm_options_init(&o);
    assert_int_equal(pm_options_set(&o, "s3.multipart.size", "64 kb"), 0);
    assert_int_equal(pm_options_set(&o, "s3.multipart.min-size-check", "false"), 0);
    if (pm_fs_s3_new(&fs, &o, &err) != 0)
        fail_msg("pm_fs_s3_new: %s", err.message);
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/same.parquet", dir);
    wo.block_size = 256 << 10; /* row groups of 256 KiB: several, each streamed */
    b = mixed_rows(t);
    pm_test_s3_admin_do("/reset");
    pm_test_s3_admin_do("/config?min_part=65536");
    ptu_write(fs, SAME_PATH, t, &b, 1, &wo);
    pm_test_s3_admin_do("/clear");
    ptu_write(local, path, t, &b, 1, &wo);
    assert_int_equal(pm_fs_read_all(fs, SAME_PATH, 0, &s3_bytes, &s3_len, &err), 0);
    assert_int_equal(pm_fs_read_all(local, path, 0, &local_bytes, &local_len, &err), 0);
    assert_int_equal(s3_len, local_len);
    assert_memory_equal(s3_bytes, local_bytes, local_len);
    r = ptu_open(local, path);
    groups = pm_pq_reader_meta(r)->row_group_count;
    assert_true(groups >= 3);
    assert_true(pm_pq_reader_meta(r)->row_groups[1].columns[1].meta.has_dictionary_page_offset);
    pm_pq_reader_free(r);
    /* parts near 64 KiB (96 KiB on average at most: nothing piled up until the close), and
     * one Complete that passed the proxy's checks of the part list */
    if (pm_test_s3_requests("UPLOAD_PART") * 3 * 32768 < (long)local_len)
        fail_msg("%ld parts for %u row groups of %zu bytes", pm_test_s3_requests("UPLOAD_PART"),
                 groups, local_len);
    assert_int_equal(pm_test_s3_requests("MPU_COMPLETE"), 1);
    remove(path);
    rmdir(dir);
    pm_free(s3_bytes);
    pm_free(local_bytes);
    pm_batch_free(b);
    pm_type_free(t);
    pm_options_free(&o);
    pm_fs_free(fs);
    pm_fs_free(local);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_fetches_its_chunks),
        cmocka_unit_test(test_orc_projection_fetches_its_streams),
        cmocka_unit_test(test_streamed_file_is_the_local_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

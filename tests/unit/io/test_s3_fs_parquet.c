/* A Parquet file on S3 read with a projection fetches the projected column chunks and not the
 * others: the reader announces the chunks of a row group (pm_input_prefetch), the S3 input
 * fetches them at once (adjacent ones in one request), and the bytes that cross the wire are
 * the first window, the end of the file and those chunks.  PAIMON_NEEDS_S3_SERVER: ctest runs this against tests/s3/server.mjs;
 * requests are counted by its proxy, bytes by the client's own counters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "testlib.h"
#include "../format/parquet_test_util.h"

#include "io/fs.h"
#include "io/s3/s3_fs_int.h"
#include "util/alloc.h"

#define FILE_PATH "s3://warehouse/unit-s3fs-parquet/data-1.parquet"
#define ROWS      100000

static json_t *admin(const char *what)
{
    const char *base = getenv("S3_ADMIN");
    char cmd[1024], out[65536];
    size_t n;
    FILE *f;
    json_t *j;
    assert_non_null(base);
    snprintf(cmd, sizeof(cmd), "curl -sS --fail-with-body -X POST '%s%s'", base, what);
    f = popen(cmd, "r");
    assert_non_null(f);
    n = fread(out, 1, sizeof(out) - 1, f);
    out[n] = '\0';
    assert_int_equal(pclose(f), 0);
    j = json_loads(out, 0, NULL);
    assert_non_null(j);
    return j;
}

static long requests(const char *kind)
{
    json_t *j = admin("/counts");
    json_t *v = kind == NULL ? json_object_get(j, "total")
                             : json_object_get(json_object_get(j, "byKind"), kind);
    long n = v != NULL ? (long)json_integer_value(v) : 0;
    json_decref(j);
    return n;
}

static uint64_t bytes_in(pm_fs *fs)
{
    pm_s3_stats st;
    pm_s3_client_stats(((pm_s3_fs *)fs)->client, &st);
    return st.bytes_in;
}

static void test_projection_fetches_its_chunks(void **state)
{
    pm_options o;
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

    pm_options_init(&o);
    assert_int_equal(pm_options_set(&o, "s3.readahead.range", "64 kb"), 0);
    if (pm_fs_s3_new(&fs, &o, &err) != 0)
        fail_msg("pm_fs_s3_new: %s", err.message);
    pm_options_free(&o);
    /* a: counter, c: noise, b: 40 bytes of noise (the bulk); ~3 MB in one row group */
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    pm_buf_init(&want, 0);
    for (int64_t i = 0; i < ROWS; i++) {
        char s[48];
        pm_datum v[3];
        uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        int n = snprintf(s, sizeof(s), "%016llx%016llx%08llx", (unsigned long long)x,
                         (unsigned long long)(x ^ (x >> 29)), (unsigned long long)(x >> 7));
        int64_t c = (int64_t)(x * 31 + 17);
        v[0] = pm_datum_int(i);
        v[1] = pm_datum_int(c);
        v[2] = pm_datum_bytes(s, (size_t)n);
        ptu_row(b, v);
        pm_buf_printf(&want, "{\"a\":%lld,\"c\":%lld}\n", (long long)i, (long long)c);
    }
    ptu_write(fs, FILE_PATH, t, &b, 1, NULL);

    json_decref(admin("/reset"));
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
    /* open: the first window, HEAD for the size, one read of the end (length, magic and
     * footer); the row group: one GET of both chunks, adjacent and coalesced (read one by
     * one, they would be two) */
    assert_int_equal(requests("HEAD"), 1);
    assert_int_equal(requests("GET"), 3);
    assert_int_equal(requests(NULL), 4);
    pm_free(got);
    pm_pq_reader_free(r);
    pm_buf_free(&want);
    pm_batch_free(b);
    pm_type_free(t);
    pm_type_free(proj);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_projection_fetches_its_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

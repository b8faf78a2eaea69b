/* Throughput machinery of the S3 file system (io/s3/, issue 14) against the real test server
 * (tests/s3/server.mjs; PAIMON_NEEDS_S3_SERVER: ctest starts it around this test):
 *
 *  - read-ahead: a read that continues a recent one is served from blocks, and the next
 *    s3.prefetch.block.count blocks are fetched in the background (counted at the proxy);
 *  - two interleaved forward streams (the columns of a Parquet row group) read exactly the
 *    object's bytes while the proxy delays every request and fails a fifth of the GETs;
 *  - a read whose block cannot be fetched fails naming the object and the status; a
 *    read-ahead that failed in the background is fetched again by the read that needs it;
 *  - multipart parts are in flight together (s3.fast.upload.active.blocks): with 200 ms per
 *    request the proxy sees 8 of the 16 parts at once, never more; a part that fails while
 *    others are in flight fails the file, aborts the upload and leaves nothing under the
 *    name;
 *  - segments (fs.h; a Parquet row group's column chunks): bytes written to segments in any
 *    interleaving make the object they would make written in order, parts of a segment go
 *    out before the segments are ended, the proxy checks the part list as AWS does
 *    (ascending numbers, every part but the last at least the minimum: here the part size),
 *    so many segments that no part numbers are left for them are held whole, and segments
 *    of a file under s3.multipart.threshold make one PUT; a part of a
 *    segment that fails fails the file, aborts the upload and leaves nothing.
 *  (Counted at the proxy, not timed: a wall-clock bound fails on a loaded machine.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "s3_admin.h"

#include "io/fs.h"
#include "util/alloc.h"

#define ROOT "s3://warehouse/unit-s3stream"

/* An S3 fs with up to three settings (NULL ends the list early). */
static pm_fs *s3(const char *const *kv)
{
    pm_options o;
    pm_fs *fs = NULL;
    paimon_error err = {0};
    pm_options_init(&o);
    for (size_t i = 0; kv != NULL && kv[i] != NULL; i += 2)
        assert_int_equal(pm_options_set(&o, kv[i], kv[i + 1]), 0);
    if (pm_fs_s3_new(&fs, &o, &err) != 0)
        fail_msg("pm_fs_s3_new: %s", err.message);
    pm_options_free(&o);
    return fs;
}

static void read_check(pm_input *in, const uint8_t *want, uint64_t off, size_t len)
{
    paimon_error err = {0};
    uint8_t *got = pm_malloc(len);
    assert_non_null(got);
    if (in->read_at(in, off, len, got, &err) != 0)
        fail_msg("read_at %llu+%zu: %s", (unsigned long long)off, len, err.message);
    assert_memory_equal(got, want + off, len);
    pm_free(got);
}

#define OBJ_SIZE ((size_t)4 << 20)
#define BLOCK    ((size_t)256 << 10)

static const char *const READ_OPTS[] = {"s3.readahead.range",
                                        "64 kb",
                                        "s3.prefetch.block.size",
                                        "256 kb",
                                        "s3.prefetch.block.count",
                                        "4",
                                        NULL};

/* The second read of a stream starts the read-ahead: one block it needs, four ahead. */
static void test_readahead_starts(void **state)
{
    pm_fs *fs = s3(READ_OPTS);
    paimon_error err = {0};
    pm_input *in = NULL;
    uint8_t *want = pm_malloc(OBJ_SIZE);
    (void)state;
    pm_test_s3_fill(want, OBJ_SIZE, 0, 3);
    pm_test_s3_put(fs, ROOT "/ahead.bin", want, OBJ_SIZE);
    assert_int_equal(fs->open(fs, ROOT "/ahead.bin", &in, &err), 0);
    read_check(in, want, 100000, 100000); /* a lone read: one window, no read-ahead */
    pm_test_s3_admin_do("/reset");
    read_check(in, want, 190000, 100000); /* continues it: blocks 0 and 1, 2..5 ahead */
    in->close(in);                        /* waits for the read-ahead */
    assert_int_equal(pm_test_s3_requests("GET"), 6);
    /* a read far from any other is no stream: a window, nothing ahead */
    assert_int_equal(fs->open(fs, ROOT "/ahead.bin", &in, &err), 0);
    pm_test_s3_admin_do("/reset");
    read_check(in, want, 3000000, 1000);
    in->close(in);
    assert_int_equal(pm_test_s3_requests("GET"), 1);
    pm_free(want);
    pm_fs_free(fs);
}

/* Two columns read forward in turns, each a window at a time (windows overlap, as page
 * windows do), with latency and faults: exactly the object's bytes. */
static void test_interleaved_streams_under_faults(void **state)
{
    pm_fs *fs = s3(READ_OPTS);
    paimon_error err = {0};
    pm_input *in = NULL;
    uint8_t *want = pm_malloc(OBJ_SIZE);
    uint64_t a = 0, b = OBJ_SIZE / 2;
    size_t step = 150000;
    json_t *counts;
    (void)state;
    pm_test_s3_fill(want, OBJ_SIZE, 0, 4);
    pm_test_s3_put(fs, ROOT "/streams.bin", want, OBJ_SIZE);
    pm_test_s3_admin_do("/reset");
    pm_test_s3_admin_do("/latency?ms=5");
    pm_test_s3_admin_do("/fault?fault=500&kind=GET&p=0.2&seed=7");
    assert_int_equal(fs->open(fs, ROOT "/streams.bin", &in, &err), 0);
    while (a < OBJ_SIZE / 2 || b < OBJ_SIZE) {
        if (a < OBJ_SIZE / 2) {
            size_t n = OBJ_SIZE / 2 - a < step ? (size_t)(OBJ_SIZE / 2 - a) : step;
            read_check(in, want, a, n);
            a += n > 1000 ? n - 1000 : n; /* the next window starts inside this one */
        }
        if (b < OBJ_SIZE) {
            size_t n = OBJ_SIZE - b < step ? (size_t)(OBJ_SIZE - b) : step;
            read_check(in, want, b, n);
            b += n > 1000 ? n - 1000 : n;
        }
    }
    in->close(in);
    pm_test_s3_admin_do("/clear");
    counts = pm_test_s3_admin("/counts");
    assert_true(json_integer_value(json_object_get(counts, "faults")) > 0);
    json_decref(counts);
    /* every byte came once through blocks (16 of them), plus the probe and the two first
     * windows, plus the retries of the failed ones: never a GET per window */
    assert_true(pm_test_s3_requests("GET") <= 3 + 16 + 2 * 16);
    pm_free(want);
    pm_fs_free(fs);
}

/* A block nobody can fetch fails the read that needs it, naming the object and status; a
 * read-ahead that failed is fetched again when a read reaches it. */
static void test_block_failures(void **state)
{
    static const char *const opts[] = {"s3.readahead.range",
                                       "64 kb",
                                       "s3.prefetch.block.size",
                                       "256 kb",
                                       "s3.attempts.maximum",
                                       "2",
                                       "s3.retry.interval",
                                       "1 ms",
                                       NULL};
    pm_fs *fs = s3(opts);
    paimon_error err = {0};
    pm_input *in = NULL;
    uint8_t *want = pm_malloc(OBJ_SIZE), *got = pm_malloc(100000);
    (void)state;
    pm_test_s3_fill(want, OBJ_SIZE, 0, 5);
    pm_test_s3_put(fs, ROOT "/fail.bin", want, OBJ_SIZE);
    assert_int_equal(fs->open(fs, ROOT "/fail.bin", &in, &err), 0);
    read_check(in, want, 100000, 100000);
    pm_test_s3_admin_do("/fault?fault=500&kind=GET&nth=1&times=1000");
    /* needs block 0 (and 1); blocks 2..5 are read ahead and fail as well */
    assert_int_equal(in->read_at(in, 190000, 100000, got, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "s3://warehouse/unit-s3stream/fail.bin"));
    assert_non_null(strstr(err.message, "500"));
    pm_test_s3_admin_do("/clear");
    /* the failed read-ahead of block 3 is fetched again; so is block 0 */
    read_check(in, want, 3 * BLOCK + 10, 1000);
    read_check(in, want, 190000, 100000);
    in->close(in);
    pm_free(got);
    pm_free(want);
    pm_fs_free(fs);
}

/* 16 parts, 8 in flight: the proxy holds each request 200 ms, so the writer queues parts
 * 2..8 while part 1 is held and the proxy handles 8 part requests at once -- never 9 (the
 * bound), never the 2 of the uploader this replaced. */
static void test_parts_in_flight(void **state)
{
    static const char *const opts[] = {"s3.multipart.size",
                                       "8 kb",
                                       "s3.multipart.min-size-check",
                                       "false",
                                       "s3.fast.upload.active.blocks",
                                       "8",
                                       NULL};
    pm_fs *fs = s3(opts);
    paimon_error err = {0};
    pm_output *out = NULL;
    size_t total = 16 * 8192;
    uint8_t *want = pm_malloc(total);
    long most;
    (void)state;
    pm_test_s3_fill(want, total, 0, 6);
    assert_int_equal(fs->create(fs, ROOT "/parts.bin", &out, &err), 0);
    pm_test_s3_admin_do("/reset");
    pm_test_s3_admin_do("/latency?ms=200");
    for (size_t at = 0; at < total; at += 1000) {
        size_t n = total - at < 1000 ? total - at : 1000;
        if (out->write(out, want + at, n, &err) != 0)
            fail_msg("write: %s", err.message);
    }
    if (out->close(out, &err) != 0)
        fail_msg("close: %s", err.message);
    pm_test_s3_admin_do("/clear");
    assert_int_equal(pm_test_s3_requests("UPLOAD_PART"), 16);
    most = pm_test_s3_max_in_flight("UPLOAD_PART");
    if (most != 8)
        fail_msg("at most %ld of the 16 parts were in flight together, not 8", most);
    pm_test_s3_expect(fs, ROOT "/parts.bin", want, total);
    pm_free(want);
    pm_fs_free(fs);
}

/* A part fails (after its retries) while others are in flight: the file fails, the upload is
 * aborted once the others end, nothing lands.  Written in order, or (`segments`) into two
 * segments in turn, whose parts go out before the segments end. */
static void fail_a_part(const char *name, bool segments)
{
    static const char *const opts[] = {"s3.multipart.size",
                                       "4 kb",
                                       "s3.multipart.min-size-check",
                                       "false",
                                       "s3.attempts.maximum",
                                       "2",
                                       "s3.retry.interval",
                                       "1 ms",
                                       NULL};
    pm_fs *fs = s3(opts);
    paimon_error err = {0};
    pm_output *out = NULL;
    uint8_t buf[1000];
    char path[128], fault[160];
    bool exists = true;
    int rc = 0;
    snprintf(path, sizeof(path), ROOT "/%s.bin", name);
    snprintf(fault, sizeof(fault), "/fault?fault=500&kind=UPLOAD_PART&match=%s&nth=3&times=1000",
             name);
    pm_test_s3_fill(buf, sizeof(buf), 0, 7);
    pm_test_s3_admin_do("/reset");
    /* from the 3rd part request on, every attempt fails; the first ones land */
    pm_test_s3_admin_do(fault);
    assert_int_equal(fs->create(fs, path, &out, &err), 0);
    if (segments)
        rc = out->segments_begin(out, 2, 0, &err);
    for (int i = 0; i < 60 && rc == 0; i++)
        rc = segments ? out->segment_write(out, (size_t)(i % 2), buf, sizeof(buf), &err)
                      : out->write(out, buf, sizeof(buf), &err);
    if (rc == 0 && segments)
        rc = out->segments_end(out, &err);
    if (rc == 0)
        rc = out->close(out, &err);
    else
        out->abort(out);
    pm_test_s3_admin_do("/clear");
    assert_int_equal(rc, PAIMON_EIO);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "500"));
    assert_int_equal(pm_test_s3_requests("MPU_ABORT"), 1);
    assert_int_equal(pm_test_s3_requests("MPU_COMPLETE"), 0);
    assert_int_equal(pm_fs_exists(fs, path, &exists, &err), 0);
    assert_false(exists);
    pm_fs_free(fs);
}

static void test_part_failure_aborts(void **state)
{
    (void)state;
    fail_a_part("partfail", false);
}

/* Segment sizes of the rounds of test_segments_in_order: empty, under a part, several parts
 * with a tail, exactly the held head, head + one part (no tail), several parts. */
static const size_t ROUND1[] = {0, 50, 40000, 8192, 2 * 8192, 30000};
static const size_t ROUND2[] = {20000, 0, 7};

/* Writes `count` segments of `sizes` bytes of `want` (from *at on) interleaved in
 * pseudo-random pieces; *at moves past them. */
static void write_segments(pm_output *out, const uint8_t *want, uint64_t *at, const size_t *sizes,
                           size_t count, unsigned seed)
{
    paimon_error err = {0};
    size_t done[8] = {0}, left = 0;
    uint64_t start[8];
    uint32_t x = seed;
    assert_true(count <= 8);
    for (size_t k = 0; k < count; k++) {
        start[k] = *at;
        *at += sizes[k];
        left += sizes[k];
    }
    if (out->segments_begin(out, count, left, &err) != 0)
        fail_msg("segments_begin: %s", err.message);
    while (left > 0) {
        size_t k, n;
        x = x * 1103515245u + 12345u;
        k = (x >> 8) % count;
        n = 1 + (x >> 16) % 3000;
        if (n > sizes[k] - done[k])
            n = sizes[k] - done[k];
        if (n == 0)
            continue;
        if (out->segment_write(out, k, want + start[k] + done[k], n, &err) != 0)
            fail_msg("segment_write: %s", err.message);
        done[k] += n;
        left -= n;
    }
}

static void test_segments_in_order(void **state)
{
    static const char *const opts[] = {"s3.multipart.size", "8 kb", "s3.multipart.min-size-check",
                                       "false", NULL};
    pm_fs *fs = s3(opts);
    paimon_error err = {0};
    pm_output *out = NULL;
    uint8_t *want = pm_malloc(200000);
    uint64_t at = 0;
    long early;
    (void)state;
    pm_test_s3_fill(want, 200000, 0, 8);
    pm_test_s3_admin_do("/reset");
    pm_test_s3_admin_do("/config?min_part=8192");
    assert_int_equal(fs->create(fs, ROOT "/segments.bin", &out, &err), 0);
    assert_non_null(out->segments_begin);
    assert_int_equal(out->write(out, want, 100, &err), 0);
    at = 100;
    write_segments(out, want, &at, ROUND1, 6, 1);
    /* the 40000- and 30000-byte segments sent whole parts, the others held theirs */
    early = pm_test_s3_requests("UPLOAD_PART");
    if (early < 5)
        fail_msg("%ld parts went out before the segments ended, not the 5 expected", early);
    assert_int_equal(pm_test_s3_requests("MPU_COMPLETE"), 0);
    assert_int_equal(out->segments_end(out, &err), 0);
    assert_int_equal(out->pos, at);
    assert_int_equal(out->write(out, want + at, 5000, &err), 0);
    at += 5000;
    write_segments(out, want, &at, ROUND2, 3, 2);
    assert_int_equal(out->segments_end(out, &err), 0);
    assert_int_equal(out->write(out, want + at, 3, &err), 0);
    at += 3;
    if (out->close(out, &err) != 0)
        fail_msg("close: %s", err.message);
    pm_test_s3_admin_do("/clear");
    assert_int_equal(pm_test_s3_requests("MPU_COMPLETE"), 1);
    pm_test_s3_expect(fs, ROOT "/segments.bin", want, at);

    /* more segments than part numbers to spare: each is held, the file is still right */
    assert_int_equal(fs->create(fs, ROOT "/many.bin", &out, &err), 0);
    assert_int_equal(out->segments_begin(out, 6000, 0, &err), 0);
    for (size_t k = 6000; k-- > 0;) /* last segment first */
        assert_int_equal(out->segment_write(out, k, want + 30 * k, 30, &err), 0);
    assert_int_equal(out->segments_end(out, &err), 0);
    if (out->close(out, &err) != 0)
        fail_msg("close: %s", err.message);
    pm_test_s3_expect(fs, ROOT "/many.bin", want, 180000);
    pm_fs_free(fs);

    /* a file under s3.multipart.threshold is one PUT, segments or not */
    {
        static const char *const small[] = {"s3.multipart.size",
                                            "8 kb",
                                            "s3.multipart.min-size-check",
                                            "false",
                                            "s3.multipart.threshold",
                                            "1 mb",
                                            NULL};
        fs = s3(small);
        at = 0;
        assert_int_equal(fs->create(fs, ROOT "/small.bin", &out, &err), 0);
        pm_test_s3_admin_do("/reset");
        write_segments(out, want, &at, ROUND1, 6, 3);
        assert_int_equal(out->segments_end(out, &err), 0);
        if (out->close(out, &err) != 0)
            fail_msg("close: %s", err.message);
        assert_int_equal(pm_test_s3_requests("MPU_INIT"), 0);
        assert_int_equal(pm_test_s3_requests("UPLOAD_PART"), 0);
        assert_int_equal(pm_test_s3_requests("PUT"), 1);
        pm_test_s3_expect(fs, ROOT "/small.bin", want, at);
        pm_fs_free(fs);
    }
    pm_free(want);
}

static void test_segment_part_failure_aborts(void **state)
{
    (void)state;
    fail_a_part("segfail", true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readahead_starts),
        cmocka_unit_test(test_interleaved_streams_under_faults),
        cmocka_unit_test(test_block_failures),
        cmocka_unit_test(test_parts_in_flight),
        cmocka_unit_test(test_part_failure_aborts),
        cmocka_unit_test(test_segments_in_order),
        cmocka_unit_test(test_segment_part_failure_aborts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

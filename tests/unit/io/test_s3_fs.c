/* The S3 file system (io/s3/) against the real test server (tests/s3/server.mjs: s3rver behind
 * a proxy that verifies signatures, makes conditional PUTs atomic, injects faults and counts
 * requests).  PAIMON_NEEDS_S3_SERVER: ctest starts the server around this test
 * (tests/CMakeLists.txt) and exports AWS_ENDPOINT_URL, the credentials and S3_ADMIN, the
 * proxy's admin endpoint.
 *
 * Checked: the pm_fs contract every backend keeps (tests/lib/fs_contract.c); paths; a
 * multipart upload of many small parts gives back exactly its bytes, in the requests it
 * should; an aborted one leaves nothing; listing past 1000 keys (pages); batch delete;
 * conditional commits (racing writers, exactly one wins); a commit whose answer is lost
 * (the proxy lands the PUT and drops the response) is recognised as ours, and a second
 * writer's other bytes are PAIMON_EEXISTS; small files cost one request to read; prefetched
 * ranges are fetched coalesced and then served from memory; the fault fs and slices forward
 * prefetch; errors name the object. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "s3_admin.h"
#include "fs_contract.h"

#include "io/fs.h"
#include "io/s3/s3_fs_int.h"
#include "util/alloc.h"

#define ROOT "s3://warehouse/unit-s3fs"

/* POSTs `what` (path and query) to $S3_ADMIN; the JSON answer. */

/* ---- helpers ---------------------------------------------------------------------------- */

static pm_fs *s3(const char *k1, const char *v1, const char *k2, const char *v2)
{
    pm_options o;
    pm_fs *fs = NULL;
    paimon_error err = {0};
    pm_options_init(&o);
    if (k1 != NULL)
        assert_int_equal(pm_options_set(&o, k1, v1), 0);
    if (k2 != NULL)
        assert_int_equal(pm_options_set(&o, k2, v2), 0);
    if (pm_fs_s3_new(&fs, &o, &err) != 0)
        fail_msg("pm_fs_s3_new: %s", err.message);
    pm_options_free(&o);
    return fs;
}

static char *path(const char *dir, const char *name)
{
    char *p = pm_path_join(dir, name);
    assert_non_null(p);
    return p;
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_contract(void **state)
{
    pm_fs *fs = s3(NULL, NULL, NULL, NULL);
    (void)state;
    assert_string_equal(fs->name, "s3");
    pm_test_fs_contract(fs, ROOT "/contract", ROOT "/nonexistent");
    pm_fs_free(fs);
}

static void test_paths(void **state)
{
    pm_fs *fs = s3(NULL, NULL, NULL, NULL);
    paimon_error err = {0};
    pm_input *in = NULL;
    int kind;
    uint64_t size;
    (void)state;
    assert_int_equal(fs->open(fs, "s3://warehouse", &in, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3://warehouse"));
    assert_int_equal(fs->open(fs, "s3://warehouse/", &in, &err), PAIMON_EINVALID);
    assert_int_equal(fs->open(fs, "s3:///key", &in, &err), PAIMON_EINVALID);
    assert_int_equal(fs->stat(fs, "gs://b/k", &kind, &size, &err), PAIMON_EINVALID);
    /* s3a:// is the same store */
    pm_test_s3_put(fs, ROOT "/paths/x", "abc", 3);
    assert_int_equal(fs->stat(fs, "s3a://warehouse/unit-s3fs/paths/x", &kind, &size, &err), 0);
    assert_int_equal(kind, 1);
    assert_int_equal(size, 3);
    /* a directory whose keys all lie two or more levels down lists its subdirectory */
    pm_test_s3_put(fs, ROOT "/paths/deep/p1/p2/p3/f", "x", 1);
    {
        pm_strlist names;
        pm_strlist_init(&names);
        if (fs->list(fs, ROOT "/paths/deep", &names, &err) != 0)
            fail_msg("list: %s", err.message);
        assert_int_equal(names.count, 1);
        assert_string_equal(names.items[0], "p1");
        pm_strlist_free(&names);
    }
    /* mkdirs has nothing to make; a directory exists once a key is below it */
    assert_int_equal(fs->mkdirs(fs, ROOT "/paths/empty", &err), 0);
    assert_int_equal(fs->stat(fs, ROOT "/paths", &kind, &size, &err), 0);
    assert_int_equal(kind, 2);
    assert_int_equal(fs->stat(fs, ROOT "/paths/empty", &kind, &size, &err), 0);
    assert_int_equal(kind, 0);
    pm_fs_free(fs);
}

/* 5 KiB parts: a 23 KiB + 17 byte file in odd-sized writes is 5 parts, uploaded while the
 * writer goes on; read back whole and by range, byte for byte. */
static void test_multipart(void **state)
{
    pm_fs *fs;
    pm_options o;
    paimon_error err = {0};
    pm_output *out = NULL;
    size_t total = 23 * 1024 + 17, at = 0, step = 777;
    uint8_t *want = pm_malloc(total), part[100];
    (void)state;
    pm_options_init(&o);
    assert_int_equal(pm_options_set(&o, "s3.multipart.size", "5 kb"), 0);
    assert_int_equal(pm_options_set(&o, "s3.multipart.min-size-check", "false"), 0);
    assert_int_equal(pm_fs_s3_new(&fs, &o, &err), 0);
    pm_options_free(&o);
    pm_test_s3_fill(want, total, 0, 1);
    pm_test_s3_admin_do("/reset");
    assert_int_equal(fs->create(fs, ROOT "/mp/big.bin", &out, &err), 0);
    while (at < total) {
        size_t n = total - at < step ? total - at : step;
        if (out->write(out, want + at, n, &err) != 0)
            fail_msg("write: %s", err.message);
        at += n;
    }
    assert_int_equal(out->pos, total);
    if (out->close(out, &err) != 0)
        fail_msg("close: %s", err.message);
    assert_int_equal(pm_test_s3_requests("MPU_INIT"), 1);
    assert_int_equal(pm_test_s3_requests("UPLOAD_PART"), 5);
    assert_int_equal(pm_test_s3_requests("MPU_COMPLETE"), 1);
    assert_int_equal(pm_test_s3_requests("PUT"), 0);
    pm_test_s3_expect(fs, ROOT "/mp/big.bin", want, total);
    assert_int_equal(pm_fs_read_range(fs, ROOT "/mp/big.bin", 5000, sizeof(part), part, &err), 0);
    assert_memory_equal(part, want + 5000, sizeof(part));
    /* a taken name: Complete is conditional too */
    assert_int_equal(fs->create(fs, ROOT "/mp/big.bin", &out, &err), 0);
    assert_int_equal(out->write(out, want, total, &err), 0);
    assert_int_equal(out->close(out, &err), PAIMON_EEXISTS);
    assert_non_null(strstr(err.message, "big.bin"));
    pm_free(want);
    pm_fs_free(fs);
}

/* An abandoned multipart upload is aborted: nothing under the name, the upload gone. */
static void test_multipart_abort(void **state)
{
    pm_fs *fs = s3("s3.multipart.size", "4 kb", "s3.multipart.min-size-check", "false");
    pm_fs *quick = NULL; /* gives up after two attempts */
    paimon_error err = {0};
    pm_output *out = NULL;
    uint8_t buf[10000];
    bool exists = true;
    (void)state;
    pm_test_s3_fill(buf, sizeof(buf), 0, 2);
    pm_test_s3_admin_do("/reset");
    assert_int_equal(fs->create(fs, ROOT "/abort/x.bin", &out, &err), 0);
    assert_int_equal(out->write(out, buf, sizeof(buf), &err), 0);
    out->abort(out);
    assert_int_equal(pm_test_s3_requests("MPU_INIT"), 1);
    assert_int_equal(pm_test_s3_requests("MPU_ABORT"), 1);
    assert_int_equal(pm_test_s3_requests("MPU_COMPLETE"), 0);
    assert_int_equal(pm_fs_exists(fs, ROOT "/abort/x.bin", &exists, &err), 0);
    assert_false(exists);
    /* a failed part fails the file and aborts the upload too */
    pm_test_s3_admin_do("/reset");
    pm_test_s3_admin_do("/fault?fault=500&kind=UPLOAD_PART&nth=1&times=100");
    {
        pm_options o;
        pm_options_init(&o);
        assert_int_equal(pm_options_set(&o, "s3.multipart.size", "4 kb"), 0);
        assert_int_equal(pm_options_set(&o, "s3.multipart.min-size-check", "false"), 0);
        assert_int_equal(pm_options_set(&o, "s3.attempts.maximum", "2"), 0);
        assert_int_equal(pm_options_set(&o, "s3.retry.interval", "1 ms"), 0);
        assert_int_equal(pm_fs_s3_new(&quick, &o, &err), 0);
        pm_options_free(&o);
    }
    assert_int_equal(quick->create(quick, ROOT "/abort/y.bin", &out, &err), 0);
    {
        int rc = out->write(out, buf, sizeof(buf), &err);
        if (rc == 0)
            rc = out->close(out, &err);
        else
            out->abort(out);
        assert_int_equal(rc, PAIMON_EIO);
    }
    assert_non_null(strstr(err.message, "s3://warehouse/unit-s3fs/abort/y.bin"));
    assert_non_null(strstr(err.message, "500"));
    pm_test_s3_admin_do("/clear");
    assert_int_equal(pm_test_s3_requests("MPU_ABORT"), 1);
    assert_int_equal(pm_fs_exists(fs, ROOT "/abort/y.bin", &exists, &err), 0);
    assert_false(exists);
    pm_fs_free(quick);
    pm_fs_free(fs);
}

/* 1005 keys: two pages of ListObjectsV2; then one batch delete of them all. */
static void test_list_pages_and_batch_delete(void **state)
{
    pm_fs *fs = s3(NULL, NULL, NULL, NULL);
    paimon_error err = {0};
    pm_strlist names;
    char **paths = pm_calloc(1005, sizeof(char *));
    (void)state;
    for (int i = 0; i < 1005; i++) {
        char name[32];
        snprintf(name, sizeof(name), "f-%04d", i);
        paths[i] = path(ROOT "/many", name);
        pm_test_s3_put(fs, paths[i], name, strlen(name));
    }
    pm_test_s3_put(fs, ROOT "/many/sub/inner", "x", 1);
    pm_test_s3_admin_do("/reset");
    pm_strlist_init(&names);
    if (fs->list(fs, ROOT "/many", &names, &err) != 0)
        fail_msg("list: %s", err.message);
    assert_int_equal(pm_test_s3_requests("LIST"), 2);
    assert_int_equal(names.count, 1006);
    pm_strlist_sort(&names);
    assert_string_equal(names.items[0], "f-0000");
    assert_string_equal(names.items[1004], "f-1004");
    assert_string_equal(names.items[1005], "sub");
    pm_strlist_free(&names);
    pm_test_s3_admin_do("/reset");
    assert_int_equal(pm_fs_remove_many(fs, (const char *const *)paths, 1005, &err), 0);
    assert_int_equal(pm_test_s3_requests("BATCH_DELETE"), 2);
    assert_int_equal(pm_test_s3_requests(NULL), 2);
    pm_strlist_init(&names);
    assert_int_equal(fs->list(fs, ROOT "/many", &names, &err), 0);
    assert_int_equal(names.count, 1);
    assert_string_equal(names.items[0], "sub");
    pm_strlist_free(&names);
    for (int i = 0; i < 1005; i++)
        pm_free(paths[i]);
    pm_free(paths);
    pm_fs_free(fs);
}

/* Listing answers are untrusted: a page that hands back the continuation token it was asked
 * with is an error naming the listed prefix (not an endless loop), and a key below a child
 * (which delimiter=/ excludes) is no entry. */
static void test_list_broken_pages(void **state)
{
    pm_fs *fs = s3(NULL, NULL, NULL, NULL);
    paimon_error err = {0};
    pm_strlist names;
    (void)state;
    pm_test_s3_admin_do("/clear");
    pm_test_s3_admin_do("/fault?fault=list-nested&nth=1&kind=LIST");
    pm_strlist_init(&names);
    if (fs->list(fs, ROOT "/broken", &names, &err) != 0)
        fail_msg("list: %s", err.message);
    assert_int_equal(names.count, 1);
    assert_string_equal(names.items[0], "ok");
    pm_strlist_free(&names);
    pm_test_s3_admin_do("/clear");
    pm_test_s3_admin_do("/fault?fault=list-loop&nth=1&times=1000&kind=LIST");
    pm_test_s3_admin_do("/reset");
    pm_strlist_init(&names);
    assert_int_equal(fs->list(fs, ROOT "/broken", &names, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "broken/"));
    assert_non_null(strstr(err.message, "continuation token"));
    assert_int_equal(pm_test_s3_requests("LIST"), 2);
    pm_strlist_free(&names);
    pm_test_s3_admin_do("/clear");
    pm_fs_free(fs);
}

/* The other commit modes: OSS's forbid-overwrite header (409 is a taken name) and, for
 * stores without conditional writes, check-PUT-read-back; a data file (create) is refused
 * on a taken name in both, and the single-writer mode's costs are the three requests. */
static void test_commit_modes(void **state)
{
    pm_fs *oss = s3("s3.commit-mode", "oss-forbid-overwrite", NULL, NULL);
    pm_fs *single = s3("s3.commit-mode", "single-writer", NULL, NULL);
    paimon_error err = {0};
    pm_output *out = NULL;
    int rc;
    (void)state;
    pm_test_s3_admin_do("/reset");
    assert_int_equal(oss->write_atomic(oss, ROOT "/modes/oss-1", "a", 1, false, &err), 0);
    assert_int_equal(oss->write_atomic(oss, ROOT "/modes/oss-1", "b", 1, false, &err),
                     PAIMON_EEXISTS);
    assert_non_null(strstr(err.message, "oss-1"));
    assert_int_equal(pm_test_s3_requests("PUT"), 2);
    assert_int_equal(pm_fs_write_file(oss, ROOT "/modes/oss-1", "c", 1, &err), PAIMON_EEXISTS);
    pm_test_s3_admin_do("/reset");
    assert_int_equal(single->write_atomic(single, ROOT "/modes/sw-1", "a", 1, false, &err), 0);
    assert_int_equal(pm_test_s3_requests("HEAD"), 1);
    assert_int_equal(pm_test_s3_requests("PUT"), 1);
    assert_int_equal(pm_test_s3_requests("GET"), 1);
    assert_int_equal(single->write_atomic(single, ROOT "/modes/sw-1", "b", 1, false, &err),
                     PAIMON_EEXISTS);
    rc = single->create(single, ROOT "/modes/sw-1", &out, &err);
    assert_int_equal(rc, PAIMON_EEXISTS);
    {
        uint8_t *data = NULL;
        size_t len = 0;
        assert_int_equal(pm_fs_read_all(single, ROOT "/modes/sw-1", 0, &data, &len, &err), 0);
        assert_int_equal(len, 1);
        assert_int_equal(data[0], 'a');
        pm_free(data);
    }
    pm_fs_free(oss);
    pm_fs_free(single);
}

typedef struct racer {
    pm_fs *fs;
    int id;
    int rc;
} racer;

static void *race(void *arg)
{
    racer *r = arg;
    char body[32];
    paimon_error err;
    snprintf(body, sizeof(body), "{\"writer\":%d}", r->id);
    r->rc = r->fs->write_atomic(r->fs, ROOT "/race/snapshot-1", body, strlen(body), false, &err);
    return NULL;
}

/* 8 writers, each with its own file system, race for one snapshot: exactly one wins, the
 * others are PAIMON_EEXISTS, and the object is the winner's. */
static void test_conditional_commit_race(void **state)
{
    racer r[8];
    pthread_t t[8];
    int wins = 0, winner = -1;
    uint8_t *data = NULL;
    size_t len = 0;
    char want[32];
    paimon_error err;
    (void)state;
    for (int i = 0; i < 8; i++) {
        r[i].fs = s3(NULL, NULL, NULL, NULL);
        r[i].id = i;
        assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_true(r[i].rc == 0 || r[i].rc == PAIMON_EEXISTS);
        if (r[i].rc == 0) {
            wins++;
            winner = i;
        }
    }
    assert_int_equal(wins, 1);
    assert_int_equal(pm_fs_read_all(r[0].fs, ROOT "/race/snapshot-1", 0, &data, &len, &err), 0);
    snprintf(want, sizeof(want), "{\"writer\":%d}", winner);
    assert_string_equal((char *)data, want);
    pm_free(data);
    for (int i = 0; i < 8; i++)
        pm_fs_free(r[i].fs);
}

/* The proxy lands the commit's PUT and drops its answer: the retry is refused (412), the
 * object read back is ours, so the commit succeeded.  Another writer's bytes then lose. */
static void test_lost_answer(void **state)
{
    pm_fs *fs = s3(NULL, NULL, NULL, NULL);
    paimon_error err = {0};
    const char *ours = "{\"commitUser\":\"a\",\"commitIdentifier\":7}";
    const char *theirs = "{\"commitUser\":\"b\",\"commitIdentifier\":7}";
    uint8_t *data = NULL;
    size_t len = 0;
    (void)state;
    pm_test_s3_admin_do("/reset");
    pm_test_s3_admin_do("/fault?fault=land-drop&kind=PUT&nth=1");
    if (fs->write_atomic(fs, ROOT "/lost/snapshot-1", ours, strlen(ours), false, &err) != 0)
        fail_msg("write_atomic: %s", err.message);
    assert_true(pm_test_s3_requests("PUT") >= 2);    /* the landed one and the refused retry */
    assert_int_equal(pm_test_s3_requests("GET"), 1); /* the read-back */
    pm_test_s3_admin_do("/clear");
    assert_int_equal(
        fs->write_atomic(fs, ROOT "/lost/snapshot-1", theirs, strlen(theirs), false, &err),
        PAIMON_EEXISTS);
    /* a second writer whose connection drops: its retry is refused, and the bytes read
     * back are not its own */
    pm_test_s3_admin_do("/fault?fault=drop&kind=PUT&nth=1");
    assert_int_equal(
        fs->write_atomic(fs, ROOT "/lost/snapshot-1", theirs, strlen(theirs), false, &err),
        PAIMON_EEXISTS);
    assert_non_null(strstr(err.message, "snapshot-1"));
    pm_test_s3_admin_do("/clear");
    assert_int_equal(pm_fs_read_all(fs, ROOT "/lost/snapshot-1", 0, &data, &len, &err), 0);
    assert_string_equal((char *)data, ours);
    pm_free(data);
    pm_fs_free(fs);
}

/* A small file is read in one request; a larger one costs a HEAD for its size. */
static void test_small_reads_one_request(void **state)
{
    pm_fs *fs = s3(NULL, NULL, NULL, NULL);
    paimon_error err = {0};
    uint8_t *data = NULL;
    size_t len = 0;
    (void)state;
    pm_test_s3_put(fs, ROOT "/small/snap", "{\"id\":1}", 8);
    pm_test_s3_admin_do("/reset");
    assert_int_equal(pm_fs_read_all(fs, ROOT "/small/snap", 0, &data, &len, &err), 0);
    assert_int_equal(len, 8);
    assert_memory_equal(data, "{\"id\":1}", 8);
    pm_free(data);
    assert_int_equal(pm_test_s3_requests(NULL), 1);
    pm_fs_free(fs);
}

/* An empty object has no byte 0: AWS answers the first window's ranged GET with 416
 * InvalidRange, which is an empty file, not an error. */
static void test_empty_object(void **state)
{
    pm_fs *fs = s3("s3.attempts.maximum", "2", "s3.retry.interval", "1 ms");
    paimon_error err = {0};
    uint8_t *data = NULL;
    size_t len = 0;
    (void)state;
    pm_test_s3_put(fs, ROOT "/small/empty", "", 0);
    if (pm_fs_read_all(fs, ROOT "/small/empty", 0, &data, &len, &err) != 0)
        fail_msg("read_all: %s", err.message);
    assert_int_equal(len, 0);
    pm_free(data);
    pm_fs_free(fs);
}

/* Prefetch: two near ranges and one far one are two GETs, made at once; the reads that
 * follow cost nothing; a slice and the fault fs pass the hint on, uncounted. */
static void test_prefetch(void **state)
{
    pm_fs *fs = s3("s3.readahead.range", "4 kb", "s3.coalesce.gap", "1 kb");
    paimon_error err = {0};
    size_t size = 300 * 1024;
    uint8_t *want = pm_malloc(size), got[3000];
    pm_input *in = NULL;
    pm_range ranges[] = {{200000, 3000}, {1000, 2000}, {3500, 1000}};
    (void)state;
    pm_test_s3_fill(want, size, 0, 3);
    pm_test_s3_put(fs, ROOT "/pre/data.parquet", want, size);
    pm_test_s3_admin_do("/reset");
    assert_int_equal(fs->open(fs, ROOT "/pre/data.parquet", &in, &err), 0);
    assert_int_equal(in->size, size);
    /* the first window only: its Content-Range gives the size (no HEAD, issue 14) */
    assert_int_equal(pm_test_s3_requests(NULL), 1);
    assert_int_equal(pm_test_s3_requests("HEAD"), 0);
    pm_test_s3_admin_do("/reset");
    assert_int_equal(pm_input_prefetch(in, ranges, 3, &err), 0);
    /* [1000, 4500) merged (gap 500 < 1 KiB) but within the first 64 KiB window: held
     * already; so only the far range is fetched */
    assert_int_equal(pm_test_s3_requests("GET"), 1);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(in->read_at(in, ranges[i].off, (size_t)ranges[i].len, got, &err), 0);
        assert_memory_equal(got, want + ranges[i].off, ranges[i].len);
    }
    assert_int_equal(pm_test_s3_requests(NULL), 1);
    /* beyond the first window: near ones merge, the far one is its own request */
    {
        pm_range far[] = {{100000, 2000}, {102500, 500}, {250000, 100}};
        pm_test_s3_admin_do("/reset");
        assert_int_equal(pm_input_prefetch(in, far, 3, &err), 0);
        assert_int_equal(pm_test_s3_requests("GET"), 2);
        for (size_t i = 0; i < 3; i++) {
            assert_int_equal(in->read_at(in, far[i].off, (size_t)far[i].len, got, &err), 0);
            assert_memory_equal(got, want + far[i].off, far[i].len);
        }
        assert_int_equal(pm_test_s3_requests(NULL), 2);
    }
    /* a read nobody announced: one GET of the read-ahead window, then served from it */
    pm_test_s3_admin_do("/reset");
    assert_int_equal(in->read_at(in, 150000, 100, got, &err), 0);
    assert_int_equal(in->read_at(in, 150100, 3000, got, &err), 0);
    assert_memory_equal(got, want + 150100, 3000);
    assert_int_equal(pm_test_s3_requests(NULL), 1);
    in->close(in);
    /* through a slice: offsets move with it */
    {
        pm_input *whole = NULL, *piece = NULL;
        pm_range r = {10, 1000};
        assert_int_equal(fs->open(fs, ROOT "/pre/data.parquet", &whole, &err), 0);
        assert_int_equal(pm_input_slice(&piece, whole, 120000, 5000, "piece", &err), 0);
        assert_non_null(piece->prefetch);
        pm_test_s3_admin_do("/reset");
        assert_int_equal(pm_input_prefetch(piece, &r, 1, &err), 0);
        assert_int_equal(pm_test_s3_requests("GET"), 1);
        assert_int_equal(piece->read_at(piece, 10, 1000, got, &err), 0);
        assert_memory_equal(got, want + 120010, 1000);
        assert_int_equal(pm_test_s3_requests(NULL), 1);
        piece->close(piece);
    }
    /* through the fault fs: forwarded, and not an operation */
    {
        pm_fs *ffs =
            pm_fs_fault_new(s3("s3.readahead.range", "4 kb", NULL, NULL), 0, PM_FAULT_FAIL);
        pm_range r = {200000, 1000};
        assert_int_equal(ffs->open(ffs, ROOT "/pre/data.parquet", &in, &err), 0);
        assert_non_null(in->prefetch);
        assert_int_equal(pm_fs_fault_count(ffs), 1);
        pm_test_s3_admin_do("/reset");
        assert_int_equal(pm_input_prefetch(in, &r, 1, &err), 0);
        assert_int_equal(pm_fs_fault_count(ffs), 1);
        assert_int_equal(in->read_at(in, 200000, 1000, got, &err), 0);
        assert_memory_equal(got, want + 200000, 1000);
        assert_int_equal(pm_test_s3_requests(NULL), 1);
        assert_int_equal(pm_fs_fault_count(ffs), 2);
        in->close(in);
        pm_fs_free(ffs);
    }
    pm_free(want);
    pm_fs_free(fs);
}

/* A large read is fetched in parallel chunks straight into the caller's buffer. */
static void test_large_read_parallel(void **state)
{
    pm_fs *fs = s3(NULL, NULL, NULL, NULL);
    size_t size = 9 * 1024 * 1024 + 5;
    uint8_t *want = pm_malloc(size);
    (void)state;
    pm_test_s3_fill(want, size, 0, 4);
    pm_test_s3_put(fs, ROOT "/large/blob", want, size);
    pm_test_s3_admin_do("/reset");
    pm_test_s3_expect(fs, ROOT "/large/blob", want, size);
    /* the first window (1 MiB, the default read-ahead; its Content-Range gives the size, no
     * HEAD), and the other 8 MiB + 5 in three parallel chunks of at most 4 MiB, straight into
     * the caller's buffer */
    assert_int_equal(pm_test_s3_requests("GET"), 4);
    assert_int_equal(pm_test_s3_requests("HEAD"), 0);
    {
        pm_s3_stats st;
        pm_s3_client_stats(((pm_s3_fs *)fs)->client, &st);
        assert_true(st.bytes_in <= size + 4096); /* nothing fetched twice */
    }
    pm_free(want);
    pm_fs_free(fs);
}

/* Failures name the object and what the store said. */
static void test_errors_name_the_object(void **state)
{
    pm_fs *fs = s3("s3.attempts.maximum", "2", "s3.retry.interval", "1 ms");
    paimon_error err = {0};
    pm_input *in = NULL;
    int64_t ms;
    (void)state;
    assert_int_equal(fs->open(fs, ROOT "/errors/missing", &in, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "s3://warehouse/unit-s3fs/errors/missing"));
    assert_int_equal(fs->mtime(fs, ROOT "/errors/missing", &ms, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "errors/missing"));
    pm_test_s3_put(fs, ROOT "/errors/there", "x", 1);
    assert_int_equal(fs->mtime(fs, ROOT "/errors/there", &ms, &err), 0);
    assert_true(ms > 1600000000000LL);
    pm_test_s3_admin_do("/fault?fault=503&nth=1&times=10");
    assert_int_equal(fs->open(fs, ROOT "/errors/there", &in, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "s3://warehouse/unit-s3fs/errors/there"));
    assert_non_null(strstr(err.message, "503"));
    assert_null(strstr(err.message, "S3RVER")); /* never a credential */
    pm_test_s3_admin_do("/clear");
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contract),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_multipart),
        cmocka_unit_test(test_multipart_abort),
        cmocka_unit_test(test_list_pages_and_batch_delete),
        cmocka_unit_test(test_list_broken_pages),
        cmocka_unit_test(test_conditional_commit_race),
        cmocka_unit_test(test_lost_answer),
        cmocka_unit_test(test_commit_modes),
        cmocka_unit_test(test_small_reads_one_request),
        cmocka_unit_test(test_empty_object),
        cmocka_unit_test(test_prefetch),
        cmocka_unit_test(test_large_read_parallel),
        cmocka_unit_test(test_errors_name_the_object),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

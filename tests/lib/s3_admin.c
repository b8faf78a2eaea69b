/* The S3 test server's admin endpoint for unit tests, and the tests' object helpers: see
 * s3_admin.h.  Through the curl
 * command, so that a test sees the proxy exactly as a shell script does. */
#include <stdio.h>
#include <stdlib.h>

#include "testlib.h"
#include "s3_admin.h"

#include "util/alloc.h"

json_t *pm_test_s3_admin(const char *what)
{
    const char *base = getenv("S3_ADMIN");
    char cmd[1024], out[65536];
    size_t n;
    FILE *f;
    json_t *j;
    assert_non_null(base); /* ctest runs these tests under tests/s3/lib.sh's s3_start */
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

void pm_test_s3_admin_do(const char *what)
{
    json_decref(pm_test_s3_admin(what));
}

long pm_test_s3_requests(const char *kind)
{
    json_t *j = pm_test_s3_admin("/counts");
    json_t *v = kind == NULL ? json_object_get(j, "total")
                             : json_object_get(json_object_get(j, "byKind"), kind);
    long n = v != NULL ? (long)json_integer_value(v) : 0;
    json_decref(j);
    return n;
}

long pm_test_s3_max_in_flight(const char *kind)
{
    json_t *j = pm_test_s3_admin("/counts");
    json_t *v = json_object_get(json_object_get(j, "maxInFlight"), kind);
    long n = v != NULL ? (long)json_integer_value(v) : 0;
    json_decref(j);
    return n;
}

void pm_test_s3_fill(uint8_t *b, size_t n, uint64_t from, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t x = (from + i) * 2654435761u + seed;
        b[i] = (uint8_t)(x ^ (x >> 13));
    }
}

void pm_test_s3_put(pm_fs *fs, const char *path, const void *data, size_t len)
{
    paimon_error err = {0};
    if (fs->write_atomic(fs, path, data, len, true, &err) != 0)
        fail_msg("put %s: %s", path, err.message);
}

void pm_test_s3_expect(pm_fs *fs, const char *path, const void *want, size_t len)
{
    paimon_error err = {0};
    uint8_t *got = NULL;
    size_t got_len = 0;
    if (pm_fs_read_all(fs, path, 0, &got, &got_len, &err) != 0)
        fail_msg("read %s: %s", path, err.message);
    if (got_len != len)
        fail_msg("%s: %zu bytes, expected %zu", path, got_len, len);
    assert_memory_equal(got, want, len);
    pm_free(got);
}

/* The schema-by-id cache: each schema file is read once, ids out of range are corrupt data,
 * a missing schema is PAIMON_ENOTFOUND, the callback form serves lookup levels, and an
 * allocation failure at any point fails cleanly (nothing leaks under ASan). */
#include <string.h>

#include "testlib.h"

#include "meta/schema_cache.h"
#include "util/alloc.h"

static const char SCHEMA_FMT[] = "{\"version\":3,\"id\":%d,\"fields\":[{\"id\":0,\"name\":\"k\","
                                 "\"type\":\"INT NOT NULL\"}],\"highestFieldId\":0,"
                                 "\"partitionKeys\":[],\"primaryKeys\":[\"k\"],\"options\":{}}";

static void put_schema(pm_fs *fs, int id)
{
    char text[512], *path = pm_schema_path("/t", id);
    paimon_error err = {0};
    int n = snprintf(text, sizeof(text), SCHEMA_FMT, id);
    assert_non_null(path);
    assert_int_equal(fs->write_atomic(fs, path, text, (size_t)n, true, &err), 0);
    pm_free(path);
}

static void remove_schema(pm_fs *fs, int id)
{
    char *path = pm_schema_path("/t", id);
    paimon_error err = {0};
    assert_int_equal(fs->remove(fs, path, &err), 0);
    pm_free(path);
}

static void test_reads_once(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_schema_cache c;
    const pm_schema *a = NULL, *b = NULL, *far = NULL;
    paimon_error err = {0};
    (void)state;
    put_schema(fs, 0);
    put_schema(fs, 40);
    pm_schema_cache_init(&c, fs, "/t");
    assert_int_equal(pm_schema_cache_get(&c, 0, &a, &err), 0);
    assert_int_equal(a->id, 0);
    /* the file is gone: a second get is served from the cache, the same object */
    remove_schema(fs, 0);
    assert_int_equal(pm_schema_cache_get(&c, 0, &b, &err), 0);
    assert_ptr_equal(a, b);
    /* a higher id grows the cache; what was read before stays */
    assert_int_equal(pm_schema_cache_get(&c, 40, &far, &err), 0);
    assert_int_equal(far->id, 40);
    assert_int_equal(pm_schema_cache_get(&c, 0, &b, &err), 0);
    assert_ptr_equal(a, b);
    pm_schema_cache_release(&c);
    /* released: reading again goes to the file, which is gone */
    pm_schema_cache_init(&c, fs, "/t");
    assert_int_equal(pm_schema_cache_get(&c, 0, &b, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "schema-0"));
    pm_schema_cache_release(&c);
    pm_fs_free(fs);
}

static void test_bad_ids(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_schema_cache c;
    const pm_schema *s = NULL;
    paimon_error err = {0};
    (void)state;
    pm_schema_cache_init(&c, fs, "/t");
    assert_int_equal(pm_schema_cache_get(&c, -1, &s, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "/t: data file with schema id -1"));
    assert_int_equal(pm_schema_cache_get(&c, PM_SCHEMA_CACHE_MAX_ID + 1, &s, &err),
                     PAIMON_ECORRUPT);
    assert_int_equal(pm_schema_cache_get(&c, 3, &s, &err), PAIMON_ENOTFOUND);
    /* a failed read leaves no entry behind: the file appears, the next get reads it */
    put_schema(fs, 3);
    assert_int_equal(pm_schema_cache_get(&c, 3, &s, &err), 0);
    assert_int_equal(s->id, 3);
    pm_schema_cache_release(&c);
    pm_schema_cache_release(&c); /* released twice: harmless */
    pm_fs_free(fs);
}

static void test_callback(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    pm_schema_cache c;
    const pm_schema *s = NULL, *direct = NULL;
    paimon_error err = {0};
    (void)state;
    put_schema(fs, 2);
    pm_schema_cache_init(&c, fs, "/t");
    assert_int_equal(pm_schema_cache_cb(&c, 2, &s, &err), 0);
    assert_int_equal(pm_schema_cache_get(&c, 2, &direct, &err), 0);
    assert_ptr_equal(s, direct);
    pm_schema_cache_release(&c);
    pm_fs_free(fs);
}

static void test_alloc_failures(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    bool succeeded = false;
    (void)state;
    put_schema(fs, 5);
    for (long n = 1; n < 1000 && !succeeded; n++) {
        pm_schema_cache c;
        const pm_schema *s = NULL;
        paimon_error err = {0};
        int rc;
        pm_schema_cache_init(&c, fs, "/t");
        pm_alloc_fail_after(n);
        rc = pm_schema_cache_get(&c, 5, &s, &err);
        pm_alloc_fail_after(0);
        if (rc == 0) {
            assert_int_equal(s->id, 5);
            succeeded = true;
        } else {
            assert_int_equal(rc, PAIMON_ENOMEM);
            /* the cache still works once memory is back */
            assert_int_equal(pm_schema_cache_get(&c, 5, &s, &err), 0);
            assert_int_equal(s->id, 5);
        }
        pm_schema_cache_release(&c);
    }
    assert_true(succeeded);
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_once),
        cmocka_unit_test(test_bad_ids),
        cmocka_unit_test(test_callback),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

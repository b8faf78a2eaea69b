/* The mtime primitive of the file systems (io/fs.h), which consumer expiration compares with
 * consumer.expiration-time: local, memory and fault-injecting, for a new file, a rewritten
 * one (the time moves) and a missing one (PAIMON_ENOTFOUND); the fault fs counts it as one
 * operation and fails it when asked. */
#include <string.h>
#include <time.h>

#include "testlib.h"

#include "io/fs.h"
#include "util/alloc.h"
#include "util/time.h"

static void nap_ms(int ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void check(pm_fs *fs, const char *dir)
{
    char *path = pm_path_join(dir, "consumer-x"), *missing = pm_path_join(dir, "nope");
    int64_t before = pm_now_millis(), ms = 0, again = 0;
    paimon_error err;
    assert_int_equal(fs->write_atomic(fs, path, "{}", 2, true, &err), 0);
    assert_int_equal(fs->mtime(fs, path, &ms, &err), 0);
    assert_true(ms >= before - 1000 && ms <= pm_now_millis() + 1000);
    nap_ms(30);
    assert_int_equal(fs->write_atomic(fs, path, "{ }", 3, true, &err), 0);
    assert_int_equal(fs->mtime(fs, path, &again, &err), 0);
    assert_true(again >= ms + 10);
    assert_int_equal(fs->mtime(fs, missing, &ms, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "nope"));
    pm_free(path);
    pm_free(missing);
}

static void test_local(void **state)
{
    char *dir = pm_test_tmpdir("fs-mtime");
    pm_fs *fs = pm_fs_local_new(false);
    (void)state;
    check(fs, dir);
    pm_fs_free(fs);
    pm_test_rmtree(dir);
    pm_free(dir);
}

static void test_memory(void **state)
{
    pm_fs *fs = pm_fs_memory_new();
    (void)state;
    check(fs, "/mem/t/consumer");
    pm_fs_free(fs);
}

static void test_fault(void **state)
{
    pm_fs *fs = pm_fs_fault_new(pm_fs_memory_new(), 3, PM_FAULT_FAIL);
    paimon_error err;
    int64_t ms;
    (void)state;
    assert_int_equal(fs->write_atomic(fs, "/m/a", "x", 1, true, &err), 0); /* 1 */
    assert_int_equal(fs->mtime(fs, "/m/a", &ms, &err), 0);                 /* 2 */
    assert_int_equal(pm_fs_fault_count(fs), 2);
    assert_int_equal(fs->mtime(fs, "/m/a", &ms, &err), PAIMON_EIO); /* 3: injected */
    pm_fs_free(fs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local),
        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

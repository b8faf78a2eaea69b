/* The scheme dispatch of io/fs.h (pm_fs_for_path, io/fs_uri.c): plain paths and file: URIs
 * are local, s3:// and s3a:// go to the S3 file system, and every other scheme -- including
 * the typos that used to become local folders (`s3:/b/t`, `S3://b/t`) -- is refused with one
 * message naming it and nothing made. */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "io/fs.h"
#include "util/alloc.h"

static void expect_local(const char *path)
{
    pm_fs *fs = NULL;
    paimon_error err;
    assert_int_equal(pm_fs_for_path(&fs, path, NULL, false, &err), 0);
    assert_non_null(fs);
    assert_string_equal(fs->name, "local");
    pm_fs_free(fs);
}

static void expect_refused(const char *path, int code, const char *message)
{
    pm_fs *fs = (pm_fs *)&fs; /* must be reset to NULL */
    paimon_error err;
    memset(&err, 0, sizeof(err));
    assert_int_equal(pm_fs_for_path(&fs, path, NULL, false, &err), code);
    assert_null(fs);
    assert_int_equal(err.code, code);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, message));
}

static void test_local(void **state)
{
    (void)state;
    expect_local("/data/wh/db.db/t");
    expect_local("wh/db.db/t");
    expect_local("./a:b/t");
    expect_local("t");
    expect_local("file:/data/t");
    expect_local("file:///data/t");
    expect_local("3s://not-a-scheme"); /* a scheme starts with a letter */
}

static void test_local_path(void **state)
{
    (void)state;
    assert_string_equal(pm_fs_local_path("file:///data/t"), "/data/t");
    assert_string_equal(pm_fs_local_path("file:/data/t"), "/data/t");
    assert_string_equal(pm_fs_local_path("/data/t"), "/data/t");
    assert_string_equal(pm_fs_local_path("wh/t"), "wh/t");
    assert_string_equal(pm_fs_local_path("s3://b/t"), "s3://b/t");
    assert_string_equal(pm_fs_local_path("File:///x"), "File:///x"); /* schemes are exact */
}

static void test_unsupported(void **state)
{
    (void)state;
    expect_refused("gs://b/t", PAIMON_EUNSUPPORTED,
                   "unsupported file system scheme 'gs' (paimon-c supports local paths and "
                   "s3://)");
    expect_refused("oss://b/t", PAIMON_EUNSUPPORTED, "scheme 'oss'");
    expect_refused("hdfs://nn:8020/t", PAIMON_EUNSUPPORTED, "scheme 'hdfs'");
    expect_refused("abfs://c@a.dfs.core.windows.net/t", PAIMON_EUNSUPPORTED, "scheme 'abfs'");
    /* Java compares schemes exactly (FileIO.get): S3:// is not s3:// */
    expect_refused("S3://b/t", PAIMON_EUNSUPPORTED, "scheme 'S3'");
    expect_refused("a:b/t", PAIMON_EUNSUPPORTED, "scheme 'a'");
    expect_refused("file://host/t", PAIMON_EUNSUPPORTED, "a file: URI with a host");
    /* an s3 location without a bucket: the typo `create s3:/b/t` once made a folder `s3:` */
    expect_refused("s3:/b/t", PAIMON_EINVALID, "names its bucket: s3://BUCKET/PATH");
    expect_refused("s3:b/t", PAIMON_EINVALID, "names its bucket");
    expect_refused("s3:///t", PAIMON_EINVALID, "names its bucket");
    expect_refused("s3a://", PAIMON_EINVALID, "names its bucket: s3a://BUCKET/PATH");
}

static void test_empty(void **state)
{
    pm_fs *fs = NULL;
    paimon_error err;
    (void)state;
    assert_int_equal(pm_fs_for_path(&fs, "", NULL, false, &err), PAIMON_EINVALID);
    assert_null(fs);
}

/* s3:// and s3a:// reach the S3 file system (made without a request: nothing listens). */
static void test_s3(void **state)
{
    static const char *const paths[] = {"s3://warehouse/db.db/t", "s3a://warehouse/t",
                                        "s3://warehouse"};
    pm_options bad;
    (void)state;
    /* nothing of the machine's own AWS setup */
    setenv("AWS_CONFIG_FILE", "/dev/null", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null", 1);
    setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9", 1);
    unsetenv("AWS_PROFILE");
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        pm_fs *fs = NULL;
        paimon_error err;
        memset(&err, 0, sizeof(err));
        if (pm_fs_for_path(&fs, paths[i], NULL, false, &err) != 0)
            fail_msg("%s: %s", paths[i], err.message);
        assert_string_equal(fs->name, "s3");
        pm_fs_free(fs);
    }
    /* the settings reach it: a malformed one is refused by name */
    pm_options_init(&bad);
    assert_int_equal(pm_options_set(&bad, "s3.commit-mode", "sometimes"), 0);
    {
        pm_fs *fs = NULL;
        paimon_error err;
        assert_int_equal(pm_fs_for_path(&fs, "s3://warehouse/t", &bad, false, &err),
                         PAIMON_EINVALID);
        assert_null(fs);
        assert_non_null(strstr(err.message, "s3.commit-mode"));
    }
    pm_options_free(&bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local),       cmocka_unit_test(test_local_path),
        cmocka_unit_test(test_unsupported), cmocka_unit_test(test_empty),
        cmocka_unit_test(test_s3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

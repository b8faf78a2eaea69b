/* The path check of files named by metadata (meta/file_path.h): plain file names, external
 * paths under the roots of data-file.external-paths (with and without a trailing slash, with
 * schemes and authorities, prefix tricks), the path-directory option, and the checks of
 * create and alter. */
#include <string.h>

#include "testlib.h"

#include "meta/file_path.h"
#include "util/options.h"

static void test_plain_names(void **state)
{
    static const char *const good[] = {
        "data-1.parquet", "manifest-x-0", ".hidden",         "..x",
        "a..b",           "x.",           "changelog-1.orc", "index-u-3"};
    static const char *const bad[] = {"",    ".",    "..", "../x",
                                      "a/b", "/abs", "x/", "../../outside/s"};
    paimon_error err = {0};
    (void)state;
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        if (!pm_file_name_is_plain(good[i]))
            fail_msg("'%s' should be a plain name", good[i]);
        assert_int_equal(pm_file_name_check("t", "data file", good[i], &err), 0);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (pm_file_name_is_plain(bad[i]))
            fail_msg("'%s' should not be a plain name", bad[i]);
        assert_int_equal(pm_file_name_check("t", "manifest", bad[i], &err), PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, "not a plain file name"));
    }
    assert_false(pm_file_name_is_plain(NULL));
}

typedef struct ext_case {
    const char *roots; /* data-file.external-paths, NULL: unset */
    const char *path;
    bool allowed;
    const char *opened; /* what is opened when allowed */
} ext_case;

static void test_external_roots(void **state)
{
    static const ext_case cases[] = {
        {"file:///a/b", "file:/a/b/bucket-0/data-1.parquet", true, "/a/b/bucket-0/data-1.parquet"},
        {"file:///a/b/", "file:/a/b/bucket-0/data-1.parquet", true, "/a/b/bucket-0/data-1.parquet"},
        {"file:///a/b", "file:///a/b/x", true, "/a/b/x"},
        {"file:///a/b", "/a/b/p=1/bucket-0/f", true, "/a/b/p=1/bucket-0/f"},
        {"file:/a/b", "file:/a/b//bucket-0/f", true, "/a/b//bucket-0/f"},
        /* prefix tricks: /a/bc is not under /a/b */
        {"file:///a/b", "file:/a/bc/x", false, NULL},
        {"file:///a/b", "file:/a/b", false, NULL},
        {"file:///a/b", "file:/a/b/", false, NULL},
        {"file:///a/b", "file:/a/b/../../etc/passwd", false, NULL},
        {"file:///a/b", "file:/a/b/./x", false, NULL},
        {"file:///a/b", "file:/a/x", false, NULL},
        {"file:///a/b", "a/b/x", false, NULL},
        {"file:///a/b", "", false, NULL},
        {NULL, "/tmp/x/data.parquet", false, NULL},
        {"", "/tmp/x/data.parquet", false, NULL},
        /* several roots, spaces around commas */
        {"file:///r1, file:///r2 ,s3://bkt/ext", "file:/r2/bucket-0/f", true, "/r2/bucket-0/f"},
        {"file:///r1, file:///r2", "file:/r3/bucket-0/f", false, NULL},
        /* schemes and authorities must match */
        {"s3://bkt/ext", "s3://bkt/ext/bucket-0/f", true, "s3://bkt/ext/bucket-0/f"},
        {"s3://bkt/ext", "S3://bkt/ext/bucket-0/f", true, "S3://bkt/ext/bucket-0/f"},
        {"s3://bkt/ext", "s3://other/ext/bucket-0/f", false, NULL},
        {"s3://bkt/ext", "oss://bkt/ext/bucket-0/f", false, NULL},
        {"s3://bkt/ext", "file:/ext/bucket-0/f", false, NULL},
        {"s3://bkt/ext", "/ext/bucket-0/f", false, NULL},
        {"s3://bkt", "s3://bkt/bucket-0/f", true, "s3://bkt/bucket-0/f"},
        {"file:///a/b", "s3://a/b/x", false, NULL},
        /* a root with dot segments holds nothing */
        {"file:///a/../b", "file:/a/../b/x", false, NULL},
        {"file:///a/../b", "file:/b/x", false, NULL},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const ext_case *c = &cases[i];
        pm_options o;
        ptrdiff_t local = -2;
        bool got;
        pm_options_init(&o);
        if (c->roots != NULL)
            assert_int_equal(pm_options_set(&o, "data-file.external-paths", c->roots), 0);
        got = pm_external_path_allowed(&o, c->path, &local);
        if (got != c->allowed)
            fail_msg("case %zu: roots '%s', path '%s': allowed %d, want %d", i,
                     c->roots ? c->roots : "(unset)", c->path, got, c->allowed);
        if (got) {
            const char *opened = local >= 0 ? c->path + local : c->path;
            assert_string_equal(opened, c->opened);
        }
        pm_options_free(&o);
    }
    assert_false(pm_external_path_allowed(NULL, "/x/y", NULL));
}

static void test_resolve(void **state)
{
    pm_options o;
    pm_buf b;
    paimon_error err = {0};
    (void)state;
    pm_options_init(&o);
    pm_buf_init(&b, 0);
    assert_int_equal(pm_options_set(&o, "data-file.external-paths", "file:///ext"), 0);
    /* in the table */
    assert_int_equal(
        pm_file_path_resolve("/t", &o, "/t/bucket-0", "data-1.parquet", NULL, &b, &err), 0);
    assert_string_equal(pm_buf_cstr(&b), "/t/bucket-0/data-1.parquet");
    /* external, under the root: the local path */
    pm_buf_reset(&b);
    assert_int_equal(pm_file_path_resolve("/t", &o, "/t/bucket-0", "data-1.parquet",
                                          "file:/ext/bucket-0/data-1.parquet", &b, &err),
                     0);
    assert_string_equal(pm_buf_cstr(&b), "/ext/bucket-0/data-1.parquet");
    /* outside: corrupt, naming the entry but not the outside path */
    pm_buf_reset(&b);
    assert_int_equal(pm_file_path_resolve("/t", &o, "/t/bucket-0", "data-1.parquet",
                                          "/outside/secret.parquet", &b, &err),
                     PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "data-1.parquet"));
    assert_null(strstr(err.message, "secret"));
    assert_non_null(strstr(err.message, "data-file.external-paths"));
    /* a name with ../ is refused even with an external path */
    assert_int_equal(pm_file_path_resolve("/t", &o, "/t/bucket-0", "../../outside/secret.parquet",
                                          NULL, &b, &err),
                     PAIMON_ECORRUPT);
    assert_int_equal(pm_file_path_resolve("/t", &o, "/t/bucket-0", "", NULL, &b, &err),
                     PAIMON_ECORRUPT);
    assert_int_equal(pm_file_path_resolve("/t", &o, "/t/bucket-0", "..",
                                          "file:/ext/bucket-0/data-1.parquet", &b, &err),
                     PAIMON_ECORRUPT);
    /* a root of another file system than the table's */
    assert_int_equal(pm_options_set(&o, "data-file.external-paths", "s3://bkt/ext"), 0);
    assert_int_equal(pm_file_path_resolve("/t", &o, "/t/bucket-0", "d.parquet",
                                          "s3://bkt/ext/bucket-0/d.parquet", &b, &err),
                     PAIMON_EUNSUPPORTED);
    pm_buf_reset(&b);
    assert_int_equal(pm_file_path_resolve("s3://bkt/t", &o, "s3://bkt/t/bucket-0", "d.parquet",
                                          "s3://bkt/ext/bucket-0/d.parquet", &b, &err),
                     0);
    assert_string_equal(pm_buf_cstr(&b), "s3://bkt/ext/bucket-0/d.parquet");
    pm_buf_free(&b);
    pm_options_free(&o);
}

/* Invariant 8 with a table on S3 (issue 14): files named by its metadata stay in the table
 * or under an external root of the same store; another bucket, another scheme, a local path
 * or a name with a '/' is refused, and the message never echoes where it points. */
static void test_s3_table(void **state)
{
    static const char *const outside[] = {
        "s3://other-bucket/ext/bucket-0/d.parquet", /* another bucket, same key */
        "s3://bkt/ext2/bucket-0/d.parquet",         /* a sibling of the root */
        "s3://bkt/ext/../t2/d.parquet",             /* climbing out */
        "s3a://bkt/ext/bucket-0/d.parquet",         /* another scheme (Hadoop compares them) */
        "/ext/bucket-0/d.parquet",
    };
    const char *t = "s3://bkt/db.db/t", *dir = "s3://bkt/db.db/t/bucket-0";
    pm_options o;
    pm_buf b;
    paimon_error err;
    (void)state;
    pm_options_init(&o);
    pm_buf_init(&b, 0);
    assert_int_equal(pm_file_path_resolve(t, NULL, dir, "data-1.parquet", NULL, &b, &err), 0);
    assert_string_equal(pm_buf_cstr(&b), "s3://bkt/db.db/t/bucket-0/data-1.parquet");
    assert_int_equal(
        pm_file_path_resolve(t, NULL, dir, "../../../../other/x.parquet", NULL, &b, &err),
        PAIMON_ECORRUPT);
    /* no external roots: every external path is outside */
    assert_int_equal(pm_file_path_resolve(t, NULL, dir, "d.parquet",
                                          "s3://bkt/db.db/t/bucket-0/d.parquet", &b, &err),
                     PAIMON_ECORRUPT);
    assert_int_equal(pm_options_set(&o, "data-file.external-paths", "s3://bkt/ext"), 0);
    for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
        memset(&err, 0, sizeof(err));
        assert_int_equal(pm_file_path_resolve(t, &o, dir, "d.parquet", outside[i], &b, &err),
                         PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, "s3://bkt/db.db/t: manifest entry 'd.parquet'"));
        assert_null(strstr(err.message, "other-bucket"));
        assert_null(strstr(err.message, "ext2"));
    }
    /* a local root for a table on S3: allowed by the option, but not on the table's store */
    assert_int_equal(pm_options_set(&o, "data-file.external-paths", "file:///ext"), 0);
    assert_int_equal(
        pm_file_path_resolve(t, &o, dir, "d.parquet", "file:/ext/bucket-0/d.parquet", &b, &err),
        PAIMON_EUNSUPPORTED);
    pm_buf_free(&b);
    pm_options_free(&o);
}

static void test_bucket_dir(void **state)
{
    static const char *const bad_dirs[] = {"..",  "../x", "a/../../x", "/abs",
                                           "./d", "",     "s3:x",      "a/./b"};
    pm_options o;
    pm_buf b;
    pm_binrow row;
    pm_partition_naming naming = {PM_DEFAULT_PARTITION_NAME, true};
    paimon_error err = {0};
    (void)state;
    memset(&row, 0, sizeof(row));
    pm_options_init(&o);
    pm_buf_init(&b, 0);
    assert_int_equal(pm_file_path_bucket_dir("/t", &o, NULL, 0, &row, &naming, 3, &b, &err), 0);
    assert_string_equal(pm_buf_cstr(&b), "/t/bucket-3");
    assert_int_equal(pm_options_set(&o, "data-file.path-directory", "data/files"), 0);
    pm_buf_reset(&b);
    assert_int_equal(pm_file_path_bucket_dir("/t", &o, NULL, 0, &row, &naming, -2, &b, &err), 0);
    assert_string_equal(pm_buf_cstr(&b), "/t/data/files/bucket-postpone");
    assert_int_equal(pm_file_path_check_options(&o, &err), 0);
    for (size_t i = 0; i < sizeof(bad_dirs) / sizeof(bad_dirs[0]); i++) {
        assert_int_equal(pm_options_set(&o, "data-file.path-directory", bad_dirs[i]), 0);
        pm_buf_reset(&b);
        if (pm_file_path_bucket_dir("/t", &o, NULL, 0, &row, &naming, 0, &b, &err) !=
            PAIMON_ECORRUPT)
            fail_msg("path-directory '%s' was followed", bad_dirs[i]);
        assert_int_equal(pm_file_path_check_options(&o, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "data-file.path-directory"));
    }
    pm_buf_free(&b);
    pm_options_free(&o);
}

static void test_check_roots(void **state)
{
    static const char *const good[] = {"file:///ext", "file:///ext/", "s3://bkt",
                                       "s3://bkt/a, oss://b/c", "hdfs://nn:8020/x"};
    static const char *const bad[] = {"/ext", "ext", "file:///a/../b", "s3://bkt/a,/local",
                                      "file:relative"};
    pm_options o;
    paimon_error err = {0};
    (void)state;
    pm_options_init(&o);
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        assert_int_equal(pm_options_set(&o, "data-file.external-paths", good[i]), 0);
        if (pm_file_path_check_options(&o, &err) != 0)
            fail_msg("'%s' refused: %s", good[i], err.message);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(pm_options_set(&o, "data-file.external-paths", bad[i]), 0);
        if (pm_file_path_check_options(&o, &err) != PAIMON_EINVALID)
            fail_msg("'%s' accepted", bad[i]);
        assert_non_null(strstr(err.message, "data-file.external-paths"));
    }
    pm_options_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_names), cmocka_unit_test(test_external_roots),
        cmocka_unit_test(test_resolve),     cmocka_unit_test(test_bucket_dir),
        cmocka_unit_test(test_check_roots), cmocka_unit_test(test_s3_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

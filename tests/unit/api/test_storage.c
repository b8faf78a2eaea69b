/* The storage settings and paths of include/paimon/storage.h: known keys are kept, unknown
 * ones refused without a change, a value judged with the settings before it, NULL removes, reset clears, threads may set and read at
 * once; the public functions that take a path refuse unsupported schemes before touching
 * anything, accept file: URIs as local paths, and paimon_path_exists asks the right fs. */
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"

#include "api/api.h"
#include "paimon.h"
#include "util/alloc.h"

static void test_set_and_reset(void **state)
{
    paimon_error err;
    pm_options o;
    (void)state;
    paimon_storage_reset();
    assert_int_equal(paimon_storage_set("s3.region", "eu-west-1", &err), 0);
    assert_int_equal(paimon_storage_set("s3.secret-key", "S", &err), 0);
    assert_int_equal(paimon_storage_set("s3.region", "us-east-2", &err), 0); /* replaces */
    assert_int_equal(pm_api_settings_copy(&o, &err), 0);
    assert_int_equal(o.count, 2);
    assert_string_equal(pm_options_get(&o, "s3.region"), "us-east-2");
    pm_api_settings_free(&o);

    /* unknown keys: refused by name, nothing changed */
    assert_int_equal(paimon_storage_set("s3.bogus", "1", &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.bogus: unknown S3 setting"));
    /* malformed values of known keys: refused now, naming the key */
    assert_int_equal(paimon_storage_set("s3.commit-mode", "sometimes", &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.commit-mode: invalid value"));
    assert_int_equal(paimon_storage_set("s3.attempts.maximum", "many", &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.attempts.maximum"));
    assert_int_equal(paimon_storage_set("s3.path.style.access", "perhaps", &err), PAIMON_EINVALID);
    /* a credential alone is fine (its pair comes next) and its value is never checked */
    assert_int_equal(paimon_storage_set("s3.access-key", "AKIA-ONLY", &err), 0);
    assert_int_equal(paimon_storage_set("s3.access-key", NULL, &err), 0);
    assert_int_equal(paimon_storage_set("bucket", "2", &err), PAIMON_EINVALID);
    assert_int_equal(paimon_storage_set("", "2", &err), PAIMON_EINVALID);
    assert_int_equal(paimon_storage_set(NULL, "2", &err), PAIMON_EINVALID);
    /* a typo of a credential key: the message names the key, never the value */
    assert_int_equal(paimon_storage_set("s3.secret_key", "VERY-SECRET", &err), PAIMON_EINVALID);
    assert_null(strstr(err.message, "VERY-SECRET"));

    /* a value judged with the settings before it: parts under 5 MiB only once the check
     * is off */
    assert_int_equal(paimon_storage_set("s3.multipart.size", "16 kb", &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.multipart.size: invalid value"));
    assert_int_equal(paimon_storage_set("s3.multipart.min-size-check", "false", &err), 0);
    assert_int_equal(paimon_storage_set("s3.multipart.size", "16 kb", &err), 0);
    assert_int_equal(paimon_storage_set("s3.multipart.size", NULL, &err), 0);
    assert_int_equal(paimon_storage_set("s3.multipart.min-size-check", NULL, &err), 0);

    assert_int_equal(paimon_storage_set("s3.secret-key", NULL, &err), 0); /* removes */
    assert_int_equal(pm_api_settings_copy(&o, &err), 0);
    assert_int_equal(o.count, 1);
    assert_null(pm_options_get(&o, "s3.secret-key"));
    pm_api_settings_free(&o);

    paimon_storage_reset();
    assert_int_equal(pm_api_settings_copy(&o, &err), 0);
    assert_int_equal(o.count, 0);
    pm_api_settings_free(&o);
}

static void test_is_secret(void **state)
{
    (void)state;
    assert_true(paimon_storage_is_secret("s3.secret-key"));
    assert_true(paimon_storage_is_secret("s3.access-key"));
    assert_true(paimon_storage_is_secret("s3.session.token"));
    assert_false(paimon_storage_is_secret("s3.region"));
    assert_false(paimon_storage_is_secret("s3.endpoint"));
    assert_false(paimon_storage_is_secret(NULL));
}

/* Writers and readers of the settings at once (run under ASan/TSan-free builds too: a torn
 * copy would show as a count or value that no writer ever made). */
static void *hammer(void *arg)
{
    const char *value = arg;
    char endpoint[32];
    paimon_error err;
    snprintf(endpoint, sizeof(endpoint), "http://%s", value);
    for (int i = 0; i < 500; i++) {
        pm_options o;
        if (paimon_storage_set("s3.region", value, &err) != 0 ||
            paimon_storage_set("s3.endpoint", i % 2 ? endpoint : NULL, &err) != 0)
            return (void *)1;
        if (pm_api_settings_copy(&o, &err) != 0)
            return (void *)1;
        const char *r = pm_options_get(&o, "s3.region");
        const char *e = pm_options_get(&o, "s3.endpoint");
        /* another thread may just have reset everything */
        bool ok = o.count <= 2 && (r == NULL || strcmp(r, "a-1") == 0 || strcmp(r, "b-2") == 0 ||
                                   strcmp(r, "c-3") == 0);
        ok = ok && (e == NULL || strcmp(e, "http://a-1") == 0 || strcmp(e, "http://b-2") == 0 ||
                    strcmp(e, "http://c-3") == 0);
        pm_api_settings_free(&o);
        if (!ok)
            return (void *)1;
        if (i % 100 == 0)
            paimon_storage_reset();
    }
    return NULL;
}

static void test_threads(void **state)
{
    static char *const values[] = {"a-1", "b-2", "c-3"};
    pthread_t th[3];
    (void)state;
    paimon_storage_reset();
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, hammer, values[i]), 0);
    for (int i = 0; i < 3; i++) {
        void *res = (void *)1;
        assert_int_equal(pthread_join(th[i], &res), 0);
        assert_null(res);
    }
    paimon_storage_reset();
}

/* Every function that takes a path refuses a scheme it does not support, and makes nothing
 * locally (no folder named `gs:` in the current directory). */
static void test_unsupported_paths(void **state)
{
    char *dir = pm_test_tmpdir("storage-schemes");
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_alter change = PAIMON_ALTER_INIT;
    paimon_table *t = NULL;
    paimon_file *f = NULL;
    paimon_error err;
    struct stat st;
    bool exists = true;
    (void)state;
    assert_int_equal(chdir(dir), 0);
    co.columns = "a INT";
    assert_int_equal(paimon_table_create("gs://b/t", &co, &err), PAIMON_EUNSUPPORTED);
    assert_non_null(strstr(err.message, "gs://b/t: unsupported file system scheme 'gs'"));
    assert_int_equal(paimon_table_create("s3:/b/t", &co, &err), PAIMON_EINVALID);
    assert_int_equal(paimon_table_open(&t, "hdfs://nn/t", &err), PAIMON_EUNSUPPORTED);
    assert_null(t);
    change.kind = PAIMON_ALTER_REMOVE_OPTION;
    change.column = "bucket";
    assert_int_equal(paimon_table_alter("oss://b/t", &change, NULL, &err), PAIMON_EUNSUPPORTED);
    assert_int_equal(paimon_file_open(&f, "gs://b/t/bucket-0/f.parquet", &err),
                     PAIMON_EUNSUPPORTED);
    assert_null(f);
    assert_int_equal(paimon_path_exists("gs://b/t", &exists, &err), PAIMON_EUNSUPPORTED);
    assert_false(exists);
    assert_int_equal(stat("gs:", &st), -1);
    assert_int_equal(stat("s3:", &st), -1);
    assert_int_equal(stat("hdfs:", &st), -1);
    assert_int_equal(stat("oss:", &st), -1);
    assert_int_equal(chdir("/"), 0);
    pm_test_rmtree(dir);
    pm_free(dir);
}

/* file:///abs and file:/abs are the local path. */
static void test_file_uri(void **state)
{
    char *path = pm_test_table_path("storage-file-uri");
    char uri[4096], sys[4200];
    paimon_create_options co = PAIMON_CREATE_OPTIONS_INIT;
    paimon_table *t = NULL;
    paimon_error err;
    bool exists = false;
    (void)state;
    co.columns = "a INT";
    snprintf(uri, sizeof(uri), "file://%s", path);
    assert_int_equal(paimon_table_create(uri, &co, &err), 0);
    assert_int_equal(paimon_path_exists(path, &exists, &err), 0);
    assert_true(exists);
    snprintf(sys, sizeof(sys), "%s/schema/schema-0", path);
    assert_int_equal(paimon_path_exists(sys, &exists, &err), 0);
    assert_true(exists);
    snprintf(sys, sizeof(sys), "%s$files", path);
    assert_int_equal(paimon_path_exists(sys, &exists, &err), 0);
    assert_false(exists);
    snprintf(uri, sizeof(uri), "file:%s", path);
    assert_int_equal(paimon_table_open(&t, uri, &err), 0);
    assert_string_equal(paimon_table_path(t), path);
    paimon_table_free(t);
    pm_free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_and_reset), cmocka_unit_test(test_is_secret),
        cmocka_unit_test(test_threads),       cmocka_unit_test(test_unsupported_paths),
        cmocka_unit_test(test_file_uri),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The S3 configuration (io/s3/s3_config.h): precedence settings > environment > ~/.aws
 * profile (in a temporary HOME), the INI forms of both files, path style inferred from an IP
 * or localhost endpoint, OSS detected from aliyuncs.com, defaults and bounds of the tuning
 * keys, unknown keys refused, and no credential ever in an error message. */
#include <stdlib.h>
#include <string.h>

#include "alloc_loop.h"
#include "testlib.h"

#include "io/s3/s3_config.h"
#include "util/alloc.h"

static char *home;

/* A clean slate: nothing of the developer's AWS setup, HOME a fresh folder. */
static int setup(void **state)
{
    static const char *const vars[] = {"AWS_ACCESS_KEY_ID",
                                       "AWS_SECRET_ACCESS_KEY",
                                       "AWS_SESSION_TOKEN",
                                       "AWS_REGION",
                                       "AWS_DEFAULT_REGION",
                                       "AWS_ENDPOINT_URL",
                                       "AWS_ENDPOINT_URL_S3",
                                       "AWS_PROFILE",
                                       "AWS_SHARED_CREDENTIALS_FILE",
                                       "AWS_CONFIG_FILE",
                                       "NO_PROXY",
                                       "no_proxy"};
    (void)state;
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        unsetenv(vars[i]);
    home = pm_test_tmpdir("s3cfg");
    setenv("HOME", home, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    pm_test_rmtree(home);
    pm_free(home);
    return 0;
}

static void write_aws(const char *name, const char *text)
{
    char dir[1024], path[1100];
    snprintf(dir, sizeof(dir), "%s/.aws", home);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    char cmd[1200];
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
    assert_int_equal(system(cmd), 0);
    pm_test_write_file(path, text, strlen(text));
}

/* Loads with key, value... NULL; returns rc, config in *c. */
static int load(pm_s3_config *c, paimon_error *err, ...)
{
    pm_options o;
    va_list ap;
    pm_options_init(&o);
    va_start(ap, err);
    for (const char *k = va_arg(ap, const char *); k != NULL; k = va_arg(ap, const char *))
        assert_int_equal(pm_options_set(&o, k, va_arg(ap, const char *)), 0);
    va_end(ap);
    int rc = pm_s3_config_load(c, &o, err);
    pm_options_free(&o);
    return rc;
}

static void test_defaults(void **state)
{
    pm_s3_config c;
    paimon_error err;
    (void)state;
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.endpoint, "https://s3.us-east-1.amazonaws.com");
    assert_string_equal(c.region, "us-east-1");
    assert_null(c.access_key); /* anonymous */
    assert_null(c.secret_key);
    assert_false(c.path_style);
    assert_int_equal(c.commit_mode, PM_S3_COMMIT_IF_NONE_MATCH);
    assert_int_equal(c.part_size, 16 << 20);
    assert_int_equal(c.multipart_threshold, 16 << 20);
    assert_int_equal(c.max_attempts, 8);
    assert_int_equal(c.retry_base_ms, 100);
    assert_int_equal(c.retry_max_ms, 5000);
    assert_int_equal(c.connect_timeout_ms, 5000);
    assert_int_equal(c.request_timeout_ms, 30000);
    assert_int_equal(c.max_connections, 16);
    assert_int_equal(c.readahead, 1 << 20);
    assert_int_equal(c.coalesce_gap, 1 << 20);
    pm_s3_config_free(&c);
    /* the region moves the default endpoint */
    setenv("AWS_REGION", "eu-west-3", 1);
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.endpoint, "https://s3.eu-west-3.amazonaws.com");
    pm_s3_config_free(&c);
}

static void test_precedence(void **state)
{
    pm_s3_config c;
    paimon_error err;
    (void)state;
    write_aws("credentials", "# a comment\n[default]\naws_access_key_id = FILEKEY\n"
                             "aws_secret_access_key=FILESECRET\n\n[other]\n"
                             "aws_access_key_id = OTHERKEY\naws_secret_access_key = OTHERSECRET\n"
                             "aws_session_token = OTHERTOKEN\n");
    write_aws("config", "[default]\nregion = ap-south-1\n; comment\n[profile other]\n"
                        "region=sa-east-1\nendpoint_url = http://10.1.2.3:9000/\n");

    /* 3. the profile files */
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.access_key, "FILEKEY");
    assert_string_equal(c.secret_key, "FILESECRET");
    assert_null(c.session_token);
    assert_string_equal(c.region, "ap-south-1");
    pm_s3_config_free(&c);

    setenv("AWS_PROFILE", "other", 1);
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.access_key, "OTHERKEY");
    assert_string_equal(c.session_token, "OTHERTOKEN");
    assert_string_equal(c.region, "sa-east-1"); /* from `[profile other]` of config */
    assert_string_equal(c.endpoint, "http://10.1.2.3:9000");
    assert_true(c.path_style);
    pm_s3_config_free(&c);

    /* 2. the environment beats the profile, for each value on its own */
    setenv("AWS_ACCESS_KEY_ID", "ENVKEY", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "ENVSECRET", 1);
    setenv("AWS_DEFAULT_REGION", "us-west-1", 1);
    setenv("AWS_ENDPOINT_URL", "http://localhost:4568", 1);
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.access_key, "ENVKEY");
    assert_string_equal(c.secret_key, "ENVSECRET");
    assert_null(c.session_token); /* the profile's token goes with the profile's keys */
    assert_string_equal(c.region, "us-west-1");
    assert_string_equal(c.endpoint, "http://localhost:4568");
    pm_s3_config_free(&c);
    setenv("AWS_REGION", "us-west-2", 1); /* AWS_REGION before AWS_DEFAULT_REGION */
    setenv("AWS_ENDPOINT_URL_S3", "minio.example:9000", 1); /* the S3 one first */
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.region, "us-west-2");
    assert_string_equal(c.endpoint, "https://minio.example:9000");
    assert_false(c.path_style); /* a host name: virtual-hosted */
    pm_s3_config_free(&c);

    /* 1. the settings beat everything */
    assert_int_equal(load(&c, &err, "s3.access-key", "OPTKEY", "s3.secret-key", "OPTSECRET",
                          "s3.region", "eu-central-1", "s3.endpoint", "http://127.0.0.1:1/",
                          "s3.session.token", "OPTTOKEN", NULL),
                     0);
    assert_string_equal(c.access_key, "OPTKEY");
    assert_string_equal(c.secret_key, "OPTSECRET");
    assert_string_equal(c.session_token, "OPTTOKEN");
    assert_string_equal(c.region, "eu-central-1");
    assert_string_equal(c.endpoint, "http://127.0.0.1:1");
    assert_true(c.path_style);
    pm_s3_config copy;
    assert_int_equal(pm_s3_config_copy(&copy, &c), 0);
    pm_s3_config_free(&c);
    assert_string_equal(copy.secret_key, "OPTSECRET"); /* a copy, not shared strings */
    assert_string_equal(copy.endpoint, "http://127.0.0.1:1");
    pm_s3_config_free(&copy);

    /* Java's other spellings (S3FileIO's mirrored keys) mean the same; ours win over them */
    assert_int_equal(load(&c, &err, "s3.access.key", "DOTKEY", "s3.secret.key", "DOTSECRET",
                          "s3.path-style-access", "false", "s3.endpoint", "http://127.0.0.1:1",
                          NULL),
                     0);
    assert_string_equal(c.access_key, "DOTKEY");
    assert_string_equal(c.secret_key, "DOTSECRET");
    assert_false(c.path_style);
    pm_s3_config_free(&c);
    assert_int_equal(load(&c, &err, "s3.access.key", "DOTKEY", "s3.secret.key", "DOTSECRET",
                          "s3.access-key", "DASHKEY", "s3.secret-key", "DASHSECRET", NULL),
                     0);
    assert_string_equal(c.access_key, "DASHKEY");
    pm_s3_config_free(&c);

    /* a profile named but absent is an error naming it, not anonymous access */
    setenv("AWS_PROFILE", "nosuch", 1);
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "AWS_PROFILE: profile 'nosuch'"));
    /* AWS_SHARED_CREDENTIALS_FILE moves the file */
    char moved[1100];
    snprintf(moved, sizeof(moved), "%s/creds", home);
    pm_test_write_file(moved, "[nosuch]\naws_access_key_id=MOVEDKEY\naws_secret_access_key=S\n",
                       strlen("[nosuch]\naws_access_key_id=MOVEDKEY\naws_secret_access_key=S\n"));
    setenv("AWS_SHARED_CREDENTIALS_FILE", moved, 1);
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.access_key, "MOVEDKEY");
    pm_s3_config_free(&c);
}

static void test_profile_default_spelled_as_profile(void **state)
{
    pm_s3_config c;
    paimon_error err;
    (void)state;
    write_aws("config", "[profile default]\nregion = eu-north-1\n");
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.region, "eu-north-1");
    pm_s3_config_free(&c);
    /* `[default]` first when both are there */
    write_aws("config", "[profile default]\nregion = eu-north-1\n[default]\nregion = eu-south-1\n");
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.region, "eu-south-1");
    pm_s3_config_free(&c);
}

/* `credential_process` in the config file: run once, its Version 1 JSON read; the profile's
 * own keys and the environment come first; a failing or malformed helper is an error that
 * never quotes its output. */
static void test_credential_process(void **state)
{
    pm_s3_config c;
    paimon_error err;
    char script[1100], text[1400];
    (void)state;
    snprintf(script, sizeof(script), "%s/helper.sh", home);
    snprintf(text, sizeof(text),
             "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"AKPROC\", "
             "\"SecretAccessKey\": \"secret-from-proc\", \"SessionToken\": \"tok\", "
             "\"Expiration\": \"2099-01-01T00:00:00Z\"}'\n");
    pm_test_write_file(script, text, strlen(text));
    snprintf(text, sizeof(text), "[default]\nregion = eu-west-3\ncredential_process = sh %s\n",
             script);
    write_aws("config", text);
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.access_key, "AKPROC");
    assert_string_equal(c.secret_key, "secret-from-proc");
    assert_string_equal(c.session_token, "tok");
    assert_string_equal(c.region, "eu-west-3");
    pm_s3_config_free(&c);
    /* the environment's pair wins, and the helper is not needed then */
    setenv("AWS_ACCESS_KEY_ID", "AKENV", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "skenv", 1);
    assert_int_equal(load(&c, &err, NULL), 0);
    assert_string_equal(c.access_key, "AKENV");
    pm_s3_config_free(&c);
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    /* a helper that fails */
    write_aws("config", "[default]\ncredential_process = sh -c 'echo secret-out; exit 3'\n");
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "credential_process"));
    assert_non_null(strstr(err.message, "exit status 3"));
    assert_null(strstr(err.message, "secret-out"));
    /* another version, or no secret */
    snprintf(text, sizeof(text),
             "#!/bin/sh\necho '{\"Version\": 2, \"AccessKeyId\": \"A\", "
             "\"SecretAccessKey\": \"secret-v2\"}'\n");
    pm_test_write_file(script, text, strlen(text));
    snprintf(text, sizeof(text), "[default]\ncredential_process = sh %s\n", script);
    write_aws("config", text);
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "Version 1"));
    assert_null(strstr(err.message, "secret-v2"));
    snprintf(text, sizeof(text), "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"A\"}'\n");
    pm_test_write_file(script, text, strlen(text));
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "SecretAccessKey"));
    /* output that is not JSON, or far too long (drained: the helper is not left blocked) */
    snprintf(text, sizeof(text), "#!/bin/sh\necho 'AccessKeyId=A secret-plain'\n");
    pm_test_write_file(script, text, strlen(text));
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "not a JSON object"));
    assert_null(strstr(err.message, "secret-plain"));
    snprintf(text, sizeof(text), "#!/bin/sh\nhead -c 3000000 /dev/zero | tr '\\0' x\n");
    pm_test_write_file(script, text, strlen(text));
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "exceeds"));
    /* a key holding CR LF would add a header to every request: refused */
    snprintf(text, sizeof(text), "#!/bin/sh\nprintf '%s\\n' '%s'\n", "%s",
             "{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"s\", "
             "\"SessionToken\": \"t\\r\\nX-Injected: 1\"}");
    pm_test_write_file(script, text, strlen(text));
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "SessionToken"));
    assert_non_null(strstr(err.message, "control character"));
}

static void test_addressing_and_commit_mode(void **state)
{
    static const struct {
        const char *endpoint;
        bool path_style;
        pm_s3_commit_mode mode;
    } cases[] = {
        {"http://127.0.0.1:4568", true, PM_S3_COMMIT_IF_NONE_MATCH},
        {"http://[::1]:9000", true, PM_S3_COMMIT_IF_NONE_MATCH},
        {"localhost:9000", true, PM_S3_COMMIT_IF_NONE_MATCH},
        {"https://s3.amazonaws.com", false, PM_S3_COMMIT_IF_NONE_MATCH},
        {"https://oss-cn-hangzhou.aliyuncs.com", false, PM_S3_COMMIT_OSS_FORBID},
        {"oss-cn-beijing-internal.aliyuncs.com", false, PM_S3_COMMIT_OSS_FORBID},
        {"https://notaliyuncs.com", false, PM_S3_COMMIT_IF_NONE_MATCH},
    };
    pm_s3_config c;
    paimon_error err;
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(load(&c, &err, "s3.endpoint", cases[i].endpoint, NULL), 0);
        assert_int_equal(c.path_style, cases[i].path_style);
        assert_int_equal(c.commit_mode, cases[i].mode);
        pm_s3_config_free(&c);
    }
    /* explicit settings win over inference */
    assert_int_equal(load(&c, &err, "s3.endpoint", "http://127.0.0.1:1", "s3.path.style.access",
                          "false", "s3.commit-mode", "single-writer", NULL),
                     0);
    assert_false(c.path_style);
    assert_int_equal(c.commit_mode, PM_S3_COMMIT_SINGLE_WRITER);
    pm_s3_config_free(&c);
    assert_int_equal(load(&c, &err, "s3.endpoint", "minio.lan", "s3.path.style.access", "TRUE",
                          "s3.commit-mode", "OSS-FORBID-OVERWRITE", NULL),
                     0);
    assert_true(c.path_style);
    assert_int_equal(c.commit_mode, PM_S3_COMMIT_OSS_FORBID);
    pm_s3_config_free(&c);
}

static void test_tuning(void **state)
{
    pm_s3_config c;
    paimon_error err;
    (void)state;
    assert_int_equal(load(&c, &err, "s3.multipart.size", "32mb", "s3.attempts.maximum", "3",
                          "s3.retry.interval", "1 s", "s3.retry.max-interval", "2min",
                          "s3.connection.timeout", "250 ms", "s3.connection.maximum", "64",
                          "s3.readahead.range", "4 mb", "s3.coalesce.gap", "0", NULL),
                     0);
    assert_int_equal(c.part_size, 32 << 20);
    assert_int_equal(c.multipart_threshold, 32 << 20);
    assert_int_equal(c.max_attempts, 3);
    assert_int_equal(c.retry_base_ms, 1000);
    assert_int_equal(c.retry_max_ms, 120000);
    assert_int_equal(c.request_timeout_ms, 250);
    assert_int_equal(c.max_connections, 64);
    assert_int_equal(c.readahead, 4 << 20);
    assert_int_equal(c.coalesce_gap, 0);
    /* read-ahead blocks and parts in flight: defaults, then set */
    assert_int_equal(c.prefetch_block, 2 << 20);
    assert_int_equal(c.prefetch_blocks, 4);
    assert_int_equal(c.upload_active, 4);
    pm_s3_config_free(&c);
    assert_int_equal(load(&c, &err, "s3.prefetch.block.size", "8 mb", "s3.prefetch.block.count",
                          "2", "s3.fast.upload.active.blocks", "16", NULL),
                     0);
    assert_int_equal(c.prefetch_block, 8 << 20);
    assert_int_equal(c.prefetch_blocks, 2);
    assert_int_equal(c.upload_active, 16);
    pm_s3_config_free(&c);
    assert_int_equal(load(&c, &err, "s3.prefetch.block.count", "0", NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.prefetch.block.count"));

    /* parts below S3's 5 MiB only with the check off (s3rver accepts them; tests use it) */
    assert_int_equal(load(&c, &err, "s3.multipart.size", "1 mb", NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.multipart.size: invalid value '1 mb'"));
    assert_int_equal(load(&c, &err, "s3.multipart.size", "1 mb", "s3.multipart.min-size-check",
                          "false", "s3.multipart.threshold", "3 mb", NULL),
                     0);
    assert_int_equal(c.part_size, 1 << 20);
    assert_int_equal(c.multipart_threshold, 3 << 20);
    pm_s3_config_free(&c);

    static const char *const bad[][2] = {
        {"s3.attempts.maximum", "0"},  {"s3.attempts.maximum", "x"},
        {"s3.retry.interval", "-1 s"}, {"s3.connection.maximum", "1.5"},
        {"s3.commit-mode", "lock"},    {"s3.path.style.access", "yes"},
        {"s3.endpoint", "ftp://h"},    {"s3.endpoint", "http://h/path"},
        {"s3.multipart.size", "6 gb"}, {"s3.region", "us east"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(load(&c, &err, bad[i][0], bad[i][1], NULL), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, bad[i][0]));
    }
}

static void test_refusals_and_secrets(void **state)
{
    pm_s3_config c;
    paimon_error err;
    (void)state;
    /* an unknown s3.* key is refused by name; other keys are not this layer's */
    assert_int_equal(load(&c, &err, "s3.acess-key", "AKIA", NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.acess-key: unknown S3 setting"));
    assert_int_equal(load(&c, &err, "bucket", "4", NULL), 0);
    pm_s3_config_free(&c);

    /* half a pair of credentials is refused, and neither value is shown */
    assert_int_equal(load(&c, &err, "s3.secret-key", "TOPSECRET-9a1", NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.secret-key is set but s3.access-key is not"));
    assert_null(strstr(err.message, "TOPSECRET"));
    setenv("AWS_SECRET_ACCESS_KEY", "ENVSECRET-77", 1);
    assert_int_equal(load(&c, &err, NULL), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID"));
    assert_null(strstr(err.message, "ENVSECRET"));
    unsetenv("AWS_SECRET_ACCESS_KEY");
    /* a malformed setting next to credentials names the key, not the secret */
    assert_int_equal(load(&c, &err, "s3.access-key", "AKIA-5", "s3.secret-key", "TOPSECRET-9a1",
                          "s3.connection.maximum", "many", NULL),
                     PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "s3.connection.maximum"));
    assert_null(strstr(err.message, "TOPSECRET"));
    assert_null(strstr(err.message, "AKIA-5"));

    /* the description names every value but the credentials */
    pm_buf d;
    pm_buf_init(&d, 0);
    assert_int_equal(load(&c, &err, "s3.access-key", "AKIA-5", "s3.secret-key", "TOPSECRET-9a1",
                          "s3.session.token", "TOKEN-3", "s3.endpoint", "localhost:9000", NULL),
                     0);
    assert_int_equal(pm_s3_config_describe(&c, &d), 0);
    assert_non_null(strstr(pm_buf_cstr(&d), "s3.endpoint=https://localhost:9000 "));
    assert_non_null(strstr(pm_buf_cstr(&d), "credentials=set+session-token "));
    assert_non_null(strstr(pm_buf_cstr(&d), "s3.path.style.access=true "));
    assert_non_null(strstr(pm_buf_cstr(&d), "s3.commit-mode=if-none-match "));
    assert_null(strstr(pm_buf_cstr(&d), "AKIA"));
    assert_null(strstr(pm_buf_cstr(&d), "TOPSECRET"));
    assert_null(strstr(pm_buf_cstr(&d), "TOKEN-3"));
    pm_s3_config_free(&c);
    pm_buf_free(&d);

    assert_true(pm_s3_config_is_key("s3.endpoint"));
    assert_true(pm_s3_config_is_key("s3.anything"));
    assert_false(pm_s3_config_is_key("bucket"));
    assert_true(pm_s3_config_is_secret("s3.secret-key"));
    assert_true(pm_s3_config_is_secret("s3.access-key"));
    assert_true(pm_s3_config_is_secret("s3.session.token"));
    assert_true(pm_s3_config_is_secret("s3.secret.key"));
    assert_true(pm_s3_config_is_secret("s3.access.key"));
    assert_false(pm_s3_config_is_secret("s3.endpoint"));
    assert_false(pm_s3_config_is_secret(NULL));
}

/* Every allocation of a load that reads both profile files and parses settings failing in
 * turn: PAIMON_ENOMEM saying so, nothing leaked. */
static int alloc_op(void *ctx, paimon_error *err)
{
    pm_options *o = ctx;
    pm_s3_config c;
    int rc = pm_s3_config_load(&c, o, err);
    if (rc == 0)
        pm_s3_config_free(&c);
    return rc;
}

static void test_allocation_failures(void **state)
{
    pm_options o;
    (void)state;
    write_aws("credentials", "[p]\naws_access_key_id = K\naws_secret_access_key = S\n"
                             "aws_session_token = T\n");
    write_aws("config", "[profile p]\nregion = eu-west-1\nendpoint_url = minio.lan:9000\n");
    setenv("AWS_PROFILE", "p", 1);
    pm_options_init(&o);
    assert_int_equal(pm_options_set(&o, "s3.multipart.size", "8 mb"), 0);
    assert_int_equal(pm_options_set(&o, "s3.commit-mode", "auto"), 0);
    assert_true(pm_test_alloc_loop("s3 config load", alloc_op, NULL, &o, NULL) >= 5);
    pm_options_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_precedence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_default_spelled_as_profile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_addressing_and_commit_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_credential_process, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tuning, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refusals_and_secrets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_allocation_failures, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

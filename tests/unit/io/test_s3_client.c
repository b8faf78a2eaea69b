/* The S3 transport (io/s3/s3_client.h) against the real test server: s3rver behind the proxy
 * of tests/s3/server.mjs, which verifies every signature with the AWS SDK's signer
 * (@smithy/signature-v4), implements If-None-Match and injects faults.  ctest starts the
 * server (PAIMON_NEEDS_S3_SERVER below) and exports AWS_ENDPOINT_URL, the S3RVER
 * credentials and S3_ADMIN.
 *
 * PAIMON_NEEDS_S3_SERVER
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "alloc_loop.h"
#include "testlib.h"

#include "io/s3/s3_client.h"
#include "io/s3/s3_xml.h"
#include "io/s3/sigv4.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/options.h"
#include "util/time.h"

#define BUCKET "warehouse"

/* One call of the server's admin API (tests/s3/README.md): "/fault?fault=503&nth=1". */
static void admin(const char *path_and_query)
{
    const char *base = getenv("S3_ADMIN");
    char url[1024];
    long status = 0;
    assert_non_null(base);
    snprintf(url, sizeof(url), "%s%s", base, path_and_query);
    CURL *h = curl_easy_init();
    assert_non_null(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
    curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, fwrite);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, stderr);
    assert_int_equal(curl_easy_perform(h), CURLE_OK);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    assert_int_equal(status, 200);
    curl_easy_cleanup(h);
}

/* A client on the server from the environment, with fast retries; extra settings as
 * key, value pairs ending in NULL. */
static pm_s3_client *client_with(const char *key, ...)
{
    pm_options o;
    pm_s3_config cfg;
    pm_s3_client *c = NULL;
    paimon_error err;
    va_list ap;
    admin("/clear"); /* no fault left over from a test that failed */
    pm_options_init(&o);
    assert_int_equal(pm_options_set(&o, "s3.retry.interval", "5 ms"), 0);
    assert_int_equal(pm_options_set(&o, "s3.retry.max-interval", "20 ms"), 0);
    va_start(ap, key);
    for (const char *k = key; k != NULL; k = va_arg(ap, const char *))
        assert_int_equal(pm_options_set(&o, k, va_arg(ap, const char *)), 0);
    va_end(ap);
    assert_int_equal(pm_s3_config_load(&cfg, &o, &err), 0);
    assert_true(cfg.path_style); /* 127.0.0.1 */
    assert_int_equal(pm_s3_client_new(&c, &cfg, &err), 0);
    pm_s3_config_free(&cfg);
    pm_options_free(&o);
    return c;
}

static pm_s3_request req_of(const char *method, const char *key)
{
    pm_s3_request r;
    memset(&r, 0, sizeof(r));
    r.method = method;
    r.bucket = BUCKET;
    r.key = key;
    return r;
}

/* Performs and returns the status (rc must be 0). */
static long run(pm_s3_client *c, const pm_s3_request *r, pm_s3_response *resp)
{
    paimon_error err;
    pm_s3_response_free(resp);
    pm_s3_response_init(resp);
    int rc = pm_s3_perform(c, r, resp, &err);
    if (rc != 0)
        fail_msg("%s %s: %s", r->method, r->key, err.message);
    return resp->status;
}

static void test_object_round_trip(void **state)
{
    /* a key with a space, '+', '~', '$', unicode and a deep path: encoded once, signed
     * as sent, accepted by the verifying proxy */
    const char *key = "t/db.db/a b+c~$/ключ-日.parquet";
    const char *body = "hello, object storage";
    pm_s3_client *c = client_with(NULL);
    pm_s3_response resp;
    pm_s3_request r;
    paimon_error err;
    uint8_t part[5];
    (void)state;
    pm_s3_response_init(&resp);

    r = req_of("PUT", key);
    r.body = body;
    r.body_len = strlen(body);
    assert_int_equal(run(c, &r, &resp), 200);
    assert_true(resp.etag[0] == '"');
    assert_int_equal(resp.attempts, 1);

    r = req_of("GET", key);
    assert_int_equal(run(c, &r, &resp), 200);
    assert_int_equal(resp.body.len, strlen(body));
    assert_memory_equal(resp.body.data, body, strlen(body));

    r = req_of("HEAD", key);
    assert_int_equal(run(c, &r, &resp), 200);
    assert_int_equal(resp.content_length, strlen(body));
    assert_true(resp.last_modified_ms > 1600000000000LL);
    assert_true(resp.etag[0] == '"');

    /* range into the caller's buffer */
    r = req_of("GET", key);
    r.has_range = true;
    r.range_off = 7;
    r.range_len = 5;
    r.dst = part;
    r.dst_len = sizeof(part);
    assert_int_equal(run(c, &r, &resp), 206);
    assert_memory_equal(part, "objec", 5);
    assert_int_equal(resp.body.len, 0);

    /* a dst larger than the range is a short answer: PAIMON_ECORRUPT, not a silent hole */
    uint8_t big[10];
    r.dst = big;
    r.dst_len = sizeof(big);
    pm_s3_response_free(&resp);
    pm_s3_response_init(&resp);
    assert_int_equal(pm_s3_perform(c, &r, &resp, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, key));

    r = req_of("DELETE", key);
    assert_int_equal(run(c, &r, &resp), 204);
    r = req_of("GET", key);
    assert_int_equal(run(c, &r, &resp), 404);
    assert_int_equal(pm_s3_status_error(&r, &resp, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, "s3://warehouse/t/db.db/a b+c~$/"));
    assert_non_null(strstr(err.message, ": 404 NoSuchKey: "));
    /* HEAD has no body: the code is named after the status */
    r = req_of("HEAD", key);
    assert_int_equal(run(c, &r, &resp), 404);
    assert_int_equal(pm_s3_status_error(&r, &resp, &err), PAIMON_ENOTFOUND);
    assert_non_null(strstr(err.message, ": 404 NotFound"));

    pm_s3_response_free(&resp);
    pm_s3_client_free(c);
}

static void test_listing_query_with_slashes(void **state)
{
    const char *keys[] = {"list/x y/a", "list/x y/b+", "list/z"};
    const char *q[] = {"list-type", "2", "prefix", "list/x y/", "max-keys", "10"};
    pm_s3_client *c = client_with(NULL);
    pm_s3_response resp;
    pm_s3_request r;
    (void)state;
    pm_s3_response_init(&resp);
    for (size_t i = 0; i < 3; i++) {
        r = req_of("PUT", keys[i]);
        r.body = "x";
        r.body_len = 1;
        assert_int_equal(run(c, &r, &resp), 200);
    }
    /* a bucket-level GET whose query has '/' and ' ' in a value, signed as sent */
    r = req_of("GET", "");
    r.query = q;
    r.query_count = 3;
    assert_int_equal(run(c, &r, &resp), 200);
    const char *xml = pm_buf_cstr(&resp.body);
    assert_non_null(strstr(xml, "<Key>list/x y/a</Key>"));
    assert_non_null(strstr(xml, "<Key>list/x y/b+</Key>"));
    assert_null(strstr(xml, "<Key>list/z</Key>"));
    pm_s3_response_free(&resp);
    pm_s3_client_free(c);
}

static void test_wrong_secret_is_refused(void **state)
{
    /* the verifying proxy (the AWS SDK's signer) is the cross-check of our signer: the same
     * request with the right secret passes above, with a wrong one it is refused */
    pm_s3_client *c =
        client_with("s3.access-key", "S3RVER", "s3.secret-key", "not-the-secret-4f2a", NULL);
    pm_s3_response resp;
    pm_s3_request r = req_of("GET", "anything");
    paimon_error err;
    (void)state;
    pm_s3_response_init(&resp);
    assert_int_equal(run(c, &r, &resp), 403);
    assert_int_equal(resp.attempts, 1); /* a 4xx is never retried */
    assert_int_equal(pm_s3_status_error(&r, &resp, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "s3://warehouse/anything: 403 SignatureDoesNotMatch"));
    assert_null(strstr(err.message, "not-the-secret-4f2a"));
    pm_s3_response_free(&resp);
    pm_s3_client_free(c);
}

static void test_anonymous_and_session_token(void **state)
{
    pm_s3_response resp;
    pm_s3_request r = req_of("GET", "anything");
    char *ak = pm_strdup(getenv("AWS_ACCESS_KEY_ID")),
         *sk = pm_strdup(getenv("AWS_SECRET_ACCESS_KEY"));
    (void)state;
    pm_s3_response_init(&resp);
    /* no credentials anywhere: unsigned, which the proxy refuses for the missing header */
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    pm_s3_client *c = client_with(NULL);
    assert_null(pm_s3_client_config(c)->access_key);
    assert_int_equal(run(c, &r, &resp), 403);
    assert_non_null(strstr(pm_buf_cstr(&resp.body), "no Authorization header"));
    pm_s3_client_free(c);
    setenv("AWS_ACCESS_KEY_ID", ak, 1);
    setenv("AWS_SECRET_ACCESS_KEY", sk, 1);
    /* a session token is sent as x-amz-security-token and signed: the proxy's re-signing
     * covers it, so a request whose token were unsigned or altered would be refused */
    c = client_with("s3.access-key", ak, "s3.secret-key", sk, "s3.session.token",
                    "FQoGZXIvYXdzEXAMPLE/token+=", NULL);
    r = req_of("PUT", "token/x");
    r.body = "t";
    r.body_len = 1;
    assert_int_equal(run(c, &r, &resp), 200);
    pm_s3_client_free(c);
    pm_free(ak);
    pm_free(sk);
    pm_s3_response_free(&resp);
}

static void test_conditional_put(void **state)
{
    const char *inm[] = {"If-None-Match", "*"};
    pm_s3_client *c = client_with(NULL);
    pm_s3_response resp;
    pm_s3_request r = req_of("PUT", "cond/snapshot-1");
    paimon_error err;
    (void)state;
    pm_s3_response_init(&resp);
    r.headers = inm;
    r.header_count = 1;
    r.body = "first";
    r.body_len = 5;
    assert_int_equal(run(c, &r, &resp), 200);
    r.body = "second";
    r.body_len = 6;
    assert_int_equal(run(c, &r, &resp), 412);
    assert_false(resp.maybe_landed);
    assert_int_equal(pm_s3_status_error(&r, &resp, &err), PAIMON_EEXISTS);
    assert_non_null(strstr(err.message, "412 PreconditionFailed"));
    r = req_of("GET", "cond/snapshot-1");
    assert_int_equal(run(c, &r, &resp), 200);
    assert_string_equal(pm_buf_cstr(&resp.body), "first");

    /* a PUT that lands but whose answer is lost: the retry meets its own object (412), and
     * maybe_landed tells the file system to read it back rather than call it a conflict */
    admin("/fault?fault=land-drop&nth=1&method=PUT");
    r = req_of("PUT", "cond/snapshot-2");
    r.headers = inm;
    r.header_count = 1;
    r.body = "mine";
    r.body_len = 4;
    assert_int_equal(run(c, &r, &resp), 412);
    assert_int_equal(resp.attempts, 2);
    assert_true(resp.maybe_landed);
    admin("/clear");
    pm_s3_response_free(&resp);
    pm_s3_client_free(c);
}

static void test_retries(void **state)
{
    pm_s3_client *c = client_with("s3.attempts.maximum", "3", NULL);
    pm_s3_response resp;
    pm_s3_request r = req_of("PUT", "retry/a");
    pm_s3_stats st;
    paimon_error err;
    (void)state;
    pm_s3_response_init(&resp);
    r.body = "0123456789";
    r.body_len = 10;
    assert_int_equal(run(c, &r, &resp), 200);

    /* GET: a status or a cut body is retried by us */
    static const struct {
        const char *fault;
        bool landed; /* may the failed attempt have been applied? */
    } gets[] = {
        {"503", false}, {"500", true}, {"drop-body", true}, {"429", false}, {"400-timeout", false}};
    for (size_t i = 0; i < sizeof(gets) / sizeof(gets[0]); i++) {
        char q[128];
        snprintf(q, sizeof(q), "/fault?fault=%s&nth=1", gets[i].fault);
        admin(q);
        r = req_of("GET", "retry/a");
        assert_int_equal(run(c, &r, &resp), 200);
        assert_int_equal(resp.attempts, 2);
        assert_int_equal(resp.maybe_landed, gets[i].landed);
        assert_string_equal(pm_buf_cstr(&resp.body), "0123456789");
        admin("/clear");
    }
    /* PUT: a connection dropped before or after the object landed is retried by us (not
     * silently by libcurl), and both leave open whether it landed */
    static const char *const puts_[] = {"drop", "land-drop", "503"};
    for (size_t i = 0; i < 3; i++) {
        char q[128];
        snprintf(q, sizeof(q), "/fault?fault=%s&nth=1", puts_[i]);
        admin(q);
        r = req_of("PUT", "retry/a");
        r.body = "0123456789";
        r.body_len = 10;
        assert_int_equal(run(c, &r, &resp), 200);
        assert_int_equal(resp.attempts, 2);
        assert_int_equal(resp.maybe_landed, i < 2);
        admin("/clear");
    }
    pm_s3_client_stats(c, &st);
    assert_int_equal(st.retries, 8);
    assert_int_equal(st.requests, 1 + 8 * 2);

    /* every attempt answered 503: the last answer is returned, after exactly 3 tries */
    admin("/fault?fault=503&nth=1&times=10");
    r = req_of("GET", "retry/a");
    assert_int_equal(run(c, &r, &resp), 503);
    assert_int_equal(resp.attempts, 3);
    assert_int_equal(pm_s3_status_error(&r, &resp, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "s3://warehouse/retry/a: 503 SlowDown"));
    admin("/clear");

    /* no answer at all after the last attempt: PAIMON_EIO naming the object */
    admin("/fault?fault=drop&nth=1&times=10");
    r = req_of("PUT", "retry/a");
    r.body = "x";
    r.body_len = 1;
    pm_s3_response_free(&resp);
    pm_s3_response_init(&resp);
    assert_int_equal(pm_s3_perform(c, &r, &resp, &err), PAIMON_EIO);
    assert_int_equal(resp.attempts, 3);
    assert_non_null(strstr(err.message, "s3://warehouse/retry/a: no answer after 3 attempts"));
    admin("/clear");
    pm_s3_response_free(&resp);
    pm_s3_client_free(c);
}

static void test_perform_many(void **state)
{
    enum { N = 20, SLICE = 3000 };
    pm_s3_client *c = client_with("s3.connection.maximum", "4", NULL);
    uint8_t *data = pm_malloc(N * SLICE), *got = pm_calloc(N, SLICE);
    pm_s3_request rs[N];
    pm_s3_response resps[N], resp;
    paimon_error err;
    (void)state;
    for (size_t i = 0; i < N * SLICE; i++)
        data[i] = (uint8_t)(i * 7 + i / 251);
    pm_s3_request put = req_of("PUT", "many/blob");
    put.body = data;
    put.body_len = N * SLICE;
    pm_s3_response_init(&resp);
    assert_int_equal(run(c, &put, &resp), 200);

    /* 20 ranges, in reverse order, two of them hit by faults and retried on their own */
    admin("/fault?fault=503&nth=3");
    admin("/fault?fault=drop-body&nth=11");
    for (size_t i = 0; i < N; i++) {
        size_t slice = N - 1 - i;
        rs[i] = req_of("GET", "many/blob");
        rs[i].has_range = true;
        rs[i].range_off = slice * SLICE;
        rs[i].range_len = SLICE;
        rs[i].dst = got + slice * SLICE;
        rs[i].dst_len = SLICE;
        pm_s3_response_init(&resps[i]);
    }
    assert_int_equal(pm_s3_perform_many(c, rs, resps, N, &err), 0);
    int retried = 0;
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(resps[i].status, 206);
        retried += resps[i].attempts - 1;
        pm_s3_response_free(&resps[i]);
    }
    assert_int_equal(retried, 2);
    assert_memory_equal(got, data, N * SLICE);
    admin("/clear");

    /* one missing object among them: its own 404, the others read */
    rs[5] = req_of("GET", "many/missing");
    for (size_t i = 0; i < N; i++)
        pm_s3_response_init(&resps[i]);
    memset(got, 0, N * SLICE);
    assert_int_equal(pm_s3_perform_many(c, rs, resps, N, &err), 0);
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(resps[i].status, i == 5 ? 404 : 206);
        pm_s3_response_free(&resps[i]);
    }
    pm_s3_response_free(&resp);
    pm_free(data);
    pm_free(got);
    pm_s3_client_free(c);
}

/* The requests of lane B's file system that carry a query and a POST body: a batch delete
 * (`?delete`, Content-MD5) and a one-part multipart upload, each signed as sent. */
static void test_batch_delete_and_multipart(void **state)
{
    pm_s3_client *c = client_with(NULL);
    pm_s3_response resp;
    pm_s3_request r;
    char md5[25], *upload_id = NULL, *text = NULL;
    (void)state;
    pm_s3_response_init(&resp);
    for (int i = 0; i < 2; i++) {
        r = req_of("PUT", i == 0 ? "batch/a" : "batch/b & c");
        r.body = "x";
        r.body_len = 1;
        assert_int_equal(run(c, &r, &resp), 200);
    }
    const char *xml = "<Delete><Quiet>false</Quiet><Object><Key>batch/a</Key></Object>"
                      "<Object><Key>batch/b &amp; c</Key></Object></Delete>";
    const char *del_q[] = {"delete", ""};
    pm_s3_md5_base64(xml, strlen(xml), md5);
    const char *del_h[] = {"Content-MD5", md5, "Content-Type", "application/xml"};
    r = req_of("POST", "");
    r.query = del_q;
    r.query_count = 1;
    r.headers = del_h;
    r.header_count = 2;
    r.body = xml;
    r.body_len = strlen(xml);
    assert_int_equal(run(c, &r, &resp), 200);
    assert_non_null(strstr(pm_buf_cstr(&resp.body), "<Deleted><Key>batch/a</Key>"));
    r = req_of("HEAD", "batch/b & c");
    assert_int_equal(run(c, &r, &resp), 404);

    /* multipart: initiate (POST ?uploads, no body), one part, complete */
    const char *init_q[] = {"uploads", ""};
    r = req_of("POST", "mpu/big file");
    r.query = init_q;
    r.query_count = 1;
    assert_int_equal(run(c, &r, &resp), 200);
    assert_int_equal(
        pm_s3_xml_text((const char *)resp.body.data, resp.body.len, "UploadId", &upload_id), 0);
    const char *part_q[] = {"partNumber", "1", "uploadId", upload_id};
    r = req_of("PUT", "mpu/big file");
    r.query = part_q;
    r.query_count = 2;
    r.body = "part one";
    r.body_len = 8;
    assert_int_equal(run(c, &r, &resp), 200);
    char complete[512];
    snprintf(complete, sizeof(complete),
             "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>%s</ETag></Part>"
             "</CompleteMultipartUpload>",
             resp.etag);
    const char *done_q[] = {"uploadId", upload_id};
    r = req_of("POST", "mpu/big file");
    r.query = done_q;
    r.query_count = 1;
    r.body = complete;
    r.body_len = strlen(complete);
    assert_int_equal(run(c, &r, &resp), 200);
    assert_int_equal(pm_s3_xml_text((const char *)resp.body.data, resp.body.len, "ETag", &text), 0);
    pm_free(text);
    r = req_of("GET", "mpu/big file");
    assert_int_equal(run(c, &r, &resp), 200);
    assert_string_equal(pm_buf_cstr(&resp.body), "part one");
    pm_free(upload_id);
    pm_s3_response_free(&resp);
    pm_s3_client_free(c);
}

/* One client shared by threads (s3_client.h: "may be used from several threads at once"):
 * each thread writes and reads back its own objects through the handle pool. */
typedef struct thread_job {
    pm_s3_client *c;
    int id;
    int failures;
} thread_job;

static void *thread_main(void *arg)
{
    thread_job *j = arg;
    for (int i = 0; i < 10; i++) {
        char key[64], body[64];
        pm_s3_response resp;
        paimon_error err;
        snprintf(key, sizeof(key), "threads/%d/%d", j->id, i);
        snprintf(body, sizeof(body), "thread %d object %d", j->id, i);
        pm_s3_request r = req_of("PUT", key);
        r.body = body;
        r.body_len = strlen(body);
        pm_s3_response_init(&resp);
        if (pm_s3_perform(j->c, &r, &resp, &err) != 0 || resp.status != 200)
            j->failures++;
        r = req_of("GET", key);
        if (pm_s3_perform(j->c, &r, &resp, &err) != 0 || resp.status != 200 ||
            strcmp(pm_buf_cstr(&resp.body), body) != 0)
            j->failures++;
        pm_s3_response_free(&resp);
    }
    return NULL;
}

static void test_threads_share_a_client(void **state)
{
    pm_s3_client *c = client_with("s3.connection.maximum", "2", NULL);
    pthread_t t[4];
    thread_job jobs[4];
    pm_s3_stats st;
    (void)state;
    for (int i = 0; i < 4; i++) {
        jobs[i] = (thread_job){c, i, 0};
        assert_int_equal(pthread_create(&t[i], NULL, thread_main, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(jobs[i].failures, 0);
    }
    pm_s3_client_stats(c, &st);
    assert_int_equal(st.requests, 80);
    assert_int_equal(st.retries, 0);
    pm_s3_client_free(c);
}

/* Every allocation of a PUT, a GET into memory and three parallel ranges failing in turn:
 * each run ends in PAIMON_ENOMEM saying so (not a transport error or a truncated body), and
 * leaks nothing (LeakSanitizer at exit). */
static int alloc_op(void *ctx, paimon_error *err)
{
    pm_s3_client *c = ctx;
    pm_s3_response resp, many[3];
    pm_s3_request r = req_of("PUT", "alloc/object key");
    pm_s3_request rs[3];
    uint8_t dst[3][4];
    int rc;
    pm_s3_response_init(&resp);
    r.body = "0123456789ab";
    r.body_len = 12;
    rc = pm_s3_perform(c, &r, &resp, err);
    if (rc == 0) {
        r = req_of("GET", "alloc/object key");
        rc = pm_s3_perform(c, &r, &resp, err);
    }
    if (rc == 0 && (resp.status != 200 || resp.body.len != 12))
        rc = pm_err_set(err, PAIMON_EIO, "unexpected answer %ld", resp.status);
    pm_s3_response_free(&resp);
    for (int i = 0; i < 3; i++) {
        rs[i] = req_of("GET", "alloc/object key");
        rs[i].has_range = true;
        rs[i].range_off = (uint64_t)i * 4;
        rs[i].range_len = 4;
        rs[i].dst = dst[i];
        rs[i].dst_len = 4;
        pm_s3_response_init(&many[i]);
    }
    if (rc == 0)
        rc = pm_s3_perform_many(c, rs, many, 3, err);
    for (int i = 0; i < 3; i++)
        pm_s3_response_free(&many[i]);
    if (rc == 0 && memcmp(dst, "0123456789ab", 12) != 0)
        rc = pm_err_set(err, PAIMON_EIO, "ranges read wrong bytes");
    return rc;
}

static void test_allocation_failures(void **state)
{
    pm_s3_client *c = client_with(NULL);
    (void)state;
    assert_true(pm_test_alloc_loop("s3 perform", alloc_op, NULL, c, NULL) > 10);
    pm_s3_client_free(c);
}

static void test_timeouts_and_refused_connections(void **state)
{
    pm_s3_client *c = client_with("s3.attempts.maximum", "2", "s3.connection.timeout", "1 s", NULL);
    pm_s3_response resp;
    pm_s3_request r = req_of("GET", "slow/x");
    paimon_error err;
    (void)state;
    /* a server that moves no byte for longer than s3.connection.timeout: each attempt is cut,
     * then one error naming the object */
    admin("/latency?ms=3000");
    int64_t t0 = pm_now_millis();
    pm_s3_response_init(&resp);
    assert_int_equal(pm_s3_perform(c, &r, &resp, &err), PAIMON_EIO);
    int64_t took = pm_now_millis() - t0;
    assert_int_equal(resp.attempts, 2);
    assert_non_null(strstr(err.message, "s3://warehouse/slow/x: no answer after 2 attempts"));
    assert_true(took < 5500); /* not 2 x 3 s: the timeout, not the server, ended them */
    admin("/clear");
    pm_s3_response_free(&resp);
    pm_s3_client_free(c);

    /* nothing listening: retried, and never `maybe_landed` since nothing was sent */
    c = client_with("s3.endpoint", "http://127.0.0.1:1", "s3.attempts.maximum", "2", NULL);
    pm_s3_response_init(&resp);
    r = req_of("PUT", "refused/x");
    r.body = "x";
    r.body_len = 1;
    assert_int_equal(pm_s3_perform(c, &r, &resp, &err), PAIMON_EIO);
    assert_int_equal(resp.attempts, 2);
    assert_false(resp.maybe_landed);
    assert_non_null(strstr(err.message, "s3://warehouse/refused/x: no answer after 2 attempts"));
    pm_s3_response_free(&resp);
    pm_s3_client_free(c);
}

/* Content-Range values a store (or something posing as one) may send: only a consistent
 * "bytes FIRST-LAST/SIZE" names the object's size; absurd numbers name none (the size then
 * comes from a HEAD) rather than a wrapped or partial one. */
static void test_content_range(void **state)
{
    (void)state;
    assert_int_equal(pm_s3_content_range_size("bytes 0-1048575/137438953"), 137438953);
    assert_int_equal(pm_s3_content_range_size("bytes 0-0/1"), 1);
    assert_int_equal(pm_s3_content_range_size("bytes */5000"), 5000);
    assert_int_equal(pm_s3_content_range_size("bytes 0-999999999999999998/999999999999999999"),
                     999999999999999999);
    static const char *const bad[] = {
        "bytes 0-1048575/*",                     /* unknown */
        "bytes 0-1048575/-18446744073709551615", /* strtoull wrapped this to 1 */
        "bytes 0-1048575/+2000000",
        "bytes 0-1048575/ 2000000",
        "bytes 0-1048575/18446744073709551616",
        "bytes 0-1048575/9223372036854775807", /* 8 EiB: no object is that large */
        "bytes 0-1048575/1048575",             /* the range ends past the size */
        "bytes 10-5/100",
        "bytes 0-1048575/2000000x",
        "bytes 0-1048575",
        "0-1048575/2000000",
        "bytes -1048575/2000000",
        "",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(pm_s3_content_range_size(bad[i]), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_content_range),
        cmocka_unit_test(test_object_round_trip),
        cmocka_unit_test(test_listing_query_with_slashes),
        cmocka_unit_test(test_wrong_secret_is_refused),
        cmocka_unit_test(test_anonymous_and_session_token),
        cmocka_unit_test(test_conditional_put),
        cmocka_unit_test(test_retries),
        cmocka_unit_test(test_perform_many),
        cmocka_unit_test(test_batch_delete_and_multipart),
        cmocka_unit_test(test_threads_share_a_client),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_timeouts_and_refused_connections),
    };
    if (getenv("AWS_ENDPOINT_URL") == NULL || getenv("S3_ADMIN") == NULL) {
        fprintf(stderr, "test_s3_client: needs the S3 test server (run through ctest)\n");
        return 1;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}

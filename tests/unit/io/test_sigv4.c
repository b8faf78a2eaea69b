/* SigV4 (io/s3/sigv4.h) against AWS's published vectors: the four examples of the S3 API
 * reference "Signature Calculations for the Authorization Header: Transferring Payload in
 * a Single Chunk" (examplebucket, AKIAIOSFODNN7EXAMPLE, 20130524T000000Z) and two cases
 * of the generic aws-sig-v4-test-suite (get-vanilla, get-vanilla-query-order-key-case);
 * then the encoders: spaces, '+', '~', '/', unicode keys, query values with '/', `?delete`,
 * Content-MD5 and the x-amz-date clock. */
#include <string.h>

#include "testlib.h"

#include "io/s3/sigv4.h"

#define S3_SECRET "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
#define S3_ACCESS "AKIAIOSFODNN7EXAMPLE"
#define S3_HOST   "examplebucket.s3.amazonaws.com"
#define S3_DATE   "20130524T000000Z"

/* Signs and returns the Signature= part (static buffer). */
static const char *sign(const char *method, const char *uri, const char *query,
                        const char *const *headers, size_t header_count, const char *payload,
                        const char *region, const char *service, const char *date,
                        const char *access, const char *secret, pm_buf *canonical)
{
    static char sig[65];
    pm_buf auth;
    pm_s3_sign_input in = {method, uri,    query,   headers, header_count, payload,
                           date,   region, service, access,  secret};
    pm_buf_init(&auth, 0);
    assert_int_equal(pm_s3_sign(&auth, canonical, &in), 0);
    const char *s = strstr(pm_buf_cstr(&auth), "Signature=");
    assert_non_null(s);
    assert_int_equal(strlen(s + 10), 64);
    memcpy(sig, s + 10, 65);
    pm_buf_free(&auth);
    return sig;
}

static void test_s3_get_object(void **state)
{
    const char *h[] = {
        "Host",       S3_HOST, "Range", "bytes=0-9", "x-amz-content-sha256", PM_S3_EMPTY_SHA256,
        "x-amz-date", S3_DATE};
    pm_buf canon, auth;
    (void)state;
    pm_buf_init(&canon, 0);
    assert_string_equal(sign("GET", "/test.txt", "", h, 4, PM_S3_EMPTY_SHA256, "us-east-1", "s3",
                             S3_DATE, S3_ACCESS, S3_SECRET, &canon),
                        "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    /* The canonical request exactly as the reference prints it. */
    assert_string_equal(pm_buf_cstr(&canon),
                        "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\n"
                        "range:bytes=0-9\n"
                        "x-amz-content-sha256:" PM_S3_EMPTY_SHA256 "\n"
                        "x-amz-date:20130524T000000Z\n\n"
                        "host;range;x-amz-content-sha256;x-amz-date\n" PM_S3_EMPTY_SHA256);
    pm_buf_free(&canon);
    /* The whole header value, credential scope and signed headers included. */
    pm_s3_sign_input in = {"GET",   "/test.txt", "",   h,         4,        PM_S3_EMPTY_SHA256,
                           S3_DATE, "us-east-1", "s3", S3_ACCESS, S3_SECRET};
    pm_buf_init(&auth, 0);
    assert_int_equal(pm_s3_sign(&auth, NULL, &in), 0);
    assert_string_equal(
        pm_buf_cstr(&auth),
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
        "aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
        "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    pm_buf_free(&auth);
}

static void test_s3_put_object(void **state)
{
    const char *body = "Welcome to Amazon S3.";
    char hash[65];
    pm_buf uri;
    (void)state;
    pm_s3_sha256_hex(body, strlen(body), hash);
    assert_string_equal(hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    /* The key `test$file.text` is encoded by the encoder under test, not by hand. */
    pm_buf_init(&uri, 0);
    assert_int_equal(pm_buf_putc(&uri, '/'), 0);
    assert_int_equal(pm_s3_uri_encode(&uri, "test$file.text", 14, false), 0);
    assert_string_equal(pm_buf_cstr(&uri), "/test%24file.text");
    /* Headers in an unsorted order and mixed case: the signer sorts and lower-cases. */
    const char *h[] = {"x-amz-storage-class",
                       "REDUCED_REDUNDANCY",
                       "X-Amz-Date",
                       S3_DATE,
                       "Host",
                       S3_HOST,
                       "x-amz-content-sha256",
                       hash,
                       "Date",
                       "Fri, 24 May 2013 00:00:00 GMT"};
    assert_string_equal(sign("PUT", pm_buf_cstr(&uri), "", h, 5, hash, "us-east-1", "s3", S3_DATE,
                             S3_ACCESS, S3_SECRET, NULL),
                        "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
    pm_buf_free(&uri);
}

static void test_s3_get_lifecycle_and_list(void **state)
{
    const char *h[] = {"host",       S3_HOST, "x-amz-content-sha256", PM_S3_EMPTY_SHA256,
                       "x-amz-date", S3_DATE};
    const char *lifecycle[] = {"lifecycle", ""};
    const char *list[] = {"prefix", "J", "max-keys", "2"}; /* unsorted on purpose */
    pm_buf q;
    (void)state;
    pm_buf_init(&q, 0);
    assert_int_equal(pm_s3_canonical_query(&q, lifecycle, 1), 0);
    assert_string_equal(pm_buf_cstr(&q), "lifecycle=");
    assert_string_equal(sign("GET", "/", pm_buf_cstr(&q), h, 3, PM_S3_EMPTY_SHA256, "us-east-1",
                             "s3", S3_DATE, S3_ACCESS, S3_SECRET, NULL),
                        "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
    pm_buf_reset(&q);
    assert_int_equal(pm_s3_canonical_query(&q, list, 2), 0);
    assert_string_equal(pm_buf_cstr(&q), "max-keys=2&prefix=J");
    assert_string_equal(sign("GET", "/", pm_buf_cstr(&q), h, 3, PM_S3_EMPTY_SHA256, "us-east-1",
                             "s3", S3_DATE, S3_ACCESS, S3_SECRET, NULL),
                        "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
    pm_buf_free(&q);
}

/* aws-sig-v4-test-suite: service "service", AKIDEXAMPLE, 20150830T123600Z. */
static void test_generic_suite(void **state)
{
    const char *h[] = {"Host", "example.amazonaws.com", "X-Amz-Date", "20150830T123600Z"};
    const char *params[] = {"Param2", "value2", "Param1", "value1"};
    const char *secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    pm_buf q;
    (void)state;
    assert_string_equal(sign("GET", "/", "", h, 2, PM_S3_EMPTY_SHA256, "us-east-1", "service",
                             "20150830T123600Z", "AKIDEXAMPLE", secret, NULL),
                        "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    pm_buf_init(&q, 0);
    assert_int_equal(pm_s3_canonical_query(&q, params, 2), 0);
    assert_string_equal(pm_buf_cstr(&q), "Param1=value1&Param2=value2");
    assert_string_equal(sign("GET", "/", pm_buf_cstr(&q), h, 2, PM_S3_EMPTY_SHA256, "us-east-1",
                             "service", "20150830T123600Z", "AKIDEXAMPLE", secret, NULL),
                        "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    pm_buf_free(&q);
}

static const char *enc(const char *s, bool slash)
{
    static char out[256];
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_s3_uri_encode(&b, s, strlen(s), slash), 0);
    snprintf(out, sizeof(out), "%s", pm_buf_cstr(&b));
    pm_buf_free(&b);
    return out;
}

static void test_encoding(void **state)
{
    (void)state;
    assert_string_equal(enc("a b", false), "a%20b");
    assert_string_equal(enc("a+b", false), "a%2Bb");
    assert_string_equal(enc("A-z_0.9~", true), "A-z_0.9~");
    assert_string_equal(enc("db/t/x y", false), "db/t/x%20y");
    assert_string_equal(enc("db/t/", true), "db%2Ft%2F");
    assert_string_equal(enc("100%", false), "100%25");
    assert_string_equal(enc("=&?#*", true), "%3D%26%3F%23%2A");
    /* UTF-8 bytes each encoded once, upper-case hex */
    assert_string_equal(enc("ключ", false), "%D0%BA%D0%BB%D1%8E%D1%87");
    assert_string_equal(enc("日.txt", false), "%E6%97%A5.txt");

    /* query: names and values encoded ('/' as %2F), sorted by name then value; a bare
     * `?delete` and a NULL value are `name=` */
    const char *q[] = {"prefix", "db/t/a b+c", "list-type", "2", "delete",
                       NULL,     "a",          "2",         "a", "1"};
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_s3_canonical_query(&b, q, 5), 0);
    assert_string_equal(pm_buf_cstr(&b), "a=1&a=2&delete=&list-type=2&prefix=db%2Ft%2Fa%20b%2Bc");
    pm_buf_free(&b);
}

static void test_headers_and_errors(void **state)
{
    /* Values trimmed, inner runs collapsed; a repeated name is one line joined by ','. */
    const char *h[] = {"My-Header", "  a   b  c ", "host", "h", "my-header", "z"};
    pm_buf canon, auth;
    (void)state;
    pm_buf_init(&canon, 0);
    sign("GET", "/", "", h, 3, PM_S3_EMPTY_SHA256, "us-east-1", "s3", S3_DATE, "A", "S", &canon);
    assert_string_equal(pm_buf_cstr(&canon), "GET\n/\n\nhost:h\nmy-header:a b c,z\n\n"
                                             "host;my-header\n" PM_S3_EMPTY_SHA256);
    pm_buf_free(&canon);

    /* A malformed header name or date is refused, not signed. */
    const char *bad[] = {"bad name", "v"};
    pm_s3_sign_input in = {"GET",   "/",         "",   bad, 1,  PM_S3_EMPTY_SHA256,
                           S3_DATE, "us-east-1", "s3", "A", "S"};
    pm_buf_init(&auth, 0);
    assert_int_equal(pm_s3_sign(&auth, NULL, &in), PAIMON_EINVALID);
    in.headers = h;
    in.amz_date = "2013-05-24";
    assert_int_equal(pm_s3_sign(&auth, NULL, &in), PAIMON_EINVALID);
    pm_buf_free(&auth);
}

static void test_md5_and_date(void **state)
{
    char md5[25], date[17];
    (void)state;
    /* RFC 1321's vectors, base64-encoded */
    pm_s3_md5_base64("", 0, md5);
    assert_string_equal(md5, "1B2M2Y8AsgTpgAmY7PhCfg==");
    pm_s3_md5_base64("abc", 3, md5);
    assert_string_equal(md5, "kAFQmDzST7DWlj99KOF/cg==");
    pm_s3_amz_date(1369353600, date); /* the reference's date */
    assert_string_equal(date, "20130524T000000Z");
    pm_s3_amz_date(1440938160, date);
    assert_string_equal(date, "20150830T123600Z");
    pm_s3_amz_date(951782399, date); /* 2000-02-28 23:59:59, before a leap day */
    assert_string_equal(date, "20000228T235959Z");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s3_get_object),
        cmocka_unit_test(test_s3_put_object),
        cmocka_unit_test(test_s3_get_lifecycle_and_list),
        cmocka_unit_test(test_generic_suite),
        cmocka_unit_test(test_encoding),
        cmocka_unit_test(test_headers_and_errors),
        cmocka_unit_test(test_md5_and_date),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

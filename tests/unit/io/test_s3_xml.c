/* The S3 XML scanner (io/s3/s3_xml.h): a ListObjectsV2 page walked record by record, names
 * that are prefixes of others (Key / KeyCount), empty elements, entities and numeric
 * references, and malformed or cut input as "not found" or PAIMON_ECORRUPT within bounds
 * (the documents are given without a terminating NUL, in exact-size heap copies, so ASan
 * sees any read past the end). */
#include <string.h>

#include "testlib.h"

#include "io/s3/s3_xml.h"
#include "util/alloc.h"

/* An exact-size copy: no NUL after the last byte. */
static char *exact(const char *s, size_t *len)
{
    *len = strlen(s);
    char *p = pm_malloc(*len > 0 ? *len : 1);
    memcpy(p, s, *len);
    return p;
}

static void test_listing(void **state)
{
    size_t len, pos = 0, n = 0;
    char *doc = exact("<?xml version=\"1.0\"?><ListBucketResult xmlns=\"x\"><KeyCount>2"
                      "</KeyCount><Contents><Key>db/a &amp; b</Key><Size>12</Size></Contents>"
                      "<Contents >\n<Key>db/&#x65E5;&#26085;</Key><Size>0</Size></Contents>"
                      "<NextContinuationToken>tok/+=</NextContinuationToken>"
                      "</ListBucketResult>",
                      &len);
    const char *keys[] = {"db/a & b", "db/\xE6\x97\xA5\xE6\x97\xA5"};
    const char *sizes[] = {"12", "0"};
    pm_s3_xml_span rec;
    char *text;
    (void)state;
    while (pm_s3_xml_next(doc, len, &pos, "Contents", &rec)) {
        assert_true(n < 2);
        assert_int_equal(pm_s3_xml_text(rec.ptr, rec.len, "Key", &text), 0);
        assert_string_equal(text, keys[n]);
        pm_free(text);
        assert_int_equal(pm_s3_xml_text(rec.ptr, rec.len, "Size", &text), 0);
        assert_string_equal(text, sizes[n]);
        pm_free(text);
        n++;
    }
    assert_int_equal(n, 2);
    assert_int_equal(pos, len);
    /* "Key" does not match <KeyCount>, and the first <Key> is inside the first record */
    assert_int_equal(pm_s3_xml_text(doc, len, "KeyCount", &text), 0);
    assert_string_equal(text, "2");
    pm_free(text);
    assert_int_equal(pm_s3_xml_text(doc, len, "Key", &text), 0);
    assert_string_equal(text, "db/a & b");
    pm_free(text);
    assert_int_equal(pm_s3_xml_text(doc, len, "NextContinuationToken", &text), 0);
    assert_string_equal(text, "tok/+=");
    pm_free(text);
    assert_int_equal(pm_s3_xml_text(doc, len, "IsTruncated", &text), PAIMON_ENOTFOUND);
    assert_null(text);
    pm_free(doc);
}

static void test_error_body(void **state)
{
    size_t len;
    char *doc = exact("<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature "
                      "we calculated does not match &quot;yours&quot; &lt;&gt; &apos;</Message>"
                      "<Empty/><Spaced></Spaced ></Error>",
                      &len);
    char *text;
    (void)state;
    assert_int_equal(pm_s3_xml_text(doc, len, "Code", &text), 0);
    assert_string_equal(text, "SignatureDoesNotMatch");
    pm_free(text);
    assert_int_equal(pm_s3_xml_text(doc, len, "Message", &text), 0);
    assert_string_equal(text, "The request signature we calculated does not match \"yours\" <> '");
    pm_free(text);
    assert_int_equal(pm_s3_xml_text(doc, len, "Empty", &text), 0);
    assert_string_equal(text, "");
    pm_free(text);
    assert_int_equal(pm_s3_xml_text(doc, len, "Spaced", &text), 0);
    assert_string_equal(text, "");
    pm_free(text);
    pm_free(doc);
}

static void test_malformed(void **state)
{
    static const char *const cut[] = {
        "<Code>abc",       /* no end tag */
        "<Code>abc</Code", /* end tag cut */
        "<Code",           /* start tag cut */
        "<Cod",            /* the name cut */
        "<",
        "",
    };
    static const char *const bad_text[] = {
        "<Code>&bogus;</Code>",    "<Code>&amp</Code>",     "<Code>&#0;</Code>",
        "<Code>&#x110000;</Code>", "<Code>&#xD800;</Code>", "<Code>&#12a;</Code>",
        "<Code>&#;</Code>",        "<Code>&#x;</Code>",     "<Code>&#99999999999;</Code>",
    };
    size_t len;
    char *text;
    (void)state;
    for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
        char *doc = exact(cut[i], &len);
        assert_int_equal(pm_s3_xml_text(doc, len, "Code", &text), PAIMON_ENOTFOUND);
        pm_free(doc);
    }
    for (size_t i = 0; i < sizeof(bad_text) / sizeof(bad_text[0]); i++) {
        char *doc = exact(bad_text[i], &len);
        assert_int_equal(pm_s3_xml_text(doc, len, "Code", &text), PAIMON_ECORRUPT);
        assert_null(text);
        pm_free(doc);
    }
    /* an unterminated record ends the walk: pos at the end, no endless loop */
    char *doc = exact("<Contents><Key>a</Key></Contents><Contents><Key>b</Key>", &len);
    size_t pos = 0, n = 0;
    pm_s3_xml_span rec;
    while (pm_s3_xml_next(doc, len, &pos, "Contents", &rec))
        n++;
    assert_int_equal(n, 1);
    assert_int_equal(pos, len);
    pm_free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_listing),
        cmocka_unit_test(test_error_body),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* util/utf8: strict decoding and validation at every edge (shortest forms, surrogates,
 * U+10FFFF, truncated and stray bytes), replacement decoding, encoding (surrogates as '?'
 * or as three bytes), counting and cutting by BinaryString's rule and by ORC's, and
 * character starts. */
#include <string.h>

#include "testlib.h"

#include "util/utf8.h"

#define S(lit) (const uint8_t *)(lit), sizeof(lit) - 1

static void test_decode_valid(void **state)
{
    static const struct {
        const char *bytes;
        size_t len;
        uint32_t cp;
    } ok[] = {
        {"\x00", 1, 0},
        {"\x7f", 1, 0x7f},
        {"\xc2\x80", 2, 0x80},
        {"\xdf\xbf", 2, 0x7ff},
        {"\xe0\xa0\x80", 3, 0x800},
        {"\xed\x9f\xbf", 3, 0xd7ff},
        {"\xee\x80\x80", 3, 0xe000},
        {"\xef\xbf\xbd", 3, 0xfffd},
        {"\xef\xbf\xbf", 3, 0xffff},
        {"\xf0\x90\x80\x80", 4, 0x10000},
        {"\xf4\x8f\xbf\xbf", 4, 0x10ffff},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        uint32_t cp = 0xdead;
        uint8_t enc[4];
        assert_int_equal(pm_utf8_decode((const uint8_t *)ok[i].bytes, ok[i].len, &cp), ok[i].len);
        assert_int_equal(cp, ok[i].cp);
        /* encoding gives the same bytes back */
        assert_int_equal(pm_utf8_encode(cp, enc), ok[i].len);
        assert_memory_equal(enc, ok[i].bytes, ok[i].len);
        assert_true(pm_utf8_validate((const uint8_t *)ok[i].bytes, ok[i].len, NULL));
    }
}

static void test_decode_invalid(void **state)
{
    static const struct {
        const char *bytes;
        size_t len;
    } bad[] = {
        {"\x80", 1},             /* stray continuation */
        {"\xbf", 1},             /* stray continuation */
        {"\xc0\x80", 2},         /* overlong NUL */
        {"\xc1\xbf", 2},         /* overlong */
        {"\xe0\x80\x80", 3},     /* overlong */
        {"\xe0\x9f\xbf", 3},     /* overlong U+07FF */
        {"\xed\xa0\x80", 3},     /* surrogate U+D800 */
        {"\xed\xbf\xbf", 3},     /* surrogate U+DFFF */
        {"\xf0\x80\x80\x80", 4}, /* overlong */
        {"\xf0\x8f\xbf\xbf", 4}, /* overlong U+FFFF */
        {"\xf4\x90\x80\x80", 4}, /* U+110000 */
        {"\xf5\x80\x80\x80", 4}, /* lead past F4 */
        {"\xff", 1},             /* never in UTF-8 */
        {"\xc2", 1},             /* truncated */
        {"\xe2\x82", 2},         /* truncated */
        {"\xf0\x9f\x98", 3},     /* truncated */
        {"\xc2\x41", 2},         /* continuation missing */
        {"\xe2\x28\xa1", 3},     /* continuation missing */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const uint8_t *b = (const uint8_t *)bad[i].bytes;
        size_t at = 0, chars = 99;
        assert_int_equal(pm_utf8_decode(b, bad[i].len, NULL), 0);
        assert_false(pm_utf8_validate(b, bad[i].len, &chars));
        assert_int_equal(chars, 99); /* untouched on failure */
        /* replacement decoding: U+FFFD for the first byte alone */
        assert_int_equal(pm_utf8_next(b, bad[i].len, &at), PM_UTF8_REPLACEMENT);
        assert_int_equal(at, 1);
    }
}

static void test_validate_counts(void **state)
{
    size_t chars = 0;
    (void)state;
    assert_true(pm_utf8_validate(S(""), &chars));
    assert_int_equal(chars, 0);
    /* ASCII runs longer than the 8-byte fast path, around multi-byte characters */
    assert_true(
        pm_utf8_validate(S("abcdefghijklmnop\xc3\xa9qrstuvwxyz0123\xf0\x9f\x98\x80!"), &chars));
    assert_int_equal(chars, 16 + 1 + 14 + 1 + 1);
    /* an invalid byte after a long ASCII run is still found */
    assert_false(pm_utf8_validate(S("abcdefghijklmnopqrstuvwxyz\x80"), NULL));
    assert_false(pm_utf8_validate(S("abcdefgh\xed\xa0\x80xyz"), NULL));
}

static void test_next_sequence(void **state)
{
    const uint8_t *s = (const uint8_t *)"a\xc3\xa9\xe0\x80\x80\xf0\x9f\x98\x80";
    size_t len = 10, i = 0;
    uint32_t want[] = {'a', 0xe9, 0xfffd, 0xfffd, 0xfffd, 0x1f600};
    (void)state;
    for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
        assert_int_equal(pm_utf8_next(s, len, &i), want[k]);
    assert_int_equal(i, len);
}

static void test_encode(void **state)
{
    uint8_t t[4];
    pm_buf b;
    (void)state;
    /* a lone surrogate: '?' as Java's String encoder writes it; three bytes when asked */
    assert_int_equal(pm_utf8_encode(0xd800, t), 1);
    assert_int_equal(t[0], '?');
    assert_int_equal(pm_utf8_encode(0xdfff, t), 1);
    assert_int_equal(pm_utf8_encode_any(0xd800, t), 3);
    assert_memory_equal(t, "\xed\xa0\x80", 3);
    assert_int_equal(pm_utf8_encode_any(0x7f, t), 1);
    assert_int_equal(pm_utf8_encode_any(0x10ffff, t), 4);
    assert_memory_equal(t, "\xf4\x8f\xbf\xbf", 4);
    pm_buf_init(&b, 0);
    assert_int_equal(pm_utf8_put(&b, 'x'), 0);
    assert_int_equal(pm_utf8_put(&b, 0xe9), 0);
    assert_int_equal(pm_utf8_put(&b, 0xdc00), 0);
    assert_int_equal(pm_utf8_put(&b, 0x1f600), 0);
    assert_int_equal(b.len, 1 + 2 + 1 + 4);
    assert_memory_equal(b.data, "x\xc3\xa9?\xf0\x9f\x98\x80", 8);
    pm_buf_free(&b);
    /* a bounded buffer: the error comes back */
    pm_buf_init(&b, 2);
    assert_int_equal(pm_utf8_put(&b, 0x1f600), PAIMON_ELIMIT);
    pm_buf_free(&b);
    /* pm_utf8_value reads a character of a known length without checks */
    assert_int_equal(pm_utf8_value((const uint8_t *)"\xc3\xa9", 2), 0xe9);
    assert_int_equal(pm_utf8_value((const uint8_t *)"\xe2\x82\xac", 3), 0x20ac);
    assert_int_equal(pm_utf8_value((const uint8_t *)"\xf0\x9f\x98\x80", 4), 0x1f600);
    assert_int_equal(pm_utf8_value((const uint8_t *)"\x80", 1), 0x80);
}

/* BinaryString.numBytesForFirstByte and what counts and cuts by it. */
static void test_binary_string_rule(void **state)
{
    (void)state;
    assert_int_equal(pm_utf8_char_len(0x41), 1);
    assert_int_equal(pm_utf8_char_len(0x80), 1); /* a stray continuation: one */
    assert_int_equal(pm_utf8_char_len(0xbf), 1);
    assert_int_equal(pm_utf8_char_len(0xc0), 1); /* (b & 0x1e) == 0: one */
    assert_int_equal(pm_utf8_char_len(0xc1), 1);
    assert_int_equal(pm_utf8_char_len(0xc2), 2);
    assert_int_equal(pm_utf8_char_len(0xdf), 2);
    assert_int_equal(pm_utf8_char_len(0xe0), 3);
    assert_int_equal(pm_utf8_char_len(0xef), 3);
    assert_int_equal(pm_utf8_char_len(0xf0), 4);
    assert_int_equal(pm_utf8_char_len(0xf7), 4);
    assert_int_equal(pm_utf8_char_len(0xf8), 1);
    assert_int_equal(pm_utf8_char_len(0xff), 1);
    /* valid text: characters are code points */
    assert_int_equal(pm_utf8_count(S("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")), 4);
    assert_int_equal(pm_utf8_prefix(S("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 0), 0);
    assert_int_equal(pm_utf8_prefix(S("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 2), 3);
    assert_int_equal(pm_utf8_prefix(S("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 3), 6);
    assert_int_equal(pm_utf8_prefix(S("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 9), 10);
    /* invalid: a three-byte lead swallows what follows, as Java's substring does */
    assert_int_equal(pm_utf8_count(S("\xe2\x41\x42\x43")), 2);
    assert_int_equal(pm_utf8_prefix(S("\xe2\x41\x42\x43"), 1), 3);
    /* a lead cut short at the end counts once and is kept whole */
    assert_int_equal(pm_utf8_count(S("ab\xf0\x9f")), 3);
    assert_int_equal(pm_utf8_prefix(S("ab\xf0\x9f"), 3), 4);
}

/* ORC's rule (a character per non-continuation byte) and character starts. */
static void test_lead_rule(void **state)
{
    size_t n = 0;
    (void)state;
    assert_int_equal(pm_utf8_lead_prefix(S("a\xc3\xa9\xe2\x82\xac"), 2, &n), 3);
    assert_int_equal(n, 2);
    assert_int_equal(pm_utf8_lead_prefix(S("a\xc3\xa9\xe2\x82\xac"), 5, &n), 6);
    assert_int_equal(n, 3);
    assert_int_equal(pm_utf8_lead_prefix(S("abc"), 0, &n), 0);
    assert_int_equal(n, 0);
    /* invalid: every non-continuation byte starts a character */
    assert_int_equal(pm_utf8_lead_prefix(S("\xe2\x41\x42"), 1, &n), 1);
    assert_int_equal(pm_utf8_lead_prefix(S(""), 3, &n), 0);
    assert_int_equal(n, 0);
    /* starts */
    {
        const uint8_t *s = (const uint8_t *)"a\xe2\x82\xac"
                                            "b";
        assert_int_equal(pm_utf8_char_start(s, 0, 0), 0);
        assert_int_equal(pm_utf8_char_start(s, 0, 1), 1);
        assert_int_equal(pm_utf8_char_start(s, 0, 2), 1);
        assert_int_equal(pm_utf8_char_start(s, 0, 3), 1);
        assert_int_equal(pm_utf8_char_start(s, 0, 4), 4);
        assert_int_equal(pm_utf8_char_start(s, 2, 3), 2); /* never before `from` */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_valid),    cmocka_unit_test(test_decode_invalid),
        cmocka_unit_test(test_validate_counts), cmocka_unit_test(test_next_sequence),
        cmocka_unit_test(test_encode),          cmocka_unit_test(test_binary_string_rule),
        cmocka_unit_test(test_lead_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Input errors (data/input.h): every class of bad input in JSONL and CSV gives
 * PAIMON_EINVALID with the exact message "line L, column C: what is wrong"; the error ends
 * the reader; limits, read errors and allocation failures are reported, never crashed on.
 */
#include <stdio.h>
#include <string.h>

#include "data/input.h"
#include "data/input_int.h"
#include "testlib.h"
#include "util/alloc.h"

static pm_type *columns(const char *text)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    if (pm_columns_parse(text, &t, &err) != 0)
        fail_msg("%s", err.message);
    return t;
}

/* Reads everything; returns the rows' canonical JSONL or "ERROR <CODE>: message". */
static char *read_all(pm_input_format fmt, const char *cols, const char *text, size_t len,
                      const pm_input_options *opts)
{
    pm_type *row = columns(cols);
    pm_row_input *in = NULL;
    paimon_error err = {0};
    pm_batch *b;
    const int8_t *k;
    pm_buf out;
    int rc;
    pm_buf_init(&out, 0);
    rc = pm_input_open_buffer(&in, fmt, text, len, row, opts, &err);
    while (rc == 0 && (rc = pm_input_next(in, &b, &k, &err)) == 0) {
        for (int64_t r = 0; r < b->row_count; r++) {
            assert_int_equal(pm_batch_row_json(&out, b, r, &err), 0);
            pm_buf_putc(&out, '\n');
        }
    }
    if (rc != PAIMON_ITEROVER) {
        paimon_error again = {0};
        pm_buf_reset(&out);
        pm_buf_printf(&out, "ERROR %s: %s",
                      rc == PAIMON_EINVALID ? "EINVALID"
                      : rc == PAIMON_ELIMIT ? "ELIMIT"
                                            : "other",
                      err.message);
        /* the error is sticky */
        if (in != NULL) {
            assert_int_equal(pm_input_next(in, &b, &k, &again), rc);
            assert_string_equal(again.message, err.message);
            assert_null(b);
        }
    }
    pm_input_free(in);
    pm_type_free(row);
    if (out.len == 0)
        return pm_strdup("");
    pm_buf_cstr(&out);
    return (char *)pm_buf_detach(&out, NULL);
}

static void check(pm_input_format fmt, const char *cols, const char *text, const char *want)
{
    char *got = read_all(fmt, cols, text, strlen(text), NULL);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "input:\n%s\nexpected:\n%s\ngot:\n%s\n", text, want, got);
        pm_free(got);
        fail();
    }
    pm_free(got);
}

#define E "ERROR EINVALID: "

static const char *COLS =
    "id BIGINT NOT NULL, t TINYINT, s SMALLINT, i INT, f FLOAT, d DOUBLE, "
    "amount DECIMAL(10, 2), big DECIMAL(38, 0), c CHAR(3), v VARCHAR(3), b BINARY(2), "
    "vb VARBINARY(3), dt DATE, tm TIME(3), ts TIMESTAMP(3), ts9 TIMESTAMP(9), ok BOOLEAN, "
    "tags ARRAY<INT NOT NULL>, m MAP<STRING, INT>, ms MULTISET<STRING>, "
    "r ROW<x INT NOT NULL, y STRING>";

static void jsonl(const char *row, const char *want)
{
    check(PM_INPUT_JSONL, COLS, row, want);
}

static void test_jsonl_values(void **state)
{
    (void)state;
    /* the line counts blank lines; the message names the column */
    jsonl("{\"id\":1}\n\n{\"id\":2,\"amount\":\"12.345\"}\n",
          E "line 3, column amount: 12.345 has more digits than DECIMAL(10, 2) allows");
    jsonl("{\"id\":1,\"amount\":\"123456789.5\"}",
          E "line 1, column amount: 123456789.5 has more digits than DECIMAL(10, 2) allows");
    jsonl("{\"id\":1,\"amount\":123456789}",
          E "line 1, column amount: 123456789 has more digits than DECIMAL(10, 2) allows");
    jsonl("{\"id\":1,\"amount\":\"1.2.3\"}",
          E "line 1, column amount: 1.2.3 is not a valid DECIMAL(10, 2)");
    jsonl("{\"id\":1,\"amount\":\"\"}",
          E "line 1, column amount: \"\" is not a valid DECIMAL(10, 2)");
    jsonl("{\"id\":1,\"big\":\"999999999999999999999999999999999999999\"}",
          E "line 1, column big: 999999999999999999999999999999999999999 has more digits than "
            "DECIMAL(38, 0) allows");
    jsonl("{\"id\":1,\"t\":128}", E "line 1, column t: 128 is out of the range of TINYINT");
    jsonl("{\"id\":1,\"s\":-32769}", E "line 1, column s: -32769 is out of the range of SMALLINT");
    jsonl("{\"id\":1,\"i\":2147483648}",
          E "line 1, column i: 2147483648 is out of the range of INT");
    jsonl("{\"id\":9223372036854775808}",
          E "line 1, column id: 9223372036854775808 is out of the range of BIGINT");
    jsonl("{\"id\":1,\"i\":1.5}", E "line 1, column i: expected an integer, got 1.5");
    jsonl("{\"id\":1,\"i\":\"12\"}", E "line 1, column i: expected an integer, got \"12\"");
    jsonl("{\"id\":1,\"i\":01}", E "line 1, column i: expected an integer, got 01");
    jsonl("{\"id\":1,\"f\":1e39}", E "line 1, column f: 1e39 is out of the range of FLOAT");
    jsonl("{\"id\":1,\"d\":1e309}", E "line 1, column d: 1e309 is out of the range of DOUBLE");
    jsonl("{\"id\":1,\"d\":\"nan\"}",
          E "line 1, column d: expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), got "
            "\"nan\"");
    jsonl("{\"id\":1,\"c\":\"abcd\"}",
          E "line 1, column c: abcd has 4 characters, more than CHAR(3) allows");
    jsonl("{\"id\":1,\"v\":\"h\u00e9\u00e9\u00e9\"}",
          E "line 1, column v: h\u00e9\u00e9\u00e9 has 4 characters, more than VARCHAR(3) allows");
    jsonl("{\"id\":1,\"v\":\"\xff\"}", E "line 1, column v: \\xff is not valid UTF-8");
    jsonl("{\"id\":1,\"b\":\"AAE=\"}",
          E "line 1, column b: AAE= is not \"base64:\" and standard base64 (how BINARY(2) values "
            "are written)");
    jsonl("{\"id\":1,\"b\":\"base64:AAEC\"}",
          E "line 1, column b: base64:AAEC has 3 bytes, more than BINARY(2) allows");
    jsonl("{\"id\":1,\"vb\":\"base64:A\"}", E "line 1, column vb: base64:A is not valid base64");
    jsonl("{\"id\":1,\"dt\":\"2023-02-29\"}",
          E "line 1, column dt: 2023-02-29 is not a valid DATE: no such day");
    jsonl("{\"id\":1,\"dt\":\"2023/01/01\"}",
          E "line 1, column dt: 2023/01/01 is not a valid DATE (YYYY-MM-DD)");
    jsonl("{\"id\":1,\"dt\":19000}", E "line 1, column dt: expected a date string, got 19000");
    jsonl("{\"id\":1,\"tm\":\"24:00:00\"}",
          E "line 1, column tm: 24:00:00 is not a valid TIME(3): no such time of day");
    jsonl("{\"id\":1,\"tm\":\"10:00:00.1234\"}",
          E "line 1, column tm: 10:00:00.1234 has more fractional digits than TIME(3) allows");
    jsonl("{\"id\":1,\"tm\":\"10:00\"}",
          E "line 1, column tm: 10:00 is not a valid TIME(3) (HH:MM:SS[.fraction])");
    jsonl("{\"id\":1,\"ts\":\"2024-01-01 10:00:00.1234\"}",
          E "line 1, column ts: 2024-01-01 10:00:00.1234 has more fractional digits than "
            "TIMESTAMP(3) allows");
    jsonl("{\"id\":1,\"ts\":\"2024-01-01 25:00:00\"}",
          E "line 1, column ts: 2024-01-01 25:00:00 is not a valid TIMESTAMP(3): no such time of "
            "day");
    jsonl("{\"id\":1,\"ts\":\"yesterday\"}",
          E "line 1, column ts: yesterday is not a valid TIMESTAMP(3) (YYYY-MM-DD "
            "HH:MM:SS[.fraction])");
    jsonl("{\"id\":1,\"ts9\":\"2300-01-01 00:00:00\"}",
          E "line 1, column ts9: 2300-01-01 00:00:00 is out of the range of TIMESTAMP(9)");
    jsonl("{\"id\":1,\"ok\":\"true\"}",
          E "line 1, column ok: expected true or false, got \"true\"");
    jsonl("{\"id\":1,\"ok\":tru}", E "line 1, column ok: expected true or false, got tru");
    /* trailing zeros beyond the scale and the precision are exact: accepted */
    jsonl("{\"id\":1,\"amount\":\"12.340\",\"ts\":\"2024-01-01 10:00:00.120000\","
          "\"tm\":\"23:59:59.999000000\"}",
          "{\"id\":1,\"t\":null,\"s\":null,\"i\":null,\"f\":null,\"d\":null,\"amount\":\"12.34\","
          "\"big\":null,\"c\":null,\"v\":null,\"b\":null,\"vb\":null,\"dt\":null,"
          "\"tm\":\"23:59:59.999\",\"ts\":\"2024-01-01 10:00:00.120\",\"ts9\":null,\"ok\":null,"
          "\"tags\":null,\"m\":null,\"ms\":null,\"r\":null}\n");
}

static void test_jsonl_nested(void **state)
{
    (void)state;
    jsonl("{\"id\":1,\"tags\":[1,null]}",
          E "line 1, column tags[1]: null, but the type is NOT NULL");
    jsonl("{\"id\":1,\"tags\":[1,\"x\"]}",
          E "line 1, column tags[1]: expected an integer, got \"x\"");
    jsonl("{\"id\":1,\"tags\":[1,2}", E "line 1, column tags: expected ',' or ']', got }");
    jsonl("{\"id\":1,\"tags\":{}}", E "line 1, column tags: expected an array, got {}");
    jsonl("{\"id\":1,\"m\":[[\"a\",1],[\"b\",\"x\"]]}",
          E "line 1, column m[1].value: expected an integer, got \"x\"");
    jsonl("{\"id\":1,\"m\":[[1,2]]}", E "line 1, column m[0].key: expected a string, got 1");
    jsonl("{\"id\":1,\"m\":{\"a\":1,\"b\":\"x\"}}",
          E "line 1, column m[1].value: expected an integer, got \"x\"");
    jsonl("{\"id\":1,\"m\":[[\"a\"]]}",
          E "line 1, column m[0].key: expected ',' and the second item of the pair, got ]");
    jsonl("{\"id\":1,\"m\":[\"a\",1]}",
          E "line 1, column m[0].key: expected a [key, value] pair, got \"a\"");
    jsonl("{\"id\":1,\"ms\":[[\"x\",1.5]]}",
          E "line 1, column ms[0].value: expected an integer, got 1.5");
    jsonl("{\"id\":1,\"ms\":[[\"x\",null]]}",
          E "line 1, column ms[0].value: null, but the type is NOT NULL");
    jsonl("{\"id\":1,\"r\":{\"y\":\"a\"}}",
          E "line 1, column r.x: missing, but the field is NOT NULL");
    jsonl("{\"id\":1,\"r\":{\"x\":1,\"z\":2}}", E "line 1, column r: unknown field \"z\"");
    jsonl("{\"id\":1,\"r\":{\"x\":1,\"x\":2}}", E "line 1, column r: field \"x\" appears twice");
    jsonl("{\"id\":1,\"r\":{\"x\":\"1\"}}", E "line 1, column r.x: expected an integer, got \"1\"");
    /* good nested values, maps in both forms */
    check(PM_INPUT_JSONL, "m MAP<INT, STRING>, r ROW<x INT NOT NULL, y ARRAY<STRING>>",
          "{\"m\":{\"1\":\"a\",\"-2\":null},\"r\":{\"y\":[\"p\",null],\"x\":3}}\n"
          "{\"m\":[[1,\"a\"],[null,\"b\"]],\"r\":null}\n",
          "{\"m\":[[1,\"a\"],[-2,null]],\"r\":{\"x\":3,\"y\":[\"p\",null]}}\n"
          "{\"m\":[[1,\"a\"],[null,\"b\"]],\"r\":null}\n");
    check(PM_INPUT_JSONL, "m MAP<INT, STRING>", "{\"m\":{\"x\":\"a\"}}",
          E "line 1, column m[0].key: x is not a valid INT");
}

static void test_jsonl_rows(void **state)
{
    (void)state;
    jsonl("{\"id\":1,\"nope\":2}", E "line 1: unknown column \"nope\"");
    jsonl("{\"id\":1,\"id\":2}", E "line 1: column id appears twice");
    jsonl("{\"t\":1}", E "line 1, column id: missing, but the column is NOT NULL");
    jsonl("{\"id\":null}", E "line 1, column id: null, but the column is NOT NULL");
    jsonl("{\"_ROW_KIND\":\"+X\",\"id\":1}",
          E "line 1: _ROW_KIND must be \"+I\", \"-U\", \"+U\" or \"-D\", not \"+X\"");
    jsonl("{\"_ROW_KIND\":1,\"id\":1}",
          E "line 1: expected _ROW_KIND \"+I\", \"-U\", \"+U\" or \"-D\", got 1");
    jsonl("{\"_ROW_KIND\":\"-D\",\"_ROW_KIND\":\"-D\",\"id\":1}",
          E "line 1: _ROW_KIND appears twice");
    jsonl("{\"id\":1", E "line 1: expected ',' or '}', the line ends");
    jsonl("{\"id\":1}}", E "line 1: expected the end of the line after the row object, got }");
    jsonl("[1]", E "line 1: expected a JSON object (one row per line), got [1]");
    jsonl("{\"id\":1,}", E "line 1: expected a column name, got }");
    jsonl("{\"id\" 1}", E "line 1: expected ':', got 1");
    jsonl("{\"id\":}", E "line 1, column id: expected an integer, got }");
    jsonl("{\"id\":1,\"v\":\"a\tb\"}",
          E "line 1, column v: raw control character 0x09 in a string (escape it)");
    jsonl("{\"id\":1,\"v\":\"\\q\"}", E "line 1, column v: bad escape \\q in a string");
    jsonl("{\"id\":1,\"v\":\"\\ud800\"}", E "line 1, column v: lone surrogate \\uD800 in a string");
    jsonl("{\"id\":1,\"v\":\"\\u12\"}", E "line 1, column v: bad \\u escape in a string");
    jsonl("{\"id\":1,\"v\":\"abc", E "line 1, column v: unterminated string");
    jsonl("{\"i\\u0064\":1,\"v\":\"\\u00e9\\ud83d\\ude00\"}",
          "{\"id\":1,\"t\":null,\"s\":null,\"i\":null,\"f\":null,\"d\":null,\"amount\":null,"
          "\"big\":null,\"c\":null,\"v\":\"\u00e9\xf0\x9f\x98\x80\",\"b\":null,\"vb\":null,"
          "\"dt\":null,\"tm\":null,\"ts\":null,\"ts9\":null,\"ok\":null,\"tags\":null,\"m\":null,"
          "\"ms\":null,\"r\":null}\n");
    /* CRLF lines, a byte-order mark, blank lines */
    check(PM_INPUT_JSONL, "a INT", "\xef\xbb\xbf{\"a\":1}\r\n\r\n  \n{\"a\":2}\r\n",
          "{\"a\":1}\n{\"a\":2}\n");
    check(PM_INPUT_JSONL, "a INT", "", "");
}

static const char *CCOLS = "id BIGINT NOT NULL, name STRING, amount DECIMAL(10, 2), "
                           "tags ARRAY<INT>";

static void csv(const char *text, const char *want)
{
    check(PM_INPUT_CSV, CCOLS, text, want);
}

static void test_csv(void **state)
{
    (void)state;
    csv("id,nme\n", E "line 1: unknown column \"nme\" in the header");
    csv("id,id\n", E "line 1: column id appears twice in the header");
    csv("name\n", E "line 1: column id is NOT NULL, but the header does not name it");
    csv("_ROW_KIND,id,_ROW_KIND\n", E "line 1: _ROW_KIND appears twice in the header");
    csv("id,name\n1,a,b\n", E "line 2: more fields than the 2 of the header");
    csv("id,name\n1\n", E "line 2: 1 field, but the header has 2");
    csv("id,name,amount\n1,a\n", E "line 2: 2 fields, but the header has 3");
    csv("id,name\n1,a\"b\n",
        E "line 2, column name: a\"b has a quote inside an unquoted field (quote the field and "
          "double the quote)");
    csv("id,name\n1,\"a\"b\n",
        E "line 2, column name: unexpected b after a closing quote (a quoted field ends with a "
          "quote and a comma)");
    csv("id,name\n1,x\n2,\"abc\n3,x\n", E "line 3: a quoted field is not closed");
    csv("id,name\n1,\"a\nb\nc\"\n2x,y\n", E "line 5, column id: 2x is not a valid BIGINT");
    csv("id,amount\n1,12.345\n",
        E "line 2, column amount: 12.345 has more digits than DECIMAL(10, 2) allows");
    csv("id,name\n,a\n", E "line 2, column id: null, but the column is NOT NULL");
    csv("id,name\n\"\",a\n", E "line 2, column id: \"\" is not a valid BIGINT");
    csv("_ROW_KIND,id\nX,1\n", E "line 2: _ROW_KIND must be +I, -U, +U or -D, not X");
    csv("id,tags\n1,\"[1,x]\"\n", E "line 2, column tags[1]: expected an integer, got x");
    csv("id,tags\n1,[1]x\n", E "line 2, column tags: unexpected x after the value");
    csv("id,tags\n1,\"[1] x\"\n", E "line 2, column tags: unexpected x after the value");
    /* good input: CRLF, a byte-order mark, quoted line breaks, "" and NULL, any order */
    csv("\xef\xbb\xbfname,_ROW_KIND,id,tags\r\n\"a\r\nb\",-D,1,\"[1,null]\"\r\n"
        "\"\",,2,\r\n,+U,3,[]\r\n\r\n\" x \"\"y\"\" \",-U,4,\n",
        "{\"id\":1,\"name\":\"a\\r\\nb\",\"amount\":null,\"tags\":[1,null]}\n"
        "{\"id\":2,\"name\":\"\",\"amount\":null,\"tags\":null}\n"
        "{\"id\":3,\"name\":null,\"amount\":null,\"tags\":[]}\n"
        "{\"id\":4,\"name\":\" x \\\"y\\\" \",\"amount\":null,\"tags\":null}\n");
    /* a single column: an empty line is a NULL row */
    check(PM_INPUT_CSV, "s STRING", "s\nx\n\n\"\"\n",
          "{\"s\":\"x\"}\n{\"s\":null}\n{\"s\":\"\"}\n");
    check(PM_INPUT_CSV, "s STRING", "", "");
    check(PM_INPUT_CSV, "s STRING", "s", "");
}

static void test_limits_and_io(void **state)
{
    pm_input_options opts = PM_INPUT_OPTIONS_INIT;
    char *got;
    pm_type *row = columns("a INT");
    pm_row_input *in = NULL;
    paimon_error err = {0};
    pm_batch *b;
    const int8_t *k;
    FILE *f;
    const char *text = "{\"a\":1}\n{\"a\":12345678}\n";
    (void)state;
    opts.max_record_len = 12;
    got = read_all(PM_INPUT_JSONL, "a INT", text, strlen(text), &opts);
    assert_string_equal(got, "ERROR ELIMIT: line 2: a record longer than 12 bytes");
    pm_free(got);

    /* the same through a FILE: the reader never holds more than the record */
    f = fmemopen((void *)text, strlen(text), "r");
    opts.read_len = 4;
    assert_int_equal(pm_input_open_file(&in, PM_INPUT_JSONL, f, row, &opts, &err), 0);
    assert_int_equal(pm_input_next(in, &b, &k, &err), 0); /* the row before */
    assert_int_equal(b->row_count, 1);
    assert_int_equal(pm_input_next(in, &b, &k, &err), PAIMON_ELIMIT);
    assert_string_equal(err.message, "line 2: a record longer than 12 bytes");
    pm_input_free(in);
    fclose(f);

    /* a CSV record (quoted line breaks included) over the limit */
    opts.read_len = 0;
    text = "a\n\"1\n2\n3\n4\n5\n6\n7\"\n";
    got = read_all(PM_INPUT_CSV, "a STRING", text, strlen(text), &opts);
    assert_string_equal(got, "ERROR ELIMIT: line 2: a record longer than 12 bytes");
    pm_free(got);

    /* a read error */
    f = fopen("/dev/null", "w");
    assert_int_equal(pm_input_open_file(&in, PM_INPUT_JSONL, f, row, NULL, &err), 0);
    assert_int_equal(pm_input_next(in, &b, &k, &err), PAIMON_EIO);
    assert_non_null(strstr(err.message, "line 1: read error"));
    pm_input_free(in);
    fclose(f);

    /* bad arguments */
    {
        pm_input_format fmt;
        assert_int_equal(pm_input_format_parse("xml", &fmt, &err), PAIMON_EINVALID);
        assert_string_equal(err.message,
                            "unknown input format 'xml' (jsonl, csv or debezium-json)");
        assert_int_equal(pm_input_format_parse("debezium-json", &fmt, &err), 0);
        assert_int_equal(fmt, PM_INPUT_DEBEZIUM_JSON);
        assert_int_equal(
            pm_input_open_buffer(&in, PM_INPUT_CSV, "", 0, row->fields[0].type, NULL, &err),
            PAIMON_EINVALID);
        assert_null(in);
    }
    pm_type_free(row);
}

/* Every allocation may fail: the reader reports PAIMON_ENOMEM and leaks nothing. */
static void test_allocation_failures(void **state)
{
    static const struct {
        pm_input_format fmt;
        const char *text;
    } inputs[] = {
        {PM_INPUT_JSONL, "{\"a\":1,\"s\":\"x\\u00e9\",\"m\":{\"k\":[1,2]},\"b\":\"base64:AAE=\"}\n"
                         "{\"a\":2,\"s\":null,\"m\":[[\"q\",null]]}\n"},
        {PM_INPUT_CSV, "a,s,m,b\n1,\"x\"\"y\",\"[[\"\"k\"\",[3]]]\",base64:AAE=\n2,,,\n"},
        {PM_INPUT_DEBEZIUM_JSON,
         "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"struct\",\"field\":\"after\","
         "\"fields\":[{\"type\":\"bytes\",\"field\":\"b\"}]}]},\"payload\":{\"op\":\"u\","
         "\"before\":{\"a\":1},\"after\":{\"a\":2,\"b\":\"AAE=\"}}}\n"},
    };
    pm_type *row = columns("a INT, s STRING, m MAP<STRING, ARRAY<INT>>, b BYTES");
    (void)state;
    for (size_t t = 0; t < sizeof(inputs) / sizeof(inputs[0]); t++) {
        long n;
        for (n = 1; n < 400; n++) {
            pm_row_input *in = NULL;
            paimon_error err = {0};
            pm_batch *b;
            const int8_t *k;
            int rc;
            pm_input_options opts = PM_INPUT_OPTIONS_INIT;
            opts.batch_rows = 1;
            pm_alloc_fail_after(n);
            rc = pm_input_open_buffer(&in, inputs[t].fmt, inputs[t].text, strlen(inputs[t].text),
                                      row, &opts, &err);
            while (rc == 0 && (rc = pm_input_next(in, &b, &k, &err)) == 0)
                ;
            pm_alloc_fail_after(0);
            pm_input_free(in);
            if (rc == PAIMON_ITEROVER)
                break; /* enough allocations: it went through */
            if (rc != PAIMON_ENOMEM)
                fail_msg("input %zu, allocation %ld: %d %s", t, n, rc, err.message);
        }
        assert_true(n < 400);
    }
    pm_type_free(row);
}

/* The rows before a bad record come out (the batch is cut there, nested values included);
 * the error follows with the next call, so the rows never depend on the batch size. */
/* How a bad value is shown in a message: valid UTF-8 as it is, anything else (overlong
 * forms, surrogates, stray or truncated bytes) escaped, so the message is valid UTF-8. */
static void test_show_value(void **state)
{
    char out[PM_INPUT_SHOW_CAP];
    (void)state;
    assert_string_equal(pm_input_show(out, (const uint8_t *)"a\xc3\xa9\n", 4), "a\xc3\xa9\\n");
    assert_string_equal(pm_input_show(out, (const uint8_t *)"\xc0\x80", 2), "\\xc0\\x80");
    assert_string_equal(pm_input_show(out, (const uint8_t *)"\xed\xa0\x80", 3), "\\xed\\xa0\\x80");
    assert_string_equal(pm_input_show(out, (const uint8_t *)"\xf5\x80\x80\x80", 4),
                        "\\xf5\\x80\\x80\\x80");
    assert_string_equal(pm_input_show(out, (const uint8_t *)"x\xe2\x82", 3), "x\\xe2\\x82");
}

static void test_rows_before_an_error(void **state)
{
    const char *text = "{\"a\":1,\"m\":{\"x\":[1,null]},\"r\":{\"s\":\"p\",\"n\":[[1,2]]}}\n"
                       "{\"a\":null,\"m\":null,\"r\":null}\n"
                       "{\"a\":3,\"m\":{\"y\":[2],\"z\":[3,\"x\"]},\"r\":{\"s\":\"q\"}}\n"
                       "{\"a\":4}\n";
    pm_type *row =
        columns("a INT, m MAP<STRING, ARRAY<INT>>, r ROW<s STRING, n ARRAY<ARRAY<INT>>>");
    (void)state;
    for (int64_t batch_rows = 1; batch_rows <= 4; batch_rows++) {
        pm_input_options opts = PM_INPUT_OPTIONS_INIT;
        pm_row_input *in = NULL;
        paimon_error err = {0};
        pm_batch *b;
        const int8_t *k;
        pm_buf out;
        int rc;
        pm_buf_init(&out, 0);
        opts.batch_rows = batch_rows;
        assert_int_equal(
            pm_input_open_buffer(&in, PM_INPUT_JSONL, text, strlen(text), row, &opts, &err), 0);
        while ((rc = pm_input_next(in, &b, &k, &err)) == 0) {
            if (pm_batch_validate(b, &err) != 0)
                fail_msg("%s", err.message);
            for (int64_t r = 0; r < b->row_count; r++) {
                assert_int_equal(pm_batch_row_json(&out, b, r, &err), 0);
                pm_buf_putc(&out, '\n');
            }
        }
        assert_int_equal(rc, PAIMON_EINVALID);
        assert_string_equal(err.message,
                            "line 3, column m[1].value[1]: expected an integer, got \"x\"");
        assert_string_equal(pm_buf_cstr(&out),
                            "{\"a\":1,\"m\":[[\"x\",[1,null]]],\"r\":{\"s\":\"p\",\"n\":[[1,2]]}}\n"
                            "{\"a\":null,\"m\":null,\"r\":null}\n");
        pm_buf_free(&out);
        pm_input_free(in);
    }
    pm_type_free(row);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jsonl_values),         cmocka_unit_test(test_jsonl_nested),
        cmocka_unit_test(test_jsonl_rows),           cmocka_unit_test(test_csv),
        cmocka_unit_test(test_limits_and_io),        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_rows_before_an_error), cmocka_unit_test(test_show_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

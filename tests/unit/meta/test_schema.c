/* Schema files: every fixture schema parses and re-serializes to the same values; the
 * 1.4.2 layout byte for byte; Java's compatibility defaults; validation. */
#include <string.h>

#include "testlib.h"

#include "meta/schema.h"
#include "util/alloc.h"
#include "util/json.h"

/* metadata.md §3.5 (VERIFIED, Java-written). */
static const char JAVA_SCHEMA[] = "{\n"
                                  "  \"version\" : 3,\n"
                                  "  \"id\" : 0,\n"
                                  "  \"fields\" : [ {\n"
                                  "    \"id\" : 0,\n"
                                  "    \"name\" : \"id\",\n"
                                  "    \"type\" : \"INT NOT NULL\"\n"
                                  "  }, {\n"
                                  "    \"id\" : 1,\n"
                                  "    \"name\" : \"content\",\n"
                                  "    \"type\" : \"STRING\"\n"
                                  "  } ],\n"
                                  "  \"highestFieldId\" : 1,\n"
                                  "  \"partitionKeys\" : [ ],\n"
                                  "  \"primaryKeys\" : [ \"id\" ],\n"
                                  "  \"options\" : {\n"
                                  "    \"bucket\" : \"1\",\n"
                                  "    \"deletion-vectors.enabled\" : \"true\"\n"
                                  "  },\n"
                                  "  \"comment\" : \"\",\n"
                                  "  \"timeMillis\" : 1784213607048\n"
                                  "}";

static pm_schema *parse(const char *text, int expect)
{
    pm_schema *s = NULL;
    paimon_error err = {0};
    int rc = pm_schema_parse((const uint8_t *)text, strlen(text), "schema-0", &s, &err);
    if (rc != expect)
        fail_msg("rc %d (%s), expected %d", rc, err.message, expect);
    return s;
}

static void test_java_layout(void **state)
{
    pm_schema *s = parse(JAVA_SCHEMA, 0);
    pm_buf out;
    (void)state;
    assert_int_equal(s->version, 3);
    assert_string_equal(s->comment, "");
    assert_int_equal(s->row->field_count, 2);
    pm_buf_init(&out, 0);
    assert_int_equal(pm_schema_write_json(s, &out), 0);
    assert_string_equal(pm_buf_cstr(&out), JAVA_SCHEMA);
    pm_buf_free(&out);
    pm_schema_free(s);
}

static void test_old_version_defaults(void **state)
{
    pm_schema *s;
    (void)state;
    /* No version: Paimon 0.7, bucket=1 and file.format=orc are implied. */
    s = parse("{\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
              "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}",
              0);
    assert_int_equal(s->version, 1);
    assert_string_equal(pm_schema_option(s, "bucket"), "1");
    assert_string_equal(pm_schema_option(s, "file.format"), "orc");
    assert_int_equal(s->time_millis, 0);
    assert_null(s->comment);
    pm_schema_free(s);
    /* Version 2 keeps the bucket option it has; numbers become text (Java's asText). */
    s = parse("{\"version\":2,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
              "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],"
              "\"options\":{\"bucket\":4,\"x\":true}}",
              0);
    assert_string_equal(pm_schema_option(s, "bucket"), "4");
    assert_string_equal(pm_schema_option(s, "x"), "true");
    assert_string_equal(pm_schema_option(s, "file.format"), "orc");
    pm_schema_free(s);
    /* Version 3 implies nothing. */
    s = parse("{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"}],"
              "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}",
              0);
    assert_null(pm_schema_option(s, "file.format"));
    pm_schema_free(s);
}

static void test_malformed(void **state)
{
    paimon_error err = {0};
    pm_schema *s = NULL;
    (void)state;
    parse("{\"version\":3,\"id\":0}", PAIMON_ECORRUPT);
    parse("{\"version\":3,\"id\":0,\"fields\":[],\"partitionKeys\":[],\"primaryKeys\":[],"
          "\"options\":{}}",
          PAIMON_ECORRUPT);
    parse("{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"NOPE\"}],"
          "\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{}}",
          PAIMON_ECORRUPT);
    assert_int_equal(pm_schema_parse((const uint8_t *)"{", 1, "schema-3", &s, &err),
                     PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "schema-3: malformed JSON"));
}

static void test_validation(void **state)
{
    static const struct {
        const char *json;
        const char *fragment;
    } cases[] = {
        {"\"partitionKeys\":[\"zz\"],\"primaryKeys\":[]", "partition key zz is not a column"},
        {"\"partitionKeys\":[],\"primaryKeys\":[\"a\",\"a\"]", "primary key a is listed twice"},
        {"\"partitionKeys\":[\"a\"],\"primaryKeys\":[\"a\"]",
         "primary key must hold a column that is not a partition key"},
        {"\"partitionKeys\":[\"a\",\"b\"],\"primaryKeys\":[]", "every column is a partition key"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[1024];
        pm_schema *s;
        paimon_error err = {0};
        snprintf(text, sizeof(text),
                 "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"},"
                 "{\"id\":1,\"name\":\"b\",\"type\":\"INT\"}],\"highestFieldId\":1,%s,"
                 "\"options\":{}}",
                 cases[i].json);
        s = parse(text, 0);
        assert_int_equal(pm_schema_validate(s, &err), PAIMON_EINVALID);
        if (strstr(err.message, cases[i].fragment) == NULL)
            fail_msg("'%s' lacks '%s'", err.message, cases[i].fragment);
        pm_schema_free(s);
    }
}

/* A schema file whose column is `levels` ARRAY objects deep. */
static char *deep_schema(int levels)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    pm_buf_puts(&b, "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"c\",\"type\":");
    for (int i = 0; i < levels; i++)
        pm_buf_puts(&b, "{\"type\":\"ARRAY\",\"element\":");
    pm_buf_puts(&b, "\"INT\"");
    for (int i = 0; i < levels; i++)
        pm_buf_putc(&b, '}');
    pm_buf_puts(&b, "}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],"
                    "\"options\":{}}");
    return (char *)pm_buf_detach(&b, NULL);
}

/* Issue 19: a schema file nested deeper than PM_MAX_NESTING is corrupt (a 700-level one made
 * a table that could never open again, 20,000 levels a 3.1 GB file); the deepest legal one
 * opens and validates. */
static void test_nesting(void **state)
{
    static const int levels[] = {PM_MAX_NESTING, PM_MAX_NESTING + 1, 700, 20000};
    (void)state;
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        char *text = deep_schema(levels[i]);
        pm_schema *s = NULL;
        paimon_error err = {0};
        int rc = pm_schema_parse((const uint8_t *)text, strlen(text), "schema-0", &s, &err);
        if (i == 0) {
            assert_int_equal(rc, 0);
            assert_int_equal(pm_schema_validate(s, &err), 0);
        } else {
            assert_int_equal(rc, PAIMON_ECORRUPT);
            assert_null(s);
            assert_non_null(strstr(err.message, "schema-0: "));
        }
        if (i == 1 && strstr(err.message, "field c: ARRAY element: ") == NULL)
            fail_msg("'%s'", err.message);
        if (i == 1 && strstr(err.message, "type nested deeper than 64 levels") == NULL)
            fail_msg("'%s'", err.message);
        pm_schema_free(s);
        pm_free(text);
    }
}

/* Issue 19 item 9: what the table's file format cannot store is refused as Java's
 * FileFormat.validateDataFields refuses it (the message names the column). */
static void test_format_checks(void **state)
{
    static const struct {
        const char *format; /* NULL: the default, parquet */
        const char *type;
        const char *fragment; /* NULL: valid */
    } cases[] = {
        {NULL, "\"TIMESTAMP(9)\"", NULL},
        {NULL, "\"VARIANT\"", NULL},
        {"orc", "\"TIMESTAMP(9)\"", NULL},
        {"ORC", "\"VARIANT\"", "column c: ORC has no form for VARIANT (file.format orc)"},
        {"orc", "{\"type\":\"ARRAY\",\"element\":\"VARIANT\"}", "column c: ORC has no form"},
        {"avro", "\"TIMESTAMP(6)\"", NULL},
        {"avro", "\"TIMESTAMP(9)\"", "column c: Avro keeps TIMESTAMP to 6 fraction digits"},
        {"Avro", "\"TIME(6)\"", "column c: Avro keeps TIME to 3 fraction digits"},
        {"avro", "{\"type\":\"MAP\",\"key\":\"INT\",\"value\":\"VARIANT\"}",
         "column c: Avro has no form for VARIANT"},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[1024];
        pm_schema *s;
        paimon_error err = {0};
        int rc;
        snprintf(text, sizeof(text),
                 "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"c\",\"type\":%s},"
                 "{\"id\":1,\"name\":\"b\",\"type\":\"INT\"}],\"highestFieldId\":1,"
                 "\"partitionKeys\":[],\"primaryKeys\":[],\"options\":{%s%s%s}}",
                 cases[i].type, cases[i].format != NULL ? "\"file.format\":\"" : "",
                 cases[i].format != NULL ? cases[i].format : "",
                 cases[i].format != NULL ? "\"" : "");
        s = parse(text, 0);
        rc = pm_schema_validate(s, &err);
        if (cases[i].fragment == NULL) {
            if (rc != 0)
                fail_msg("case %zu refused: %s", i, err.message);
        } else {
            assert_int_equal(rc, PAIMON_EINVALID);
            if (strstr(err.message, cases[i].fragment) == NULL)
                fail_msg("'%s' lacks '%s'", err.message, cases[i].fragment);
        }
        pm_schema_free(s);
    }
}

static void test_fixture_schemas(void **state)
{
    pm_strlist files;
    size_t n = 0;
    (void)state;
    if (!pm_test_require_fixtures())
        return;
    pm_strlist_init(&files);
    pm_test_find_files(pm_test_fixtures(), "schema-", &files);
    for (size_t i = 0; i < files.count; i++) {
        size_t len;
        uint8_t *data = pm_test_read_file(files.items[i], &len);
        pm_schema *s = NULL, *again = NULL;
        paimon_error err = {0};
        pm_buf out;
        json_t *a, *b;
        if (pm_schema_parse(data, len, files.items[i], &s, &err) != 0)
            fail_msg("%s", err.message);
        pm_buf_init(&out, 0);
        assert_int_equal(pm_schema_write_json(s, &out), 0);
        assert_int_equal(pm_schema_parse(out.data, out.len, "again", &again, &err), 0);
        a = pm_schema_to_json(s);
        b = pm_schema_to_json(again);
        assert_true(json_equal(a, b));
        json_decref(a);
        json_decref(b);
        pm_buf_free(&out);
        pm_schema_free(s);
        pm_schema_free(again);
        pm_free(data);
        n++;
    }
    assert_true(n >= 25);
    pm_strlist_free(&files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_layout),     cmocka_unit_test(test_old_version_defaults),
        cmocka_unit_test(test_malformed),       cmocka_unit_test(test_validation),
        cmocka_unit_test(test_fixture_schemas), cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_format_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

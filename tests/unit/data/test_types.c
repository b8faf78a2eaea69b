/* Paimon types: the string parser (every atomic type, aliases, defaults, nesting, errors),
 * Java's written forms, the JSON form, COLUMNS with Java's field-id order. */
#include <string.h>

#include "testlib.h"

#include "data/type_json.h"
#include "data/types.h"
#include "util/alloc.h"
#include "util/json.h"

static char *fmt(const pm_type *t)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    assert_int_equal(pm_type_format(t, &b), 0);
    return (char *)pm_buf_detach(&b, NULL);
}

/* Parses `in` and checks its written form is `want`. */
static void check(const char *in, const char *want)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    char *s;
    if (pm_type_parse(in, &t, &err) != 0)
        fail_msg("'%s' did not parse: %s", in, err.message);
    s = fmt(t);
    if (strcmp(s, want) != 0)
        fail_msg("'%s' written as '%s', expected '%s'", in, s, want);
    pm_free(s);
    pm_type_free(t);
}

static void test_atomic_types(void **state)
{
    (void)state;
    check("BOOLEAN", "BOOLEAN");
    check("TINYINT", "TINYINT");
    check("SMALLINT", "SMALLINT");
    check("INT", "INT");
    check("INTEGER", "INT");
    check("BIGINT", "BIGINT");
    check("FLOAT", "FLOAT");
    check("DOUBLE", "DOUBLE");
    check("DOUBLE PRECISION", "DOUBLE");
    check("DECIMAL", "DECIMAL(10, 0)");
    check("DECIMAL(5)", "DECIMAL(5, 0)");
    check("DECIMAL(38, 18)", "DECIMAL(38, 18)");
    check("NUMERIC(18,2)", "DECIMAL(18, 2)");
    check("DEC(3, 3)", "DECIMAL(3, 3)");
    check("CHAR", "CHAR(1)");
    check("CHAR(10)", "CHAR(10)");
    check("VARCHAR", "VARCHAR(1)");
    check("VARCHAR(20)", "VARCHAR(20)");
    check("VARCHAR(2147483647)", "STRING");
    check("STRING", "STRING");
    check("BINARY", "BINARY(1)");
    check("BINARY(16)", "BINARY(16)");
    check("VARBINARY(7)", "VARBINARY(7)");
    check("VARBINARY(2147483647)", "BYTES");
    check("BYTES", "BYTES");
    check("DATE", "DATE");
    check("TIME", "TIME(0)");
    check("TIME(3)", "TIME(3)");
    check("TIME(3) WITHOUT TIME ZONE", "TIME(3)");
    check("TIMESTAMP", "TIMESTAMP(6)");
    check("TIMESTAMP(0)", "TIMESTAMP(0)");
    check("TIMESTAMP(9) WITHOUT TIME ZONE", "TIMESTAMP(9)");
    check("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP(3) WITH LOCAL TIME ZONE");
    check("TIMESTAMP WITH LOCAL TIME ZONE", "TIMESTAMP(6) WITH LOCAL TIME ZONE");
    check("TIMESTAMP_LTZ(9)", "TIMESTAMP(9) WITH LOCAL TIME ZONE");
    check("int not null", "INT NOT NULL");
    check("STRING NULL", "STRING");
    check("  bigint   NOT   NULL ", "BIGINT NOT NULL");
    check("VARIANT", "VARIANT");
}

static void test_nested_types(void **state)
{
    (void)state;
    check("ARRAY<INT>", "ARRAY<INT>");
    check("ARRAY<INT NOT NULL> NOT NULL", "ARRAY<INT NOT NULL> NOT NULL");
    check("INT ARRAY", "ARRAY<INT>");
    check("STRING MULTISET", "MULTISET<STRING>");
    check("MAP<STRING, BIGINT>", "MAP<STRING, BIGINT>");
    check("MAP<STRING,ARRAY<MAP<INT,DOUBLE>>>", "MAP<STRING, ARRAY<MAP<INT, DOUBLE>>>");
    check("ROW<a INT, b STRING NOT NULL>", "ROW<a INT, b STRING NOT NULL>");
    check("ROW(a INT, `b c` ROW<x DECIMAL(5, 2)>)", "ROW<a INT, `b c` ROW<x DECIMAL(5, 2)>>");
}

static void check_error(const char *in, const char *fragment)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_type_parse(in, &t, &err), PAIMON_EINVALID);
    assert_null(t);
    if (strstr(err.message, fragment) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", in, err.message, fragment);
}

static void test_type_errors(void **state)
{
    (void)state;
    check_error("", "type expected");
    check_error("INTEGRAL", "unknown type");
    check_error("DECIMAL(39, 2)", "precision must be between 1 and 38");
    check_error("DECIMAL(5, 6)", "scale must be between 0 and 5");
    check_error("VARCHAR(0)", "length must be between");
    check_error("TIMESTAMP(10)", "precision must be between 0 and 9");
    check_error("TIMESTAMP(3) WITH TIME ZONE", "'LOCAL' expected");
    check_error("ARRAY<INT", "'>' expected");
    check_error("MAP<INT>", "',' expected");
    check_error("INT INT", "unexpected token");
    check_error("INT NOT", "'NULL' expected");
    check_error("ROW<a INT, a STRING>", "duplicate column name 'a'");
    check_error("ROW<`a INT>", "unterminated quoted name");
    check_error("BIGINT $", "unexpected character");
}

static void test_columns_and_ids(void **state)
{
    pm_type *row = NULL;
    paimon_error err = {0};
    char *s;
    (void)state;
    /* metadata.md §3.4: a=0, b=1, x=2, z=3, y=4 (a child's nested fields first). */
    assert_int_equal(pm_columns_parse("a INT, b ROW<x INT, y ROW<z INT>>", &row, &err), 0);
    assert_int_equal(row->fields[0].id, 0);
    assert_int_equal(row->fields[1].id, 1);
    assert_int_equal(row->fields[1].type->fields[0].id, 2);
    assert_int_equal(row->fields[1].type->fields[1].type->fields[0].id, 3);
    assert_int_equal(row->fields[1].type->fields[1].id, 4);
    assert_int_equal(pm_type_highest_field_id(row), 4);
    assert_int_equal(pm_type_check_ids(row, &err), 0);
    pm_type_free(row);

    assert_int_equal(
        pm_columns_parse("id BIGINT NOT NULL, `select` STRING COMMENT 'a ''quoted'' word', "
                         "m MAP<STRING, ARRAY<ROW<k INT>>>",
                         &row, &err),
        0);
    assert_int_equal(row->field_count, 3);
    assert_string_equal(row->fields[1].name, "select");
    assert_string_equal(row->fields[1].description, "a 'quoted' word");
    assert_false(row->fields[0].type->nullable);
    /* m takes id 2, then its nested row field k takes 3 */
    assert_int_equal(row->fields[2].id, 2);
    assert_int_equal(row->fields[2].type->value->element->fields[0].id, 3);
    s = fmt(row);
    assert_string_equal(s, "ROW<id BIGINT NOT NULL, select STRING, m MAP<STRING, "
                           "ARRAY<ROW<k INT>>>> NOT NULL");
    pm_free(s);
    pm_type_free(row);

    assert_int_equal(pm_columns_parse("", &row, &err), PAIMON_EINVALID);
    assert_int_equal(pm_columns_parse("a INT,", &row, &err), PAIMON_EINVALID);
    assert_int_equal(pm_columns_parse("a INT b STRING", &row, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "',' expected"));
    assert_int_equal(pm_columns_parse("a INT, A INT, a BIGINT", &row, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "duplicate column name 'a'"));
}

static void test_json_round_trip(void **state)
{
    static const char *json =
        "[{\"id\":0,\"name\":\"id\",\"type\":\"INT NOT NULL\"},"
        "{\"id\":1,\"name\":\"f\",\"type\":{\"type\":\"ROW\",\"fields\":[{\"id\":2,\"name\":\"m\","
        "\"type\":{\"type\":\"MAP NOT NULL\",\"key\":\"STRING\",\"value\":\"INT\"}},{\"id\":3,"
        "\"name\":\"a\",\"type\":{\"type\":\"ARRAY\",\"element\":\"DECIMAL(5, 2)\"}}]},"
        "\"description\":\"nested\"},"
        "{\"id\":4,\"name\":\"s\",\"type\":{\"type\":\"MULTISET\",\"element\":\"VARCHAR(3) NOT "
        "NULL\"},\"defaultValue\":\"x\"}]";
    json_t *in = json_loads(json, 0, NULL), *out;
    pm_type *row = NULL;
    paimon_error err = {0};
    pm_buf a, b;
    (void)state;
    assert_non_null(in);
    assert_int_equal(pm_fields_from_json(in, &row, &err), 0);
    assert_int_equal(row->fields[1].type->fields[0].type->id, PM_TYPE_MAP);
    assert_false(row->fields[1].type->fields[0].type->nullable);
    assert_string_equal(row->fields[1].description, "nested");
    assert_string_equal(row->fields[2].default_value, "x");
    out = pm_fields_to_json(row);
    pm_buf_init(&a, 0);
    pm_buf_init(&b, 0);
    assert_int_equal(pm_json_write_compact(&a, in), 0);
    assert_int_equal(pm_json_write_compact(&b, out), 0);
    assert_string_equal(pm_buf_cstr(&a), pm_buf_cstr(&b));
    pm_buf_free(&a);
    pm_buf_free(&b);
    json_decref(in);
    json_decref(out);
    pm_type_free(row);

    /* A field without an id is a corrupt schema, as in Java. */
    in = json_loads("[{\"name\":\"x\",\"type\":\"INT\"}]", 0, NULL);
    assert_int_equal(pm_fields_from_json(in, &row, &err), PAIMON_ECORRUPT);
    assert_non_null(strstr(err.message, "id"));
    json_decref(in);
}

static void test_duplicate_ids_rejected(void **state)
{
    json_t *in = json_loads("[{\"id\":0,\"name\":\"a\",\"type\":\"INT\"},{\"id\":1,\"name\":\"b\","
                            "\"type\":{\"type\":\"ROW\",\"fields\":[{\"id\":0,\"name\":\"x\","
                            "\"type\":\"INT\"}]}}]",
                            0, NULL);
    pm_type *row = NULL;
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_fields_from_json(in, &row, &err), 0);
    assert_int_equal(pm_type_check_ids(row, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "field id 0 is duplicated"));
    pm_type_free(row);
    json_decref(in);
}

static void test_clone_and_equal(void **state)
{
    pm_type *row = NULL, *copy;
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_columns_parse("a INT, b ROW<x MAP<STRING, BIGINT>> NOT NULL", &row, &err),
                     0);
    copy = pm_type_clone(row);
    assert_true(pm_type_equals(row, copy));
    copy->fields[1].type->fields[0].type->value->nullable = false;
    assert_false(pm_type_equals(row, copy));
    pm_type_free(copy);
    pm_type_free(row);
}

/* Every allocation failure is reported, never a crash or a leak (LeakSanitizer). */
static void test_allocation_failures(void **state)
{
    (void)state;
    for (long n = 1; n < 200; n++) {
        pm_type *row = NULL;
        paimon_error err = {0};
        int rc;
        pm_alloc_fail_after(n);
        rc = pm_columns_parse("a INT, b ROW<x MAP<STRING, ARRAY<DECIMAL(5, 2)>>>, c STRING", &row,
                              &err);
        pm_alloc_fail_after(0);
        if (rc == 0) {
            pm_type_free(row);
            break;
        }
        assert_int_equal(rc, PAIMON_ENOMEM);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomic_types),    cmocka_unit_test(test_nested_types),
        cmocka_unit_test(test_type_errors),     cmocka_unit_test(test_columns_and_ids),
        cmocka_unit_test(test_json_round_trip), cmocka_unit_test(test_duplicate_ids_rejected),
        cmocka_unit_test(test_clone_and_equal), cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

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

/* A type of `levels` nested constructors of one form around INT: "ARRAY<" .. ">",
 * "MAP<INT, " .. ">", "ROW<a " .. ">", "MULTISET<" .. ">", or the suffix " ARRAY" after
 * "INT". */
static char *nested(const char *open, const char *close, int levels)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    if (close == NULL) {
        pm_buf_puts(&b, "INT");
        for (int i = 0; i < levels; i++)
            pm_buf_puts(&b, open);
    } else {
        for (int i = 0; i < levels; i++)
            pm_buf_puts(&b, open);
        pm_buf_puts(&b, "INT");
        for (int i = 0; i < levels; i++)
            pm_buf_puts(&b, close);
    }
    return (char *)pm_buf_detach(&b, NULL);
}

/* Issue 19 item 8: every form nests up to PM_MAX_NESTING, one more is refused where it
 * starts, 20,000 levels are refused the same way (no stack overflow), in a type string and
 * in COLUMNS; ROW<> and blank names are refused (item 9). */
static void test_nesting_bound(void **state)
{
    static const char *const forms[][2] = {
        {"ARRAY<", ">"}, {"MULTISET<", ">"}, {"MAP<INT, ", ">"},  {"ROW<a ", ">"},
        {"ROW(a ", ")"}, {" ARRAY", NULL},   {" MULTISET", NULL},
    };
    (void)state;
    for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
        static const int levels[] = {PM_MAX_NESTING, PM_MAX_NESTING + 1, 20000};
        for (size_t k = 0; k < 3; k++) {
            char *text = nested(forms[f][0], forms[f][1], levels[k]);
            pm_type *t = NULL, *row = NULL;
            paimon_error err = {0};
            pm_buf cols;
            int rc = pm_type_parse(text, &t, &err);
            pm_buf_init(&cols, 0);
            pm_buf_printf(&cols, "id INT, c %s", text);
            if (k == 0) {
                if (rc != 0)
                    fail_msg("%s x%d: %s", forms[f][0], levels[k], err.message);
                assert_int_equal(pm_type_nesting(t), PM_MAX_NESTING);
                assert_int_equal(pm_columns_parse(pm_buf_cstr(&cols), &row, &err), 0);
                assert_int_equal(pm_type_nesting(row->fields[1].type), PM_MAX_NESTING);
            } else {
                assert_int_equal(rc, PAIMON_EINVALID);
                assert_null(t);
                if (strstr(err.message, "type nested deeper than 64 levels at position") == NULL)
                    fail_msg("%s x%d: '%s'", forms[f][0], levels[k], err.message);
                /* the input is quoted short, so the position fits the message */
                assert_true(strlen(err.message) < 300);
                assert_int_equal(pm_columns_parse(pm_buf_cstr(&cols), &row, &err), PAIMON_EINVALID);
                assert_non_null(strstr(err.message, "type nested deeper than 64 levels"));
            }
            pm_type_free(t);
            pm_type_free(row);
            pm_buf_free(&cols);
            pm_free(text);
        }
    }
    /* the levels of mixed forms add up, suffixes included */
    {
        char *inner = nested("ARRAY<", ">", PM_MAX_NESTING - 2);
        pm_buf b;
        pm_type *t = NULL;
        paimon_error err = {0};
        pm_buf_init(&b, 0);
        pm_buf_printf(&b, "ROW<a %s ARRAY>", inner);
        assert_int_equal(pm_type_parse(pm_buf_cstr(&b), &t, &err), 0);
        assert_int_equal(pm_type_nesting(t), PM_MAX_NESTING);
        pm_type_free(t);
        pm_buf_reset(&b);
        pm_buf_printf(&b, "ROW<a %s ARRAY MULTISET>", inner);
        assert_int_equal(pm_type_parse(pm_buf_cstr(&b), &t, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "('MULTISET')"));
        pm_buf_free(&b);
        pm_free(inner);
    }
    check_error("ROW<>", "a ROW needs at least one field at position 5");
    check_error("ROW()", "a ROW needs at least one field");
    check_error("ARRAY<ROW<a ROW<>>>", "a ROW needs at least one field at position 17");
    check_error("ROW<`  ` INT>", "a column name needs a character that is not white space");
    {
        pm_type *row = NULL;
        paimon_error err = {0};
        assert_int_equal(pm_columns_parse("a INT, `\t ` INT", &row, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "not white space"));
        assert_int_equal(pm_columns_parse("a INT, r ROW<>", &row, &err), PAIMON_EINVALID);
        assert_non_null(strstr(err.message, "a ROW needs at least one field"));
    }
}

/* Schema-file JSON: object nesting and nested type strings count together. */
static void test_json_nesting_bound(void **state)
{
    (void)state;
    for (int levels = PM_MAX_NESTING - 1; levels <= PM_MAX_NESTING + 1; levels++) {
        for (int form = 0; form < 3; form++) {
            /* form 0: ARRAY objects; 1: ROW objects; 2: ARRAY objects around the string
             * "ARRAY<ARRAY<INT>>" (two more levels) */
            int objects = form == 2 ? levels - 2 : levels;
            pm_buf b;
            json_t *in;
            pm_type *row = NULL;
            paimon_error err = {0};
            int rc;
            pm_buf_init(&b, 0);
            pm_buf_puts(&b, "[{\"id\":0,\"name\":\"c\",\"type\":");
            for (int i = 0; i < objects; i++)
                pm_buf_printf(&b,
                              form == 1 ? "{\"type\":\"ROW\",\"fields\":[{\"id\":%d,\"name\":"
                                          "\"a\",\"type\":"
                                        : "{\"type\":\"ARRAY\",\"element\":",
                              i + 1);
            pm_buf_puts(&b, form == 2 ? "\"ARRAY<ARRAY<INT>>\"" : "\"INT\"");
            for (int i = 0; i < objects; i++)
                pm_buf_puts(&b, form == 1 ? "}]}" : "}");
            pm_buf_puts(&b, "}]");
            in = json_loads(pm_buf_cstr(&b), 0, NULL);
            assert_non_null(in);
            rc = pm_fields_from_json(in, &row, &err);
            if (levels <= PM_MAX_NESTING) {
                if (rc != 0)
                    fail_msg("form %d x%d: %s", form, levels, err.message);
                assert_int_equal(pm_type_nesting(row->fields[0].type), levels);
            } else {
                assert_int_equal(rc, PAIMON_ECORRUPT);
                assert_null(row);
                if (strstr(err.message, "type nested deeper than 64 levels") == NULL)
                    fail_msg("form %d: '%s'", form, err.message);
                /* the path is named for the top levels only: the reason stays readable */
                assert_non_null(strstr(err.message, "field c: "));
            }
            pm_type_free(row);
            json_decref(in);
            pm_buf_free(&b);
        }
    }
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
        cmocka_unit_test(test_nesting_bound),   cmocka_unit_test(test_json_nesting_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The filter expression language (DESIGN.md EXPR): every literal form converted to each
 * column type, the operators, precedence, three-valued logic, and errors that name the
 * position or the column.
 */
#include <string.h>

#include "data/expr.h"
#include "util/alloc.h"
#include "testlib.h"

static pm_type *row_type(void)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_columns_parse("id BIGINT, name STRING, amount DECIMAL(10, 2), "
                                      "d DATE, ts TIMESTAMP(3), t TIME, ok BOOLEAN, "
                                      "b BYTES, f DOUBLE, `Mixed Case` INT",
                                      &t, &err),
                     0);
    return t;
}

/* Three rows:
 *   (1, 'a''b', 12.50, 2026-04-19, 2026-04-19 10:11:12.123, 10:11:12, true, 0aff, 1e-3, 7)
 *   (2, 'zed', -3.25, 1970-01-01, 1970-01-01 00:00:00.000, 00:00:00, false, '', -0.0, null)
 *   (null x 10) */
static pm_batch *batch(const pm_type *t)
{
    pm_batch *b = NULL;
    paimon_error err = {0};
    pm_datum v;
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    /* row 0 */
    assert_int_equal(pm_column_append_i64(b->columns[0], 1), 0);
    v = pm_datum_bytes("a'b", 3);
    assert_int_equal(pm_column_append_datum(b->columns[1], &v), 0);
    v.is_null = false;
    v.v.dec = 1250;
    assert_int_equal(pm_column_append_datum(b->columns[2], &v), 0);
    assert_int_equal(pm_column_append_i64(b->columns[3], 20562), 0); /* 2026-04-19 */
    v.v.ts.millis = 20562LL * 86400000 + 36672123;
    v.v.ts.nanos = 0;
    assert_int_equal(pm_column_append_datum(b->columns[4], &v), 0);
    v.v.i = 36672000;
    assert_int_equal(pm_column_append_datum(b->columns[5], &v), 0);
    v.v.b = true;
    assert_int_equal(pm_column_append_datum(b->columns[6], &v), 0);
    v = pm_datum_bytes("\x0a\xff", 2);
    assert_int_equal(pm_column_append_datum(b->columns[7], &v), 0);
    assert_int_equal(pm_column_append_f64(b->columns[8], 1e-3), 0);
    assert_int_equal(pm_column_append_i64(b->columns[9], 7), 0);
    /* row 1 */
    assert_int_equal(pm_column_append_i64(b->columns[0], 2), 0);
    v = pm_datum_bytes("zed", 3);
    assert_int_equal(pm_column_append_datum(b->columns[1], &v), 0);
    v.is_null = false;
    v.v.dec = -325;
    assert_int_equal(pm_column_append_datum(b->columns[2], &v), 0);
    assert_int_equal(pm_column_append_i64(b->columns[3], 0), 0);
    v.v.ts.millis = 0;
    v.v.ts.nanos = 0;
    assert_int_equal(pm_column_append_datum(b->columns[4], &v), 0);
    v.v.i = 0;
    assert_int_equal(pm_column_append_datum(b->columns[5], &v), 0);
    v.v.b = false;
    assert_int_equal(pm_column_append_datum(b->columns[6], &v), 0);
    v = pm_datum_bytes("", 0);
    assert_int_equal(pm_column_append_datum(b->columns[7], &v), 0);
    assert_int_equal(pm_column_append_f64(b->columns[8], -0.0), 0);
    assert_int_equal(pm_column_append_null(b->columns[9]), 0);
    /* row 2: nulls */
    for (size_t c = 0; c < b->column_count; c++)
        assert_int_equal(pm_column_append_null(b->columns[c]), 0);
    assert_int_equal(pm_batch_set_rows(b, 3, &err), 0);
    return b;
}

/* The rows the expression keeps, as a string of 0/1/2 per row (false, true, unknown). */
static void check(const char *expr, const char *want)
{
    pm_type *t = row_type();
    pm_batch *b = batch(t);
    pm_predicate *p = NULL;
    paimon_error err = {0};
    uint8_t out[3];
    char got[4];
    if (pm_expr_parse(expr, t, &p, &err) != 0)
        fail_msg("%s: %s", expr, err.message);
    assert_int_equal(pm_predicate_eval_batch(p, b, out, &err), 0);
    for (int i = 0; i < 3; i++)
        got[i] = (char)('0' + out[i]);
    got[3] = '\0';
    if (strcmp(got, want) != 0)
        fail_msg("%s: got %s, want %s", expr, got, want);
    pm_predicate_free(p);
    pm_batch_free(b);
    pm_type_free(t);
}

static void check_error(const char *expr, int code, const char *needle)
{
    pm_type *t = row_type();
    pm_predicate *p = NULL;
    paimon_error err = {0};
    int rc = pm_expr_parse(expr, t, &p, &err);
    if (rc != code)
        fail_msg("%s: rc %d, want %d (%s)", expr, rc, code, err.message);
    if (strstr(err.message, needle) == NULL)
        fail_msg("%s: message '%s' lacks '%s'", expr, err.message, needle);
    assert_null(p);
    pm_type_free(t);
}

static void test_literals(void **state)
{
    (void)state;
    check("id = 1", "102");
    check("1 = id", "102");
    check("id >= 2", "012");
    check("name = 'a''b'", "102");
    check("name < 'b'", "102");
    check("amount = 12.5", "102");
    check("amount = 12.50", "102");
    check("amount > -3.25", "102");
    check("amount >= -3.25", "112");
    check("d = DATE '2026-04-19'", "102");
    check("ts = TIMESTAMP '2026-04-19 10:11:12.123'", "102");
    check("ts < TIMESTAMP '2026-04-19 10:11:12.124'", "112");
    check("t = TIME '10:11:12'", "102");
    check("ok = TRUE", "102");
    check("b = X'0aff'", "102");
    check("b = X''", "012");
    check("f = 1e-3", "102");
    check("f = 0.0", "002"); /* Java's Double.compareTo: -0.0 is below 0.0 */
    check("`Mixed Case` = 7", "122");
}

static void test_operators(void **state)
{
    (void)state;
    check("id != 1", "012");
    check("id <> 1", "012");
    check("id IN (2, 5)", "012");
    check("id NOT IN (2, 5)", "102");
    check("id IN (2, NULL)", "212"); /* 1 IN (2, NULL) is unknown, 2 IN (2, NULL) true */
    check("id IS NULL", "001");
    check("id IS NOT NULL", "110");
    check("NOT id = 1", "012");
    check("id = 1 OR id = 2", "112");
    check("id = 1 OR name IS NULL", "101");
    check("id = 1 AND name IS NULL", "002");
    check("id = 2 OR id = 1 AND name = 'zed'", "012"); /* AND binds tighter */
    check("(id = 2 OR id = 1) AND name = 'zed'", "012");
    check("NOT (id = 1 OR id = 2)", "002");
    check("TRUE", "111");
    check("FALSE OR id = 1", "102");
}

static void test_errors(void **state)
{
    (void)state;
    check_error("nope = 1", PAIMON_ENOTFOUND, "nope");
    check_error("id = ", PAIMON_EINVALID, "id: literal expected at the end");
    check_error("id = 1 AND", PAIMON_EINVALID, "at the end");
    check_error("(id = 1", PAIMON_EINVALID, "at the end");
    check_error("id = 'abc'", PAIMON_EINVALID, "id");
    check_error("id = 99999999999999999999", PAIMON_EINVALID, "id");
    check_error("amount = 1.001", PAIMON_EINVALID, "amount");
    check_error("d = DATE '2026-13-01'", PAIMON_EINVALID, "2026-13-01");
    check_error("name = 'unterminated", PAIMON_EINVALID, "position");
    check_error("b = X'0g'", PAIMON_EINVALID, "position");
    check_error("id == 1", PAIMON_EINVALID, "position");
    /* a bad character right after ')' (found by fuzzing: the inner predicate leaked) */
    check_error("(id = 1)~", PAIMON_EINVALID, "unexpected character at position 9");
    check_error("((id = 1) OR (id = 2)!)", PAIMON_EINVALID, "'!' must be '!='");
}

/* Issue 19 item 12: a keyword where a column or literal belongs is a syntax error
 * (PAIMON_EINVALID, exit 2), not an unknown column; a column of that name is back-quoted. */
static void test_keywords(void **state)
{
    static const char *const exprs[] = {"AND *",
                                        "IN (1)",
                                        "OR id = 1",
                                        "BETWEEN 1 AND 2",
                                        "LIKE 'a'",
                                        "IS NULL",
                                        "id = 1 AND OR id = 2",
                                        "1 = AND",
                                        "id = 1 OR (and = 1)"};
    pm_type *row = NULL;
    pm_predicate *p = NULL;
    paimon_error err = {0};
    (void)state;
    for (size_t i = 0; i < sizeof(exprs) / sizeof(exprs[0]); i++)
        check_error(exprs[i], PAIMON_EINVALID, "not a keyword");
    check_error("AND *", PAIMON_EINVALID, "at position 1 ('AND')");
    check_error("id BETWEEN 1 AND 2", PAIMON_EINVALID, "at position 4 ('BETWEEN')");
    /* a column named like a keyword, back-quoted */
    assert_int_equal(pm_columns_parse("`in` INT, `and` STRING", &row, &err), 0);
    assert_int_equal(pm_expr_parse("`in` = 1 AND `and` IS NULL", row, &p, &err), 0);
    pm_predicate_free(p);
    assert_int_equal(pm_expr_parse("in = 1", row, &p, &err), PAIMON_EINVALID);
    assert_null(p);
    pm_type_free(row);
}

/* A predicate nested `levels` deep: parentheses, or NOTs. */
static char *deep(int levels, bool nots)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    for (int i = 0; i < levels; i++)
        pm_buf_puts(&b, nots ? "NOT " : "(");
    pm_buf_puts(&b, "id = 1");
    for (int i = 0; !nots && i < levels; i++)
        pm_buf_putc(&b, ')');
    return (char *)pm_buf_detach(&b, NULL);
}

/* Issue 19 item 8: 20,000 parentheses overflowed the stack; nesting is bounded. */
static void test_depth(void **state)
{
    (void)state;
    for (int nots = 0; nots < 2; nots++) {
        char *text = deep(PM_EXPR_MAX_DEPTH, nots);
        check(text, nots && PM_EXPR_MAX_DEPTH % 2 == 1 ? "012" : "102");
        pm_free(text);
        text = deep(PM_EXPR_MAX_DEPTH + 1, nots);
        check_error(text, PAIMON_EINVALID, "expression nested deeper than 256 levels at position");
        pm_free(text);
        text = deep(20000, nots);
        check_error(text, PAIMON_EINVALID, "expression nested deeper than 256 levels");
        pm_free(text);
    }
    /* the levels are those open at once: many parenthesized terms side by side are fine */
    {
        pm_buf b;
        pm_buf_init(&b, 0);
        for (int i = 0; i < 1000; i++)
            pm_buf_puts(&b, i == 0 ? "(id = 1)" : " OR (id = 1)");
        check(pm_buf_cstr(&b), "102");
        pm_buf_free(&b);
    }
}

/* Literals keep their values after parsing (a number read after its buffer went out of scope
 * and a string copied after its buffer was freed were both found by ASan). */
static void test_literal_storage(void **state)
{
    pm_type *row = NULL;
    pm_predicate *p = NULL;
    paimon_error err = {0};
    (void)state;
    assert_int_equal(pm_columns_parse("a BIGINT, d DECIMAL(5, 2), x DOUBLE, s STRING", &row, &err),
                     0);
    assert_int_equal(
        pm_expr_parse("a >= 5 AND d < 1.5 AND x > 1e-3 AND a IN (7, -8)", row, &p, &err), 0);
    assert_int_equal(p->op, PM_PRED_AND);
    assert_int_equal(p->child_count, 4);
    assert_int_equal(p->children[0]->op, PM_PRED_GE);
    assert_int_equal(p->children[0]->literals[0].v.i, 5);
    assert_true(p->children[1]->literals[0].v.dec == 150);
    assert_true(p->children[2]->literals[0].v.d == 1e-3);
    assert_int_equal(p->children[3]->literal_count, 2);
    assert_int_equal(p->children[3]->literals[1].v.i, -8);
    pm_predicate_free(p);
    p = NULL;
    /* string literals are copied out of the cast's buffer before it is freed */
    assert_int_equal(
        pm_expr_parse("s = 'it''s' OR s IN ('a', 'bcdefghijklmnopqrstuvwxyz')", row, &p, &err), 0);
    assert_int_equal(p->op, PM_PRED_OR);
    assert_memory_equal(p->children[0]->literals[0].v.s.ptr, "it's", 4);
    assert_int_equal(p->children[1]->literals[1].v.s.len, 25);
    assert_memory_equal(p->children[1]->literals[1].v.s.ptr, "bcdefghijklmnopqrstuvwxyz", 25);
    pm_predicate_free(p);
    p = NULL;
    assert_int_equal(pm_expr_parse("s = 12", row, &p, &err), PAIMON_EINVALID);
    assert_null(p);
    pm_type_free(row);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literals), cmocka_unit_test(test_operators),
        cmocka_unit_test(test_errors),   cmocka_unit_test(test_literal_storage),
        cmocka_unit_test(test_keywords), cmocka_unit_test(test_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Filter expressions: literals convert to the column's type (regression tests for a number
 * read after its buffer went out of scope and a string copied after its buffer was freed,
 * both reported by ASan). */
#include "testlib.h"

#include "data/expr.h"

static void test_numeric_literals(void **state)
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
        cmocka_unit_test(test_numeric_literals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Predicates: three-valued evaluation on batches, NOT push-down, IN with nulls, Java's
 * floating-point order, and pruning on statistics (NaN, nulls, empty ranges). */
#include <math.h>
#include <string.h>

#include "data/predicate.h"
#include "testlib.h"

static pm_type *row_type(void)
{
    pm_type *t = NULL;
    paimon_error err = {0};
    assert_int_equal(pm_columns_parse("i BIGINT, s STRING, d DOUBLE", &t, &err), 0);
    return t;
}

/* rows: (1, "a", 1.0), (null, "b", NaN), (3, null, -0.0), (4, "é", null) */
static pm_batch *batch(const pm_type *t)
{
    pm_batch *b = NULL;
    paimon_error err = {0};
    pm_datum v;
    assert_int_equal(pm_batch_new(&b, t, &err), 0);
    assert_int_equal(pm_column_append_i64(b->columns[0], 1), 0);
    assert_int_equal(pm_column_append_null(b->columns[0]), 0);
    assert_int_equal(pm_column_append_i64(b->columns[0], 3), 0);
    assert_int_equal(pm_column_append_i64(b->columns[0], 4), 0);
    v = pm_datum_bytes("a", 1);
    assert_int_equal(pm_column_append_datum(b->columns[1], &v), 0);
    v = pm_datum_bytes("b", 1);
    assert_int_equal(pm_column_append_datum(b->columns[1], &v), 0);
    assert_int_equal(pm_column_append_null(b->columns[1]), 0);
    v = pm_datum_bytes("\xc3\xa9", 2);
    assert_int_equal(pm_column_append_datum(b->columns[1], &v), 0);
    assert_int_equal(pm_column_append_f64(b->columns[2], 1.0), 0);
    assert_int_equal(pm_column_append_f64(b->columns[2], NAN), 0);
    assert_int_equal(pm_column_append_f64(b->columns[2], -0.0), 0);
    assert_int_equal(pm_column_append_null(b->columns[2]), 0);
    assert_int_equal(pm_batch_set_rows(b, 4, &err), 0);
    return b;
}

static void expect(const pm_predicate *p, const pm_batch *b, const char *want)
{
    uint8_t out[4];
    char got[5] = {0};
    paimon_error err = {0};
    assert_int_equal(pm_predicate_eval_batch(p, b, out, &err), 0);
    for (int i = 0; i < 4; i++)
        got[i] = (char)('0' + out[i]);
    assert_string_equal(got, want);
}

static void test_batch_eval(void **state)
{
    pm_type *t = row_type();
    pm_batch *b = batch(t);
    pm_predicate *p = NULL, *q = NULL, *both[2];
    paimon_error err = {0};
    pm_datum lit = pm_datum_int(3), lits[2];
    (void)state;
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_GE, t, 0, &lit, &err), 0);
    expect(p, b, "0211"); /* null is unknown */
    assert_int_equal(pm_predicate_not(&p, p, &err), 0);
    expect(p, b, "1200"); /* NOT (i >= 3) = i < 3, unknown stays unknown */
    assert_int_equal(p->op, PM_PRED_LT);
    pm_predicate_free(p);

    /* strings compare as unsigned bytes: "é" > "b" */
    lit = pm_datum_bytes("b", 1);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_GT, t, 1, &lit, &err), 0);
    expect(p, b, "0021");
    pm_predicate_free(p);

    /* doubles in Java's order: NaN is the largest and equals itself; -0.0 < 0.0 */
    lit = (pm_datum){.is_null = false, .v.d = 0.0};
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_LT, t, 2, &lit, &err), 0);
    expect(p, b, "0012");
    pm_predicate_free(p);
    lit.v.d = NAN;
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_EQ, t, 2, &lit, &err), 0);
    expect(p, b, "0102");
    pm_predicate_free(p);

    /* IN with a null literal: unknown unless matched; NOT IN */
    lits[0] = pm_datum_int(4);
    lits[1] = pm_datum_null();
    assert_int_equal(pm_predicate_in(&p, t, 0, lits, 2, &err), 0);
    expect(p, b, "2221");
    assert_int_equal(pm_predicate_not(&p, p, &err), 0);
    expect(p, b, "2220");
    pm_predicate_free(p);

    /* AND/OR in Kleene logic: (i IS NULL) OR (s = 'a'); NOT of that */
    assert_int_equal(pm_predicate_is_null(&both[0], t, 0, false, &err), 0);
    lit = pm_datum_bytes("a", 1);
    assert_int_equal(pm_predicate_compare(&both[1], PM_PRED_EQ, t, 1, &lit, &err), 0);
    assert_int_equal(pm_predicate_or(&q, both, 2, &err), 0);
    expect(q, b, "1120");
    assert_int_equal(pm_predicate_not(&q, q, &err), 0);
    expect(q, b, "0021");
    pm_predicate_free(q);

    /* constants and bad columns */
    assert_int_equal(pm_predicate_const(&p, true, &err), 0);
    expect(p, b, "1111");
    pm_predicate_free(p);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_EQ, t, 7, &lit, &err), PAIMON_EINVALID);
    pm_batch_free(b);
    pm_type_free(t);
}

static void test_stats_eval(void **state)
{
    pm_type *t = row_type();
    pm_predicate *p = NULL;
    paimon_error err = {0};
    pm_col_stats si = {0}, sd = {0};
    const pm_col_stats *stats[3] = {&si, NULL, &sd};
    pm_datum lit;
    (void)state;
    si.has_min_max = true;
    si.min = pm_datum_int(10);
    si.max = pm_datum_int(20);
    si.has_null_count = true;
    si.null_count = 0;
    lit = pm_datum_int(25);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_GT, t, 0, &lit, &err), 0);
    assert_false(pm_predicate_eval_stats(p, stats, 100));
    assert_int_equal(pm_predicate_not(&p, p, &err), 0); /* i <= 25 */
    assert_true(pm_predicate_eval_stats(p, stats, 100));
    pm_predicate_free(p);
    lit = pm_datum_int(15);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_EQ, t, 0, &lit, &err), 0);
    assert_true(pm_predicate_eval_stats(p, stats, 100));
    pm_predicate_free(p);
    /* IS NULL prunes when the null count is 0; IS NOT NULL when everything is null */
    assert_int_equal(pm_predicate_is_null(&p, t, 0, false, &err), 0);
    assert_false(pm_predicate_eval_stats(p, stats, 100));
    pm_predicate_free(p);
    si.null_count = 100;
    assert_int_equal(pm_predicate_is_null(&p, t, 0, true, &err), 0);
    assert_false(pm_predicate_eval_stats(p, stats, 100));
    pm_predicate_free(p);
    lit = pm_datum_int(15);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_EQ, t, 0, &lit, &err), 0);
    assert_false(pm_predicate_eval_stats(p, stats, 100)); /* all null: no value matches */
    pm_predicate_free(p);
    si.null_count = 0;
    /* IN and NOT IN */
    {
        pm_datum lits[2] = {pm_datum_int(1), pm_datum_int(30)};
        assert_int_equal(pm_predicate_in(&p, t, 0, lits, 2, &err), 0);
        assert_false(pm_predicate_eval_stats(p, stats, 100));
        assert_int_equal(pm_predicate_not(&p, p, &err), 0);
        assert_true(pm_predicate_eval_stats(p, stats, 100));
        pm_predicate_free(p);
    }
    /* doubles: bounds exclude NaN, so > prunes only when the NaN count is known to be 0 */
    sd.has_min_max = true;
    sd.min = (pm_datum){.is_null = false, .v.d = -1.0};
    sd.max = (pm_datum){.is_null = false, .v.d = 1.0};
    lit = (pm_datum){.is_null = false, .v.d = 5.0};
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_GT, t, 2, &lit, &err), 0);
    assert_true(pm_predicate_eval_stats(p, stats, 100));
    sd.has_nan_count = true;
    sd.nan_count = 0;
    assert_false(pm_predicate_eval_stats(p, stats, 100));
    pm_predicate_free(p);
    assert_int_equal(pm_predicate_compare(&p, PM_PRED_LT, t, 2, &lit, &err), 0);
    assert_true(pm_predicate_eval_stats(p, stats, 100));
    pm_predicate_free(p);
    /* AND prunes if one side does; OR only if both do; unknown columns never prune */
    {
        pm_predicate *kids[2];
        lit = pm_datum_int(99);
        assert_int_equal(pm_predicate_compare(&kids[0], PM_PRED_EQ, t, 0, &lit, &err), 0);
        lit = pm_datum_bytes("x", 1);
        assert_int_equal(pm_predicate_compare(&kids[1], PM_PRED_EQ, t, 1, &lit, &err), 0);
        assert_int_equal(pm_predicate_and(&p, kids, 2, &err), 0);
        assert_false(pm_predicate_eval_stats(p, stats, 100));
        pm_predicate_free(p);
        lit = pm_datum_int(99);
        assert_int_equal(pm_predicate_compare(&kids[0], PM_PRED_EQ, t, 0, &lit, &err), 0);
        lit = pm_datum_bytes("x", 1);
        assert_int_equal(pm_predicate_compare(&kids[1], PM_PRED_EQ, t, 1, &lit, &err), 0);
        assert_int_equal(pm_predicate_or(&p, kids, 2, &err), 0);
        assert_true(pm_predicate_eval_stats(p, stats, 100));
        pm_predicate_free(p);
    }
    pm_type_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_eval),
        cmocka_unit_test(test_stats_eval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

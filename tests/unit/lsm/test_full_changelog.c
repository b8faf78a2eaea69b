/*
 * The merge reader's full-compaction changelog (FullChangelogMergeFunctionWrapper), case by
 * case for the deduplicate engine: three runs, one at the max level (the last full
 * compaction's state) and two at level 0, merged in reduce mode with deletes dropped.  Each
 * key exercises one rule; the changelog rows (key, value, sequence number, row kind) and the
 * merged rows are checked exactly, with and without row-deduplicate.
 */
#include <string.h>

#include "testlib.h"

#include "lsm/merge_reader.h"

#define MAX_LEVEL 5

typedef struct rec {
    int64_t key;
    int32_t v;
    int64_t seq;
    int8_t kind;
} rec;

typedef struct run {
    pm_type *type;
    const rec *recs;
    size_t count;
    bool done;
} run;

static int run_next(void *ctx, pm_batch **out, paimon_error *err)
{
    run *r = ctx;
    pm_batch *b = NULL;
    if (r->done || r->count == 0)
        return PAIMON_ITEROVER;
    assert_int_equal(pm_batch_new(&b, r->type, err), 0);
    for (size_t i = 0; i < r->count; i++) {
        pm_datum d = pm_datum_int(r->recs[i].v);
        assert_int_equal(pm_column_append_i64(b->columns[0], r->recs[i].key), 0);
        assert_int_equal(pm_column_append_datum(b->columns[1], &d), 0);
        assert_int_equal(pm_column_append_i64(b->columns[2], r->recs[i].seq), 0);
        assert_int_equal(pm_column_append_i64(b->columns[3], r->recs[i].kind), 0);
    }
    assert_int_equal(pm_batch_set_rows(b, (int64_t)r->count, err), 0);
    r->done = true;
    *out = b;
    return 0;
}

/* k1 only at the top; k2 updated; k3 deleted; k4 new; k5 deleted but never at the top;
 * k6 written again with its value; k7 inserted and deleted between two full compactions. */
static const rec top[] = {{1, 10, 1, 0}, {2, 20, 2, 0}, {3, 30, 3, 0}, {6, 60, 6, 0}};
static const rec l0_old[] = {{2, 21, 10, 2}, {4, 40, 11, 0}, {7, 70, 12, 0}};
static const rec l0_new[] = {{3, 0, 20, 3}, {5, 0, 21, 3}, {6, 60, 22, 2}, {7, 0, 23, 3}};

static void merge(bool row_dedup, const rec *want_changes, size_t want_count)
{
    paimon_error err = {0};
    pm_type *vt = NULL, *ot = NULL;
    pm_schema schema;
    pm_merge_fn *fn = NULL;
    pm_merge_reader *mr = NULL;
    pm_merge_reader_options mo;
    run runs[3];
    pm_run_source src[3];
    const bool compare[2] = {true, true};
    int key_col = 0;
    size_t got = 0;
    pm_batch *b = NULL;
    const rec want_rows[] = {{1, 10, 1, 0}, {2, 21, 10, 2}, {4, 40, 11, 0}, {6, 60, 22, 2}};
    size_t rows = 0;
    int rc;

    assert_int_equal(pm_columns_parse("k BIGINT NOT NULL, v INT", &vt, &err), 0);
    assert_int_equal(pm_columns_parse("k BIGINT NOT NULL, v INT, _SEQUENCE_NUMBER BIGINT NOT "
                                      "NULL, _VALUE_KIND TINYINT NOT NULL",
                                      &ot, &err),
                     0);
    memset(&schema, 0, sizeof(schema));
    pm_strlist_init(&schema.primary_keys);
    pm_strlist_init(&schema.partition_keys);
    pm_options_init(&schema.options);
    assert_int_equal(pm_strlist_push(&schema.primary_keys, "k"), 0);
    schema.row = vt;
    assert_int_equal(pm_merge_fn_new(&fn, &schema, vt, &err), 0);

    runs[0] = (run){ot, top, sizeof(top) / sizeof(top[0]), false};
    runs[1] = (run){ot, l0_new, sizeof(l0_new) / sizeof(l0_new[0]), false};
    runs[2] = (run){ot, l0_old, sizeof(l0_old) / sizeof(l0_old[0]), false};
    for (int i = 0; i < 3; i++) {
        src[i].next = run_next;
        src[i].ctx = &runs[i];
        src[i].level = i == 0 ? MAX_LEVEL : 0;
    }
    memset(&mo, 0, sizeof(mo));
    mo.value_type = vt;
    mo.key_cols = &key_col;
    mo.key_count = 1;
    mo.batch_rows = 2; /* changes of several next() calls */
    mo.reduce = true;
    mo.drop_delete = true;
    mo.out_type = ot;
    mo.changelog = true;
    mo.max_level = MAX_LEVEL;
    mo.compare = row_dedup ? compare : NULL;
    assert_int_equal(pm_merge_reader_new(&mr, src, 3, fn, &mo, &err), 0);
    while ((rc = pm_merge_reader_next(mr, &b, &err)) == 0) {
        pm_batch *c = pm_merge_reader_take_changelog(mr);
        for (int64_t i = 0; i < b->row_count; i++, rows++) {
            pm_datum k, v, s, kind;
            assert_true(rows < sizeof(want_rows) / sizeof(want_rows[0]));
            pm_column_get_datum(b->columns[0], i, &k);
            pm_column_get_datum(b->columns[1], i, &v);
            pm_column_get_datum(b->columns[2], i, &s);
            pm_column_get_datum(b->columns[3], i, &kind);
            assert_int_equal(k.v.i, want_rows[rows].key);
            assert_int_equal(v.v.i, want_rows[rows].v);
            assert_int_equal(s.v.i, want_rows[rows].seq);
            assert_int_equal(kind.v.i, want_rows[rows].kind);
        }
        for (int64_t i = 0; c != NULL && i < c->row_count; i++, got++) {
            pm_datum k, v, s, kind;
            assert_true(got < want_count);
            pm_column_get_datum(c->columns[0], i, &k);
            pm_column_get_datum(c->columns[1], i, &v);
            pm_column_get_datum(c->columns[2], i, &s);
            pm_column_get_datum(c->columns[3], i, &kind);
            if (k.v.i != want_changes[got].key || v.v.i != want_changes[got].v ||
                s.v.i != want_changes[got].seq || kind.v.i != want_changes[got].kind)
                fail_msg("change %zu: key %lld v %lld seq %lld kind %lld, want %lld %d %lld %d",
                         got, (long long)k.v.i, (long long)v.v.i, (long long)s.v.i,
                         (long long)kind.v.i, (long long)want_changes[got].key, want_changes[got].v,
                         (long long)want_changes[got].seq, want_changes[got].kind);
        }
        pm_batch_free(c);
        pm_batch_free(b);
    }
    assert_int_equal(rc, PAIMON_ITEROVER);
    assert_int_equal(got, want_count);
    assert_int_equal(rows, sizeof(want_rows) / sizeof(want_rows[0]));
    pm_merge_reader_free(mr);
    pm_merge_fn_free(fn);
    pm_strlist_free(&schema.primary_keys);
    pm_strlist_free(&schema.partition_keys);
    pm_options_free(&schema.options);
    pm_type_free(vt);
    pm_type_free(ot);
}

static void test_changes(void **state)
{
    /* -U carries the old record's sequence number, +U/+I the result's */
    const rec want[] = {{2, 20, 2, 1},  {2, 21, 10, 2}, {3, 30, 3, 3},
                        {4, 40, 11, 0}, {6, 60, 6, 1},  {6, 60, 22, 2}};
    (void)state;
    merge(false, want, sizeof(want) / sizeof(want[0]));
}

static void test_row_deduplicate(void **state)
{
    const rec want[] = {{2, 20, 2, 1}, {2, 21, 10, 2}, {3, 30, 3, 3}, {4, 40, 11, 0}};
    (void)state;
    merge(true, want, sizeof(want) / sizeof(want[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_changes),
        cmocka_unit_test(test_row_deduplicate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

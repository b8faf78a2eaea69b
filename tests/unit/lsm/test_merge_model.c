/*
 * A randomized model test of the merge reader and the merge engines: random keys, row
 * kinds, sequence numbers and values spread over several sorted runs (split into small
 * batches), merged by pm_merge_reader, and compared row for row with a plain reference
 * implementation of each engine's rules (behaviour.md §2) written independently below.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#include "lsm/merge_reader.h"
#include "util/alloc.h"

#define MAX_RECS  4000
#define NRUNS_MAX 6

typedef struct rec {
    int64_t key;
    int64_t seq;
    int8_t kind;
    bool v1_null;
    int32_t v1;
    bool v2_null;
    char v2[8];
    bool sq_null; /* the user sequence field (sequence.field or a sequence group's) */
    int32_t sq;
    int run;
} rec;

typedef struct expected_row {
    int64_t key;
    bool v1_null;
    int32_t v1;
    bool v2_null;
    char v2[64];
} expected_row;

static uint64_t rng_state;
/* Keys are drawn from [0, key_space): 60 makes most keys repeat across and within runs; a
 * space far above the record count leaves long stretches of keys that one run alone holds
 * (the case a merge that copies such stretches in one piece must get right). */
static uint32_t key_space = 60;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33) % n;
}

/* ---- the table and its batches --------------------------------------------------------- */

static pm_type *value_type(void)
{
    paimon_error err = {0};
    pm_type *row = NULL;
    assert_int_equal(pm_columns_parse("k BIGINT NOT NULL, v1 INT, v2 STRING, sq INT", &row, &err),
                     0);
    return row;
}

static pm_type *run_type(void)
{
    paimon_error err = {0};
    pm_type *row = NULL;
    assert_int_equal(
        pm_columns_parse("k BIGINT NOT NULL, v1 INT, v2 STRING, sq INT, "
                         "_SEQUENCE_NUMBER BIGINT NOT NULL, _VALUE_KIND TINYINT NOT NULL",
                         &row, &err),
        0);
    return row;
}

/* 0: no sequence.field; 1: ascending; -1: descending.  Nulls come first either way. */
static int seq_field_order;
/* partial-update: `fields.sq.sequence-group = v1`, with v1 summed when group_sum. */
static bool groups, group_sum;

static int cmp_rec(const void *pa, const void *pb)
{
    const rec *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (seq_field_order != 0 && (a->sq_null != b->sq_null || a->sq != b->sq)) {
        if (a->sq_null || b->sq_null)
            return a->sq_null ? -1 : 1;
        return (a->sq < b->sq ? -1 : 1) * seq_field_order;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

typedef struct run {
    pm_type *type;
    rec *recs;
    size_t count, pos;
    size_t batch;
} run;

static int run_next(void *ctx, pm_batch **out, paimon_error *err)
{
    run *r = ctx;
    pm_batch *b = NULL;
    size_t n = 0;
    if (r->pos >= r->count)
        return PAIMON_ITEROVER;
    assert_int_equal(pm_batch_new(&b, r->type, err), 0);
    while (r->pos < r->count && n < r->batch) {
        const rec *x = &r->recs[r->pos++];
        pm_datum d;
        assert_int_equal(pm_column_append_i64(b->columns[0], x->key), 0);
        d = x->v1_null ? pm_datum_null() : pm_datum_int(x->v1);
        assert_int_equal(pm_column_append_datum(b->columns[1], &d), 0);
        d = x->v2_null ? pm_datum_null() : pm_datum_bytes(x->v2, strlen(x->v2));
        assert_int_equal(pm_column_append_datum(b->columns[2], &d), 0);
        d = x->sq_null ? pm_datum_null() : pm_datum_int(x->sq);
        assert_int_equal(pm_column_append_datum(b->columns[3], &d), 0);
        assert_int_equal(pm_column_append_i64(b->columns[4], x->seq), 0);
        assert_int_equal(pm_column_append_i64(b->columns[5], x->kind), 0);
        n++;
    }
    assert_int_equal(pm_batch_set_rows(b, (int64_t)n, err), 0);
    *out = b;
    return 0;
}

/* ---- the reference engines ------------------------------------------------------------- */

static bool is_add(int8_t k)
{
    return k == 0 || k == 2;
}

static void set_v1(expected_row *out, bool null, int32_t v)
{
    out->v1_null = null;
    out->v1 = null ? 0 : v;
}

/* v1 + x (or - x) with int wrap-around; a null side leaves the other (or -x). */
static void sum_v1(expected_row *out, const rec *x, bool subtract)
{
    if (x->v1_null)
        return;
    if (out->v1_null)
        set_v1(out, false, subtract ? (int32_t)(0u - (uint32_t)x->v1) : x->v1);
    else
        out->v1 = subtract ? (int32_t)((uint32_t)out->v1 - (uint32_t)x->v1)
                           : (int32_t)((uint32_t)out->v1 + (uint32_t)x->v1);
}

/* partial-update with `fields.sq.sequence-group = v1` (v1 summed when group_sum), the fields
 * in the order k, v1, v2, sq.  v1 and the row's sq move only with records whose sq is set
 * and not older than the row's (a null row sq is older than any); v2 takes every non-null
 * value; a retraction clears v1 (or subtracts from it) and moves sq the same way. */
static bool reference_groups(const rec *r, size_t n, expected_row *out)
{
    bool row_sq_null = true, filled = false, meet_insert = false;
    int32_t row_sq = 0;
    for (size_t i = 0; i < n; i++) {
        const rec *x = &r[i];
        bool newer;
        if (!is_add(x->kind) && !filled) { /* a first retraction seeds the row */
            set_v1(out, x->v1_null, x->v1);
            out->v2_null = x->v2_null;
            snprintf(out->v2, sizeof(out->v2), "%s", x->v2_null ? "" : x->v2);
            row_sq_null = x->sq_null;
            row_sq = x->sq;
            filled = true;
        }
        newer = !x->sq_null && (row_sq_null || x->sq >= row_sq);
        if (!is_add(x->kind)) {
            if (x->sq_null)
                continue;
            if (group_sum)
                sum_v1(out, x, true);
            else if (newer)
                set_v1(out, true, 0);
            if (newer) {
                row_sq_null = false;
                row_sq = x->sq;
            }
            continue;
        }
        if (!x->sq_null) {
            if (group_sum)
                sum_v1(out, x, false); /* sum folds the same way for older records */
            else if (newer)
                set_v1(out, x->v1_null, x->v1);
            if (newer) {
                row_sq_null = false;
                row_sq = x->sq;
            }
        }
        if (!x->v2_null) {
            out->v2_null = false;
            snprintf(out->v2, sizeof(out->v2), "%s", x->v2);
        }
        meet_insert = filled = true;
    }
    return meet_insert;
}

/* Fills `out` for one key's records (oldest first); false when the key is deleted. */
static bool reference(const char *engine, const rec *r, size_t n, expected_row *out)
{
    memset(out, 0, sizeof(*out));
    out->key = r[0].key;
    out->v1_null = out->v2_null = true;
    if (n == 1) { /* the reducer passes a single record through */
        if (!is_add(r[0].kind))
            return false;
        out->v1_null = r[0].v1_null;
        out->v1 = r[0].v1;
        out->v2_null = r[0].v2_null;
        snprintf(out->v2, sizeof(out->v2), "%s", r[0].v2);
        return true;
    }
    if (strcmp(engine, "deduplicate") == 0) {
        const rec *last = &r[n - 1];
        if (!is_add(last->kind))
            return false;
        out->v1_null = last->v1_null;
        out->v1 = last->v1;
        out->v2_null = last->v2_null;
        snprintf(out->v2, sizeof(out->v2), "%s", last->v2);
        return true;
    }
    if (strcmp(engine, "first-row") == 0) { /* inputs are adds only in this model */
        out->v1_null = r[0].v1_null;
        out->v1 = r[0].v1;
        out->v2_null = r[0].v2_null;
        snprintf(out->v2, sizeof(out->v2), "%s", r[0].v2);
        return true;
    }
    if (strcmp(engine, "partial-update") == 0 && groups)
        return reference_groups(r, n, out);
    if (strcmp(engine, "partial-update") == 0) {
        /* remove-record-on-delete: -D resets the row to its values; -U ignored */
        bool deleted = false, meet_insert = false;
        for (size_t i = 0; i < n; i++) {
            deleted = false;
            if (!is_add(r[i].kind)) {
                if (r[i].kind == 3) {
                    deleted = true;
                    out->v1_null = r[i].v1_null;
                    out->v1 = r[i].v1;
                    out->v2_null = r[i].v2_null;
                    snprintf(out->v2, sizeof(out->v2), "%s", r[i].v2);
                }
                continue;
            }
            meet_insert = true;
            if (!r[i].v1_null) {
                out->v1_null = false;
                out->v1 = r[i].v1;
            }
            if (!r[i].v2_null) {
                out->v2_null = false;
                snprintf(out->v2, sizeof(out->v2), "%s", r[i].v2);
            }
        }
        return !deleted && meet_insert;
    }
    /* aggregation: v1 sum (retractable), v2 listagg (adds only in this model) */
    for (size_t i = 0; i < n; i++) {
        if (!r[i].v1_null) {
            if (out->v1_null) {
                out->v1_null = false;
                out->v1 = is_add(r[i].kind) ? r[i].v1 : -r[i].v1;
            } else {
                out->v1 = is_add(r[i].kind) ? (int32_t)((uint32_t)out->v1 + (uint32_t)r[i].v1)
                                            : (int32_t)((uint32_t)out->v1 - (uint32_t)r[i].v1);
            }
        }
        if (!r[i].v2_null && r[i].v2[0] != '\0' && is_add(r[i].kind)) {
            if (out->v2_null) {
                out->v2_null = false;
                snprintf(out->v2, sizeof(out->v2), "%s", r[i].v2);
            } else if (strlen(out->v2) + strlen(r[i].v2) + 2 < sizeof(out->v2)) {
                strcat(out->v2, ",");
                strcat(out->v2, r[i].v2);
            }
        }
    }
    return true;
}

static void run_model(const char *engine, const char *extra_options, uint64_t seed)
{
    rec *recs = pm_calloc(MAX_RECS, sizeof(rec));
    run runs[NRUNS_MAX];
    pm_run_source sources[NRUNS_MAX];
    pm_type *vt = value_type(), *rt = run_type();
    pm_schema schema;
    pm_merge_fn *fn = NULL;
    pm_merge_reader *mr = NULL;
    pm_merge_reader_options mo;
    paimon_error err = {0};
    int key_col = 0;
    size_t n = 200 + seed % 1000, nruns = 1 + seed % NRUNS_MAX, got = 0, want = 0;
    expected_row *expect = pm_calloc(MAX_RECS, sizeof(expected_row));
    bool retracts = strcmp(engine, "first-row") != 0;
    int seq_col = 3;
    pm_batch *b;
    int rc;

    rng_state = seed;
    memset(&schema, 0, sizeof(schema));
    pm_strlist_init(&schema.primary_keys);
    pm_strlist_init(&schema.partition_keys);
    pm_options_init(&schema.options);
    assert_int_equal(pm_strlist_push(&schema.primary_keys, "k"), 0);
    assert_int_equal(pm_options_set(&schema.options, "merge-engine", engine), 0);
    /* extra_options: "key=value;key=value" */
    for (const char *p = extra_options; p != NULL && *p != '\0';) {
        char key[128], value[128];
        int used = 0;
        assert_int_equal(sscanf(p, "%127[^=]=%127[^;]%n", key, value, &used), 2);
        assert_int_equal(pm_options_set(&schema.options, key, value), 0);
        p += used;
        if (*p == ';')
            p++;
    }
    {
        const char *sf = pm_options_get(&schema.options, "sequence.field");
        const char *order = pm_options_get(&schema.options, "sequence.field.sort-order");
        seq_field_order =
            sf == NULL ? 0 : (order != NULL && strcmp(order, "descending") == 0 ? -1 : 1);
        groups = pm_options_get(&schema.options, "fields.sq.sequence-group") != NULL;
        group_sum = pm_options_get(&schema.options, "fields.v1.aggregate-function") != NULL;
    }
    if (strcmp(engine, "aggregation") == 0) {
        assert_int_equal(pm_options_set(&schema.options, "fields.v1.aggregate-function", "sum"), 0);
        assert_int_equal(pm_options_set(&schema.options, "fields.v2.aggregate-function", "listagg"),
                         0);
        assert_int_equal(pm_options_set(&schema.options, "fields.v2.ignore-retract", "true"), 0);
    }
    schema.row = vt;

    /* Random records with unique sequence numbers, each in a random run. */
    for (size_t i = 0; i < n; i++) {
        rec *x = &recs[i];
        /* a sparse space keeps a quarter of the keys on 60 shared values */
        x->key = key_space > 60 && rnd(4) == 0 ? rnd(60) * (key_space / 60) : rnd(key_space);
        x->seq = (int64_t)i;
        x->kind = retracts && rnd(5) == 0 ? (rnd(2) ? 3 : 1) : (rnd(3) == 0 ? 2 : 0);
        if (strcmp(engine, "partial-update") == 0 && x->kind == 1 && !groups)
            x->kind = 3; /* -U is ignored under remove-record-on-delete: keep the model simple */
        x->v1_null = rnd(4) == 0;
        x->v1 = (int32_t)rnd(2000000000) - 1000000000;
        x->v2_null = rnd(4) == 0;
        snprintf(x->v2, sizeof(x->v2), "s%u", rnd(100));
        x->sq_null = rnd(5) == 0;
        x->sq = (int32_t)rnd(12);
        x->run = (int)rnd((uint32_t)nruns);
    }
    /* Each run sorted by (key, seq); the reference sees all records of a key by seq. */
    for (size_t k = 0; k < nruns; k++) {
        runs[k].type = rt;
        runs[k].recs = pm_calloc(n + 1, sizeof(rec));
        runs[k].count = 0;
        runs[k].pos = 0;
        runs[k].batch = 1 + rnd(17);
        for (size_t i = 0; i < n; i++)
            if (recs[i].run == (int)k)
                runs[k].recs[runs[k].count++] = recs[i];
        qsort(runs[k].recs, runs[k].count, sizeof(rec), cmp_rec);
        sources[k].next = run_next;
        sources[k].ctx = &runs[k];
        sources[k].level = 0;
    }
    qsort(recs, n, sizeof(rec), cmp_rec);
    for (size_t start = 0, i = 1; start < n; i++) {
        if (i == n || recs[i].key != recs[start].key) {
            if (reference(engine, recs + start, i - start, &expect[want]))
                want++;
            start = i;
        }
    }

    assert_int_equal(pm_merge_fn_new(&fn, &schema, vt, &err), 0);
    memset(&mo, 0, sizeof(mo));
    mo.value_type = vt;
    mo.key_cols = &key_col;
    mo.key_count = 1;
    mo.batch_rows = 1 + rnd(50);
    if (seq_field_order != 0) {
        mo.seq_cols = &seq_col;
        mo.seq_count = 1;
        mo.seq_descending = seq_field_order < 0;
    }
    assert_int_equal(pm_merge_reader_new(&mr, sources, nruns, fn, &mo, &err), 0);
    while ((rc = pm_merge_reader_next(mr, &b, &err)) == 0) {
        for (int64_t i = 0; i < b->row_count; i++, got++) {
            pm_datum k, v1, v2;
            assert_true(got < want);
            pm_column_get_datum(b->columns[0], i, &k);
            pm_column_get_datum(b->columns[1], i, &v1);
            pm_column_get_datum(b->columns[2], i, &v2);
            if (k.v.i != expect[got].key || v1.is_null != expect[got].v1_null ||
                (!v1.is_null && v1.v.i != expect[got].v1) || v2.is_null != expect[got].v2_null ||
                (!v2.is_null && (v2.v.s.len != strlen(expect[got].v2) ||
                                 memcmp(v2.v.s.ptr, expect[got].v2, v2.v.s.len) != 0)))
                fail_msg("%s seed %llu: row %zu key %lld differs from the reference (v1 %s%lld "
                         "want %s%d, v2 %.*s want %s)",
                         engine, (unsigned long long)seed, got, (long long)k.v.i,
                         v1.is_null ? "null " : "", (long long)v1.v.i,
                         expect[got].v1_null ? "null " : "", expect[got].v1,
                         v2.is_null ? 4 : (int)v2.v.s.len,
                         v2.is_null ? "null" : (const char *)v2.v.s.ptr,
                         expect[got].v2_null ? "null" : expect[got].v2);
        }
        pm_batch_free(b);
    }
    if (rc != PAIMON_ITEROVER)
        fail_msg("%s seed %llu: %s", engine, (unsigned long long)seed, err.message);
    assert_int_equal(got, want);

    pm_merge_reader_free(mr);
    pm_merge_fn_free(fn);
    for (size_t k = 0; k < nruns; k++)
        pm_free(runs[k].recs);
    pm_strlist_free(&schema.primary_keys);
    pm_strlist_free(&schema.partition_keys);
    pm_options_free(&schema.options);
    pm_type_free(vt);
    pm_type_free(rt);
    pm_free(recs);
    pm_free(expect);
}

/* Sparse keys: stretches of consecutive rows of one input that no other input holds, with
 * retractions (dropped by the merge) inside them, cut by batch ends and output batch
 * limits.  Same reference as above. */
static void test_runs_of_lone_keys(void **state)
{
    (void)state;
    key_space = 100000;
    for (uint64_t seed = 1; seed <= 120; seed++) {
        run_model("deduplicate", NULL, seed);
        run_model("partial-update", "partial-update.remove-record-on-delete=true", seed);
        run_model("aggregation", NULL, seed);
        run_model("first-row", NULL, seed);
    }
    key_space = 60;
}

static void test_deduplicate(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 150; seed++)
        run_model("deduplicate", NULL, seed);
}

static void test_first_row(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 150; seed++)
        run_model("first-row", NULL, seed);
}

static void test_partial_update(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 150; seed++)
        run_model("partial-update", "partial-update.remove-record-on-delete=true", seed);
}

static void test_aggregation(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 150; seed++)
        run_model("aggregation", NULL, seed);
}

static void test_sequence_field(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        run_model("deduplicate", "sequence.field=sq", seed);
        run_model("deduplicate", "sequence.field=sq;sequence.field.sort-order=descending", seed);
        run_model("aggregation", "sequence.field=sq", seed);
    }
}

static void test_partial_update_sequence_groups(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        run_model("partial-update", "fields.sq.sequence-group=v1", seed);
        run_model("partial-update", "fields.sq.sequence-group=v1;fields.v1.aggregate-function=sum",
                  seed);
        run_model("partial-update", "fields.sq.sequence-group=v1;sequence.field=sq", seed);
    }
}

/* Partial update refuses retractions unless told what to do with them. */
static void test_partial_update_refuses_deletes(void **state)
{
    pm_type *vt = value_type();
    pm_schema schema;
    pm_merge_fn *fn = NULL;
    pm_batch *in = NULL, *out = NULL;
    pm_record recs[2];
    paimon_error err = {0};
    pm_datum d = pm_datum_int(1);
    (void)state;
    memset(&schema, 0, sizeof(schema));
    pm_strlist_init(&schema.primary_keys);
    pm_options_init(&schema.options);
    pm_strlist_push(&schema.primary_keys, "k");
    pm_options_set(&schema.options, "merge-engine", "partial-update");
    schema.row = vt;
    assert_int_equal(pm_merge_fn_new(&fn, &schema, vt, &err), 0);
    assert_int_equal(pm_batch_new(&in, vt, &err), 0);
    assert_int_equal(pm_batch_new(&out, vt, &err), 0);
    for (int i = 0; i < 2; i++) { /* k, v1, v2 = null, sq */
        pm_column_append_datum(in->columns[0], &d);
        pm_column_append_datum(in->columns[1], &d);
        pm_column_append_null(in->columns[2]);
        pm_column_append_datum(in->columns[3], &d);
    }
    assert_int_equal(pm_batch_set_rows(in, 2, &err), 0);
    recs[0] = (pm_record){in, 0, 1, 0, 0};
    recs[1] = (pm_record){in, 1, 2, 3, 0};
    assert_int_equal(pm_merge_fn_apply(fn, recs, 2, out, &err), PAIMON_EINVALID);
    assert_non_null(strstr(err.message, "delete records"));
    pm_batch_free(in);
    pm_batch_free(out);
    pm_merge_fn_free(fn);
    pm_strlist_free(&schema.primary_keys);
    pm_options_free(&schema.options);
    pm_type_free(vt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deduplicate),
        cmocka_unit_test(test_first_row),
        cmocka_unit_test(test_partial_update),
        cmocka_unit_test(test_aggregation),
        cmocka_unit_test(test_sequence_field),
        cmocka_unit_test(test_partial_update_sequence_groups),
        cmocka_unit_test(test_partial_update_refuses_deletes),
        cmocka_unit_test(test_runs_of_lone_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

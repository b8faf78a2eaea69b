/* K-way merge of sorted runs: see merge_reader.h. */
#include "lsm/merge_reader.h"

#include <string.h>

#include "data/datum_compare.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct cursor {
    pm_run_source *src;
    pm_batch *batch; /* current batch, NULL when the run is done */
    int64_t row;
    size_t index; /* run index: the last tie-breaker, for a stable order */
} cursor;

struct pm_merge_reader {
    pm_run_source *runs;
    size_t run_count;
    pm_merge_fn *fn;
    pm_merge_reader_options o;
    size_t value_count;
    cursor *cursors;
    cursor **heap; /* min-heap of live cursors */
    size_t heap_size;
    pm_batch **retired; /* batches left behind while a key's records are gathered */
    size_t retired_count, retired_cap;
    pm_record *recs;
    size_t rec_cap;
    bool started;
};

/* ---- ordering ------------------------------------------------------------------------------ */

static int64_t seq_of(const cursor *c, size_t vc)
{
    int64_t v;
    memcpy(&v, c->batch->columns[vc]->values.data + 8 * c->row, 8);
    return v;
}

static int8_t kind_of(const cursor *c, size_t vc)
{
    return ((const int8_t *)c->batch->columns[vc + 1]->values.data)[c->row];
}

static int compare_keys(const pm_merge_reader *r, const pm_batch *a, int64_t i, const pm_batch *b,
                        int64_t j)
{
    for (size_t k = 0; k < r->o.key_count; k++) {
        int c = pm_column_compare(a->columns[r->o.key_cols[k]], i, b->columns[r->o.key_cols[k]], j);
        if (c != 0)
            return c;
    }
    return 0;
}

static bool is_retract(int8_t kind)
{
    return kind == PM_KIND_UPDATE_BEFORE || kind == PM_KIND_DELETE;
}

static int compare_cursors(const pm_merge_reader *r, const cursor *a, const cursor *b)
{
    int c = compare_keys(r, a->batch, a->row, b->batch, b->row);
    int64_t sa, sb;
    if (c != 0)
        return c;
    for (size_t k = 0; k < r->o.seq_count; k++) {
        int col = r->o.seq_cols[k];
        const pm_column *ca = a->batch->columns[col], *cb = b->batch->columns[col];
        c = pm_column_compare(ca, a->row, cb, b->row);
        if (c == 0)
            continue;
        /* Java's sequence comparator puts nulls first in either direction. */
        if (!r->o.seq_descending || !pm_column_is_valid(ca, a->row) ||
            !pm_column_is_valid(cb, b->row))
            return c;
        return -c;
    }
    sa = seq_of(a, r->value_count);
    sb = seq_of(b, r->value_count);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    /* Equal sequence numbers: the retraction first (as the oracle orders them). */
    c = (int)is_retract(kind_of(b, r->value_count)) - (int)is_retract(kind_of(a, r->value_count));
    if (c != 0)
        return c;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void sift_down(pm_merge_reader *r, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < r->heap_size && compare_cursors(r, r->heap[l], r->heap[m]) < 0)
            m = l;
        if (l + 1 < r->heap_size && compare_cursors(r, r->heap[l + 1], r->heap[m]) < 0)
            m = l + 1;
        if (m == i)
            return;
        cursor *t = r->heap[i];
        r->heap[i] = r->heap[m];
        r->heap[m] = t;
        i = m;
    }
}

static void sift_up(pm_merge_reader *r, size_t i)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (compare_cursors(r, r->heap[i], r->heap[p]) >= 0)
            return;
        cursor *t = r->heap[i];
        r->heap[i] = r->heap[p];
        r->heap[p] = t;
        i = p;
    }
}

/* ---- cursors ------------------------------------------------------------------------------- */

static int retire(pm_merge_reader *r, pm_batch *b, paimon_error *err)
{
    if (r->retired_count == r->retired_cap) {
        size_t cap = r->retired_cap == 0 ? 8 : r->retired_cap * 2;
        pm_batch **grown = pm_realloc(r->retired, cap * sizeof(*grown));
        if (grown == NULL) {
            pm_batch_free(b);
            return pm_nomem(err);
        }
        r->retired = grown;
        r->retired_cap = cap;
    }
    r->retired[r->retired_count++] = b;
    return 0;
}

/* Loads the next non-empty batch of a cursor; the old one is retired (still referenced). */
static int load(pm_merge_reader *r, cursor *c, paimon_error *err)
{
    int rc;
    if (c->batch != NULL && (rc = retire(r, c->batch, err)) != 0) {
        c->batch = NULL;
        return rc;
    }
    c->batch = NULL;
    for (;;) {
        pm_batch *b = NULL;
        rc = c->src->next(c->src->ctx, &b, err);
        if (rc == PAIMON_ITEROVER)
            return 0;
        if (rc != 0)
            return rc;
        if (b->row_count > 0) {
            if (b->column_count < r->value_count + 2) {
                pm_batch_free(b);
                return pm_err_set(err, PAIMON_EINVALID, "merge input without system columns");
            }
            c->batch = b;
            c->row = 0;
            return 0;
        }
        pm_batch_free(b);
    }
}

int pm_merge_reader_new(pm_merge_reader **out, pm_run_source *runs, size_t run_count,
                        pm_merge_fn *fn, const pm_merge_reader_options *o, paimon_error *err)
{
    pm_merge_reader *r = pm_calloc(1, sizeof(*r));
    *out = NULL;
    if (r == NULL)
        return pm_nomem(err);
    r->runs = runs;
    r->run_count = run_count;
    r->fn = fn;
    r->o = *o;
    if (r->o.batch_rows <= 0)
        r->o.batch_rows = 4096;
    r->value_count = o->value_type->field_count;
    r->cursors = pm_calloc(run_count + 1, sizeof(cursor));
    r->heap = pm_calloc(run_count + 1, sizeof(cursor *));
    if (r->cursors == NULL || r->heap == NULL) {
        pm_merge_reader_free(r);
        return pm_nomem(err);
    }
    *out = r;
    return 0;
}

void pm_merge_reader_free(pm_merge_reader *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; r->cursors != NULL && i < r->run_count; i++)
        pm_batch_free(r->cursors[i].batch);
    for (size_t i = 0; i < r->retired_count; i++)
        pm_batch_free(r->retired[i]);
    pm_free(r->retired);
    pm_free(r->cursors);
    pm_free(r->heap);
    pm_free(r->recs);
    pm_free(r);
}

static int start(pm_merge_reader *r, paimon_error *err)
{
    for (size_t i = 0; i < r->run_count; i++) {
        cursor *c = &r->cursors[i];
        int rc;
        c->src = &r->runs[i];
        c->index = i;
        if ((rc = load(r, c, err)) != 0)
            return rc;
        if (c->batch != NULL) {
            r->heap[r->heap_size++] = c;
            sift_up(r, r->heap_size - 1);
        }
    }
    /* Nothing was merged yet: batches retired while starting are not referenced. */
    for (size_t i = 0; i < r->retired_count; i++)
        pm_batch_free(r->retired[i]);
    r->retired_count = 0;
    r->started = true;
    return 0;
}

static int add_record(pm_merge_reader *r, size_t *n, const cursor *c, paimon_error *err)
{
    if (*n == r->rec_cap) {
        size_t cap = r->rec_cap == 0 ? 16 : r->rec_cap * 2;
        pm_record *grown = pm_realloc(r->recs, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        r->recs = grown;
        r->rec_cap = cap;
    }
    r->recs[*n].batch = c->batch;
    r->recs[*n].row = c->row;
    r->recs[*n].seq = seq_of(c, r->value_count);
    r->recs[*n].kind = kind_of(c, r->value_count);
    r->recs[*n].level = c->src->level;
    (*n)++;
    return 0;
}

/* Under the lookup wrapper: the smallest level >= 1 record, plus all level-0 ones. */
static size_t lookup_filter(pm_record *recs, size_t n)
{
    int32_t best = -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (recs[i].level > 0 && (best < 0 || recs[i].level < best))
            best = recs[i].level;
    for (size_t i = 0; i < n; i++) {
        if (recs[i].level <= 0 || recs[i].level == best) {
            if (recs[i].level == best)
                best = -2; /* only one record of that level: the newest comes last, keep the
                              first we meet as Java keeps the record read from that level */
            recs[k++] = recs[i];
        }
    }
    return k;
}

int pm_merge_reader_next(pm_merge_reader *r, pm_batch **out, paimon_error *err)
{
    pm_batch *b = NULL;
    int64_t rows = 0;
    int rc = 0;

    *out = NULL;
    if (!r->started && (rc = start(r, err)) != 0)
        return rc;
    if (r->heap_size == 0)
        return PAIMON_ITEROVER;
    if ((rc = pm_batch_new(&b, r->o.value_type, err)) != 0)
        return rc;
    while (r->heap_size > 0 && rows < r->o.batch_rows) {
        const pm_batch *kb = r->heap[0]->batch;
        int64_t krow = r->heap[0]->row;
        size_t n = 0;
        /* Gather every record of this key, oldest first (the heap's order). */
        while (r->heap_size > 0 &&
               compare_keys(r, r->heap[0]->batch, r->heap[0]->row, kb, krow) == 0) {
            cursor *c = r->heap[0];
            if ((rc = add_record(r, &n, c, err)) != 0)
                goto done;
            if (++c->row >= c->batch->row_count && (rc = load(r, c, err)) != 0)
                goto done;
            if (c->batch == NULL)
                r->heap[0] = r->heap[--r->heap_size];
            if (r->heap_size > 0)
                sift_down(r, 0);
        }
        if (pm_merge_fn_lookup(r->fn))
            n = lookup_filter(r->recs, n);
        {
            int64_t before = b->columns[0]->length;
            if ((rc = pm_merge_fn_apply(r->fn, r->recs, n, b, err)) != 0)
                goto done;
            rows += b->columns[0]->length - before;
        }
        for (size_t i = 0; i < r->retired_count; i++)
            pm_batch_free(r->retired[i]);
        r->retired_count = 0;
    }
    if ((rc = pm_batch_set_rows(b, rows, err)) != 0)
        goto done;
    *out = b;
    b = NULL;
done:
    pm_batch_free(b);
    return rc;
}

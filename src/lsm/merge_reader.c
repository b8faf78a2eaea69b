/* K-way merge of sorted runs: see merge_reader.h. */
#include "lsm/merge_reader.h"

#include <string.h>

#include "data/datum_compare.h"
#include "util/alloc.h"
#include "util/assert.h"
#include "util/error.h"

typedef struct cursor {
    pm_run_source *src;
    pm_batch *batch; /* current batch, NULL when the run is done */
    int64_t row;
    size_t index; /* run index: the last tie-breaker, for a stable order */
    /* The current record's ordering fields, cached (refresh()): */
    int64_t key; /* fast_key: the single integral key */
    bool fast;   /* fast_key and this batch's key column has no nulls */
    int64_t seq; /* _SEQUENCE_NUMBER */
    int8_t kind; /* _VALUE_KIND */
} cursor;

struct pm_merge_reader {
    pm_run_source *runs;
    size_t run_count;
    pm_merge_fn *fn;
    pm_merge_reader_options o;
    size_t value_count;
    cursor *cursors;
    /* A loser tree over the cursors (run_count leaves at positions run_count..2*run_count-1):
     * tree[n] for 1 <= n < run_count holds the loser of the game at node n, tree[0] the
     * overall winner, the cursor of the next record.  A finished cursor loses every game. */
    size_t *tree;
    size_t live;        /* cursors not finished */
    pm_batch **retired; /* batches left behind while a key's records are gathered */
    size_t retired_count, retired_cap;
    pm_record *recs;
    size_t rec_cap;
    bool started;
    bool lookup;   /* the merge function's lookup wrapper (cached) */
    bool fast_key; /* one key column of an integer-like fixed type: compared as int64 */
    int key_width; /* its width in bytes */
    /* Records picked as results and not yet copied out: copied in bulk (pm_column_gather). */
    const pm_batch **pick_batches;
    int64_t *pick_rows;
    size_t pick_count, pick_cap;
    size_t copy_count;   /* columns copied per pick: values (+ seq and kind when reducing) */
    pm_batch *scratch;   /* reduce: one computed row */
    pm_batch *changes;   /* full-compaction changelog rows of this next() (out_type), or NULL */
    pm_buf cmp_a, cmp_b; /* row-deduplicate: one value of each side, as JSON */
};

/* ---- ordering ------------------------------------------------------------------------------ */

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

/* Caches the ordering fields of the cursor's current record. */
static inline void refresh(const pm_merge_reader *r, cursor *c)
{
    const pm_batch *b = c->batch;
    memcpy(&c->seq, b->columns[r->value_count]->values.data + 8 * c->row, 8);
    c->kind = ((const int8_t *)b->columns[r->value_count + 1]->values.data)[c->row];
    if (c->fast) {
        const uint8_t *p = b->columns[r->o.key_cols[0]]->values.data;
        switch (r->key_width) {
        case 1: c->key = ((const int8_t *)p)[c->row]; break;
        case 2: {
            int16_t v;
            memcpy(&v, p + 2 * c->row, 2);
            c->key = v;
            break;
        }
        case 4: {
            int32_t v;
            memcpy(&v, p + 4 * c->row, 4);
            c->key = v;
            break;
        }
        default: memcpy(&c->key, p + 8 * c->row, 8); break;
        }
    }
}

static inline int compare_cursor_keys(const pm_merge_reader *r, const cursor *a, const cursor *b)
{
    if (a->fast && b->fast)
        return a->key < b->key ? -1 : a->key > b->key;
    return compare_keys(r, a->batch, a->row, b->batch, b->row);
}

static int compare_cursors(const pm_merge_reader *r, const cursor *a, const cursor *b)
{
    int c = compare_cursor_keys(r, a, b);
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
    sa = a->seq;
    sb = b->seq;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    /* Equal sequence numbers: the retraction first (as the oracle orders them). */
    c = (int)is_retract(b->kind) - (int)is_retract(a->kind);
    if (c != 0)
        return c;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Whether cursor x orders before cursor y (finished cursors last). */
static inline bool before(const pm_merge_reader *r, size_t x, size_t y)
{
    const cursor *a = &r->cursors[x], *b = &r->cursors[y];
    if (a->batch == NULL || b->batch == NULL)
        return a->batch != NULL;
    if (a->fast && b->fast && a->key != b->key) /* the common case, without a call */
        return a->key < b->key;
    return compare_cursors(r, a, b) < 0;
}

/* The loser tree's invariant, checked in debug builds after every build and replay: the
 * winner at tree[0] is a cursor, and no cursor orders before it (finished cursors last). */
PM_ASSERT_HELPER static bool winner_ok(const pm_merge_reader *r)
{
    size_t w = r->tree[0];
    if (w >= r->run_count)
        return false;
    for (size_t i = 0; i < r->run_count; i++)
        if (before(r, i, w))
            return false;
    return true;
}

/* Plays the games of the subtree at node n; returns its winner. */
static size_t build(pm_merge_reader *r, size_t n)
{
    size_t k = r->run_count, w1, w2;
    if (n >= k)
        return n - k;
    w1 = build(r, 2 * n);
    w2 = build(r, 2 * n + 1);
    if (before(r, w2, w1)) {
        r->tree[n] = w1;
        return w2;
    }
    r->tree[n] = w2;
    return w1;
}

/* Replays the games on the path of cursor `w` (whose record changed) up to the root. */
static inline void replay(pm_merge_reader *r, size_t w)
{
    for (size_t n = (w + r->run_count) / 2; n >= 1; n /= 2) {
        if (before(r, r->tree[n], w)) {
            size_t t = r->tree[n];
            r->tree[n] = w;
            w = t;
        }
    }
    r->tree[0] = w;
    PM_ASSERT(winner_ok(r));
}

/* ---- cursors ------------------------------------------------------------------------------- */

PM_MUST_CHECK static int retire(pm_merge_reader *r, pm_batch *b, paimon_error *err)
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
PM_MUST_CHECK static int load(pm_merge_reader *r, cursor *c, paimon_error *err)
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
            c->fast = r->fast_key && b->columns[r->o.key_cols[0]]->null_count == 0;
            refresh(r, c);
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
    r->copy_count = o->reduce ? r->value_count + 2 : r->value_count;
    pm_buf_init(&r->cmp_a, 0);
    pm_buf_init(&r->cmp_b, 0);
    if (o->reduce && (o->out_type == NULL || o->out_type->field_count != r->value_count + 2)) {
        pm_free(r);
        return pm_err_set(err, PAIMON_EINVALID, "merge output type without system columns");
    }
    if (o->reduce && pm_batch_new(&r->scratch, o->value_type, err) != 0) {
        pm_free(r);
        return PAIMON_ENOMEM;
    }
    r->lookup = pm_merge_fn_lookup(fn);
    if (o->key_count == 1) {
        const pm_type *kt = o->value_type->fields[o->key_cols[0]].type;
        uint32_t width = 0;
        r->fast_key =
            (kt->id == PM_TYPE_TINYINT || kt->id == PM_TYPE_SMALLINT || kt->id == PM_TYPE_INT ||
             kt->id == PM_TYPE_BIGINT || kt->id == PM_TYPE_DATE) &&
            pm_layout_of(kt, &width) == PM_LAYOUT_FIXED;
        r->key_width = (int)width;
    }
    r->cursors = pm_calloc(run_count + 1, sizeof(cursor));
    r->tree = pm_calloc(run_count + 1, sizeof(size_t));
    if (r->cursors == NULL || r->tree == NULL) {
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
    pm_free(r->tree);
    pm_free(r->recs);
    pm_free(r->pick_batches);
    pm_free(r->pick_rows);
    pm_batch_free(r->scratch);
    pm_batch_free(r->changes);
    pm_buf_free(&r->cmp_a);
    pm_buf_free(&r->cmp_b);
    pm_free(r);
}

pm_batch *pm_merge_reader_take_changelog(pm_merge_reader *r)
{
    pm_batch *b = r->changes;
    r->changes = NULL;
    return b;
}

PM_MUST_CHECK static int start(pm_merge_reader *r, paimon_error *err)
{
    for (size_t i = 0; i < r->run_count; i++) {
        cursor *c = &r->cursors[i];
        int rc;
        c->src = &r->runs[i];
        c->index = i;
        if ((rc = load(r, c, err)) != 0)
            return rc;
        if (c->batch != NULL)
            r->live++;
    }
    /* Nothing was merged yet: batches retired while starting are not referenced. */
    for (size_t i = 0; i < r->retired_count; i++)
        pm_batch_free(r->retired[i]);
    r->retired_count = 0;
    if (r->run_count > 0) {
        r->tree[0] = build(r, 1);
        PM_ASSERT(winner_ok(r));
    }
    r->started = true;
    return 0;
}

PM_MUST_CHECK static int add_record(pm_merge_reader *r, size_t *n, const cursor *c,
                                    paimon_error *err)
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
    r->recs[*n].seq = c->seq;
    r->recs[*n].kind = c->kind;
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

PM_MUST_CHECK static int add_pick(pm_merge_reader *r, const pm_record *rec, paimon_error *err)
{
    if (r->pick_count == r->pick_cap) {
        size_t cap = r->pick_cap == 0 ? 256 : r->pick_cap * 2;
        const pm_batch **b = pm_realloc(r->pick_batches, cap * sizeof(*b));
        int64_t *rows;
        if (b == NULL)
            return pm_nomem(err);
        r->pick_batches = b;
        rows = pm_realloc(r->pick_rows, cap * sizeof(*rows));
        if (rows == NULL)
            return pm_nomem(err);
        r->pick_rows = rows;
        r->pick_cap = cap;
    }
    r->pick_batches[r->pick_count] = rec->batch;
    r->pick_rows[r->pick_count++] = rec->row;
    return 0;
}

/* Copies the picked records into `b`, column by column. */
PM_MUST_CHECK static int flush_picks(pm_merge_reader *r, pm_batch *b, paimon_error *err)
{
    for (size_t col = 0; r->pick_count > 0 && col < r->copy_count; col++) {
        int rc =
            pm_column_gather(b->columns[col], r->pick_batches, r->pick_rows, r->pick_count, col);
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    r->pick_count = 0;
    return 0;
}

/* Output rows so far: appended ones plus picks waiting to be copied. */
static int64_t output_rows(const pm_merge_reader *r, const pm_batch *b)
{
    return (r->value_count > 0 ? b->columns[0]->length : 0) + (int64_t)r->pick_count;
}

/* Moves a cursor to its next record, loading its next batch at the end of one. */
static inline int advance(pm_merge_reader *r, cursor *c, paimon_error *err)
{
    if (++c->row < c->batch->row_count) {
        refresh(r, c);
        return 0;
    }
    return load(r, c, err);
}

/* ---- full-compaction changelog ------------------------------------------------------------ */

/* A row of values (the first value_count columns of `vb` at `vrow`), `seq` and `kind`
 * appended to the changelog batch. */
PM_MUST_CHECK static int change(pm_merge_reader *r, const pm_batch *vb, int64_t vrow, int64_t seq,
                                int8_t kind, paimon_error *err)
{
    int rc;
    if (r->changes == NULL && (rc = pm_batch_new(&r->changes, r->o.out_type, err)) != 0)
        return rc;
    for (size_t c = 0; c < r->value_count; c++)
        if ((rc = pm_column_append_from(r->changes->columns[c], vb->columns[c], vrow)) != 0)
            return pm_buf_error(err, rc);
    if ((rc = pm_column_append_i64(r->changes->columns[r->value_count], seq)) != 0 ||
        (rc = pm_column_append_i64(r->changes->columns[r->value_count + 1], kind)) != 0)
        return pm_buf_error(err, rc);
    return 0;
}

/* Whether two rows hold equal values in the compared columns (Java's RecordEqualiser
 * compares field by field; the canonical JSON of a value is equal exactly when the values
 * are, floats and NaN included). */
PM_MUST_CHECK static int same_values(pm_merge_reader *r, const pm_batch *a, int64_t ra,
                                     const pm_batch *b, int64_t rb, bool *eq, paimon_error *err)
{
    int rc;
    *eq = true;
    for (size_t c = 0; c < r->value_count; c++) {
        if (!r->o.compare[c])
            continue;
        r->cmp_a.len = r->cmp_b.len = 0;
        if ((rc = pm_column_json(&r->cmp_a, a->columns[c], ra, err)) != 0 ||
            (rc = pm_column_json(&r->cmp_b, b->columns[c], rb, err)) != 0)
            return rc;
        if (r->cmp_a.len != r->cmp_b.len ||
            memcmp(pm_buf_cstr(&r->cmp_a), pm_buf_cstr(&r->cmp_b), r->cmp_a.len) != 0) {
            *eq = false;
            return 0;
        }
    }
    return 0;
}

/* The change of one key from its stored record `before` (NULL: none) to its merge result
 * (row `res_row` of `res`, or none when `res` is NULL): LookupChangelogMergeFunctionWrapper's
 * setChangelog, and FullChangelogMergeFunctionWrapper's for several records (whose `before`,
 * at the max level, is never a retraction). */
PM_MUST_CHECK static int update_changes(pm_merge_reader *r, const pm_record *before,
                                        const pm_batch *res, int64_t res_row, int64_t res_seq,
                                        int8_t res_kind, paimon_error *err)
{
    bool after_add = res != NULL && pm_kind_is_add(res_kind), eq = false;
    int rc;
    if (before == NULL || !pm_kind_is_add(before->kind))
        return after_add ? change(r, res, res_row, res_seq, PM_KIND_INSERT, err) : 0;
    if (!after_add)
        return change(r, before->batch, before->row, before->seq, PM_KIND_DELETE, err);
    if (r->o.compare != NULL &&
        (rc = same_values(r, before->batch, before->row, res, res_row, &eq, err)) != 0)
        return rc;
    if (eq)
        return 0;
    if ((rc = change(r, before->batch, before->row, before->seq, PM_KIND_UPDATE_BEFORE, err)) != 0)
        return rc;
    return change(r, res, res_row, res_seq, PM_KIND_UPDATE_AFTER, err);
}

/* FullChangelogMergeFunctionWrapper.getResult: the change of one key's n records, whose
 * reduced result is row `res_row` of `res` (seq, kind), or none when `res` is NULL. */
PM_MUST_CHECK static int key_changes(pm_merge_reader *r, size_t n, const pm_batch *res,
                                     int64_t res_row, int64_t res_seq, int8_t res_kind,
                                     paimon_error *err)
{
    const pm_record *top = NULL;
    for (size_t i = 0; i < n; i++) {
        if (r->recs[i].level != r->o.max_level)
            continue;
        /* a full compaction leaves one record per key at the max level */
        if (top != NULL)
            return pm_corrupt(err, "two records of one key at the max level %d",
                              (int)r->o.max_level);
        top = &r->recs[i];
    }
    if (n == 1) {
        /* a lone record: a new key when it is not the old state itself */
        if (top == NULL && pm_kind_is_add(r->recs[0].kind))
            return change(r, r->recs[0].batch, r->recs[0].row, r->recs[0].seq, PM_KIND_INSERT, err);
        return 0;
    }
    return update_changes(r, top, res, res_row, res_seq, res_kind, err);
}

/* ---- lookup compaction ----------------------------------------------------------------- */

/* The merge order of two records of one key: user sequence fields, then sequence number. */
static int compare_records(const pm_merge_reader *r, const pm_record *a, const pm_record *b)
{
    for (size_t k = 0; k < r->o.seq_count; k++) {
        int col = r->o.seq_cols[k];
        const pm_column *ca = a->batch->columns[col], *cb = b->batch->columns[col];
        int c = pm_column_compare(ca, a->row, cb, b->row);
        if (c == 0)
            continue;
        if (!r->o.seq_descending || !pm_column_is_valid(ca, a->row) ||
            !pm_column_is_valid(cb, b->row))
            return c;
        return -c;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Inserts `rec` among recs[0..*n) in merge order (KeyValueBuffer.insertInto: after the
 * records that do not order after it); returns its index. */
static long insert_record(pm_merge_reader *r, size_t *n, const pm_record *rec, paimon_error *err)
{
    size_t at = 0;
    if (*n == r->rec_cap) {
        size_t cap = r->rec_cap * 2 + 16;
        pm_record *grown = pm_realloc(r->recs, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err), -1;
        r->recs = grown;
        r->rec_cap = cap;
    }
    while (at < *n && compare_records(r, &r->recs[at], rec) <= 0)
        at++;
    memmove(&r->recs[at + 1], &r->recs[at], (*n - at) * sizeof(*r->recs));
    r->recs[at] = *rec;
    (*n)++;
    return (long)at;
}

/* The record of one key from a level >= 1 (the lookup filter keeps at most one), and
 * whether a level-0 record is among them. */
static const pm_record *high_level(const pm_merge_reader *r, size_t n, bool *level0)
{
    const pm_record *high = NULL;
    *level0 = false;
    for (size_t i = 0; i < n; i++) {
        if (r->recs[i].level <= 0)
            *level0 = true;
        else if (high == NULL || r->recs[i].level < high->level)
            high = &r->recs[i];
    }
    return high;
}

/* Appends row `row` of `src` (values) with seq and kind to the output now (computed rows
 * and rows of borrowed batches go after the picks before them). */
PM_MUST_CHECK static int emit_row(pm_merge_reader *r, pm_batch *b, const pm_batch *src, int64_t row,
                                  int64_t seq, int8_t kind, paimon_error *err)
{
    int rc;
    if ((rc = flush_picks(r, b, err)) != 0)
        return rc;
    for (size_t c = 0; c < r->value_count; c++)
        if ((rc = pm_column_append_from(b->columns[c], src->columns[c], row)) != 0)
            return pm_buf_error(err, rc);
    if ((rc = pm_column_append_i64(b->columns[r->value_count], seq)) != 0 ||
        (rc = pm_column_append_i64(b->columns[r->value_count + 1], kind)) != 0)
        return pm_buf_error(err, rc);
    return 0;
}

/* FirstRowMergeFunctionWrapper over one key's n records. */
PM_MUST_CHECK static int first_row_key(pm_merge_reader *r, size_t n, pm_batch *b, paimon_error *err)
{
    const pm_record *first = NULL;
    bool high = false, hit = false;
    pm_record found;
    int rc;
    for (size_t i = 0; i < n; i++) {
        const pm_record *p = &r->recs[i];
        if (!pm_kind_is_add(p->kind)) {
            if (r->o.ignore_delete)
                continue;
            return pm_err_set(err, PAIMON_EINVALID,
                              "By default, First row merge engine can not accept "
                              "DELETE/UPDATE_BEFORE records. You can config 'ignore-delete' to "
                              "ignore the DELETE/UPDATE_BEFORE records.");
        }
        if (first == NULL)
            first = p;
        high |= p->level > 0;
    }
    if (first == NULL)
        return 0;
    if (!high) {
        if ((rc = r->o.lookup(r->o.lookup_ctx, first->batch, first->row, &found, &hit, err)) != 0)
            return rc;
        if (hit)
            return 0; /* the key is stored above: its first row is already there */
        if (r->o.lookup_changelog &&
            (rc = change(r, first->batch, first->row, first->seq, first->kind, err)) != 0)
            return rc;
    }
    return add_pick(r, first, err);
}

/* LookupChangelogMergeFunctionWrapper over one key's n records (lookup-filtered). */
PM_MUST_CHECK static int lookup_key(pm_merge_reader *r, size_t n, pm_batch *b, paimon_error *err)
{
    bool level0, hit = false, emitted = false;
    const pm_record *high = high_level(r, n, &level0);
    long looked = -1;
    int8_t kind = 0;
    int64_t seq = 0;
    int pick;
    int rc;

    if (high == NULL) {
        pm_record found;
        memset(&found, 0, sizeof(found));
        if ((rc = r->o.lookup(r->o.lookup_ctx, r->recs[0].batch, r->recs[0].row, &found, &hit,
                              err)) != 0)
            return rc;
        if (hit && found.batch != NULL) {
            if ((looked = insert_record(r, &n, &found, err)) < 0)
                return err->code;
            high = &r->recs[looked];
        }
    }
    pick = pm_merge_fn_reduce_pick(r->fn, r->recs, n);
    if (pick >= 0) {
        const pm_record *p = &r->recs[pick];
        if (level0 && r->o.lookup_changelog &&
            (rc = update_changes(r, high, p->batch, p->row, p->seq, p->kind, err)) != 0)
            return rc;
        if (r->o.drop_delete && !pm_kind_is_add(p->kind))
            return 0;
        if (pick == looked) /* a borrowed row: copied now */
            return emit_row(r, b, p->batch, p->row, p->seq, p->kind, err);
        return add_pick(r, p, err);
    }
    if (pick == -1) {
        pm_batch_reset(r->scratch);
        if ((rc = pm_merge_fn_reduce(r->fn, r->recs, n, r->scratch, &kind, &seq, &emitted, err)) !=
            0)
            return rc;
    }
    if (level0 && r->o.lookup_changelog &&
        (rc = update_changes(r, high, emitted ? r->scratch : NULL, 0, seq, kind, err)) != 0)
        return rc;
    if (!emitted || (r->o.drop_delete && !pm_kind_is_add(kind)))
        return 0;
    return emit_row(r, b, r->scratch, 0, seq, kind, err);
}

/* Compaction: the reduced record of one key's n records, appended to b (values, seq, kind)
 * unless it is a retraction that is dropped. */
PM_MUST_CHECK static int reduce_key(pm_merge_reader *r, size_t n, pm_batch *b, paimon_error *err)
{
    int pick;
    int8_t kind = 0;
    int64_t seq = 0;
    bool emitted = false;
    int rc;
    if (r->o.lookup != NULL)
        return r->o.first_row ? first_row_key(r, n, b, err) : lookup_key(r, n, b, err);
    pick = pm_merge_fn_reduce_pick(r->fn, r->recs, n);
    if (pick >= 0) {
        const pm_record *p = &r->recs[pick];
        if (r->o.changelog && (rc = key_changes(r, n, p->batch, p->row, p->seq, p->kind, err)) != 0)
            return rc;
        if (r->o.drop_delete && !pm_kind_is_add(p->kind))
            return 0;
        return add_pick(r, p, err);
    }
    if (pick != -1)
        return r->o.changelog ? key_changes(r, n, NULL, 0, 0, 0, err) : 0;
    pm_batch_reset(r->scratch);
    if ((rc = pm_merge_fn_reduce(r->fn, r->recs, n, r->scratch, &kind, &seq, &emitted, err)) != 0)
        return rc;
    if (r->o.changelog &&
        (rc = key_changes(r, n, emitted ? r->scratch : NULL, 0, seq, kind, err)) != 0)
        return rc;
    if (!emitted || (r->o.drop_delete && !pm_kind_is_add(kind)))
        return 0;
    return emit_row(r, b, r->scratch, 0, seq, kind, err);
}

int pm_merge_reader_next(pm_merge_reader *r, pm_batch **out, paimon_error *err)
{
    pm_batch *b = NULL;
    int rc = 0;

    *out = NULL;
    if (!r->started && (rc = start(r, err)) != 0)
        return rc;
    if (r->live == 0)
        return PAIMON_ITEROVER;
    if ((rc = pm_batch_new(&b, r->o.reduce ? r->o.out_type : r->o.value_type, err)) != 0)
        return rc;
    while (r->live > 0 && output_rows(r, b) < r->o.batch_rows) {
        size_t w = r->tree[0], n = 0;
        cursor *c = &r->cursors[w];
        const pm_batch *key_batch = c->batch; /* the key being gathered (its batch lives) */
        int64_t key_row = c->row, key = c->key;
        bool key_fast = c->fast;
        long pick;
        if ((rc = add_record(r, &n, c, err)) != 0 || (rc = advance(r, c, err)) != 0)
            goto done;
        if (c->batch == NULL)
            r->live--;
        replay(r, w);
        /* Gather the key's other records, oldest first (the tree's order). */
        while (r->live > 0) {
            const cursor *top = &r->cursors[r->tree[0]];
            bool same = key_fast && top->fast
                            ? top->key == key
                            : compare_keys(r, top->batch, top->row, key_batch, key_row) == 0;
            if (!same)
                break;
            w = r->tree[0];
            c = &r->cursors[w];
            if ((rc = add_record(r, &n, c, err)) != 0 || (rc = advance(r, c, err)) != 0)
                goto done;
            if (c->batch == NULL)
                r->live--;
            replay(r, w);
        }
        if (r->lookup)
            n = lookup_filter(r->recs, n);
        if (r->o.reduce) {
            if ((rc = reduce_key(r, n, b, err)) != 0)
                goto done;
            continue;
        }
        pick = n == 1 && !r->lookup ? (pm_kind_is_add(r->recs[0].kind) ? 0 : PM_MERGE_DELETED)
                                    : pm_merge_fn_pick(r->fn, r->recs, n);
        if (pick >= 0) {
            rc = add_pick(r, &r->recs[pick], err);
        } else if (pick == PM_MERGE_COMPUTE) {
            /* Computed rows go after the picks before them. */
            if ((rc = flush_picks(r, b, err)) == 0)
                rc = pm_merge_fn_apply(r->fn, r->recs, n, b, err);
        }
        if (rc != 0)
            goto done;
    }
    if ((rc = flush_picks(r, b, err)) != 0 ||
        (rc = pm_batch_set_rows(b, r->value_count > 0 ? b->columns[0]->length : 0, err)) != 0)
        goto done;
    if (r->changes != NULL &&
        (rc = pm_batch_set_rows(r->changes, r->value_count > 0 ? r->changes->columns[0]->length : 0,
                                err)) != 0)
        goto done;
    *out = b;
    b = NULL;
done:
    /* Batches the cursors moved past are no longer referenced once the picks are copied. */
    r->pick_count = 0;
    for (size_t i = 0; i < r->retired_count; i++)
        pm_batch_free(r->retired[i]);
    r->retired_count = 0;
    pm_batch_free(b);
    return rc;
}

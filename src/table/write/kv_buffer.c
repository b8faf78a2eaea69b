/* The write buffer of a primary-key bucket: see kv_buffer.h. */
#include "table/write/kv_buffer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/datum_compare.h"
#include "format/data_file.h"
#include "util/alloc.h"
#include "util/error.h"

#define CHUNK_ROWS 8192 /* records per buffer chunk */
#define OUT_ROWS   4096 /* rows per batch handed to the data writers */

struct pm_kv_buffer {
    pm_write_ctx *c;
    pm_batch **chunks; /* records in arrival order, CHUNK_ROWS per chunk */
    size_t chunk_count, chunk_cap;
    pm_buf kinds;       /* int8 row kind per record */
    int64_t count;      /* records in memory */
    int64_t first_seq;  /* sequence number of record 0 */
    size_t full_mem;    /* bytes of the full chunks */
    size_t mem;         /* bytes in memory */
    pm_strlist runs;    /* spilled sorted runs (paths) */
    int64_t spilled;    /* records in them */
    pm_type *run_type;  /* value columns, _SEQUENCE_NUMBER, _VALUE_KIND */
    pm_merge_fn *merge; /* this buffer's own: a merge keeps state, and buffers of different
                           buckets flush on different threads */
    bool int_key;       /* one integer-like key and no sequence.field: the fast paths */
};

/* ---- memory ---------------------------------------------------------------------------- */

static size_t column_bytes(const pm_column *c)
{
    size_t n = sizeof(*c) + c->validity.cap + c->values.cap + c->offsets.cap;
    for (size_t i = 0; i < c->child_count; i++)
        n += column_bytes(c->children[i]);
    return n;
}

static size_t batch_bytes(const pm_batch *b)
{
    size_t n = sizeof(*b);
    for (size_t i = 0; i < b->column_count; i++)
        n += column_bytes(b->columns[i]);
    return n;
}

static bool is_int_key(const pm_type *t)
{
    switch (t->id) {
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT:
    case PM_TYPE_DATE: return true;
    default: return false;
    }
}

static int64_t load_int(const pm_column *col, int64_t row)
{
    switch (col->width) {
    case 1: return ((const int8_t *)col->values.data)[row];
    case 2: {
        int16_t v;
        memcpy(&v, col->values.data + 2 * row, 2);
        return v;
    }
    case 4: {
        int32_t v;
        memcpy(&v, col->values.data + 4 * row, 4);
        return v;
    }
    default: {
        int64_t v;
        memcpy(&v, col->values.data + 8 * row, 8);
        return v;
    }
    }
}

int pm_kv_buffer_new(pm_kv_buffer **out, pm_write_ctx *c, paimon_error *err)
{
    pm_kv_buffer *b = pm_calloc(1, sizeof(*b));
    pm_type *seq = NULL, *kind = NULL;
    int rc = 0;
    *out = NULL;
    if (b == NULL)
        return pm_nomem(err);
    b->c = c;
    pm_buf_init(&b->kinds, 0);
    pm_strlist_init(&b->runs);
    b->int_key = c->key_count == 1 && c->seq_count == 0 &&
                 is_int_key(c->value_type->fields[c->key_idx[0]].type);
    if ((b->run_type = pm_type_clone(c->value_type)) == NULL ||
        (seq = pm_type_new(PM_TYPE_BIGINT)) == NULL ||
        (kind = pm_type_new(PM_TYPE_TINYINT)) == NULL)
        goto nomem;
    seq->nullable = kind->nullable = false;
    rc = pm_type_row_add(b->run_type, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", seq);
    seq = NULL;
    if (rc == 0) {
        rc = pm_type_row_add(b->run_type, PM_VALUE_KIND_ID, "_VALUE_KIND", kind);
        kind = NULL; /* taken, also on failure; otherwise freed below */
    }
    if (rc != 0)
        goto nomem;
    if ((rc = pm_merge_fn_new(&b->merge, c->schema, c->schema->row, err)) != 0)
        goto done;
    *out = b;
    b = NULL;
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    pm_type_free(seq);
    pm_type_free(kind);
    pm_kv_buffer_free(b);
    return rc;
}

static void drop_memory(pm_kv_buffer *b)
{
    for (size_t i = 0; i < b->chunk_count; i++)
        pm_batch_free(b->chunks[i]);
    b->chunk_count = 0;
    b->count = 0;
    b->kinds.len = 0;
    b->full_mem = b->mem = 0;
}

static void drop_runs(pm_kv_buffer *b)
{
    for (size_t i = 0; i < b->runs.count; i++)
        (void)b->c->tmp_fs->remove(b->c->tmp_fs, b->runs.items[i], NULL);
    pm_strlist_free(&b->runs);
    pm_strlist_init(&b->runs);
    b->spilled = 0;
}

void pm_kv_buffer_free(pm_kv_buffer *b)
{
    if (b == NULL)
        return;
    drop_memory(b);
    drop_runs(b);
    pm_free(b->chunks);
    pm_buf_free(&b->kinds);
    pm_type_free(b->run_type);
    pm_merge_fn_free(b->merge);
    pm_free(b);
}

size_t pm_kv_buffer_memory(const pm_kv_buffer *b)
{
    return b->mem;
}

int64_t pm_kv_buffer_records(const pm_kv_buffer *b)
{
    return b->count + b->spilled;
}

int pm_kv_buffer_put(pm_kv_buffer *b, const pm_batch *batch, const int64_t *rows,
                     const int8_t *kinds, int64_t n, int64_t first_seq, paimon_error *err)
{
    int rc;
    if (n <= 0)
        return 0;
    if (b->count == 0)
        b->first_seq = first_seq;
    if ((rc = pm_buf_append(&b->kinds, kinds, (size_t)n)) != 0)
        return pm_buf_error(err, rc);
    while (n > 0) {
        pm_batch *ch = b->chunk_count > 0 ? b->chunks[b->chunk_count - 1] : NULL;
        int64_t m;
        if (ch == NULL || ch->row_count == CHUNK_ROWS) {
            if (ch != NULL)
                b->full_mem += batch_bytes(ch);
            if (b->chunk_count == b->chunk_cap) {
                size_t cap = b->chunk_cap == 0 ? 16 : b->chunk_cap * 2;
                pm_batch **grown = pm_realloc(b->chunks, cap * sizeof(*grown));
                if (grown == NULL)
                    return pm_nomem(err);
                b->chunks = grown;
                b->chunk_cap = cap;
            }
            if ((rc = pm_batch_new(&ch, b->c->value_type, err)) != 0)
                return rc;
            b->chunks[b->chunk_count++] = ch;
            for (size_t c = 0; c < ch->column_count; c++) /* no regrowth while filling */
                if (pm_column_reserve(ch->columns[c], CHUNK_ROWS) != 0)
                    return pm_nomem(err);
        }
        m = CHUNK_ROWS - ch->row_count;
        if (m > n)
            m = n;
        if ((rc = pm_batch_take(ch, batch, rows, m, err)) != 0)
            return rc;
        rows += m;
        n -= m;
        b->count += m;
    }
    b->mem = b->full_mem + batch_bytes(b->chunks[b->chunk_count - 1]) + b->kinds.cap +
             b->chunk_cap * sizeof(pm_batch *);
    return 0;
}

/* ---- order ----------------------------------------------------------------------------- */

/* One record wherever it lives: a row of a batch with its sequence number and kind. */
typedef struct rec_ref {
    const pm_batch *batch;
    int64_t row;
    int64_t seq;
    int8_t kind;
    int64_t ikey; /* the key, on the integer fast path */
} rec_ref;

static int compare_keys(const pm_write_ctx *c, const pm_batch *a, int64_t i, const pm_batch *b,
                        int64_t j)
{
    for (size_t k = 0; k < c->key_count; k++) {
        int r = pm_column_compare(a->columns[c->key_idx[k]], i, b->columns[c->key_idx[k]], j);
        if (r != 0)
            return r;
    }
    return 0;
}

/* Key, sequence fields (configured direction, nulls first), sequence number. */
static int compare_recs(const pm_kv_buffer *kb, const rec_ref *a, const rec_ref *b)
{
    const pm_write_ctx *c = kb->c;
    int r;
    if (kb->int_key) {
        if (a->ikey != b->ikey)
            return a->ikey < b->ikey ? -1 : 1;
    } else if ((r = compare_keys(c, a->batch, a->row, b->batch, b->row)) != 0) {
        return r;
    }
    for (size_t k = 0; k < c->seq_count; k++) {
        const pm_column *x = a->batch->columns[c->seq_idx[k]];
        const pm_column *y = b->batch->columns[c->seq_idx[k]];
        r = pm_column_compare(x, a->row, y, b->row);
        if (r == 0)
            continue;
        if (!c->seq_descending || !pm_column_is_valid(x, a->row) || !pm_column_is_valid(y, b->row))
            return r;
        return -r;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void mem_ref(const pm_kv_buffer *b, int64_t idx, rec_ref *r)
{
    r->batch = b->chunks[idx / CHUNK_ROWS];
    r->row = idx % CHUNK_ROWS;
    r->seq = b->first_seq + idx;
    r->kind = (int8_t)b->kinds.data[idx];
    r->ikey = b->int_key ? load_int(r->batch->columns[b->c->key_idx[0]], r->row) : 0;
}

/* Sorting context for qsort_r (generic keys). */
static int cmp_idx(const void *x, const void *y, void *arg)
{
    const pm_kv_buffer *b = arg;
    rec_ref a, c;
    mem_ref(b, *(const int64_t *)x, &a);
    mem_ref(b, *(const int64_t *)y, &c);
    return compare_recs(b, &a, &c);
}

/* LSD radix sort of (key, index) pairs by key; stable, so equal keys keep index order, which
 * is sequence order. */
typedef struct kv_pair {
    uint64_t key;
    int64_t idx;
} kv_pair;

static int radix_sort(kv_pair *p, int64_t n)
{
    kv_pair *tmp = pm_malloc((size_t)n * sizeof(*tmp) + 1), *src = p, *dst = tmp;
    if (tmp == NULL)
        return PAIMON_ENOMEM;
    for (int shift = 0; shift < 64; shift += 8) {
        size_t counts[256] = {0}, pos[256];
        size_t acc = 0;
        for (int64_t i = 0; i < n; i++)
            counts[(src[i].key >> shift) & 0xff]++;
        if (counts[(src[0].key >> shift) & 0xff] == (size_t)n)
            continue; /* every key has the same byte here */
        for (int d = 0; d < 256; d++) {
            pos[d] = acc;
            acc += counts[d];
        }
        for (int64_t i = 0; i < n; i++)
            dst[pos[(src[i].key >> shift) & 0xff]++] = src[i];
        kv_pair *t = src;
        src = dst;
        dst = t;
    }
    if (src != p)
        memcpy(p, src, (size_t)n * sizeof(*p));
    pm_free(tmp);
    return 0;
}

/* The records in memory in sorted order (indexes).  Caller frees *out. */
PM_MUST_CHECK static int sort_memory(pm_kv_buffer *b, int64_t **out, paimon_error *err)
{
    int64_t *perm = pm_malloc((size_t)b->count * sizeof(int64_t) + 1);
    *out = NULL;
    if (perm == NULL)
        return pm_nomem(err);
    if (b->int_key && b->count > 0) {
        kv_pair *p = pm_malloc((size_t)b->count * sizeof(kv_pair));
        if (p == NULL) {
            pm_free(perm);
            return pm_nomem(err);
        }
        for (int64_t i = 0; i < b->count; i++) {
            rec_ref r;
            mem_ref(b, i, &r);
            p[i].key = (uint64_t)r.ikey ^ 0x8000000000000000ull;
            p[i].idx = i;
        }
        if (radix_sort(p, b->count) != 0) {
            pm_free(p);
            pm_free(perm);
            return pm_nomem(err);
        }
        for (int64_t i = 0; i < b->count; i++)
            perm[i] = p[i].idx;
        pm_free(p);
    } else {
        for (int64_t i = 0; i < b->count; i++)
            perm[i] = i;
        qsort_r(perm, (size_t)b->count, sizeof(int64_t), cmp_idx, b);
    }
    *out = perm;
    return 0;
}

/* ---- runs and cursors ------------------------------------------------------------------ */

typedef struct cursor {
    const int64_t *perm; /* memory run: sorted indexes */
    int64_t pos, end;
    pm_data_file *file; /* spilled run */
    pm_batch *batch;
    int64_t row;
    rec_ref cur;
    bool done;
} cursor;

typedef struct merge_state {
    pm_kv_buffer *b;
    cursor *cursors;
    size_t cursor_count;
    cursor **heap;
    size_t heap_size;
    pm_batch **retired; /* batches left behind while a key's records are gathered */
    size_t retired_count, retired_cap;
} merge_state;

PM_MUST_CHECK static int retire(merge_state *m, pm_batch *batch, paimon_error *err)
{
    if (m->retired_count == m->retired_cap) {
        size_t cap = m->retired_cap == 0 ? 8 : m->retired_cap * 2;
        pm_batch **grown = pm_realloc(m->retired, cap * sizeof(*grown));
        if (grown == NULL) {
            pm_batch_free(batch);
            return pm_nomem(err);
        }
        m->retired = grown;
        m->retired_cap = cap;
    }
    m->retired[m->retired_count++] = batch;
    return 0;
}

static void free_retired(merge_state *m)
{
    for (size_t i = 0; i < m->retired_count; i++)
        pm_batch_free(m->retired[i]);
    m->retired_count = 0;
}

static void file_ref(const pm_kv_buffer *b, cursor *c)
{
    size_t vc = b->c->value_type->field_count;
    c->cur.batch = c->batch;
    c->cur.row = c->row;
    memcpy(&c->cur.seq, c->batch->columns[vc]->values.data + 8 * c->row, 8);
    c->cur.kind = ((const int8_t *)c->batch->columns[vc + 1]->values.data)[c->row];
    c->cur.ikey = b->int_key ? load_int(c->batch->columns[b->c->key_idx[0]], c->row) : 0;
}

/* Moves a cursor to its next record (done at the end). */
PM_MUST_CHECK static int advance(merge_state *m, cursor *c, paimon_error *err)
{
    int rc;
    if (c->perm != NULL) {
        if (++c->pos >= c->end) {
            c->done = true;
            return 0;
        }
        mem_ref(m->b, c->perm[c->pos], &c->cur);
        return 0;
    }
    if (c->batch != NULL && ++c->row < c->batch->row_count) {
        file_ref(m->b, c);
        return 0;
    }
    for (;;) {
        pm_batch *next = NULL;
        if (c->batch != NULL) {
            pm_batch *old = c->batch;
            c->batch = NULL;
            if ((rc = retire(m, old, err)) != 0)
                return rc;
        }
        rc = c->file->format->next(c->file->impl, &next, err);
        if (rc == PAIMON_ITEROVER) {
            c->done = true;
            return 0;
        }
        if (rc != 0)
            return rc;
        c->batch = next;
        c->row = 0;
        if (next->row_count > 0) {
            file_ref(m->b, c);
            return 0;
        }
    }
}

static int heap_cmp(const merge_state *m, const cursor *a, const cursor *b)
{
    return compare_recs(m->b, &a->cur, &b->cur);
}

static void sift_down(merge_state *m, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, s = i;
        if (l < m->heap_size && heap_cmp(m, m->heap[l], m->heap[s]) < 0)
            s = l;
        if (l + 1 < m->heap_size && heap_cmp(m, m->heap[l + 1], m->heap[s]) < 0)
            s = l + 1;
        if (s == i)
            return;
        cursor *t = m->heap[i];
        m->heap[i] = m->heap[s];
        m->heap[s] = t;
        i = s;
    }
}

static void merge_state_free(merge_state *m)
{
    for (size_t i = 0; i < m->cursor_count; i++) {
        pm_batch_free(m->cursors[i].batch);
        pm_data_file_free(m->cursors[i].file);
    }
    free_retired(m);
    pm_free(m->retired);
    pm_free(m->cursors);
    pm_free(m->heap);
}

/* Cursors over the spilled runs and (perm != NULL) the sorted memory. */
PM_MUST_CHECK static int merge_state_init(merge_state *m, pm_kv_buffer *b, const int64_t *perm,
                                          paimon_error *err)
{
    size_t n = b->runs.count + (perm != NULL && b->count > 0);
    int rc;
    memset(m, 0, sizeof(*m));
    m->b = b;
    if ((m->cursors = pm_calloc(n + 1, sizeof(cursor))) == NULL ||
        (m->heap = pm_calloc(n + 1, sizeof(cursor *))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < b->runs.count; i++) {
        cursor *c = &m->cursors[m->cursor_count++];
        pm_read_options ro;
        memset(&ro, 0, sizeof(ro));
        ro.batch_rows = OUT_ROWS;
        if ((rc = pm_data_file_open(&c->file, b->c->tmp_fs, b->runs.items[i], err)) != 0 ||
            (rc = c->file->format->start(c->file->impl, &ro, err)) != 0 ||
            (rc = advance(m, c, err)) != 0)
            return rc;
    }
    if (perm != NULL && b->count > 0) {
        cursor *c = &m->cursors[m->cursor_count++];
        c->perm = perm;
        c->pos = 0;
        c->end = b->count;
        mem_ref(b, perm[0], &c->cur);
    }
    for (size_t i = 0; i < m->cursor_count; i++)
        if (!m->cursors[i].done)
            m->heap[m->heap_size++] = &m->cursors[i];
    for (size_t i = m->heap_size / 2; i-- > 0;)
        sift_down(m, i);
    return 0;
}

/* Pops the smallest record into *r and advances its cursor. */
PM_MUST_CHECK static int pop(merge_state *m, rec_ref *r, paimon_error *err)
{
    cursor *top = m->heap[0];
    int rc;
    *r = top->cur;
    if ((rc = advance(m, top, err)) != 0)
        return rc;
    if (top->done)
        m->heap[0] = m->heap[--m->heap_size];
    if (m->heap_size > 0)
        sift_down(m, 0);
    return 0;
}

static bool same_key(const merge_state *m, const rec_ref *a, const rec_ref *b)
{
    if (m->b->int_key)
        return a->ikey == b->ikey;
    return compare_keys(m->b->c, a->batch, a->row, b->batch, b->row) == 0;
}

/* ---- outputs --------------------------------------------------------------------------- */

/* A batch of rows in a data file's layout: value columns plus _SEQUENCE_NUMBER and
 * _VALUE_KIND columns, viewed in the file's column order.  Records that go out unchanged
 * (a lone record, deduplicate's pick, every changelog record) are first collected as
 * references and copied column by column in bulk (out_materialize); computed rows are
 * appended directly, after the references before them. */
typedef struct out_ref {
    const pm_batch *batch;
    int64_t row;
    int64_t seq;
    int8_t kind;
} out_ref;

typedef struct out_batch {
    pm_batch *vals;
    pm_column *seq, *kind;
    pm_column **view_cols;
    pm_batch view;
    out_ref *refs;
    size_t ref_count, ref_cap;
} out_batch;

static pm_type seq_type = {.id = PM_TYPE_BIGINT, .nullable = false};
static pm_type kind_type = {.id = PM_TYPE_TINYINT, .nullable = false};

/* An empty batch in a data file's layout, or with `run_type` (a buffer's) in a run file's:
 * the value columns, _SEQUENCE_NUMBER, _VALUE_KIND. */
PM_MUST_CHECK static int out_init(out_batch *o, const pm_write_ctx *c, pm_type *run_type,
                                  paimon_error *err)
{
    size_t vc = c->value_type->field_count;
    size_t n = run_type != NULL ? vc + 2 : c->file_type->field_count;
    int rc;
    memset(o, 0, sizeof(*o));
    if ((rc = pm_batch_new(&o->vals, c->value_type, err)) != 0)
        return rc;
    if ((o->seq = pm_column_new(&seq_type)) == NULL ||
        (o->kind = pm_column_new(&kind_type)) == NULL ||
        (o->view_cols = pm_calloc(n + 1, sizeof(pm_column *))) == NULL ||
        (o->refs = pm_malloc(OUT_ROWS * sizeof(out_ref))) == NULL)
        return pm_nomem(err);
    o->ref_cap = OUT_ROWS;
    if (run_type != NULL) {
        for (size_t i = 0; i < vc; i++)
            o->view_cols[i] = o->vals->columns[i];
        o->view_cols[vc] = o->seq;
        o->view_cols[vc + 1] = o->kind;
    } else {
        for (size_t k = 0; k < c->value_start - 2; k++)
            o->view_cols[k] = o->vals->columns[c->key_idx[k]];
        o->view_cols[c->seq_col] = o->seq;
        o->view_cols[c->kind_col] = o->kind;
        for (size_t i = 0; i < vc; i++)
            o->view_cols[c->value_start + i] = o->vals->columns[i];
    }
    o->view.type = run_type != NULL ? run_type : c->file_type;
    o->view.columns = o->view_cols;
    o->view.column_count = n;
    return 0;
}

static void out_free(out_batch *o)
{
    pm_batch_free(o->vals);
    pm_column_free(o->seq);
    pm_column_free(o->kind);
    pm_free(o->view_cols);
    pm_free(o->refs);
}

static void out_reset(out_batch *o)
{
    pm_batch_reset(o->vals);
    pm_column_reset(o->seq);
    pm_column_reset(o->kind);
    o->view.row_count = 0;
    o->ref_count = 0;
}

/* Rows in the batch, references included. */
static int64_t out_rows(const out_batch *o)
{
    return o->view.row_count + (int64_t)o->ref_count;
}

static int out_push_meta(out_batch *o, int64_t seq, int8_t kind)
{
    int rc;
    if ((rc = pm_column_append_i64(o->seq, seq)) != 0 ||
        (rc = pm_column_append_i64(o->kind, kind)) != 0)
        return rc;
    o->view.row_count++;
    o->vals->row_count = o->view.row_count;
    return 0;
}

static int out_push_ref(out_batch *o, const pm_batch *batch, int64_t row, int64_t seq, int8_t kind)
{
    if (o->ref_count == o->ref_cap) {
        size_t cap = o->ref_cap * 2;
        out_ref *grown = pm_realloc(o->refs, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        o->refs = grown;
        o->ref_cap = cap;
    }
    o->refs[o->ref_count++] = (out_ref){batch, row, seq, kind};
    return 0;
}

/* Copies column `c` of the referenced records in bulk (fixed-width and string columns
 * without nulls); other columns slot by slot. */
static int gather_refs(pm_column *dst, const out_ref *refs, size_t n, size_t c)
{
    bool simple = dst->validity.len == 0;
    int rc;
    for (size_t i = 0; i < n && simple; i++)
        simple = refs[i].batch->columns[c]->null_count == 0;
    if (simple && dst->layout == PM_LAYOUT_FIXED) {
        uint32_t w = dst->width;
        uint8_t *p;
        if ((rc = pm_buf_reserve(&dst->values, n * w)) != 0)
            return rc;
        p = dst->values.data + dst->values.len;
        if (w == 8) {
            for (size_t i = 0; i < n; i++)
                memcpy(p + 8 * i, refs[i].batch->columns[c]->values.data + 8 * refs[i].row, 8);
        } else {
            for (size_t i = 0; i < n; i++)
                memcpy(p + (size_t)w * i,
                       refs[i].batch->columns[c]->values.data + (size_t)w * refs[i].row, w);
        }
        dst->values.len += n * w;
        dst->length += (int64_t)n;
        return 0;
    }
    if (simple && dst->layout == PM_LAYOUT_VAR) {
        size_t total = 0;
        int32_t end = (int32_t)dst->values.len;
        for (size_t i = 0; i < n; i++) {
            const pm_column *src = refs[i].batch->columns[c];
            total += (size_t)(pm_column_offset(src, refs[i].row + 1) -
                              pm_column_offset(src, refs[i].row));
        }
        if (dst->values.len + total > INT32_MAX)
            return PAIMON_ELIMIT;
        if ((rc = pm_buf_reserve(&dst->values, total)) != 0 ||
            (rc = pm_buf_reserve(&dst->offsets, n * 4 + 4)) != 0)
            return rc;
        if (dst->offsets.len == 0) {
            memset(dst->offsets.data, 0, 4);
            dst->offsets.len = 4;
        }
        for (size_t i = 0; i < n; i++) {
            const pm_column *src = refs[i].batch->columns[c];
            int32_t a = pm_column_offset(src, refs[i].row),
                    b = pm_column_offset(src, refs[i].row + 1);
            memcpy(dst->values.data + dst->values.len, src->values.data + a, (size_t)(b - a));
            dst->values.len += (size_t)(b - a);
            end += b - a;
            memcpy(dst->offsets.data + dst->offsets.len, &end, 4);
            dst->offsets.len += 4;
        }
        dst->length += (int64_t)n;
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if ((rc = pm_column_append_from(dst, refs[i].batch->columns[c], refs[i].row)) != 0)
            return rc;
    return 0;
}

/* Turns the pending references into rows of the batch. */
PM_MUST_CHECK static int out_materialize(out_batch *o, paimon_error *err)
{
    size_t n = o->ref_count;
    int rc;
    if (n == 0)
        return 0;
    for (size_t c = 0; c < o->vals->column_count; c++)
        if ((rc = gather_refs(o->vals->columns[c], o->refs, n, c)) != 0)
            return pm_buf_error(err, rc);
    if ((rc = pm_buf_reserve(&o->seq->values, n * 8)) != 0 ||
        (rc = pm_buf_reserve(&o->kind->values, n)) != 0)
        return pm_buf_error(err, rc);
    for (size_t i = 0; i < n; i++) {
        memcpy(o->seq->values.data + o->seq->values.len, &o->refs[i].seq, 8);
        o->seq->values.len += 8;
        o->kind->values.data[o->kind->values.len++] = (uint8_t)o->refs[i].kind;
    }
    o->seq->length += (int64_t)n;
    o->kind->length += (int64_t)n;
    o->view.row_count += (int64_t)n;
    o->vals->row_count = o->view.row_count;
    o->ref_count = 0;
    return 0;
}

PM_MUST_CHECK static int out_flush(out_batch *o, pm_data_writer *w, paimon_error *err)
{
    int rc;
    if ((rc = out_materialize(o, err)) != 0)
        return rc;
    if (o->view.row_count == 0)
        return 0;
    rc = pm_data_writer_write(w, &o->view, 0, o->view.row_count, err);
    out_reset(o);
    return rc;
}

/* ---- spilling -------------------------------------------------------------------------- */

/* A new run file of sorted records (raw, every record kept): those of `m`'s cursors, or,
 * with m NULL, the records in memory in the order of `perm`, without a merge.  The records
 * are gathered column by column, OUT_ROWS at a time. */
PM_MUST_CHECK static int write_run(pm_kv_buffer *b, merge_state *m, const int64_t *perm,
                                   const char *path, paimon_error *err)
{
    pm_file_writer *fw = NULL;
    out_batch o;
    int64_t next = 0;
    int rc;
    PM_TRY(out_init(&o, b->c, b->run_type, err));
    PM_TRY(pm_file_writer_open(&fw, &pm_parquet_file_format, b->c->tmp_fs, path, b->run_type,
                               b->c->spill_codec, &b->c->spill_opts, err));
    for (;;) {
        bool more = m != NULL ? m->heap_size > 0 : next < b->count;
        rc = 0;
        if (more && m != NULL) {
            rec_ref r;
            PM_TRY(pop(m, &r, err));
            rc = out_push_ref(&o, r.batch, r.row, r.seq, r.kind);
        } else if (more) {
            int64_t idx = perm[next++];
            rc = out_push_ref(&o, b->chunks[idx / CHUNK_ROWS], idx % CHUNK_ROWS, b->first_seq + idx,
                              (int8_t)b->kinds.data[idx]);
        }
        if (rc != 0) {
            rc = pm_buf_error(err, rc);
            goto done;
        }
        if (out_rows(&o) >= OUT_ROWS || (!more && out_rows(&o) > 0)) {
            PM_TRY(out_materialize(&o, err));
            PM_TRY(pm_file_writer_write(fw, &o.view, 0, o.view.row_count, err));
            out_reset(&o);
            if (m != NULL)
                free_retired(m); /* the references into them are copied */
        }
        if (!more)
            break;
    }
    rc = pm_file_writer_close(fw, NULL, err);
    fw = NULL;
done:
    pm_file_writer_abort(fw);
    out_free(&o);
    return rc;
}

/* A new run file's path: numbered across every buffer of the process, since the runs of a
 * detached buffer live on in the buffer that adopts them (a buffer's address may return). */
PM_MUST_CHECK static int next_run_path(pm_kv_buffer *b, pm_buf *path, paimon_error *err)
{
    static long runs_made;
    long n = __atomic_fetch_add(&runs_made, 1, __ATOMIC_RELAXED);
    int rc = pm_write_ctx_tmp_dir(b->c, err);
    if (rc != 0)
        return rc;
    path->len = 0;
    if ((rc = pm_buf_printf(path, "%s/run-%ld.parquet", b->c->tmp_dir, n)) != 0)
        return pm_buf_error(err, rc);
    return 0;
}

/* Merges every spilled run into one (local-sort.max-num-file-handles reached). */
PM_MUST_CHECK static int merge_runs(pm_kv_buffer *b, paimon_error *err)
{
    merge_state m;
    pm_buf path;
    int rc;
    pm_buf_init(&path, 0);
    memset(&m, 0, sizeof(m));
    PM_TRY(next_run_path(b, &path, err));
    PM_TRY(merge_state_init(&m, b, NULL, err));
    PM_TRY(write_run(b, &m, NULL, pm_buf_cstr(&path), err));
    merge_state_free(&m);
    memset(&m, 0, sizeof(m));
    {
        int64_t spilled = b->spilled;
        drop_runs(b);
        b->spilled = spilled;
    }
    if ((rc = pm_strlist_push(&b->runs, pm_buf_cstr(&path))) != 0) {
        (void)b->c->tmp_fs->remove(b->c->tmp_fs, pm_buf_cstr(&path), NULL);
        rc = pm_buf_error(err, rc);
    }
done:
    merge_state_free(&m);
    pm_buf_free(&path);
    return rc;
}

int pm_kv_buffer_spill(pm_kv_buffer *b, paimon_error *err)
{
    int64_t *perm = NULL;
    pm_buf path;
    bool made = false;
    int rc;
    if (b->count == 0)
        return 0;
    pm_buf_init(&path, 0);
    PM_TRY(next_run_path(b, &path, err));
    PM_TRY(sort_memory(b, &perm, err));
    made = true;
    PM_TRY(write_run(b, NULL, perm, pm_buf_cstr(&path), err));
    if ((rc = pm_strlist_push(&b->runs, pm_buf_cstr(&path))) != 0) {
        rc = pm_buf_error(err, rc);
        goto done;
    }
    made = false;
    b->spilled += b->count;
    drop_memory(b);
    if ((int64_t)b->runs.count > b->c->spill_fan_in)
        rc = merge_runs(b, err);
done:
    if (made)
        (void)b->c->tmp_fs->remove(b->c->tmp_fs, pm_buf_cstr(&path), NULL);
    pm_free(perm);
    pm_buf_free(&path);
    return rc;
}

/* Moves chunks [from, to) of b (whole ones, the last possibly partial) into the empty new
 * buffer d with their kinds and sequence numbers. */
static void move_chunks(pm_kv_buffer *b, size_t from, size_t to, pm_kv_buffer *d)
{
    int64_t first = (int64_t)from * CHUNK_ROWS, n = 0;
    for (size_t i = from; i < to; i++) {
        d->chunks[d->chunk_count++] = b->chunks[i];
        n += b->chunks[i]->row_count;
        d->mem += batch_bytes(b->chunks[i]);
        b->chunks[i] = NULL;
    }
    memcpy(d->kinds.data, b->kinds.data + first, (size_t)n);
    d->kinds.len = (size_t)n;
    d->count = n;
    d->first_seq = b->first_seq + first;
    d->full_mem = d->mem; /* only read by put, which a detached buffer never sees */
}

/* The end (exclusive) of piece p's chunks when each piece takes `per` chunks. */
static size_t piece_end(const pm_kv_buffer *b, size_t per, size_t p)
{
    return (p + 1) * per < b->chunk_count ? (p + 1) * per : b->chunk_count;
}

int pm_kv_buffer_detach(pm_kv_buffer *b, size_t parts, pm_kv_buffer **out, size_t *made,
                        paimon_error *err)
{
    size_t per;
    int rc = 0;
    *made = 0;
    if (b->count == 0)
        return 0;
    if (parts > b->chunk_count)
        parts = b->chunk_count;
    if (parts == 0)
        parts = 1;
    per = (b->chunk_count + parts - 1) / parts;
    for (size_t p = 0; p < parts && rc == 0; p++) {
        size_t from = p * per, to = piece_end(b, per, p);
        int64_t rows = 0;
        pm_kv_buffer *d;
        if (from >= to)
            break;
        for (size_t i = from; i < to; i++)
            rows += b->chunks[i]->row_count;
        if ((rc = pm_kv_buffer_new(&d, b->c, err)) != 0)
            break;
        out[(*made)++] = d;
        if ((d->chunks = pm_malloc((to - from) * sizeof(pm_batch *))) == NULL ||
            pm_buf_reserve(&d->kinds, (size_t)rows) != 0)
            rc = pm_nomem(err);
    }
    if (rc != 0) { /* nothing moved yet: b keeps its records */
        for (size_t i = 0; i < *made; i++)
            pm_kv_buffer_free(out[i]);
        *made = 0;
        return rc;
    }
    for (size_t p = 0; p < *made; p++) {
        out[p]->chunk_cap = piece_end(b, per, p) - p * per;
        move_chunks(b, p * per, piece_end(b, per, p), out[p]);
    }
    /* b starts afresh */
    b->chunk_count = 0;
    b->kinds.len = 0;
    b->count = 0;
    b->full_mem = b->mem = 0;
    return 0;
}

int pm_kv_buffer_adopt(pm_kv_buffer *b, pm_kv_buffer *spilled, paimon_error *err)
{
    int rc = 0;
    if (spilled == NULL)
        return 0;
    if (spilled->count > 0) /* not spilled: the caller's mistake, and its records would be lost */
        rc = pm_err_set(err, PAIMON_EINVALID, "write buffer: adopting a buffer not spilled");
    for (size_t i = 0; rc == 0 && i < spilled->runs.count; i++)
        if ((rc = pm_strlist_push(&b->runs, spilled->runs.items[i])) != 0) {
            rc = pm_buf_error(err, rc);
            /* the first i are b's now: only the others go with `spilled` */
            for (size_t j = 0; j < i; j++)
                pm_free(spilled->runs.items[j]);
            memmove(spilled->runs.items, spilled->runs.items + i,
                    (spilled->runs.count - i) * sizeof(char *));
            spilled->runs.count -= i;
        }
    if (rc == 0) { /* every run is b's: forget the paths without removing the files */
        pm_strlist_free(&spilled->runs);
        pm_strlist_init(&spilled->runs);
        b->spilled += spilled->spilled;
        spilled->spilled = 0;
    }
    pm_kv_buffer_free(spilled); /* on failure, with the runs b did not take */
    if (rc == 0 && (int64_t)b->runs.count > b->c->spill_fan_in)
        rc = merge_runs(b, err);
    return rc;
}

/* ---- flush ----------------------------------------------------------------------------- */

int pm_kv_buffer_flush(pm_kv_buffer *b, pm_data_writer *data, pm_data_writer *changelog,
                       paimon_error *err)
{
    const pm_write_ctx *c = b->c;
    merge_state m;
    int64_t *perm = NULL;
    out_batch out, cl;
    pm_record *recs = NULL;
    size_t rec_cap = 0;
    int rc;

    memset(&m, 0, sizeof(m));
    memset(&out, 0, sizeof(out));
    memset(&cl, 0, sizeof(cl));
    PM_TRY(out_init(&out, c, NULL, err));
    if (changelog != NULL)
        PM_TRY(out_init(&cl, c, NULL, err));
    /* With runs on disk, the records in memory become a run too: the merge then holds only
     * a row group per run, and the buffer's memory is free for the level-0 file's row group
     * (up to parquet.block.size) while it fills. */
    if (b->runs.count > 0 && b->count > 0)
        PM_TRY(pm_kv_buffer_spill(b, err));
    PM_TRY(sort_memory(b, &perm, err));
    PM_TRY(merge_state_init(&m, b, perm, err));
    while (m.heap_size > 0) {
        size_t n = 0;
        rec_ref first, r;
        int8_t kind;
        int64_t seq;
        bool emitted;
        int pick;
        do {
            PM_TRY(pop(&m, &r, err));
            if (n == 0)
                first = r;
            if (n == rec_cap) {
                size_t cap = rec_cap == 0 ? 16 : rec_cap * 2;
                pm_record *grown = pm_realloc(recs, cap * sizeof(*grown));
                if (grown == NULL) {
                    rc = pm_nomem(err);
                    goto done;
                }
                recs = grown;
                rec_cap = cap;
            }
            recs[n].batch = r.batch;
            recs[n].row = r.row;
            recs[n].seq = r.seq;
            recs[n].kind = r.kind;
            recs[n].level = 0;
            n++;
            if (changelog != NULL) {
                if (out_push_ref(&cl, r.batch, r.row, r.seq, r.kind) != 0) {
                    rc = pm_nomem(err);
                    goto done;
                }
                if (out_rows(&cl) >= OUT_ROWS)
                    PM_TRY(out_flush(&cl, changelog, err));
            }
        } while (m.heap_size > 0 && same_key(&m, &first, &m.heap[0]->cur));
        pick = pm_merge_fn_reduce_pick(b->merge, recs, n);
        if (pick >= 0) {
            if (out_push_ref(&out, recs[pick].batch, recs[pick].row, recs[pick].seq,
                             recs[pick].kind) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        } else if (pick == -1) {
            PM_TRY(out_materialize(&out, err)); /* keep the order */
            PM_TRY(pm_merge_fn_reduce(b->merge, recs, n, out.vals, &kind, &seq, &emitted, err));
            if (emitted && (rc = out_push_meta(&out, seq, kind)) != 0) {
                rc = pm_buf_error(err, rc);
                goto done;
            }
        }
        if (out_rows(&out) >= OUT_ROWS)
            PM_TRY(out_flush(&out, data, err));
        if (m.retired_count > 0) { /* references into those batches end here */
            PM_TRY(out_materialize(&out, err));
            if (changelog != NULL)
                PM_TRY(out_materialize(&cl, err));
            free_retired(&m);
        }
    }
    PM_TRY(out_flush(&out, data, err));
    if (changelog != NULL)
        PM_TRY(out_flush(&cl, changelog, err));
    drop_memory(b);
    drop_runs(b);
done:
    merge_state_free(&m);
    out_free(&out);
    out_free(&cl);
    pm_free(perm);
    pm_free(recs);
    return rc;
}

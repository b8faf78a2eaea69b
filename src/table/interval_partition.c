/* Sections of sorted runs: see interval_partition.h. */
#include "table/interval_partition.h"

#include <stdlib.h>
#include <string.h>

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct item {
    const pm_manifest_entry *e;
    const pm_datum *min, *max; /* decoded keys */
    size_t pos;                /* input order: ties keep it (Java's sort is stable) */
} item;

typedef struct run_list {
    item **items; /* files of the run, pm_realloc'd */
    size_t count, cap;
} run_list;

typedef struct part_ctx {
    const pm_type *const *types;
    size_t key_count;
    run_list *runs;
} part_ctx;

static int compare_keys(const part_ctx *c, const pm_datum *a, const pm_datum *b)
{
    for (size_t k = 0; k < c->key_count; k++) {
        int r = pm_datum_compare(c->types[k], &a[k], &b[k]);
        if (r != 0)
            return r;
    }
    return 0;
}

static int compare_items(const void *pa, const void *pb, void *ctx)
{
    const item *a = pa, *b = pb;
    int r = compare_keys(ctx, a->min, b->min);
    if (r == 0)
        r = compare_keys(ctx, a->max, b->max);
    if (r == 0)
        r = a->pos < b->pos ? -1 : a->pos > b->pos;
    return r;
}

PM_MUST_CHECK static int decode_key(const pm_avro_bytes *bytes, const part_ctx *c, pm_arena *arena,
                                    const pm_datum **out, paimon_error *err)
{
    pm_binrow row;
    pm_datum *d = pm_arena_calloc(arena, c->key_count + 1, sizeof(*d));
    int rc;
    if (d == NULL)
        return pm_nomem(err);
    if ((rc = pm_binrow_deserialize(&row, bytes->ptr, bytes->len, err)) != 0)
        return rc;
    if (row.arity != (int32_t)c->key_count)
        return pm_corrupt(err, "a data file key has %d fields, the primary key %zu", row.arity,
                          c->key_count);
    for (size_t k = 0; k < c->key_count; k++)
        if ((rc = pm_binrow_get(&row, (int32_t)k, c->types[k], &d[k], err)) != 0)
            return rc;
    *out = d;
    return 0;
}

/* ---- java.util.PriorityQueue of runs, by the max key of their last file ------------------ */

static int compare_runs(const part_ctx *c, size_t x, size_t y)
{
    const run_list *a = &c->runs[x], *b = &c->runs[y];
    return compare_keys(c, a->items[a->count - 1]->max, b->items[b->count - 1]->max);
}

static void sift_up(const part_ctx *c, size_t *pq, size_t k, size_t x)
{
    while (k > 0) {
        size_t parent = (k - 1) >> 1;
        if (compare_runs(c, x, pq[parent]) >= 0)
            break;
        pq[k] = pq[parent];
        k = parent;
    }
    pq[k] = x;
}

static void sift_down(const part_ctx *c, size_t *pq, size_t n, size_t k, size_t x)
{
    size_t half = n >> 1;
    while (k < half) {
        size_t child = 2 * k + 1, right = child + 1;
        if (right < n && compare_runs(c, pq[child], pq[right]) > 0)
            child = right;
        if (compare_runs(c, x, pq[child]) <= 0)
            break;
        pq[k] = pq[child];
        k = child;
    }
    pq[k] = x;
}

static int run_add(run_list *r, item *it)
{
    if (r->count == r->cap) {
        size_t cap = r->cap == 0 ? 4 : r->cap * 2;
        item **grown = pm_realloc(r->items, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        r->items = grown;
        r->cap = cap;
    }
    r->items[r->count++] = it;
    return 0;
}

/* The sorted runs of one section (items[0..n) sorted by min key). */
PM_MUST_CHECK static int section_runs(part_ctx *c, item *items, size_t n, pm_arena *arena,
                                      pm_section *out, paimon_error *err)
{
    size_t *pq = pm_malloc((n + 1) * sizeof(size_t)), size = 0, nruns = 0;
    int rc = 0;
    c->runs = pm_calloc(n + 1, sizeof(run_list));
    if (pq == NULL || c->runs == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if ((rc = run_add(&c->runs[nruns], &items[0])) != 0)
        goto nomem;
    sift_up(c, pq, size++, nruns++);
    for (size_t i = 1; i < n; i++) {
        size_t top = pq[0], last;
        const run_list *t;
        /* poll */
        last = pq[--size];
        if (size > 0)
            sift_down(c, pq, size, 0, last);
        t = &c->runs[top];
        if (compare_keys(c, items[i].min, t->items[t->count - 1]->max) > 0) {
            if ((rc = run_add(&c->runs[top], &items[i])) != 0)
                goto nomem;
        } else {
            if ((rc = run_add(&c->runs[nruns], &items[i])) != 0)
                goto nomem;
            sift_up(c, pq, size++, nruns++);
        }
        sift_up(c, pq, size++, top);
    }
    out->runs = pm_arena_calloc(arena, size + 1, sizeof(pm_sorted_run));
    if (out->runs == NULL)
        goto nomem;
    out->run_count = size;
    out->total_size = 0;
    for (size_t k = 0; k < size; k++) { /* the queue's array order */
        const run_list *r = &c->runs[pq[k]];
        pm_sorted_run *sr = &out->runs[k];
        sr->files = pm_arena_calloc(arena, r->count + 1, sizeof(*sr->files));
        if (sr->files == NULL)
            goto nomem;
        sr->file_count = r->count;
        for (size_t f = 0; f < r->count; f++) {
            sr->files[f] = r->items[f]->e;
            out->total_size += r->items[f]->e->file.file_size;
        }
    }
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    for (size_t k = 0; c->runs != NULL && k < nruns; k++)
        pm_free(c->runs[k].items);
    pm_free(c->runs);
    c->runs = NULL;
    pm_free(pq);
    return rc;
}

int pm_interval_partition(const pm_manifest_entry *const *files, size_t count,
                          const pm_type *const *key_types, size_t key_count, pm_arena *arena,
                          pm_section **out, size_t *section_count, paimon_error *err)
{
    part_ctx c = {key_types, key_count, NULL};
    item *items = NULL;
    pm_section *sections = NULL;
    size_t nsec = 0, start = 0;
    const pm_datum *bound = NULL;
    int rc = 0;

    *out = NULL;
    *section_count = 0;
    if (count == 0)
        return 0;
    items = pm_calloc(count, sizeof(*items));
    sections = pm_arena_calloc(arena, count + 1, sizeof(*sections));
    if (items == NULL || sections == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        items[i].e = files[i];
        items[i].pos = i;
        if ((rc = decode_key(&files[i]->file.min_key, &c, arena, &items[i].min, err)) != 0 ||
            (rc = decode_key(&files[i]->file.max_key, &c, arena, &items[i].max, err)) != 0)
            goto done;
    }
    qsort_r(items, count, sizeof(*items), compare_items, &c); /* glibc: context last */
    for (size_t i = 0; i <= count; i++) {
        if (i == count || (i > start && compare_keys(&c, items[i].min, bound) > 0)) {
            if ((rc = section_runs(&c, items + start, i - start, arena, &sections[nsec++], err)) !=
                0)
                goto done;
            start = i;
            bound = NULL;
            if (i == count)
                break;
        }
        if (bound == NULL || compare_keys(&c, items[i].max, bound) > 0)
            bound = items[i].max;
    }
    *out = sections;
    *section_count = nsec;
done:
    pm_free(items);
    return rc;
}

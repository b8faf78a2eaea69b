/* The diff incremental read: see incremental_diff.h. */
#include "table/incremental_diff.h"

#include <stdlib.h>
#include <string.h>

#include "table/file_reader.h"
#include "table/split_read.h"
#include "util/alloc.h"
#include "util/buf.h"

/* ---- planning ------------------------------------------------------------------------------ */

typedef struct file_ref {
    const pm_manifest_entry *e;
    const pm_dv_ref *dv;
} file_ref;

static int cmp_ref(const void *pa, const void *pb)
{
    const file_ref *a = pa, *b = pb;
    int r = pm_avro_bytes_cmp(&a->e->partition, &b->e->partition);
    if (r != 0)
        return r;
    if (a->e->bucket != b->e->bucket)
        return a->e->bucket < b->e->bucket ? -1 : 1;
    if ((r = strcmp(a->e->file.file_name, b->e->file.file_name)) != 0)
        return r;
    return a->e->file.level < b->e->file.level ? -1 : a->e->file.level > b->e->file.level;
}

static bool same_bucket(const file_ref *a, const file_ref *b)
{
    return a->e->bucket == b->e->bucket &&
           pm_avro_bytes_cmp(&a->e->partition, &b->e->partition) == 0;
}

/* Every file of `p`'s splits with its deletion vector, sorted. */
PM_MUST_CHECK static int gather(const pm_scan_plan *p, file_ref **out, size_t *n, paimon_error *err)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < p->split_count; i++)
        total += p->splits[i].file_count;
    *out = pm_calloc(total + 1, sizeof(file_ref));
    if (*out == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < p->split_count; i++)
        for (size_t f = 0; f < p->splits[i].file_count; f++) {
            (*out)[k].e = p->splits[i].files[f];
            (*out)[k++].dv = p->splits[i].dvs[f];
        }
    qsort(*out, k, sizeof(file_ref), cmp_ref);
    *n = k;
    return 0;
}

/* Adds a split of refs[0..n) (n >= 1) to the diff plan; its index in *index. */
PM_MUST_CHECK static int add_split(pm_diff_plan *d, paimon_table *t, const file_ref *refs, size_t n,
                                   bool raw, size_t *cap, int64_t *index, paimon_error *err)
{
    const pm_manifest_entry **files = pm_calloc(n + 1, sizeof(*files));
    pm_split *s = NULL;
    int rc;
    if (files == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < n; i++)
        files[i] = refs[i].e;
    rc = pm_scan_plan_add_split(d->plan, t, files, n, raw, cap, &s, err);
    pm_free(files);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        s->dvs[i] = refs[i].dv;
    *index = (int64_t)d->plan->split_count - 1;
    return 0;
}

void pm_diff_plan_free(pm_diff_plan *d)
{
    if (d == NULL)
        return;
    pm_scan_plan_free(d->plan);
    pm_scan_plan_free(d->before_src);
    pm_scan_plan_free(d->after_src);
    pm_free(d->before);
    pm_free(d->after);
    pm_free(d);
}

int pm_diff_plan_build(paimon_table *t, const pm_incremental *inc, pm_diff_plan **out,
                       paimon_error *err)
{
    pm_diff_plan *d = pm_calloc(1, sizeof(*d));
    pm_scan_options so;
    file_ref *b = NULL, *a = NULL;
    size_t nb = 0, na = 0, ib = 0, ia = 0, cap = 0, buckets_cap = 0;
    int rc = 0;

    *out = NULL;
    if (d == NULL)
        return pm_nomem(err);
    memset(&so, 0, sizeof(so));
    so.schema_id = -1;
    so.snapshot.by = inc->start_tag != NULL ? PM_SNAPSHOT_TAG : PM_SNAPSHOT_ID;
    so.snapshot.tag = inc->start_tag;
    so.snapshot.id = inc->start;
    PM_TRY(pm_scan_plan_build(t, &so, &d->before_src, err));
    so.snapshot.by = inc->end_tag != NULL ? PM_SNAPSHOT_TAG : PM_SNAPSHOT_ID;
    so.snapshot.tag = inc->end_tag;
    so.snapshot.id = inc->end;
    PM_TRY(pm_scan_plan_build(t, &so, &d->after_src, err));
    if ((d->plan = pm_calloc(1, sizeof(*d->plan))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pm_arena_init(&d->plan->arena, 1 << 12);
    PM_TRY(pm_schema_read(t->fs, t->path, d->after_src->schema->id, &d->plan->schema, err));
    PM_TRY(pm_table_select_snapshot(t, &so.snapshot, &d->plan->snapshot, err));
    d->plan->primary_key = d->after_src->primary_key;
    PM_TRY(gather(d->before_src, &b, &nb, err));
    PM_TRY(gather(d->after_src, &a, &na, err));
    while (ib < nb || ia < na) {
        /* the next bucket in order, and its files on each side */
        const file_ref *first = ib >= nb   ? &a[ia]
                                : ia >= na ? &b[ib]
                                           : (cmp_ref(&b[ib], &a[ia]) <= 0 ? &b[ib] : &a[ia]);
        file_ref key = *first;
        size_t eb = ib, ea = ia, kb = 0, ka = 0;
        file_ref *ob, *oa;
        int64_t before = -1, after = -1;
        while (eb < nb && same_bucket(&b[eb], &key))
            eb++;
        while (ea < na && same_bucket(&a[ea], &key))
            ea++;
        /* files both sides hold drop out of both (sorted by name and level) */
        ob = pm_calloc(eb - ib + 1, sizeof(file_ref));
        oa = pm_calloc(ea - ia + 1, sizeof(file_ref));
        if (ob == NULL || oa == NULL) {
            pm_free(ob);
            pm_free(oa);
            rc = pm_nomem(err);
            goto done;
        }
        for (size_t x = ib, y = ia; x < eb || y < ea;) {
            int c = x >= eb ? 1 : y >= ea ? -1 : cmp_ref(&b[x], &a[y]);
            if (c == 0) {
                x++;
                y++;
            } else if (c < 0) {
                ob[kb++] = b[x++];
            } else {
                oa[ka++] = a[y++];
            }
        }
        rc = 0;
        if (kb > 0 && d->plan->primary_key)
            rc = add_split(d, t, ob, kb, false, &cap, &before, err);
        if (rc == 0 && ka > 0)
            rc = add_split(d, t, oa, ka, !d->plan->primary_key, &cap, &after, err);
        pm_free(ob);
        pm_free(oa);
        if (rc != 0)
            goto done;
        if (before >= 0 || after >= 0) {
            if (d->bucket_count == buckets_cap) {
                size_t nc = buckets_cap > 0 ? buckets_cap * 2 : 16;
                int64_t *nbf = pm_realloc(d->before, nc * sizeof(int64_t));
                int64_t *naf = nbf != NULL ? pm_realloc(d->after, nc * sizeof(int64_t)) : NULL;
                if (nbf != NULL)
                    d->before = nbf;
                if (naf == NULL) {
                    rc = pm_nomem(err);
                    goto done;
                }
                d->after = naf;
                buckets_cap = nc;
            }
            d->before[d->bucket_count] = before;
            d->after[d->bucket_count++] = after;
        }
        ib = eb;
        ia = ea;
    }
    *out = d;
    d = NULL;
done:
    pm_free(b);
    pm_free(a);
    pm_diff_plan_free(d);
    return rc;
}

/* ---- reading ------------------------------------------------------------------------------- */

typedef struct side_row {
    size_t batch;
    int64_t row;
    char *key, *value; /* canonical JSON of the key columns / of every column */
    bool add;
    bool matched;
} side_row;

typedef struct diff_read {
    paimon_table *t;
    const pm_diff_plan *d;
    int64_t batch_rows;
    size_t key_cols[64]; /* in the reader's batches (after _ROW_KIND) */
    size_t key_count;
    pm_buf scratch;
} diff_read;

static bool kind_is_add(const pm_column *kinds, int64_t row)
{
    pm_datum v;
    pm_column_get_datum(kinds, row, &v);
    return v.v.s.len == 2 && v.v.s.ptr[0] == '+';
}

/* JSON of columns cols[0..n) (all when cols is NULL) of row `row`, malloc'ed. */
PM_MUST_CHECK static int row_text(diff_read *r, const pm_batch *b, int64_t row, const size_t *cols,
                                  size_t n, char **out, paimon_error *err)
{
    int rc = 0;
    pm_buf_reset(&r->scratch);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t c = cols != NULL ? cols[i] : i + 1;
        if (i > 0 && pm_buf_putc(&r->scratch, ',') != 0)
            return pm_nomem(err);
        rc = pm_column_json(&r->scratch, b->columns[c], row, err);
    }
    if (rc != 0)
        return rc;
    if (pm_buf_cstr(&r->scratch) == NULL ||
        (*out = pm_strdup((const char *)r->scratch.data)) == NULL)
        return pm_nomem(err);
    return 0;
}

static int cmp_side(const void *pa, const void *pb)
{
    return strcmp(((const side_row *)pa)->key, ((const side_row *)pb)->key);
}

PM_MUST_CHECK static int append_row(pm_batch *out, const pm_batch *in, int64_t row,
                                    const char *kind, paimon_error *err)
{
    for (size_t c = 0; c < out->column_count; c++) {
        int rc = c == 0 && kind != NULL
                     ? pm_column_append_bytes(out->columns[0], kind, 2)
                     : pm_column_append_from(out->columns[c], in->columns[c], row);
        if (rc != 0)
            return pm_nomem(err);
    }
    out->row_count++;
    return 0;
}

int pm_diff_read_bucket(paimon_table *t, const pm_diff_plan *d, size_t bucket, bool keep_delete,
                        int64_t batch_rows, pm_batch **out, paimon_error *err)
{
    diff_read r;
    pm_split_reader *sr = NULL;
    pm_batch **kept = NULL, *b = NULL, *res = NULL;
    size_t nkept = 0, kept_cap = 0, nside = 0, side_cap = 0;
    side_row *side = NULL;
    int rc = 0;

    *out = NULL;
    memset(&r, 0, sizeof(r));
    r.t = t;
    r.d = d;
    r.batch_rows = batch_rows;
    pm_buf_init(&r.scratch, 0);
    for (size_t i = 0; i < d->plan->schema->primary_keys.count && i < 64; i++) {
        size_t idx;
        if (pm_type_field_by_name(d->plan->schema->row, d->plan->schema->primary_keys.items[i],
                                  &idx) == NULL) {
            rc = pm_corrupt(err, "%s: primary key %s is not a column", t->path,
                            d->plan->schema->primary_keys.items[i]);
            goto done;
        }
        r.key_cols[r.key_count++] = idx + 1;
    }
    /* the before side, remembered by key */
    if (d->before[bucket] >= 0) {
        PM_TRY(pm_split_reader_open_keep_delete(
            &sr, t, d->plan, &d->plan->splits[d->before[bucket]], NULL, 0, batch_rows, err));
        while ((rc = pm_split_reader_next(sr, &b, err)) == 0) {
            if (nkept == kept_cap) {
                size_t nc = kept_cap > 0 ? kept_cap * 2 : 8;
                pm_batch **nk = pm_realloc(kept, nc * sizeof(*nk));
                if (nk == NULL) {
                    rc = pm_nomem(err);
                    goto done;
                }
                kept = nk;
                kept_cap = nc;
            }
            kept[nkept++] = b;
            for (int64_t i = 0; i < b->row_count; i++) {
                side_row *s;
                bool add = kind_is_add(b->columns[0], i);
                if (!add && !keep_delete)
                    continue; /* DropDeleteReader */
                if (nside == side_cap) {
                    size_t nc = side_cap > 0 ? side_cap * 2 : 256;
                    side_row *ns = pm_realloc(side, nc * sizeof(*ns));
                    if (ns == NULL) {
                        rc = pm_nomem(err);
                        goto done;
                    }
                    side = ns;
                    side_cap = nc;
                }
                s = &side[nside];
                memset(s, 0, sizeof(*s));
                s->batch = nkept - 1;
                s->row = i;
                s->add = add;
                nside++;
                PM_TRY(row_text(&r, b, i, r.key_cols, r.key_count, &s->key, err));
                PM_TRY(row_text(&r, b, i, NULL, b->column_count - 1, &s->value, err));
            }
            b = NULL;
        }
        if (rc != PAIMON_ITEROVER)
            goto done;
        rc = 0;
        pm_split_reader_free(sr);
        sr = NULL;
        if (nside > 0)
            qsort(side, nside, sizeof(*side), cmp_side);
    }
    /* the after side, compared key by key */
    if (d->after[bucket] >= 0) {
        const pm_split *split = &d->plan->splits[d->after[bucket]];
        PM_TRY(
            d->plan->primary_key
                ? pm_split_reader_open_keep_delete(&sr, t, d->plan, split, NULL, 0, batch_rows, err)
                : pm_split_reader_open_changes(&sr, t, d->plan, split, NULL, 0, batch_rows, err));
        while ((rc = pm_split_reader_next(sr, &b, err)) == 0) {
            if (res == NULL)
                PM_TRY(pm_batch_new(&res, b->type, err));
            for (int64_t i = 0; i < b->row_count; i++) {
                bool add = kind_is_add(b->columns[0], i), emit = true;
                if (!add && !keep_delete)
                    continue;
                if (nside > 0) {
                    side_row probe, *hit;
                    memset(&probe, 0, sizeof(probe));
                    PM_TRY(row_text(&r, b, i, r.key_cols, r.key_count, &probe.key, err));
                    hit = bsearch(&probe, side, nside, sizeof(*side), cmp_side);
                    pm_free(probe.key);
                    if (hit != NULL) {
                        char *value = NULL;
                        hit->matched = true;
                        PM_TRY(row_text(&r, b, i, NULL, b->column_count - 1, &value, err));
                        emit = strcmp(value, hit->value) != 0 || add != hit->add;
                        pm_free(value);
                    }
                }
                if (emit)
                    PM_TRY(append_row(res, b, i, NULL, err));
            }
            pm_batch_free(b);
            b = NULL;
        }
        if (rc != PAIMON_ITEROVER)
            goto done;
        rc = 0;
    }
    /* keys only START has: -D where deletes are kept */
    for (size_t i = 0; keep_delete && i < nside; i++) {
        if (side[i].matched || !side[i].add)
            continue;
        if (res == NULL)
            PM_TRY(pm_batch_new(&res, kept[side[i].batch]->type, err));
        PM_TRY(append_row(res, kept[side[i].batch], side[i].row, "-D", err));
    }
    if (res == NULL) { /* nothing to say: an empty batch of the reader's shape */
        pm_split_reader *shape = NULL;
        const pm_split *split =
            &d->plan->splits[d->after[bucket] >= 0 ? d->after[bucket] : d->before[bucket]];
        PM_TRY(split->raw ? pm_split_reader_open_changes(&shape, t, d->plan, split, NULL, 0,
                                                         batch_rows, err)
                          : pm_split_reader_open_keep_delete(&shape, t, d->plan, split, NULL, 0,
                                                             batch_rows, err));
        rc = pm_batch_new(&res, pm_split_reader_type(shape), err);
        pm_split_reader_free(shape);
        if (rc != 0)
            goto done;
    }
    *out = res;
    res = NULL;
done:
    pm_split_reader_free(sr);
    pm_batch_free(b);
    pm_batch_free(res);
    for (size_t i = 0; i < nkept; i++)
        pm_batch_free(kept[i]);
    pm_free(kept);
    for (size_t i = 0; i < nside; i++) {
        pm_free(side[i].key);
        pm_free(side[i].value);
    }
    pm_free(side);
    pm_buf_free(&r.scratch);
    return rc;
}

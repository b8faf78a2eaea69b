/*
 * Field aggregators over collections: collect, merge_map, merge_map_with_keytime,
 * nested_update, nested_partial_update and rbm32 (see field_agg.h).  Each gathers the
 * operands' elements as items, replays Java's HashMap or HashSet where Java uses one, and
 * writes the result into a scratch column.
 */
#include <roaring/roaring.h>
#include <string.h>

#include "data/binary_row.h"
#include "data/java_hash.h"
#include "lsm/field_agg_int.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/roaring_portable.h"

/* ---- collections ------------------------------------------------------------------------- */

static int items_push(pm_field_agg *a, agg_item it)
{
    if (a->item_count == a->item_cap) {
        size_t cap = a->item_cap == 0 ? 16 : a->item_cap * 2;
        agg_item *grown = pm_realloc(a->items, cap * sizeof(*grown));
        if (grown == NULL)
            return PAIMON_ENOMEM;
        a->items = grown;
        a->item_cap = cap;
    }
    a->items[a->item_count++] = it;
    return 0;
}

bool pm_field_agg_item_equal(void *ctx, int64_t x, int64_t y)
{
    const pm_field_agg *a = ctx;
    const agg_item *p = &a->items[x], *q = &a->items[y];
    if (a->kind == PM_AGG_NESTED_UPDATE || a->kind == PM_AGG_NESTED_PARTIAL_UPDATE)
        return p->key_len == q->key_len &&
               memcmp(a->work.data + p->key_off, a->work.data + q->key_off, p->key_len) == 0;
    if (pm_vref_is_null(p->v) || pm_vref_is_null(q->v))
        return pm_vref_is_null(p->v) && pm_vref_is_null(q->v);
    return pm_java_equals(p->v.col, p->v.row, q->v.col, q->v.row);
}

static int32_t item_hash(const agg_item *it)
{
    return pm_vref_is_null(it->v) ? 0 : pm_java_hash_code(it->v.col, it->v.row);
}

/* The elements of an ARRAY (or the keys and values of a MAP) value. */
static int32_t elem_begin(pm_vref v)
{
    return pm_column_offset(v.col, v.row);
}

static int32_t elem_end(pm_vref v)
{
    return pm_column_offset(v.col, v.row + 1);
}

/* Appends the items' values (and map values) as one ARRAY or MAP value. */
PM_MUST_CHECK static int emit_items(pm_field_agg *a, pm_vref x, pm_vref y, const int64_t *order,
                                    size_t n, pm_vref *out, paimon_error *err)
{
    pm_column *c = pm_field_agg_scratch(a, x, y);
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < n; k++) {
        const agg_item *it = &a->items[order != NULL ? order[k] : (int64_t)k];
        if (pm_vref_is_null(it->v))
            rc = pm_column_append_null(c->children[0]);
        else
            rc = pm_column_append_from(c->children[0], it->v.col, it->v.row);
        if (rc == 0 && c->layout == PM_LAYOUT_MAP)
            rc = pm_vref_is_null(it->value)
                     ? pm_column_append_null(c->children[1])
                     : pm_column_append_from(c->children[1], it->value.col, it->value.row);
    }
    if (rc == 0)
        rc = pm_column_list_end(c, true);
    if (rc != 0)
        return pm_buf_error(err, rc);
    *out = pm_vref_of(c, 0);
    return 0;
}

/* The live entries of a->map in Java's iteration order, as item indexes (values). */
static int map_order(pm_field_agg *a, int64_t **order, size_t *n)
{
    pm_jhm_iter it = PM_JHM_ITER_INIT;
    const pm_jhm_entry *e;
    int64_t *o = pm_malloc((a->map.size + 1) * sizeof(int64_t));
    size_t k = 0;
    if (o == NULL)
        return PAIMON_ENOMEM;
    while ((e = pm_jhm_next(&a->map, &it)) != NULL)
        o[k++] = e->value;
    *order = o;
    *n = k;
    return 0;
}

static int push_elements(pm_field_agg *a, pm_vref arr, bool with_values)
{
    const pm_column *keys, *values;
    if (pm_vref_is_null(arr))
        return 0;
    keys = arr.col->children[0];
    values = with_values ? arr.col->children[1] : NULL;
    for (int32_t i = elem_begin(arr); i < elem_end(arr); i++) {
        agg_item it = {pm_vref_of(keys, i), values != NULL ? pm_vref_of(values, i) : pm_vref_null(),
                       0, 0, 0};
        int rc;
        it.hash = item_hash(&it);
        if ((rc = items_push(a, it)) != 0)
            return rc;
    }
    return 0;
}

/* Emits the map's entries (item indexes as values) in Java's order. */
PM_MUST_CHECK static int emit_map(pm_field_agg *a, pm_vref x, pm_vref y, pm_vref *out,
                                  paimon_error *err)
{
    int64_t *order = NULL;
    size_t n = 0;
    int rc = map_order(a, &order, &n);
    if (rc != 0)
        return pm_buf_error(err, rc);
    rc = emit_items(a, x, y, order, n, out, err);
    pm_free(order);
    return rc;
}

int pm_fa_collect_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out, paimon_error *err)
{
    bool constructed = pm_type_is_nested(a->type->element);
    size_t n_acc;
    int rc;
    if (pm_vref_is_null(acc) && pm_vref_is_null(in)) {
        *out = pm_vref_null();
        return 0;
    }
    if ((pm_vref_is_null(acc) || pm_vref_is_null(in)) && !a->distinct) {
        *out = pm_vref_is_null(acc) ? in : acc;
        return 0;
    }
    a->item_count = 0;
    if ((rc = push_elements(a, acc, false)) != 0)
        return pm_buf_error(err, rc);
    n_acc = a->item_count;
    if ((rc = push_elements(a, in, false)) != 0)
        return pm_buf_error(err, rc);
    if (!a->distinct)
        return emit_items(a, acc, in, NULL, a->item_count, out, err);
    if (constructed) {
        /* A list: every accumulated element, then the new ones not equal to one already in. */
        int64_t *keep = pm_malloc((a->item_count + 1) * sizeof(int64_t));
        size_t n = 0;
        if (keep == NULL)
            return pm_nomem(err);
        for (size_t i = 0; i < a->item_count; i++) {
            bool dup = false;
            for (size_t k = 0; i >= n_acc && !dup && k < n; k++) {
                const agg_item *p = &a->items[keep[k]], *q = &a->items[i];
                dup = pm_vref_is_null(p->v) || pm_vref_is_null(q->v)
                          ? pm_vref_is_null(p->v) && pm_vref_is_null(q->v)
                          : pm_value_equals(p->v.col, p->v.row, q->v.col, q->v.row);
            }
            if (!dup)
                keep[n++] = (int64_t)i;
        }
        rc = emit_items(a, acc, in, keep, n, out, err);
        pm_free(keep);
        return rc;
    }
    /* A HashSet of the elements. */
    pm_jhm_clear(&a->map);
    for (size_t i = 0; i < a->item_count; i++)
        if (pm_jhm_get(&a->map, a->items[i].hash, (int64_t)i) == NULL &&
            (rc = pm_jhm_put(&a->map, a->items[i].hash, (int64_t)i, (int64_t)i)) != 0)
            return pm_buf_error(err, rc);
    return emit_map(a, acc, in, out, err);
}

int pm_fa_collect_retract(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out, paimon_error *err)
{
    bool constructed = pm_type_is_nested(a->type->element);
    size_t n_acc;
    int64_t *keep;
    bool *used;
    size_t n = 0;
    int rc;
    if (pm_vref_is_null(acc)) {
        *out = pm_vref_null();
        return 0;
    }
    if (pm_vref_is_null(in) || elem_begin(in) == elem_end(in)) {
        *out = acc;
        return 0;
    }
    a->item_count = 0;
    if ((rc = push_elements(a, acc, false)) != 0 || (rc = push_elements(a, in, false)) != 0)
        return pm_buf_error(err, rc);
    n_acc = (size_t)(elem_end(acc) - elem_begin(acc));
    keep = pm_malloc((a->item_count + 1) * sizeof(int64_t));
    used = pm_calloc(a->item_count + 1, sizeof(bool));
    if (keep == NULL || used == NULL) {
        pm_free(keep);
        pm_free(used);
        return pm_nomem(err);
    }
    /* Each retracted element removes one equal accumulated element. */
    for (size_t i = 0; i < n_acc; i++) {
        const agg_item *p = &a->items[i];
        bool removed = false;
        for (size_t k = n_acc; !removed && k < a->item_count; k++) {
            const agg_item *q = &a->items[k];
            bool eq;
            if (used[k])
                continue;
            if (pm_vref_is_null(p->v) || pm_vref_is_null(q->v))
                eq = pm_vref_is_null(p->v) && pm_vref_is_null(q->v);
            else if (constructed)
                eq = pm_value_equals(p->v.col, p->v.row, q->v.col, q->v.row);
            else
                eq = pm_java_equals(p->v.col, p->v.row, q->v.col, q->v.row);
            if (eq)
                used[k] = removed = true;
        }
        if (!removed)
            keep[n++] = (int64_t)i;
    }
    rc = emit_items(a, acc, in, keep, n, out, err);
    pm_free(keep);
    pm_free(used);
    return rc;
}

/* The entries of a MAP value put into a->map (key item -> entry item), in order. */
static int map_put_all(pm_field_agg *a, pm_vref m)
{
    size_t first = a->item_count;
    int rc = push_elements(a, m, true);
    for (size_t i = first; rc == 0 && i < a->item_count; i++) {
        pm_jhm_entry *e = pm_jhm_get(&a->map, a->items[i].hash, (int64_t)i);
        if (e != NULL)
            e->value = (int64_t)i; /* the key stays, the value is replaced */
        else
            rc = pm_jhm_put(&a->map, a->items[i].hash, (int64_t)i, (int64_t)i);
    }
    return rc;
}

/* A map entry's item: the old key with the newest value. */
PM_MUST_CHECK static int emit_map_entries(pm_field_agg *a, pm_vref x, pm_vref y, pm_vref *out,
                                          paimon_error *err)
{
    pm_jhm_iter it = PM_JHM_ITER_INIT;
    const pm_jhm_entry *e;
    size_t first = a->item_count;
    int rc = 0;
    /* Materialize (key of the entry, value of the latest put) as new items. */
    while (rc == 0 && (e = pm_jhm_next(&a->map, &it)) != NULL) {
        agg_item merged = a->items[e->key];
        merged.value = a->items[e->value].value;
        rc = items_push(a, merged);
    }
    if (rc != 0)
        return pm_buf_error(err, rc);
    {
        pm_column *c = pm_field_agg_scratch(a, x, y);
        for (size_t i = first; rc == 0 && i < a->item_count; i++) {
            const agg_item *m = &a->items[i];
            rc = pm_vref_is_null(m->v) ? pm_column_append_null(c->children[0])
                                       : pm_column_append_from(c->children[0], m->v.col, m->v.row);
            if (rc == 0)
                rc = pm_vref_is_null(m->value)
                         ? pm_column_append_null(c->children[1])
                         : pm_column_append_from(c->children[1], m->value.col, m->value.row);
        }
        if (rc == 0)
            rc = pm_column_list_end(c, true);
        if (rc != 0)
            return pm_buf_error(err, rc);
        *out = pm_vref_of(c, 0);
    }
    return 0;
}

int pm_fa_merge_map_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out, paimon_error *err)
{
    int rc;
    if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
        *out = pm_vref_is_null(acc) ? in : acc;
        return 0;
    }
    a->item_count = 0;
    pm_jhm_clear(&a->map);
    if ((rc = map_put_all(a, acc)) != 0 || (rc = map_put_all(a, in)) != 0)
        return pm_buf_error(err, rc);
    return emit_map_entries(a, acc, in, out, err);
}

int pm_fa_merge_map_retract(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                            paimon_error *err)
{
    size_t n_acc;
    int rc;
    pm_jhm retracted;
    if (pm_vref_is_null(acc)) {
        *out = pm_vref_null();
        return 0;
    }
    if (pm_vref_is_null(in) || elem_begin(in) == elem_end(in)) {
        *out = acc;
        return 0;
    }
    a->item_count = 0;
    pm_jhm_clear(&a->map);
    if ((rc = push_elements(a, acc, true)) != 0)
        return pm_buf_error(err, rc);
    n_acc = a->item_count;
    if ((rc = push_elements(a, in, true)) != 0)
        return pm_buf_error(err, rc);
    /* The retracted keys as a set, then the accumulated entries not in it. */
    pm_jhm_init(&retracted, pm_field_agg_item_equal, a);
    for (size_t i = n_acc; rc == 0 && i < a->item_count; i++)
        if (pm_jhm_get(&retracted, a->items[i].hash, (int64_t)i) == NULL)
            rc = pm_jhm_put(&retracted, a->items[i].hash, (int64_t)i, (int64_t)i);
    for (size_t i = 0; rc == 0 && i < n_acc; i++) {
        if (pm_jhm_get(&retracted, a->items[i].hash, (int64_t)i) != NULL)
            continue;
        if (pm_jhm_get(&a->map, a->items[i].hash, (int64_t)i) != NULL)
            pm_jhm_get(&a->map, a->items[i].hash, (int64_t)i)->value = (int64_t)i;
        else
            rc = pm_jhm_put(&a->map, a->items[i].hash, (int64_t)i, (int64_t)i);
    }
    pm_jhm_free(&retracted);
    if (rc != 0)
        return pm_buf_error(err, rc);
    return emit_map_entries(a, acc, in, out, err);
}

/* merge_map_with_keytime: per key, the entry with the latest timestamp string. */
int pm_fa_keytime_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out, paimon_error *err)
{
    size_t n_acc;
    int rc;
    const pm_column *ts_in, *ts_acc;
    if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
        *out = pm_vref_is_null(acc) ? in : acc;
        return 0;
    }
    a->item_count = 0;
    pm_jhm_clear(&a->map);
    if ((rc = map_put_all(a, acc)) != 0)
        return pm_buf_error(err, rc);
    n_acc = a->item_count;
    if ((rc = push_elements(a, in, true)) != 0)
        return pm_buf_error(err, rc);
    ts_in = in.col->children[1]->children[a->ts_field];
    ts_acc = acc.col->children[1]->children[a->ts_field];
    for (size_t i = n_acc; i < a->item_count; i++) {
        agg_item *it = &a->items[i];
        pm_jhm_entry *e;
        if (pm_vref_is_null(it->value)) {
            pm_jhm_remove(&a->map, it->hash, (int64_t)i);
            continue;
        }
        if (!pm_column_is_valid(ts_in, it->value.row))
            continue;
        e = pm_jhm_get(&a->map, it->hash, (int64_t)i);
        if (e == NULL) {
            if ((rc = pm_jhm_put(&a->map, it->hash, (int64_t)i, (int64_t)i)) != 0)
                return pm_buf_error(err, rc);
            continue;
        }
        {
            const agg_item *old = &a->items[e->value];
            const pm_column *old_ts =
                old->value.col == NULL ? NULL
                                       : (old->value.col == in.col->children[1] ? ts_in : ts_acc);
            pm_datum x, y;
            int c;
            if (pm_vref_is_null(old->value) || !pm_column_is_valid(old_ts, old->value.row)) {
                e->value = (int64_t)i;
                continue;
            }
            pm_column_get_datum(ts_in, it->value.row, &x);
            pm_column_get_datum(old_ts, old->value.row, &y);
            c = memcmp(x.v.s.ptr, y.v.s.ptr, x.v.s.len < y.v.s.len ? x.v.s.len : y.v.s.len);
            if (c > 0 || (c == 0 && x.v.s.len > y.v.s.len))
                e->value = (int64_t)i;
        }
    }
    return emit_map_entries(a, acc, in, out, err);
}

/* nested_update / nested_partial_update: the key BinaryRow of a nested row. */
static int nested_key(pm_field_agg *a, agg_item *it)
{
    const pm_column *rows = it->v.col;
    const pm_type *types[64];
    pm_datum values[64];
    size_t start = a->work.len;
    int rc;
    if (a->nested_key_count > 64)
        return PAIMON_EINVALID;
    for (size_t k = 0; k < a->nested_key_count; k++) {
        const pm_column *c = rows->children[a->nested_key[k]];
        types[k] = c->type;
        pm_column_get_datum(c, it->v.row, &values[k]);
    }
    rc = pm_binrow_write(&a->work, types, values, (int32_t)a->nested_key_count, 0);
    if (rc != 0)
        return PAIMON_ENOMEM;
    it->key_off = start;
    it->key_len = a->work.len - start;
    it->hash = pm_murmur3_words(a->work.data + start, it->key_len, PM_BINARY_ROW_HASH_SEED);
    return 0;
}

/* The non-null rows of an ARRAY<ROW> value, at most `limit`, keyed when there is a key. */
static int push_rows(pm_field_agg *a, pm_vref arr, int64_t limit)
{
    int64_t count = 0;
    if (pm_vref_is_null(arr))
        return 0;
    for (int32_t i = elem_begin(arr); i < elem_end(arr) && count < limit; i++) {
        agg_item it = {pm_vref_of(arr.col->children[0], i), pm_vref_null(), 0, 0, 0};
        int rc;
        if (!pm_column_is_valid(it.v.col, i))
            continue;
        if (a->nested_key_count > 0 && (rc = nested_key(a, &it)) != 0)
            return rc;
        if ((rc = items_push(a, it)) != 0)
            return rc;
        count++;
    }
    return 0;
}

/* Rows keyed in a HashMap: the first row of each key holds the place, `value` the latest. */
static int key_rows(pm_field_agg *a)
{
    int rc = 0;
    pm_jhm_clear(&a->map);
    for (size_t i = 0; rc == 0 && i < a->item_count; i++) {
        pm_jhm_entry *e = pm_jhm_get(&a->map, a->items[i].hash, (int64_t)i);
        if (e != NULL)
            e->value = (int64_t)i;
        else
            rc = pm_jhm_put(&a->map, a->items[i].hash, (int64_t)i, (int64_t)i);
    }
    return rc;
}

int pm_fa_nested_update_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                            paimon_error *err)
{
    int64_t acc_size;
    int rc;
    if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
        *out = pm_vref_is_null(acc) ? in : acc;
        return 0;
    }
    acc_size = elem_end(acc) - elem_begin(acc);
    if (acc_size >= a->count_limit) {
        *out = acc;
        return 0;
    }
    a->item_count = 0;
    pm_buf_reset(&a->work);
    if ((rc = push_rows(a, acc, INT64_MAX)) != 0 ||
        (rc = push_rows(a, in, a->count_limit - acc_size)) != 0)
        return pm_buf_error(err, rc);
    if (a->nested_key_count == 0)
        return emit_items(a, acc, in, NULL, a->item_count, out, err);
    if ((rc = key_rows(a)) != 0)
        return pm_buf_error(err, rc);
    return emit_map(a, acc, in, out, err);
}

int pm_fa_nested_update_retract(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                paimon_error *err)
{
    size_t n_acc;
    int rc;
    if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
        *out = acc;
        return 0;
    }
    a->item_count = 0;
    pm_buf_reset(&a->work);
    if ((rc = push_rows(a, acc, INT64_MAX)) != 0)
        return pm_buf_error(err, rc);
    n_acc = a->item_count;
    if ((rc = push_rows(a, in, INT64_MAX)) != 0)
        return pm_buf_error(err, rc);
    if (a->nested_key_count == 0) {
        /* Every accumulated row equal to a retracted one goes. */
        int64_t *keep = pm_malloc((n_acc + 1) * sizeof(int64_t));
        size_t n = 0;
        if (keep == NULL)
            return pm_nomem(err);
        for (size_t i = 0; i < n_acc; i++) {
            bool gone = false;
            for (size_t k = n_acc; !gone && k < a->item_count; k++)
                gone = pm_value_equals(a->items[i].v.col, a->items[i].v.row, a->items[k].v.col,
                                       a->items[k].v.row);
            if (!gone)
                keep[n++] = (int64_t)i;
        }
        rc = emit_items(a, acc, in, keep, n, out, err);
        pm_free(keep);
        return rc;
    }
    pm_jhm_clear(&a->map);
    for (size_t i = 0; rc == 0 && i < n_acc; i++) {
        pm_jhm_entry *e = pm_jhm_get(&a->map, a->items[i].hash, (int64_t)i);
        if (e != NULL)
            e->value = (int64_t)i;
        else
            rc = pm_jhm_put(&a->map, a->items[i].hash, (int64_t)i, (int64_t)i);
    }
    for (size_t k = n_acc; rc == 0 && k < a->item_count; k++)
        pm_jhm_remove(&a->map, a->items[k].hash, (int64_t)k);
    if (rc != 0)
        return pm_buf_error(err, rc);
    return emit_map(a, acc, in, out, err);
}

int pm_fa_nested_partial_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                             paimon_error *err)
{
    pm_column *c, *rows;
    pm_jhm_iter it = PM_JHM_ITER_INIT;
    const pm_jhm_entry *e;
    int rc;
    if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
        *out = pm_vref_is_null(acc) ? in : acc;
        return 0;
    }
    a->item_count = 0;
    pm_buf_reset(&a->work);
    if ((rc = push_rows(a, acc, INT64_MAX)) != 0 || (rc = push_rows(a, in, INT64_MAX)) != 0 ||
        (rc = key_rows(a)) != 0)
        return pm_buf_error(err, rc);
    /* Each key's row: field by field, the last non-null value among the rows of the key. */
    c = pm_field_agg_scratch(a, acc, in);
    rows = c->children[0];
    while (rc == 0 && (e = pm_jhm_next(&a->map, &it)) != NULL) {
        const agg_item *first = &a->items[e->key];
        for (size_t f = 0; rc == 0 && f < rows->child_count; f++) {
            pm_vref last = pm_vref_null();
            for (size_t i = 0; i < a->item_count; i++) {
                const agg_item *r = &a->items[i];
                if (r->key_len == first->key_len &&
                    memcmp(a->work.data + r->key_off, a->work.data + first->key_off, r->key_len) ==
                        0 &&
                    pm_column_is_valid(r->v.col->children[f], r->v.row))
                    last = pm_vref_of(r->v.col->children[f], r->v.row);
            }
            rc = last.col == NULL ? pm_column_append_null(rows->children[f])
                                  : pm_column_append_from(rows->children[f], last.col, last.row);
        }
        if (rc == 0)
            rc = pm_column_struct_end(rows, true);
    }
    if (rc == 0)
        rc = pm_column_list_end(c, true);
    if (rc != 0)
        return pm_buf_error(err, rc);
    *out = pm_vref_of(c, 0);
    return 0;
}

/* rbm32: the union of two serialized 32-bit RoaringBitmaps, run-optimized and serialized in
 * the portable format as Java's RoaringBitmap32 does. */
int pm_fa_rbm32_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out, paimon_error *err)
{
    pm_datum x, y;
    roaring_bitmap_t *p = NULL, *q = NULL;
    size_t xl = 0, yl = 0;
    int rc = 0;
    if (pm_vref_is_null(acc) || pm_vref_is_null(in)) {
        *out = pm_vref_is_null(acc) ? in : acc;
        return 0;
    }
    pm_column_get_datum(acc.col, acc.row, &x);
    pm_column_get_datum(in.col, in.row, &y);
    /* CRoaring 0.2 accepts some malformed bitmaps that crash it later: validate first. */
    if (pm_roaring_portable_valid(x.v.s.ptr, x.v.s.len, &xl) &&
        pm_roaring_portable_valid(y.v.s.ptr, y.v.s.len, &yl)) {
        p = roaring_bitmap_portable_deserialize_safe((const char *)x.v.s.ptr, xl);
        q = roaring_bitmap_portable_deserialize_safe((const char *)y.v.s.ptr, yl);
    }
    if (p == NULL || q == NULL) {
        rc = pm_err_set(err, PAIMON_ECORRUPT, "field %s: a value is not a serialized RoaringBitmap",
                        a->field);
        goto done;
    }
    roaring_bitmap_or_inplace(p, q);
    roaring_bitmap_run_optimize(p);
    pm_buf_reset(&a->work);
    if (pm_buf_reserve(&a->work, roaring_bitmap_portable_size_in_bytes(p)) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    a->work.len = roaring_bitmap_portable_serialize(p, (char *)a->work.data);
    {
        pm_datum d = pm_datum_bytes(a->work.data, a->work.len);
        rc = pm_fa_put_datum(a, acc, in, &d, out, err);
    }
done:
    if (p != NULL)
        roaring_bitmap_free(p);
    if (q != NULL)
        roaring_bitmap_free(q);
    return rc;
}

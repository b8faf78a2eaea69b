/*
 * Record assembly (Dremel): from the definition and repetition levels of the leaves of a
 * nested column to Arrow-layout offsets and validity.  The thresholds come from the plan
 * (schema.h): a level entry (d, r) starts a slot of a column when r <= slot_rep and
 * d >= slot_def; the slot is valid when d >= present_def; for ARRAY and MAP it also starts
 * an element when r <= elem_rep and d >= elem_def.  Every column takes its structure from
 * one leaf under it (rep_leaf): all leaves of a struct agree on it.
 *
 * The leaves' values were decoded densely (only entries with d == max_def carry one); the
 * leaf step spaces them out over the leaf's slots.
 */
#include "format/parquet/assemble.h"

#include <string.h>

#include "format/parquet/column.h"

/* Adds `slots` validity entries (valid[i] != 0: a value) after the column's current length
 * and advances the length. */
static int append_validity(pm_column *col, const uint8_t *valid, int64_t slots)
{
    int64_t start = col->length, nulls = 0;
    int rc;
    for (int64_t i = 0; i < slots; i++)
        nulls += !valid[i];
    if (nulls > 0 && col->validity.len == 0) {
        size_t full = (size_t)(start / 8);
        if ((rc = pm_buf_reserve(&col->validity, (size_t)(start + slots) / 8 + 2)) != 0)
            return rc;
        memset(col->validity.data, 0xff, full);
        col->validity.len = full;
        if (start % 8 != 0)
            col->validity.data[col->validity.len++] = (uint8_t)((1u << (start % 8)) - 1);
    }
    if (col->validity.len > 0 || nulls > 0) {
        size_t need = (size_t)((start + slots + 7) / 8);
        if (need > col->validity.len &&
            (rc = pm_buf_zero(&col->validity, need - col->validity.len)) != 0)
            return rc;
        for (int64_t i = 0; i < slots; i++) {
            int64_t b = start + i;
            if (valid[i])
                col->validity.data[b >> 3] |= (uint8_t)(1u << (b & 7));
            else
                col->validity.data[b >> 3] &= (uint8_t) ~(1u << (b & 7));
        }
    }
    col->null_count += nulls;
    col->length += slots;
    return 0;
}

static int append_nulls(pm_column *col, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        int rc = pm_column_append_null(col);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int pm_pq_assemble(const pq_plan *p, pm_column *col, const pq_levels *levels, pm_buf *scratch,
                   int64_t parent_slots, paimon_error *err)
{
    const pq_levels *lv;
    const uint8_t *def, *rep;
    size_t n;
    int64_t slots = 0;
    uint8_t *valid;
    int rc;

    if (p->kind == PQ_PLAN_MISSING) {
        rc = append_nulls(col, parent_slots);
        return rc != 0 ? pm_buf_error(err, rc) : 0;
    }
    lv = &levels[p->kind == PQ_PLAN_LEAF ? p->leaf : p->rep_leaf];
    def = lv->def.data;
    rep = lv->rep.data;
    n = lv->def.len;
    /* validity bytes of this column's slots: at most one per entry */
    scratch->len = 0;
    if ((rc = pm_buf_reserve(scratch, n + 1)) != 0)
        return pm_buf_error(err, rc);
    valid = scratch->data;

    if (p->kind == PQ_PLAN_LEAF || p->kind == PQ_PLAN_STRUCT) {
        int64_t dense = 0;
        for (size_t e = 0; e < n; e++) {
            if (rep[e] <= p->slot_rep && def[e] >= p->slot_def) {
                valid[slots++] = def[e] >= p->present_def;
                dense += def[e] >= p->present_def;
            }
        }
        if (slots != parent_slots)
            return pm_corrupt(err, "parquet: nested levels disagree (%lld slots, %lld expected)",
                              (long long)slots, (long long)parent_slots);
        if (p->kind == PQ_PLAN_LEAF) {
            if (dense != col->length)
                return pm_corrupt(err, "parquet: %lld values for %lld present slots",
                                  (long long)col->length, (long long)dense);
            col->length = dense; /* spread below appends `slots` slots after the start */
            rc = pm_pq_spread(col, dense, valid, slots);
            return rc != 0 ? pm_buf_error(err, rc) : 0;
        }
        if ((rc = append_validity(col, valid, slots)) != 0)
            return pm_buf_error(err, rc);
        for (int i = 0; i < p->child_count; i++) {
            rc = pm_pq_assemble(&p->children[i], col->children[i], levels, scratch, slots, err);
            if (rc != 0)
                return rc;
        }
        return 0;
    }

    /* LIST and MAP */
    {
        int64_t base = col->length, first = pm_column_offset(col, base), elems = first;
        int32_t end;
        if ((rc = pm_buf_reserve(&col->offsets, (n + 1) * 4)) != 0)
            return pm_buf_error(err, rc);
        for (size_t e = 0; e < n; e++) {
            bool starts = rep[e] <= p->slot_rep && def[e] >= p->slot_def;
            if (starts) {
                if (slots > 0) {
                    end = (int32_t)elems;
                    memcpy(col->offsets.data + (size_t)(base + slots) * 4, &end, 4);
                }
                valid[slots++] = def[e] >= p->present_def;
            }
            if (rep[e] <= p->elem_rep && def[e] >= p->elem_def) {
                if (slots == 0)
                    return pm_corrupt(err, "parquet: list element before its list");
                if (++elems > INT32_MAX)
                    return pm_err_set(err, PAIMON_ELIMIT, "parquet: too many list elements");
            }
        }
        if (slots != parent_slots)
            return pm_corrupt(err, "parquet: nested levels disagree (%lld slots, %lld expected)",
                              (long long)slots, (long long)parent_slots);
        if (slots > 0) {
            end = (int32_t)elems;
            memcpy(col->offsets.data + (size_t)(base + slots) * 4, &end, 4);
        }
        col->offsets.len = (size_t)(base + slots + 1) * 4;
        if ((rc = append_validity(col, valid, slots)) != 0)
            return pm_buf_error(err, rc);
        for (int i = 0; i < p->child_count; i++) {
            rc = pm_pq_assemble(&p->children[i], col->children[i], levels, scratch, elems - first,
                                err);
            if (rc != 0)
                return rc;
        }
        return 0;
    }
}

/* The model test's reference map: see model_state.h. */
#include "model_state.h"

#include <stdio.h>
#include <string.h>

#include "paimon/write.h"

static bool is_add(int kind)
{
    return kind == PAIMON_ROW_INSERT || kind == PAIMON_ROW_UPDATE_AFTER;
}

void pm_model_state_init(pm_model_state *s)
{
    memset(s, 0, sizeof(*s));
}

static void set_row(pm_model_row *row, const pm_model_record *r)
{
    row->present = true;
    row->has_a = r->has_a;
    row->a = r->has_a ? r->a : 0;
    row->b = r->b;
}

static void open_row(pm_model_row *row)
{
    if (row->present)
        return;
    row->present = true;
    row->has_a = false;
    row->a = 0;
    row->b = -1;
}

void pm_model_state_write(pm_model_state *s, pm_model_engine e, const pm_model_record *r)
{
    pm_model_row *row = &s->rows[r->k];
    switch (e) {
    case PM_MODEL_DEDUPLICATE:
        if (is_add(r->kind))
            set_row(row, r);
        else
            memset(row, 0, sizeof(*row));
        return;
    case PM_MODEL_FIRST_ROW:
        if (is_add(r->kind) && !row->present)
            set_row(row, r);
        return;
    case PM_MODEL_PARTIAL_UPDATE:
    case PM_MODEL_AGGREGATION: break;
    }
    if (r->kind == PAIMON_ROW_DELETE) {
        memset(row, 0, sizeof(*row));
        return;
    }
    open_row(row);
    if (r->kind == PAIMON_ROW_UPDATE_BEFORE) {
        /* aggregation's retract (partial-update never gets one, see the header) */
        if (r->has_a) {
            row->a = row->has_a ? row->a - r->a : -r->a;
            row->has_a = true;
        }
        if (r->b >= 0)
            row->b = -1;
        return;
    }
    if (r->has_a) {
        row->a = e == PM_MODEL_AGGREGATION && row->has_a ? row->a + r->a : r->a;
        row->has_a = true;
    }
    if (r->b >= 0)
        row->b = r->b;
}

void pm_model_state_apply_change(pm_model_state *s, const pm_model_record *c)
{
    if (is_add(c->kind))
        set_row(&s->rows[c->k], c);
    else
        memset(&s->rows[c->k], 0, sizeof(s->rows[c->k]));
}

bool pm_model_state_differs(const pm_model_state *x, const pm_model_state *y, int k)
{
    const pm_model_row *p = &x->rows[k], *q = &y->rows[k];
    if (p->present != q->present)
        return true;
    if (!p->present)
        return false;
    return p->has_a != q->has_a || (p->has_a && p->a != q->a) || p->b != q->b;
}

bool pm_model_state_equal(const pm_model_state *want, const pm_model_state *got, const char *what,
                          char *msg, size_t cap)
{
    for (int k = 0; k < PM_MODEL_KEYS; k++) {
        char w[128], g[128];
        if (!pm_model_state_differs(want, got, k))
            continue;
        snprintf(msg, cap, "%s: key %d is %s, expected %s", what, k,
                 pm_model_row_text(&got->rows[k], g, sizeof(g)),
                 pm_model_row_text(&want->rows[k], w, sizeof(w)));
        return false;
    }
    return true;
}

static const char *values_text(bool has_a, int64_t a, int b, char *buf, size_t cap)
{
    char at[24], bt[16];
    if (has_a)
        snprintf(at, sizeof(at), "%lld", (long long)a);
    else
        snprintf(at, sizeof(at), "null");
    if (b >= 0)
        snprintf(bt, sizeof(bt), "s%d", b);
    else
        snprintf(bt, sizeof(bt), "null");
    snprintf(buf, cap, "a=%s, b=%s", at, bt);
    return buf;
}

const char *pm_model_row_text(const pm_model_row *r, char *buf, size_t cap)
{
    char v[64];
    if (!r->present)
        snprintf(buf, cap, "absent");
    else
        snprintf(buf, cap, "{%s}", values_text(r->has_a, r->a, r->b, v, sizeof(v)));
    return buf;
}

const char *pm_model_record_text(const pm_model_record *r, char *buf, size_t cap)
{
    static const char *const KINDS[] = {"+I", "-U", "+U", "-D"};
    char v[64];
    snprintf(buf, cap, "%s{k=%d, %s}", r->kind >= 0 && r->kind < 4 ? KINDS[r->kind] : "?", r->k,
             values_text(r->has_a, r->a, r->b, v, sizeof(v)));
    return buf;
}

bool pm_model_record_equal(const pm_model_record *x, const pm_model_record *y)
{
    return x->k == y->k && x->kind == y->kind && x->has_a == y->has_a &&
           (!x->has_a || x->a == y->a) && x->b == y->b;
}

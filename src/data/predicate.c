/* Predicates: building with NOT push-down, evaluation on batches and statistics.  See
 * predicate.h. */
#include "data/predicate.h"

#include <math.h>
#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

/* ---- comparison ------------------------------------------------------------------------ */

/* Java's Double.compare: -0.0 < 0.0, NaN above everything and equal to itself. */
/* Values compare with pm_datum_compare() (data/datum_compare.h): Java's compareTo. */

/* ---- building -------------------------------------------------------------------------- */

void pm_predicate_free(pm_predicate *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->child_count; i++)
        pm_predicate_free(p->children[i]);
    pm_free(p->children);
    pm_free(p->literals);
    pm_free(p->literal_bytes);
    pm_type_free(p->type);
    pm_free(p);
}

static bool is_bytes(const pm_type *t)
{
    return pm_type_is_string(t) || pm_type_is_binary(t);
}

PM_MUST_CHECK static int leaf_new(pm_predicate **out, pm_pred_op op, const pm_type *row, int column,
                                  const pm_datum *lits, size_t count, paimon_error *err)
{
    pm_predicate *p = NULL;
    const pm_type *t;
    size_t bytes = 0, off = 0;
    int rc = 0;

    *out = NULL;
    if (row == NULL || row->id != PM_TYPE_ROW || column < 0 || (size_t)column >= row->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "predicate: no column %d", column);
    t = row->fields[column].type;
    if (pm_type_is_nested(t) && op != PM_PRED_IS_NULL && op != PM_PRED_IS_NOT_NULL)
        return pm_err_set(err, PAIMON_EINVALID, "predicate: column %s is not a scalar",
                          row->fields[column].name);
    if ((p = pm_calloc(1, sizeof(*p))) == NULL || (p->type = pm_type_clone(t)) == NULL)
        goto nomem;
    p->op = op;
    p->column = column;
    if (count > 0) {
        if ((p->literals = pm_calloc(count, sizeof(pm_datum))) == NULL)
            goto nomem;
        for (size_t i = 0; i < count; i++)
            if (!lits[i].is_null && is_bytes(t))
                bytes += lits[i].v.s.len;
        if (bytes > 0 && (p->literal_bytes = pm_malloc(bytes)) == NULL)
            goto nomem;
        for (size_t i = 0; i < count; i++) {
            p->literals[i] = lits[i];
            if (!lits[i].is_null && is_bytes(t)) {
                if (lits[i].v.s.len > 0)
                    memcpy(p->literal_bytes + off, lits[i].v.s.ptr, lits[i].v.s.len);
                p->literals[i].v.s.ptr =
                    p->literal_bytes != NULL ? p->literal_bytes + off : (const uint8_t *)"";
                off += lits[i].v.s.len;
            }
        }
        p->literal_count = count;
    }
    *out = p;
    p = NULL;
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    pm_predicate_free(p);
    return rc;
}

int pm_predicate_compare(pm_predicate **out, pm_pred_op op, const pm_type *row, int column,
                         const pm_datum *literal, paimon_error *err)
{
    if (op > PM_PRED_GE)
        return pm_err_set(err, PAIMON_EINVALID, "predicate: not a comparison");
    return leaf_new(out, op, row, column, literal, 1, err);
}

int pm_predicate_in(pm_predicate **out, const pm_type *row, int column, const pm_datum *literals,
                    size_t count, paimon_error *err)
{
    return leaf_new(out, PM_PRED_IN, row, column, literals, count, err);
}

int pm_predicate_is_null(pm_predicate **out, const pm_type *row, int column, bool negated,
                         paimon_error *err)
{
    return leaf_new(out, negated ? PM_PRED_IS_NOT_NULL : PM_PRED_IS_NULL, row, column, NULL, 0,
                    err);
}

int pm_predicate_const(pm_predicate **out, bool value, paimon_error *err)
{
    pm_predicate *p = pm_calloc(1, sizeof(*p));
    *out = NULL;
    if (p == NULL)
        return pm_nomem(err);
    p->op = value ? PM_PRED_TRUE : PM_PRED_FALSE;
    p->column = -1;
    *out = p;
    return 0;
}

PM_MUST_CHECK static int combine(pm_predicate **out, pm_pred_op op, pm_predicate **children,
                                 size_t count, paimon_error *err)
{
    pm_predicate *p = pm_calloc(1, sizeof(*p));
    *out = NULL;
    if (p == NULL || (count > 0 && (p->children = pm_calloc(count, sizeof(*children))) == NULL)) {
        pm_free(p);
        for (size_t i = 0; i < count; i++)
            pm_predicate_free(children[i]);
        return pm_nomem(err);
    }
    p->op = op;
    p->column = -1;
    for (size_t i = 0; i < count; i++) {
        p->children[i] = children[i];
        children[i] = NULL;
    }
    p->child_count = count;
    *out = p;
    return 0;
}

int pm_predicate_and(pm_predicate **out, pm_predicate **children, size_t count, paimon_error *err)
{
    return combine(out, PM_PRED_AND, children, count, err);
}

int pm_predicate_or(pm_predicate **out, pm_predicate **children, size_t count, paimon_error *err)
{
    return combine(out, PM_PRED_OR, children, count, err);
}

/* Negates `p` in place (NOT pushed down: exact under three-valued logic). */
static void negate(pm_predicate *p)
{
    static const pm_pred_op opposite[] = {
        [PM_PRED_EQ] = PM_PRED_NE,
        [PM_PRED_NE] = PM_PRED_EQ,
        [PM_PRED_LT] = PM_PRED_GE,
        [PM_PRED_LE] = PM_PRED_GT,
        [PM_PRED_GT] = PM_PRED_LE,
        [PM_PRED_GE] = PM_PRED_LT,
        [PM_PRED_IN] = PM_PRED_NOT_IN,
        [PM_PRED_NOT_IN] = PM_PRED_IN,
        [PM_PRED_IS_NULL] = PM_PRED_IS_NOT_NULL,
        [PM_PRED_IS_NOT_NULL] = PM_PRED_IS_NULL,
        [PM_PRED_AND] = PM_PRED_OR,
        [PM_PRED_OR] = PM_PRED_AND,
        [PM_PRED_TRUE] = PM_PRED_FALSE,
        [PM_PRED_FALSE] = PM_PRED_TRUE,
    };
    p->op = opposite[p->op];
    for (size_t i = 0; i < p->child_count; i++)
        negate(p->children[i]);
}

int pm_predicate_not(pm_predicate **out, pm_predicate *child, paimon_error *err)
{
    (void)err;
    negate(child);
    *out = child;
    return 0;
}

void pm_predicate_columns(const pm_predicate *p, void (*fn)(int column, void *ctx), void *ctx)
{
    if (p->column >= 0)
        fn(p->column, ctx);
    for (size_t i = 0; i < p->child_count; i++)
        pm_predicate_columns(p->children[i], fn, ctx);
}

/* ---- on batches ------------------------------------------------------------------------ */

static bool in_list(const pm_predicate *p, const pm_datum *v)
{
    for (size_t i = 0; i < p->literal_count; i++)
        if (!p->literals[i].is_null && pm_datum_compare(p->type, v, &p->literals[i]) == 0)
            return true;
    return false;
}

static bool list_has_null(const pm_predicate *p)
{
    for (size_t i = 0; i < p->literal_count; i++)
        if (p->literals[i].is_null)
            return true;
    return false;
}

/* One row of a leaf predicate: 0 false, 1 true, 2 unknown. */
static uint8_t eval_leaf(const pm_predicate *p, const pm_column *c, int64_t i)
{
    bool valid = pm_column_is_valid(c, i);
    pm_datum v;
    int cmp;
    switch (p->op) {
    case PM_PRED_IS_NULL: return !valid;
    case PM_PRED_IS_NOT_NULL: return valid;
    default: break;
    }
    if (!valid)
        return 2;
    pm_column_get_datum(c, i, &v);
    if (p->op == PM_PRED_IN || p->op == PM_PRED_NOT_IN) {
        bool hit = in_list(p, &v);
        if (hit)
            return p->op == PM_PRED_IN;
        if (list_has_null(p))
            return 2; /* x IN (.., NULL) is unknown unless it matched */
        return p->op == PM_PRED_NOT_IN;
    }
    if (p->literals[0].is_null)
        return 2;
    cmp = pm_datum_compare(p->type, &v, &p->literals[0]);
    switch (p->op) {
    case PM_PRED_EQ: return cmp == 0;
    case PM_PRED_NE: return cmp != 0;
    case PM_PRED_LT: return cmp < 0;
    case PM_PRED_LE: return cmp <= 0;
    case PM_PRED_GT: return cmp > 0;
    default: return cmp >= 0;
    }
}

int pm_predicate_eval_batch(const pm_predicate *p, const pm_batch *b, uint8_t *out,
                            paimon_error *err)
{
    int64_t n = b->row_count;
    switch (p->op) {
    case PM_PRED_TRUE:
    case PM_PRED_FALSE: memset(out, p->op == PM_PRED_TRUE, (size_t)n); return 0;
    case PM_PRED_AND:
    case PM_PRED_OR: {
        bool is_and = p->op == PM_PRED_AND;
        uint8_t *tmp = n > 0 ? pm_malloc((size_t)n) : NULL;
        if (n > 0 && tmp == NULL)
            return pm_nomem(err);
        memset(out, is_and ? 1 : 0, (size_t)n);
        for (size_t k = 0; k < p->child_count; k++) {
            int rc = pm_predicate_eval_batch(p->children[k], b, tmp, err);
            if (rc != 0) {
                pm_free(tmp);
                return rc;
            }
            for (int64_t i = 0; i < n; i++) {
                uint8_t a = out[i], c = tmp[i];
                if (is_and)
                    out[i] = (a == 0 || c == 0) ? 0 : (a == 2 || c == 2) ? 2 : 1;
                else
                    out[i] = (a == 1 || c == 1) ? 1 : (a == 2 || c == 2) ? 2 : 0;
            }
        }
        pm_free(tmp);
        return 0;
    }
    default: {
        const pm_column *c;
        if (p->column < 0 || (size_t)p->column >= b->column_count)
            return pm_err_set(err, PAIMON_EINVALID, "predicate: column %d not in the batch",
                              p->column);
        c = b->columns[p->column];
        for (int64_t i = 0; i < n; i++)
            out[i] = eval_leaf(p, c, i);
        return 0;
    }
    }
}

/* ---- on statistics --------------------------------------------------------------------- */

static bool is_float(const pm_type *t)
{
    return t->id == PM_TYPE_FLOAT || t->id == PM_TYPE_DOUBLE;
}

static bool leaf_may_match(const pm_predicate *p, const pm_col_stats *s, int64_t rows)
{
    bool all_null, nan_possible;
    int lo, hi;
    if (s == NULL)
        return true;
    all_null = s->has_null_count && s->null_count >= rows;
    switch (p->op) {
    case PM_PRED_IS_NULL: return !(s->has_null_count && s->null_count == 0);
    case PM_PRED_IS_NOT_NULL: return !all_null;
    default: break;
    }
    if (all_null && rows > 0)
        return false;
    if (!s->has_min_max)
        return true;
    nan_possible = is_float(p->type) && !(s->has_nan_count && s->nan_count == 0);
    if (p->op == PM_PRED_IN || p->op == PM_PRED_NOT_IN) {
        if (p->op == PM_PRED_NOT_IN) {
            if (nan_possible)
                return true;
            if (pm_datum_compare(p->type, &s->min, &s->max) != 0)
                return true;
            return !in_list(p, &s->min);
        }
        for (size_t i = 0; i < p->literal_count; i++) {
            const pm_datum *l = &p->literals[i];
            if (l->is_null)
                continue;
            if (is_float(p->type) && isnan(p->type->id == PM_TYPE_FLOAT ? (double)l->v.f : l->v.d))
                return true;
            if (pm_datum_compare(p->type, &s->min, l) <= 0 &&
                pm_datum_compare(p->type, l, &s->max) <= 0)
                return true;
        }
        return false;
    }
    if (p->literals[0].is_null)
        return false;
    if (is_float(p->type) &&
        isnan(p->type->id == PM_TYPE_FLOAT ? (double)p->literals[0].v.f : p->literals[0].v.d))
        return true;
    lo = pm_datum_compare(p->type, &s->min, &p->literals[0]);
    hi = pm_datum_compare(p->type, &s->max, &p->literals[0]);
    switch (p->op) {
    case PM_PRED_EQ: return lo <= 0 && hi >= 0;
    case PM_PRED_NE: return nan_possible || !(lo == 0 && hi == 0);
    case PM_PRED_LT: return lo < 0;
    case PM_PRED_LE: return lo <= 0;
    case PM_PRED_GT: return nan_possible || hi > 0;
    default: return nan_possible || hi >= 0;
    }
}

bool pm_predicate_eval_stats(const pm_predicate *p, const pm_col_stats *const *stats,
                             int64_t row_count)
{
    switch (p->op) {
    case PM_PRED_TRUE: return true;
    case PM_PRED_FALSE: return false;
    case PM_PRED_AND:
        for (size_t i = 0; i < p->child_count; i++)
            if (!pm_predicate_eval_stats(p->children[i], stats, row_count))
                return false;
        return true;
    case PM_PRED_OR:
        for (size_t i = 0; i < p->child_count; i++)
            if (pm_predicate_eval_stats(p->children[i], stats, row_count))
                return true;
        return false;
    default: return leaf_may_match(p, stats[p->column], row_count);
    }
}

int pm_predicate_map_columns(const pm_predicate *p, const pm_type *row, const int *map,
                             pm_predicate **out, paimon_error *err)
{
    int col, rc;
    *out = NULL;
    switch (p->op) {
    case PM_PRED_TRUE:
    case PM_PRED_FALSE: return pm_predicate_const(out, p->op == PM_PRED_TRUE, err);
    case PM_PRED_AND:
    case PM_PRED_OR: {
        pm_predicate **kids = pm_calloc(p->child_count + 1, sizeof(*kids));
        if (kids == NULL)
            return pm_nomem(err);
        for (size_t i = 0; i < p->child_count; i++) {
            if ((rc = pm_predicate_map_columns(p->children[i], row, map, &kids[i], err)) != 0) {
                for (size_t k = 0; k < i; k++)
                    pm_predicate_free(kids[k]);
                pm_free(kids);
                return rc;
            }
        }
        rc = p->op == PM_PRED_AND ? pm_predicate_and(out, kids, p->child_count, err)
                                  : pm_predicate_or(out, kids, p->child_count, err);
        pm_free(kids);
        return rc;
    }
    default: break;
    }
    col = map[p->column];
    if (col < 0)
        return pm_predicate_const(out, true, err);
    switch (p->op) {
    case PM_PRED_IN: return pm_predicate_in(out, row, col, p->literals, p->literal_count, err);
    case PM_PRED_NOT_IN: {
        pm_predicate *in = NULL;
        if ((rc = pm_predicate_in(&in, row, col, p->literals, p->literal_count, err)) != 0)
            return rc;
        return pm_predicate_not(out, in, err);
    }
    case PM_PRED_IS_NULL:
    case PM_PRED_IS_NOT_NULL:
        return pm_predicate_is_null(out, row, col, p->op == PM_PRED_IS_NOT_NULL, err);
    default: return pm_predicate_compare(out, p->op, row, col, &p->literals[0], err);
    }
}

/* The Parquet schema tree, its Paimon types and read plans: see schema.h. */
#include "format/parquet/schema.h"

#include <string.h>

#include "data/batch.h"
#include "util/alloc.h"

/* ---- the tree -------------------------------------------------------------------------- */

int pm_pq_schema_build(const pq_file_meta *m, pm_arena *a, pq_schema *s, const char *path,
                       paimon_error *err)
{
    /* Explicit stack of (node, children still to attach) instead of recursion, so a hostile
     * schema cannot exhaust the C stack. */
    int stack[PQ_MAX_LEVEL + 2], pending[PQ_MAX_LEVEL + 2], depth = 0, leaves = 0;

    memset(s, 0, sizeof(*s));
    if (m->schema_count == 0 || m->schema_count > 1000000)
        return pm_corrupt(err, "%s: schema has %u elements", path, m->schema_count);
    s->nodes = pm_arena_calloc(a, m->schema_count, sizeof(pq_node));
    if (s->nodes == NULL)
        return pm_nomem(err);
    s->node_count = (int)m->schema_count;
    for (uint32_t i = 0; i < m->schema_count; i++) {
        const pq_schema_elem *e = &m->schema[i];
        pq_node *n = &s->nodes[i];
        bool group = !e->has_type || (e->num_children > 0);
        n->elem = e;
        n->leaf = -1;
        if (group && (e->num_children < 0 || (uint32_t)e->num_children > m->schema_count - i - 1))
            return pm_corrupt(err, "%s: schema element %u (%s) has %d children", path, i, e->name,
                              (int)e->num_children);
        if (i == 0) {
            if (!group)
                return pm_corrupt(err, "%s: the schema root is not a group", path);
            n->parent = -1;
        } else {
            int p;
            while (depth > 0 && pending[depth - 1] == 0)
                depth--;
            if (depth == 0)
                return pm_corrupt(err, "%s: schema element %u (%s) is outside the root", path, i,
                                  e->name);
            p = stack[depth - 1];
            pending[depth - 1]--;
            n->parent = p;
            s->nodes[p].children[s->nodes[p].child_count++] = (int)i;
            n->def = s->nodes[p].def;
            n->rep = s->nodes[p].rep;
            if (e->has_repetition && e->repetition == PQ_OPTIONAL)
                n->def++;
            else if (e->has_repetition && e->repetition == PQ_REPEATED) {
                n->def++;
                n->rep++;
            } else if (e->has_repetition && e->repetition != PQ_REQUIRED)
                return pm_corrupt(err, "%s: schema element %s has repetition %d", path, e->name,
                                  (int)e->repetition);
            if (n->def > PQ_MAX_LEVEL)
                return pm_corrupt(err,
                                  "%s: footer schema element %u (%s) nests deeper than %d "
                                  "definition levels",
                                  path, i, e->name, PQ_MAX_LEVEL);
        }
        if (group) {
            if (e->num_children == 0 && i != 0)
                return pm_corrupt(err, "%s: group %s has no children", path, e->name);
            n->children = pm_arena_calloc(a, (size_t)e->num_children + 1, sizeof(int));
            if (n->children == NULL)
                return pm_nomem(err);
            if (depth >= PQ_MAX_LEVEL + 1)
                return pm_corrupt(err,
                                  "%s: footer schema element %u (%s) nests deeper than %d groups",
                                  path, i, e->name, PQ_MAX_LEVEL);
            stack[depth] = (int)i;
            pending[depth] = e->num_children;
            depth++;
        } else {
            if (e->type < PQ_BOOLEAN || e->type > PQ_FIXED_LEN_BYTE_ARRAY)
                return pm_corrupt(err, "%s: column %s has physical type %d", path, e->name,
                                  (int)e->type);
            if (e->type == PQ_FIXED_LEN_BYTE_ARRAY &&
                (e->type_length <= 0 || e->type_length > (1 << 24)))
                return pm_corrupt(err, "%s: column %s has fixed length %d", path, e->name,
                                  (int)e->type_length);
            n->leaf = leaves++;
        }
    }
    while (depth > 0 && pending[depth - 1] == 0)
        depth--;
    if (depth != 0)
        return pm_corrupt(err, "%s: schema ends before all children were given", path);
    s->leaf_count = leaves;
    s->leaves = pm_arena_calloc(a, (size_t)leaves + 1, sizeof(pq_leaf));
    if (s->leaves == NULL)
        return pm_nomem(err);
    for (int i = 0; i < s->node_count; i++) {
        pq_node *n = &s->nodes[i];
        if (n->leaf >= 0) {
            pq_leaf *l = &s->leaves[n->leaf];
            l->node = i;
            l->type = n->elem->type;
            l->type_length = n->elem->type_length;
            l->max_def = n->def;
            l->max_rep = n->rep;
        }
    }
    for (int i = 0; i < s->nodes[0].child_count; i++)
        if (s->nodes[s->nodes[0].children[i]].elem->has_field_id)
            s->has_ids = true;
    return 0;
}

/* ---- annotations ----------------------------------------------------------------------- */

/* The logical type of an element, derived from the legacy ConvertedType when the element
 * has no LogicalType (LogicalTypes.md, "Backward compatibility"). */
static pq_logical effective_logical(const pq_schema_elem *e)
{
    pq_logical l = e->logical;
    if (l.kind == PQ_LT_DECIMAL) {
        if (l.precision == 0 && e->has_precision)
            l.precision = e->precision;
        if (l.scale == 0 && e->has_scale)
            l.scale = e->scale;
    }
    if (l.kind != PQ_LT_NONE)
        return l;
    switch (e->converted) {
    case PQ_CT_UTF8: l.kind = PQ_LT_STRING; break;
    case PQ_CT_MAP:
    case PQ_CT_MAP_KEY_VALUE: l.kind = PQ_LT_MAP; break;
    case PQ_CT_LIST: l.kind = PQ_LT_LIST; break;
    case PQ_CT_ENUM: l.kind = PQ_LT_ENUM; break;
    case PQ_CT_DECIMAL:
        l.kind = PQ_LT_DECIMAL;
        l.precision = e->precision;
        l.scale = e->scale;
        break;
    case PQ_CT_DATE: l.kind = PQ_LT_DATE; break;
    case PQ_CT_TIME_MILLIS:
    case PQ_CT_TIME_MICROS:
        l.kind = PQ_LT_TIME;
        l.utc = true;
        l.unit = e->converted == PQ_CT_TIME_MILLIS ? PQ_UNIT_MILLIS : PQ_UNIT_MICROS;
        break;
    case PQ_CT_TIMESTAMP_MILLIS:
    case PQ_CT_TIMESTAMP_MICROS:
        l.kind = PQ_LT_TIMESTAMP;
        l.utc = true;
        l.unit = e->converted == PQ_CT_TIMESTAMP_MILLIS ? PQ_UNIT_MILLIS : PQ_UNIT_MICROS;
        break;
    case PQ_CT_UINT_8:
    case PQ_CT_UINT_16:
    case PQ_CT_UINT_32:
    case PQ_CT_UINT_64:
    case PQ_CT_INT_8:
    case PQ_CT_INT_16:
    case PQ_CT_INT_32:
    case PQ_CT_INT_64: {
        static const int widths[] = {8, 16, 32, 64};
        int k =
            e->converted >= PQ_CT_INT_8 ? e->converted - PQ_CT_INT_8 : e->converted - PQ_CT_UINT_8;
        l.kind = PQ_LT_INTEGER;
        l.bit_width = widths[k];
        l.is_signed = e->converted >= PQ_CT_INT_8;
        break;
    }
    case PQ_CT_JSON: l.kind = PQ_LT_JSON; break;
    case PQ_CT_BSON: l.kind = PQ_LT_BSON; break;
    case PQ_CT_INTERVAL: l.kind = PQ_LT_OTHER; break;
    default: break;
    }
    return l;
}

static bool is_repeated(const pq_node *n)
{
    return n->elem->has_repetition && n->elem->repetition == PQ_REPEATED;
}

static bool is_group(const pq_node *n)
{
    return n->leaf < 0;
}

/* For a LIST group `g`: the repeated node and the element node (the repeated node itself
 * for the 2-level forms). */
PM_MUST_CHECK static int list_parts(const pq_schema *s, int g, int *r, int *e, const char *path,
                                    paimon_error *err)
{
    const pq_node *gn = &s->nodes[g], *rn;
    if (gn->child_count != 1 || !is_repeated(&s->nodes[gn->children[0]]))
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "%s: LIST group %s does not hold one repeated field", path,
                          gn->elem->name);
    *r = gn->children[0];
    rn = &s->nodes[*r];
    if (!is_group(rn) || rn->child_count > 1 || strcmp(rn->elem->name, "array") == 0) {
        *e = *r;
        return 0;
    }
    {
        size_t gl = strlen(gn->elem->name);
        if (strncmp(rn->elem->name, gn->elem->name, gl) == 0 &&
            strcmp(rn->elem->name + gl, "_tuple") == 0) {
            *e = *r;
            return 0;
        }
    }
    *e = rn->children[0];
    return 0;
}

PM_MUST_CHECK static int map_parts(const pq_schema *s, int g, int *kv, int *k, int *v,
                                   const char *path, paimon_error *err)
{
    const pq_node *gn = &s->nodes[g], *kn;
    if (gn->child_count != 1 || !is_repeated(&s->nodes[gn->children[0]]) ||
        !is_group(&s->nodes[gn->children[0]]))
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "%s: MAP group %s does not hold one repeated group", path,
                          gn->elem->name);
    *kv = gn->children[0];
    kn = &s->nodes[*kv];
    if (kn->child_count != 2)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: MAP %s has %d fields per entry", path,
                          gn->elem->name, kn->child_count);
    *k = kn->children[0];
    *v = kn->children[1];
    return 0;
}

/* ---- types ----------------------------------------------------------------------------- */

static int group_kind(const pq_node *n)
{
    pq_logical l = effective_logical(n->elem);
    return l.kind == PQ_LT_LIST || l.kind == PQ_LT_MAP ? l.kind : PQ_LT_NONE;
}

PM_MUST_CHECK static int leaf_type(const pq_node *n, pm_type **out, const char *path,
                                   paimon_error *err)
{
    const pq_schema_elem *e = n->elem;
    pq_logical l = effective_logical(e);
    pm_type *t = NULL;
    pm_type_id id;
    int precision = -1, scale = 0;

    switch (e->type) {
    case PQ_BOOLEAN: id = PM_TYPE_BOOLEAN; break;
    case PQ_FLOAT: id = PM_TYPE_FLOAT; break;
    case PQ_DOUBLE: id = PM_TYPE_DOUBLE; break;
    case PQ_INT96:
        id = PM_TYPE_TIMESTAMP;
        precision = 9;
        break;
    case PQ_INT32:
        id = PM_TYPE_INT;
        if (l.kind == PQ_LT_DECIMAL) {
            id = PM_TYPE_DECIMAL;
        } else if (l.kind == PQ_LT_DATE) {
            id = PM_TYPE_DATE;
        } else if (l.kind == PQ_LT_TIME) {
            id = PM_TYPE_TIME;
            precision = 3;
        } else if (l.kind == PQ_LT_INTEGER) {
            if (l.is_signed)
                id = l.bit_width == 8    ? PM_TYPE_TINYINT
                     : l.bit_width == 16 ? PM_TYPE_SMALLINT
                                         : PM_TYPE_INT;
            else
                id = l.bit_width == 8    ? PM_TYPE_SMALLINT
                     : l.bit_width == 16 ? PM_TYPE_INT
                                         : PM_TYPE_BIGINT;
        }
        break;
    case PQ_INT64:
        id = PM_TYPE_BIGINT;
        if (l.kind == PQ_LT_DECIMAL) {
            id = PM_TYPE_DECIMAL;
        } else if (l.kind == PQ_LT_TIMESTAMP) {
            id = l.utc ? PM_TYPE_TIMESTAMP_LTZ : PM_TYPE_TIMESTAMP;
            precision = l.unit == PQ_UNIT_MILLIS ? 3 : l.unit == PQ_UNIT_MICROS ? 6 : 9;
        } else if (l.kind == PQ_LT_TIME) {
            id = PM_TYPE_TIME;
            precision = l.unit == PQ_UNIT_MILLIS ? 3 : l.unit == PQ_UNIT_MICROS ? 6 : 9;
        } else if (l.kind == PQ_LT_INTEGER && !l.is_signed) {
            id = PM_TYPE_DECIMAL;
            l.precision = 20;
            l.scale = 0;
        }
        break;
    case PQ_BYTE_ARRAY:
        id = PM_TYPE_VARBINARY;
        if (l.kind == PQ_LT_STRING || l.kind == PQ_LT_ENUM || l.kind == PQ_LT_JSON)
            id = PM_TYPE_VARCHAR;
        else if (l.kind == PQ_LT_DECIMAL)
            id = PM_TYPE_DECIMAL;
        break;
    default: /* FIXED_LEN_BYTE_ARRAY */
        id = PM_TYPE_VARBINARY;
        if (l.kind == PQ_LT_DECIMAL)
            id = PM_TYPE_DECIMAL;
        else if (l.kind == PQ_LT_UUID && e->type_length == 16)
            id = PM_TYPE_VARCHAR;
        else if (l.kind == PQ_LT_FLOAT16 && e->type_length == 2)
            id = PM_TYPE_FLOAT;
        break;
    }
    if (l.kind == PQ_LT_OTHER)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: column %s has an unsupported annotation",
                          path, e->name);
    if ((t = pm_type_new(id)) == NULL)
        return pm_nomem(err);
    if (id == PM_TYPE_DECIMAL) {
        if (l.precision < 1 || l.precision > PM_DECIMAL_MAX_PRECISION || l.scale < 0 ||
            l.scale > l.precision) {
            pm_type_free(t);
            return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: column %s is DECIMAL(%d, %d)", path,
                              e->name, (int)l.precision, (int)l.scale);
        }
        precision = l.precision;
        scale = l.scale;
    }
    if (id == PM_TYPE_VARCHAR || id == PM_TYPE_VARBINARY)
        t->length = PM_MAX_LENGTH;
    if (precision >= 0)
        t->precision = precision;
    t->scale = scale;
    *out = t;
    return 0;
}

PM_MUST_CHECK static int value_type(const pq_schema *s, int n, bool nullable, pm_type **out,
                                    const char *path, paimon_error *err);

/* The type of `n` as a field of its parent: REPEATED fields outside LIST/MAP are arrays. */
PM_MUST_CHECK static int field_type(const pq_schema *s, int n, pm_type **out, const char *path,
                                    paimon_error *err)
{
    const pq_node *nd = &s->nodes[n];
    if (is_repeated(nd)) {
        pm_type *elem = NULL, *arr;
        int rc = value_type(s, n, false, &elem, path, err);
        if (rc != 0)
            return rc;
        if ((arr = pm_type_new(PM_TYPE_ARRAY)) == NULL) {
            pm_type_free(elem);
            return pm_nomem(err);
        }
        arr->nullable = false;
        arr->element = elem;
        *out = arr;
        return 0;
    }
    return value_type(s, n, !(nd->elem->has_repetition && nd->elem->repetition == PQ_REQUIRED), out,
                      path, err);
}

PM_MUST_CHECK static int value_type(const pq_schema *s, int n, bool nullable, pm_type **out,
                                    const char *path, paimon_error *err)
{
    const pq_node *nd = &s->nodes[n];
    pm_type *t = NULL, *a = NULL, *b = NULL;
    int rc = 0, kind;

    *out = NULL;
    if (!is_group(nd)) {
        if ((rc = leaf_type(nd, &t, path, err)) != 0)
            return rc;
        t->nullable = nullable;
        *out = t;
        return 0;
    }
    kind = group_kind(nd);
    if (kind == PQ_LT_LIST) {
        int r, e;
        if ((rc = list_parts(s, n, &r, &e, path, err)) != 0)
            return rc;
        rc = e == r ? value_type(s, r, false, &a, path, err) : field_type(s, e, &a, path, err);
        if (rc != 0)
            return rc;
        if ((t = pm_type_new(PM_TYPE_ARRAY)) == NULL) {
            pm_type_free(a);
            return pm_nomem(err);
        }
        t->element = a;
    } else if (kind == PQ_LT_MAP) {
        int kv, k, v;
        if ((rc = map_parts(s, n, &kv, &k, &v, path, err)) != 0 ||
            (rc = value_type(s, k, false, &a, path, err)) != 0)
            return rc;
        if ((rc = field_type(s, v, &b, path, err)) != 0) {
            pm_type_free(a);
            return rc;
        }
        if ((t = pm_type_new(PM_TYPE_MAP)) == NULL) {
            pm_type_free(a);
            pm_type_free(b);
            return pm_nomem(err);
        }
        t->element = a;
        t->value = b;
    } else {
        if ((t = pm_type_new(PM_TYPE_ROW)) == NULL)
            return pm_nomem(err);
        for (int i = 0; i < nd->child_count; i++) {
            const pq_node *c = &s->nodes[nd->children[i]];
            if ((rc = field_type(s, nd->children[i], &a, path, err)) != 0)
                break;
            if (pm_type_row_add(t, c->elem->has_field_id ? c->elem->field_id : -1, c->elem->name,
                                a) != 0) {
                rc = pm_nomem(err);
                break;
            }
        }
        if (rc != 0) {
            pm_type_free(t);
            return rc;
        }
    }
    t->nullable = nullable;
    *out = t;
    return 0;
}

/* A column's type nests no deeper than a Paimon type may (REQUIRED groups add no level, so
 * the level bound alone does not keep it there). */
PM_MUST_CHECK static int check_nesting(const pq_schema *s, int n, pm_type **t, const char *path,
                                       paimon_error *err)
{
    if (pm_type_nesting(*t) <= PM_MAX_NESTING)
        return 0;
    pm_type_free(*t);
    *t = NULL;
    return pm_corrupt(err, "%s: footer schema element %d (%s) nests deeper than %d types", path, n,
                      s->nodes[n].elem->name, PM_MAX_NESTING);
}

int pm_pq_node_type(const pq_schema *s, int n, pm_type **out, paimon_error *err)
{
    int rc = field_type(s, n, out, "parquet", err);
    return rc != 0 ? rc : check_nesting(s, n, out, "parquet", err);
}

int pm_pq_file_type(const pq_schema *s, pm_type **out, const char *path, paimon_error *err)
{
    pm_type *row = pm_type_new(PM_TYPE_ROW);
    int rc = 0;
    *out = NULL;
    if (row == NULL)
        return pm_nomem(err);
    row->nullable = false;
    for (int i = 0; i < s->nodes[0].child_count; i++) {
        int c = s->nodes[0].children[i];
        const pq_schema_elem *e = s->nodes[c].elem;
        pm_type *t = NULL;
        if ((rc = field_type(s, c, &t, path, err)) != 0 ||
            (rc = check_nesting(s, c, &t, path, err)) != 0)
            break;
        if (pm_type_row_add(row, e->has_field_id ? e->field_id : -1, e->name, t) != 0) {
            rc = pm_nomem(err);
            break;
        }
    }
    if (rc != 0) {
        pm_type_free(row);
        return rc;
    }
    *out = row;
    return 0;
}

/* ---- plans ----------------------------------------------------------------------------- */

typedef struct plan_ctx {
    const pq_schema *s;
    pm_arena *a;
    const char *path;
    paimon_error *err;
} plan_ctx;

static int first_leaf(const pq_schema *s, int n)
{
    while (s->nodes[n].leaf < 0)
        n = s->nodes[n].children[0];
    return s->nodes[n].leaf;
}

/* Children of `parent` are matched by field id when every one of them carries a distinct
 * id, otherwise by name (files written without ids, or with broken ones). */
static bool children_have_ids(const pq_schema *s, int parent)
{
    const pq_node *p = &s->nodes[parent];
    for (int i = 0; i < p->child_count; i++) {
        const pq_schema_elem *e = s->nodes[p->children[i]].elem;
        if (!e->has_field_id)
            return false;
        for (int j = 0; j < i; j++)
            if (s->nodes[p->children[j]].elem->field_id == e->field_id)
                return false;
    }
    return p->child_count > 0;
}

int pm_pq_find_field(const pq_schema *s, int parent, const pm_field *f)
{
    const pq_node *p = &s->nodes[parent];
    bool ids = children_have_ids(s, parent);
    for (int i = 0; i < p->child_count; i++) {
        const pq_schema_elem *e = s->nodes[p->children[i]].elem;
        if (ids ? e->field_id == f->id : strcmp(e->name, f->name) == 0)
            return p->children[i];
    }
    return -1;
}

static int mismatch(plan_ctx *c, int node, const pm_type *want)
{
    pm_buf b;
    int rc;
    pm_buf_init(&b, 256);
    pm_type_format(want, &b);
    rc = pm_err_set(c->err, PAIMON_EINVALID, "%s: column %s (%s) cannot be read as %s", c->path,
                    c->s->nodes[node].elem->name,
                    c->s->nodes[node].leaf >= 0 ? pm_pq_type_name(c->s->nodes[node].elem->type)
                                                : "group",
                    pm_buf_cstr(&b));
    pm_buf_free(&b);
    return rc;
}

static int64_t unit_per_second(int unit)
{
    return unit == PQ_UNIT_MILLIS ? 1000 : unit == PQ_UNIT_MICROS ? 1000000 : 1000000000;
}

static void set_scale(pq_plan *p, int64_t from, int64_t to)
{
    p->mul = to > from ? to / from : 1;
    p->div = from > to ? from / to : 1;
}

static int leaf_plan(plan_ctx *c, int node, const pm_type *want, pq_plan *p)
{
    const pq_schema_elem *e = c->s->nodes[node].elem;
    pq_logical l = effective_logical(e);
    int phys = e->type;
    bool unsigned_int = l.kind == PQ_LT_INTEGER && !l.is_signed;

    p->kind = PQ_PLAN_LEAF;
    p->leaf = c->s->nodes[node].leaf;
    p->conv = PQ_CONV_NONE;
    p->mul = p->div = 1;
    switch (want->id) {
    case PM_TYPE_BOOLEAN:
        if (phys == PQ_BOOLEAN)
            return 0;
        break;
    case PM_TYPE_TINYINT:
        if (phys == PQ_INT32) {
            p->conv = PQ_CONV_I32_I8;
            return 0;
        }
        break;
    case PM_TYPE_SMALLINT:
        if (phys == PQ_INT32) {
            p->conv = unsigned_int && l.bit_width == 8 ? PQ_CONV_U8_I16 : PQ_CONV_I32_I16;
            return 0;
        }
        break;
    case PM_TYPE_INT:
        if (phys == PQ_INT32) {
            p->conv = unsigned_int && l.bit_width == 16 ? PQ_CONV_U16_I32 : PQ_CONV_NONE;
            return 0;
        }
        break;
    case PM_TYPE_BIGINT:
        if (phys == PQ_INT64)
            return 0;
        if (phys == PQ_INT32) {
            p->conv = unsigned_int ? PQ_CONV_U32_I64 : PQ_CONV_I32_I64;
            return 0;
        }
        break;
    case PM_TYPE_FLOAT:
        if (phys == PQ_FLOAT)
            return 0;
        if (phys == PQ_FIXED_LEN_BYTE_ARRAY && e->type_length == 2 && l.kind == PQ_LT_FLOAT16) {
            p->conv = PQ_CONV_F16_F32;
            return 0;
        }
        break;
    case PM_TYPE_DOUBLE:
        if (phys == PQ_DOUBLE)
            return 0;
        break;
    case PM_TYPE_DECIMAL:
        if (l.kind == PQ_LT_DECIMAL && l.scale != want->scale)
            break;
        if (phys == PQ_INT32)
            p->conv = PQ_CONV_I32_DEC;
        else if (phys == PQ_INT64)
            p->conv = unsigned_int ? PQ_CONV_U64_DEC : PQ_CONV_I64_DEC;
        else if (phys == PQ_BYTE_ARRAY || (phys == PQ_FIXED_LEN_BYTE_ARRAY && e->type_length <= 16))
            p->conv = PQ_CONV_BIN_DEC;
        else
            break;
        return 0;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
        if (phys == PQ_FIXED_LEN_BYTE_ARRAY && l.kind == PQ_LT_UUID && e->type_length == 16) {
            p->conv = PQ_CONV_UUID_STR;
            return 0;
        }
        /* fall through */
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY:
        if (phys == PQ_BYTE_ARRAY || phys == PQ_FIXED_LEN_BYTE_ARRAY)
            return 0;
        break;
    case PM_TYPE_DATE:
        if (phys == PQ_INT32)
            return 0;
        break;
    case PM_TYPE_TIME: {
        int64_t to = pm_time_units_per_second(want->precision);
        if (phys == PQ_INT32) {
            if (to == 1000)
                return 0;
            p->conv = PQ_CONV_I32_SCALE;
            set_scale(p, 1000, to);
            return 0;
        }
        if (phys == PQ_INT64 && l.kind == PQ_LT_TIME) {
            int64_t from = unit_per_second(l.unit);
            if (to == 1000) {
                p->conv = PQ_CONV_I64_I32;
                set_scale(p, from, to);
            } else if (from != to) {
                p->conv = PQ_CONV_I64_SCALE;
                set_scale(p, from, to);
            }
            return 0;
        }
        break;
    }
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int64_t to = pm_timestamp_units_per_second(want->precision);
        if (phys == PQ_INT96) {
            p->conv = PQ_CONV_I96_TS;
            p->mul = to;
            return 0;
        }
        if (phys == PQ_INT64) {
            /* INT64 without an annotation: Paimon's own millis/micros by precision */
            int64_t from = l.kind == PQ_LT_TIMESTAMP ? unit_per_second(l.unit)
                                                     : (want->precision <= 3 ? 1000 : 1000000);
            if (from != to) {
                p->conv = PQ_CONV_I64_SCALE;
                set_scale(p, from, to);
            }
            return 0;
        }
        break;
    }
    default: break;
    }
    return mismatch(c, node, want);
}

static int plan_node(plan_ctx *c, int node, const pm_type *want, int slot_rep, int slot_def,
                     pq_plan *p);

static pq_plan *new_children(plan_ctx *c, int n)
{
    pq_plan *kids = pm_arena_calloc(c->a, (size_t)n + 1, sizeof(pq_plan));
    if (kids == NULL)
        pm_nomem(c->err);
    return kids;
}

static int missing_plan(plan_ctx *c, const pm_field *f, int slot_rep, int slot_def, pq_plan *p)
{
    if (!f->type->nullable)
        return pm_err_set(c->err, PAIMON_ENOTFOUND, "%s: column %s (id %d) is not in the file",
                          c->path, f->name, (int)f->id);
    memset(p, 0, sizeof(*p));
    p->kind = PQ_PLAN_MISSING;
    p->type = f->type;
    p->node = -1;
    p->leaf = -1;
    p->rep_leaf = -1;
    p->slot_rep = slot_rep;
    p->slot_def = slot_def;
    return 0;
}

/* Element plan of a list whose repeated node is `r` and element node `e`. */
static int element_plan(plan_ctx *c, int r, int e, const pm_type *want, pq_plan *p)
{
    const pq_node *rn = &c->s->nodes[r];
    int rc;
    if (e != r)
        return plan_node(c, e, want, rn->rep, rn->def, p);
    /* 2-level: the repeated node is the element and is never null */
    rc = plan_node(c, r, want, rn->rep, rn->def, p);
    if (rc == 0)
        p->present_def = rn->def;
    return rc;
}

static int plan_node(plan_ctx *c, int node, const pm_type *want, int slot_rep, int slot_def,
                     pq_plan *p)
{
    const pq_node *nd = &c->s->nodes[node];
    int rc = 0;

    memset(p, 0, sizeof(*p));
    p->type = want;
    p->node = node;
    p->leaf = -1;
    p->slot_rep = slot_rep;
    p->slot_def = slot_def;
    p->present_def = nd->def;
    p->rep_leaf = first_leaf(c->s, node);

    /* A bare repeated field (no LIST group) read as an ARRAY. */
    if (is_repeated(nd) && want->id == PM_TYPE_ARRAY && !(slot_rep == nd->rep)) {
        const pq_node *parent = &c->s->nodes[nd->parent];
        p->kind = PQ_PLAN_LIST;
        p->present_def = parent->def;
        p->elem_rep = nd->rep;
        p->elem_def = nd->def;
        p->child_count = 1;
        if ((p->children = new_children(c, 1)) == NULL)
            return PAIMON_ENOMEM;
        rc = plan_node(c, node, want->element, nd->rep, nd->def, &p->children[0]);
        if (rc == 0)
            p->children[0].present_def = nd->def;
        return rc;
    }
    switch (want->id) {
    case PM_TYPE_ARRAY: {
        int r, e;
        if (!is_group(nd) || group_kind(nd) != PQ_LT_LIST)
            return mismatch(c, node, want);
        if ((rc = list_parts(c->s, node, &r, &e, c->path, c->err)) != 0)
            return rc;
        p->kind = PQ_PLAN_LIST;
        p->elem_rep = c->s->nodes[r].rep;
        p->elem_def = c->s->nodes[r].def;
        p->child_count = 1;
        if ((p->children = new_children(c, 1)) == NULL)
            return PAIMON_ENOMEM;
        return element_plan(c, r, e, want->element, &p->children[0]);
    }
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        int kv, k, v;
        const pq_node *kvn;
        if (!is_group(nd) || group_kind(nd) != PQ_LT_MAP)
            return mismatch(c, node, want);
        if ((rc = map_parts(c->s, node, &kv, &k, &v, c->path, c->err)) != 0)
            return rc;
        kvn = &c->s->nodes[kv];
        p->kind = PQ_PLAN_MAP;
        p->elem_rep = kvn->rep;
        p->elem_def = kvn->def;
        p->child_count = 2;
        if ((p->children = new_children(c, 2)) == NULL)
            return PAIMON_ENOMEM;
        if ((rc = plan_node(c, k, want->element, kvn->rep, kvn->def, &p->children[0])) != 0)
            return rc;
        return plan_node(c, v, want->id == PM_TYPE_MAP ? want->value : &pm_multiset_count_type,
                         kvn->rep, kvn->def, &p->children[1]);
    }
    case PM_TYPE_ROW:
        if (!is_group(nd) || group_kind(nd) != PQ_LT_NONE)
            return mismatch(c, node, want);
        p->kind = PQ_PLAN_STRUCT;
        p->child_count = (int)want->field_count;
        if ((p->children = new_children(c, p->child_count)) == NULL)
            return PAIMON_ENOMEM;
        for (size_t i = 0; rc == 0 && i < want->field_count; i++) {
            const pm_field *f = &want->fields[i];
            int child = pm_pq_find_field(c->s, node, f);
            rc = child < 0 ? missing_plan(c, f, slot_rep, slot_def, &p->children[i])
                           : plan_node(c, child, f->type, slot_rep, slot_def, &p->children[i]);
        }
        /* A struct whose fields are all missing has no leaf to take its structure from. */
        if (rc == 0) {
            p->rep_leaf = -1;
            for (int i = 0; i < p->child_count && p->rep_leaf < 0; i++)
                if (p->children[i].kind != PQ_PLAN_MISSING)
                    p->rep_leaf = first_leaf(c->s, p->children[i].node);
            if (p->rep_leaf < 0)
                p->rep_leaf = first_leaf(c->s, node);
        }
        return rc;
    default:
        if (is_group(nd))
            return mismatch(c, node, want);
        return leaf_plan(c, node, want, p);
    }
}

int pm_pq_plan_build(const pq_schema *s, const pm_type *want, pm_arena *a, pq_plan **out,
                     const char *path, paimon_error *err)
{
    plan_ctx c = {s, a, path, err};
    pq_plan *plans;
    int rc = 0;

    *out = NULL;
    if (want->id != PM_TYPE_ROW)
        return pm_err_set(err, PAIMON_EINVALID, "%s: the read type must be a ROW", path);
    if ((plans = new_children(&c, (int)want->field_count)) == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; rc == 0 && i < want->field_count; i++) {
        const pm_field *f = &want->fields[i];
        int node = pm_pq_find_field(s, 0, f);
        rc = node < 0 ? missing_plan(&c, f, 0, 0, &plans[i])
                      : plan_node(&c, node, f->type, 0, 0, &plans[i]);
    }
    if (rc != 0)
        return rc;
    *out = plans;
    return 0;
}

int pm_pq_leaf_value_plan(const pq_schema *s, int leaf, pq_plan *p, pm_type **type,
                          const char *path, paimon_error *err)
{
    plan_ctx c = {s, NULL, path, err};
    int node = s->leaves[leaf].node, rc;
    *type = NULL;
    if ((rc = leaf_type(&s->nodes[node], type, path, err)) != 0)
        return rc;
    (*type)->nullable = true;
    memset(p, 0, sizeof(*p));
    p->type = *type;
    p->node = node;
    p->rep_leaf = leaf;
    return leaf_plan(&c, node, *type, p);
}

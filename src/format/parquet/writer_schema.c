/*
 * The Parquet schema of a Paimon row type, as Java Paimon's ParquetSchemaConverter builds it
 * (release-1.4.2, paimon-format .../parquet/ParquetSchemaConverter.java), and the write path
 * of every leaf column.  See writer.h for the mapping.
 */
#include "format/parquet/writer_int.h"

#include <string.h>

#include "data/batch.h"

#define STRUCTURED_BASE  (2147483647 / 4) /* SpecialFields.STRUCTURED_TYPE_FIELD_ID_BASE */
#define STRUCTURED_LIMIT 1024             /* SpecialFields.STRUCTURED_TYPE_FIELD_DEPTH_LIMIT */

typedef struct wctx {
    pm_arena *a;
    pq_schema_elem *elems;
    uint32_t count, cap;
    pq_wleaf *leaves;
    int leaf_count, leaf_cap;
    paimon_error *err;
    /* the path being built */
    pq_wstep steps[PQ_MAX_LEVEL + 1];
    const char *names[PQ_MAX_LEVEL + 1];
    int depth, name_depth, def, rep, top;
} wctx;

/* ParquetSchemaConverter.computeMinBytesForDecimalPrecision: the fewest bytes whose signed
 * range holds 10^precision. */
static int decimal_bytes(int precision)
{
    int n = 1;
    long double limit = 1;
    for (int i = 0; i < precision; i++)
        limit *= 10;
    for (;;) {
        long double range = 1;
        for (int i = 0; i < 8 * n - 1; i++)
            range *= 2;
        if (range >= limit)
            return n;
        n++;
    }
}

static pq_schema_elem *new_elem(wctx *c, const char *name, int repetition)
{
    pq_schema_elem *e;
    if (c->count == c->cap) {
        uint32_t cap = c->cap < 16 ? 16 : c->cap * 2;
        pq_schema_elem *g = pm_arena_calloc(c->a, cap, sizeof(*g));
        if (g == NULL)
            return NULL;
        if (c->count > 0)
            memcpy(g, c->elems, c->count * sizeof(*g));
        c->elems = g;
        c->cap = cap;
    }
    e = &c->elems[c->count++];
    memset(e, 0, sizeof(*e));
    e->name = name;
    e->has_repetition = true;
    e->repetition = repetition;
    e->converted = PQ_CT_NONE;
    return e;
}

static int add_leaf(wctx *c, const pq_schema_elem *e, const pm_type *t)
{
    pq_wleaf *l;
    if (c->leaf_count == c->leaf_cap) {
        int cap = c->leaf_cap < 8 ? 8 : c->leaf_cap * 2;
        pq_wleaf *g = pm_arena_calloc(c->a, (size_t)cap, sizeof(*g));
        if (g == NULL)
            return pm_nomem(c->err);
        if (c->leaf_count > 0)
            memcpy(g, c->leaves, (size_t)c->leaf_count * sizeof(*g));
        c->leaves = g;
        c->leaf_cap = cap;
    }
    l = &c->leaves[c->leaf_count++];
    memset(l, 0, sizeof(*l));
    l->phys = e->type;
    l->type_length = e->type_length;
    l->max_def = c->def;
    l->max_rep = c->rep;
    l->type = t;
    l->top = c->top;
    memcpy(l->steps, c->steps, (size_t)c->depth * sizeof(pq_wstep));
    l->step_count = c->depth;
    l->path = pm_arena_calloc(c->a, (size_t)c->name_depth + 1, sizeof(char *));
    if (l->path == NULL)
        return pm_nomem(c->err);
    memcpy(l->path, c->names, (size_t)c->name_depth * sizeof(char *));
    l->path_len = (uint32_t)c->name_depth;
    l->is_string = pm_type_is_string(t);
    switch (t->id) {
    case PM_TYPE_BOOLEAN:
        l->conv = PQ_W_BOOL;
        l->order = PQ_ORD_BOOL;
        break;
    case PM_TYPE_TINYINT:
        l->conv = PQ_W_I8;
        l->order = PQ_ORD_I32;
        break;
    case PM_TYPE_SMALLINT:
        l->conv = PQ_W_I16;
        l->order = PQ_ORD_I32;
        break;
    case PM_TYPE_INT:
    case PM_TYPE_DATE:
        l->conv = PQ_W_COPY;
        l->order = PQ_ORD_I32;
        break;
    case PM_TYPE_BIGINT:
        l->conv = PQ_W_COPY;
        l->order = PQ_ORD_I64;
        break;
    case PM_TYPE_FLOAT:
        l->conv = PQ_W_COPY;
        l->order = PQ_ORD_FLOAT;
        break;
    case PM_TYPE_DOUBLE:
        l->conv = PQ_W_COPY;
        l->order = PQ_ORD_DOUBLE;
        break;
    case PM_TYPE_TIME:
        l->order = PQ_ORD_I32;
        if (t->precision <= 3) {
            l->conv = PQ_W_COPY;
        } else {
            l->conv = PQ_W_DIV_I32;
            l->factor = pm_time_units_per_second(t->precision) / 1000;
        }
        break;
    case PM_TYPE_DECIMAL:
        if (t->precision <= 9) {
            l->conv = PQ_W_DEC32;
            l->order = PQ_ORD_I32;
        } else if (t->precision <= 18) {
            l->conv = PQ_W_DEC64;
            l->order = PQ_ORD_I64;
        } else {
            l->conv = PQ_W_DECFLBA;
            l->order = PQ_ORD_DECIMAL;
        }
        break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ:
        if (t->precision > 6) {
            l->conv = PQ_W_INT96;
            l->factor = pm_timestamp_units_per_second(t->precision);
            l->order = PQ_ORD_NONE;
        } else {
            l->order = PQ_ORD_I64;
            l->conv = t->precision == 0 ? PQ_W_MUL64 : PQ_W_COPY;
            l->factor = 1000;
        }
        break;
    default: /* CHAR, VARCHAR, BINARY, VARBINARY */
        l->conv = PQ_W_BYTES;
        l->order = PQ_ORD_BYTES;
        break;
    }
    return 0;
}

static int convert(wctx *c, const char *name, const pm_type *t, int32_t id, int32_t base,
                   int depth);

/* Java's int arithmetic for the ids of list elements and map keys/values (it wraps). */
static int32_t structured_id(int32_t base, int depth, int sign)
{
    uint32_t v = (uint32_t)(int32_t)STRUCTURED_BASE;
    uint32_t off = (uint32_t)base * (uint32_t)STRUCTURED_LIMIT + (uint32_t)depth;
    return (int32_t)(sign > 0 ? v + off : v - off);
}

/* Pushes a step and its name, converts the child, pops.  `base` is the field id the ids of
 * list elements and map entries derive from, `depth` their nesting depth. */
static int descend(wctx *c, pq_wstep step, bool named, const char *name, const pm_type *t,
                   int32_t id, int32_t base, int depth)
{
    int rc;
    if (c->depth >= PQ_MAX_LEVEL || c->name_depth >= PQ_MAX_LEVEL)
        return pm_err_set(c->err, PAIMON_EUNSUPPORTED, "parquet: nesting deeper than %d levels",
                          PQ_MAX_LEVEL);
    c->steps[c->depth++] = step;
    if (named)
        c->names[c->name_depth++] = name;
    rc = convert(c, name, t, id, base, depth);
    c->depth--;
    if (named)
        c->name_depth--;
    return rc;
}

static int convert(wctx *c, const char *name, const pm_type *t, int32_t id, int32_t base, int depth)
{
    int rep = t->nullable ? PQ_OPTIONAL : PQ_REQUIRED, rc = 0;
    pq_schema_elem *e;
    int saved_def = c->def, saved_rep = c->rep;

    /* the current step (pushed by the caller) says whether this node is optional */
    c->steps[c->depth - 1].optional = t->nullable;
    if (t->nullable)
        c->def++;
    if ((e = new_elem(c, name, rep)) == NULL)
        return pm_nomem(c->err);
    /* a type read from a file without ids has id -1: write no id then */
    e->has_field_id = id >= 0;
    e->field_id = id;
    switch (t->id) {
    case PM_TYPE_ROW: {
        size_t me = (size_t)(e - c->elems);
        c->elems[me].num_children = (int32_t)t->field_count;
        c->steps[c->depth - 1].kind = PQ_WS_STRUCT;
        for (size_t i = 0; rc == 0 && i < t->field_count; i++) {
            pq_wstep s = {PQ_WS_LEAF, false, 0, 0};
            c->steps[c->depth - 1].child = (int)i;
            /* nested ROW fields restart the depth count (convertToParquetTypes) */
            rc = descend(c, s, true, t->fields[i].name, t->fields[i].type, t->fields[i].id,
                         t->fields[i].id, 0);
        }
        break;
    }
    case PM_TYPE_ARRAY: {
        size_t me = (size_t)(e - c->elems);
        pq_schema_elem *list;
        pq_wstep s = {PQ_WS_LEAF, false, 0, 0};
        c->elems[me].num_children = 1;
        c->elems[me].converted = PQ_CT_LIST;
        c->elems[me].logical.kind = PQ_LT_LIST;
        if ((list = new_elem(c, "list", PQ_REPEATED)) == NULL)
            return pm_nomem(c->err);
        list->num_children = 1;
        c->def++;
        c->rep++;
        c->steps[c->depth - 1].kind = PQ_WS_LIST;
        c->steps[c->depth - 1].rep_level = c->rep;
        c->names[c->name_depth++] = "list";
        rc = descend(c, s, true, "element", t->element, structured_id(base, depth + 1, 1), base,
                     depth + 1);
        c->name_depth--;
        break;
    }
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: {
        size_t me = (size_t)(e - c->elems);
        pq_schema_elem *kv;
        pm_type *key = pm_arena_dup(c->a, t->element, sizeof(pm_type));
        const pm_type *vt = t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type;
        pq_wstep s = {PQ_WS_LEAF, false, 0, 0};
        if (key == NULL)
            return pm_nomem(c->err);
        /* Parquet map keys are required: Java writes a nullable key type as NOT NULL */
        key->nullable = false;
        c->elems[me].num_children = 1;
        c->elems[me].converted = PQ_CT_MAP;
        c->elems[me].logical.kind = PQ_LT_MAP;
        if ((kv = new_elem(c, "key_value", PQ_REPEATED)) == NULL)
            return pm_nomem(c->err);
        kv->num_children = 2;
        kv->converted = PQ_CT_MAP_KEY_VALUE;
        c->def++;
        c->rep++;
        c->steps[c->depth - 1].kind = PQ_WS_MAP;
        c->steps[c->depth - 1].rep_level = c->rep;
        c->names[c->name_depth++] = "key_value";
        c->steps[c->depth - 1].child = 0;
        rc = descend(c, s, true, "key", key, structured_id(base, depth + 1, -1), base, depth + 1);
        if (rc == 0) {
            c->steps[c->depth - 1].child = 1;
            rc = descend(c, s, true, "value", vt, structured_id(base, depth + 1, 1), base,
                         depth + 1);
        }
        c->name_depth--;
        break;
    }
    default: {
        int32_t len = 0;
        e->has_type = true;
        switch (t->id) {
        case PM_TYPE_BOOLEAN: e->type = PQ_BOOLEAN; break;
        case PM_TYPE_FLOAT: e->type = PQ_FLOAT; break;
        case PM_TYPE_DOUBLE: e->type = PQ_DOUBLE; break;
        case PM_TYPE_BIGINT: e->type = PQ_INT64; break;
        case PM_TYPE_INT: e->type = PQ_INT32; break;
        case PM_TYPE_TINYINT:
        case PM_TYPE_SMALLINT:
            e->type = PQ_INT32;
            e->logical.kind = PQ_LT_INTEGER;
            e->logical.bit_width = t->id == PM_TYPE_TINYINT ? 8 : 16;
            e->logical.is_signed = true;
            e->converted = t->id == PM_TYPE_TINYINT ? PQ_CT_INT_8 : PQ_CT_INT_16;
            break;
        case PM_TYPE_CHAR:
        case PM_TYPE_VARCHAR:
            e->type = PQ_BYTE_ARRAY;
            e->logical.kind = PQ_LT_STRING;
            e->converted = PQ_CT_UTF8;
            break;
        case PM_TYPE_BINARY:
        case PM_TYPE_VARBINARY: e->type = PQ_BYTE_ARRAY; break;
        case PM_TYPE_DATE:
            e->type = PQ_INT32;
            e->logical.kind = PQ_LT_DATE;
            e->converted = PQ_CT_DATE;
            break;
        case PM_TYPE_TIME:
            e->type = PQ_INT32;
            e->logical.kind = PQ_LT_TIME;
            e->logical.utc = true;
            e->logical.unit = PQ_UNIT_MILLIS;
            e->converted = PQ_CT_TIME_MILLIS;
            break;
        case PM_TYPE_DECIMAL:
            e->type = t->precision <= 9    ? PQ_INT32
                      : t->precision <= 18 ? PQ_INT64
                                           : PQ_FIXED_LEN_BYTE_ARRAY;
            if (e->type == PQ_FIXED_LEN_BYTE_ARRAY)
                len = decimal_bytes(t->precision);
            e->logical.kind = PQ_LT_DECIMAL;
            e->logical.precision = t->precision;
            e->logical.scale = t->scale;
            e->converted = PQ_CT_DECIMAL;
            e->has_precision = e->has_scale = true;
            e->precision = t->precision;
            e->scale = t->scale;
            break;
        case PM_TYPE_TIMESTAMP:
        case PM_TYPE_TIMESTAMP_LTZ:
            if (t->precision > 6) {
                e->type = PQ_INT96;
                break;
            }
            e->type = PQ_INT64;
            e->logical.kind = PQ_LT_TIMESTAMP;
            e->logical.utc = t->id == PM_TYPE_TIMESTAMP_LTZ;
            e->logical.unit = t->precision <= 3 ? PQ_UNIT_MILLIS : PQ_UNIT_MICROS;
            e->converted = t->precision <= 3 ? PQ_CT_TIMESTAMP_MILLIS : PQ_CT_TIMESTAMP_MICROS;
            break;
        default:
            return pm_err_set(c->err, PAIMON_EUNSUPPORTED,
                              "parquet: column %s has a type Parquet files cannot hold", name);
        }
        e->type_length = len;
        c->steps[c->depth - 1].kind = PQ_WS_LEAF;
        rc = add_leaf(c, e, t);
        break;
    }
    }
    c->def = saved_def;
    c->rep = saved_rep;
    return rc;
}

int pm_pq_wschema_build(const pm_type *row, pm_arena *a, pq_schema_elem **elems, uint32_t *count,
                        pq_wleaf **leaves, int *leaf_count, paimon_error *err)
{
    wctx c;
    pq_schema_elem *root;
    int rc = 0;

    memset(&c, 0, sizeof(c));
    c.a = a;
    c.err = err;
    if (row->id != PM_TYPE_ROW)
        return pm_err_set(err, PAIMON_EINVALID, "parquet: the row type must be a ROW");
    if ((root = new_elem(&c, "paimon_schema", PQ_REQUIRED)) == NULL)
        return pm_nomem(err);
    root->has_repetition = false;
    root->num_children = (int32_t)row->field_count;
    for (size_t i = 0; rc == 0 && i < row->field_count; i++) {
        pq_wstep s = {PQ_WS_LEAF, false, 0, 0};
        c.top = (int)i;
        rc = descend(&c, s, true, row->fields[i].name, row->fields[i].type, row->fields[i].id,
                     row->fields[i].id, 0);
    }
    if (rc != 0)
        return rc;
    *elems = c.elems;
    *count = c.count;
    *leaves = c.leaves;
    *leaf_count = c.leaf_count;
    return 0;
}

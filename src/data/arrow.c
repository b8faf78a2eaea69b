/* Arrow C Data Interface export and import of batches: see arrow.h. */
#include "data/arrow.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"
#include "util/assert.h"
#include "util/error.h"

/* Buffers of zero bytes still need a valid address for some consumers. */
static const uint64_t empty_buffer[2] = {0, 0};

int pm_arrow_format(const pm_type *t, char *buf, size_t cap)
{
    const char *f = NULL;
    static const char *const ts_units[] = {"tss:", "tsm:", "tsu:", "tsn:"};
    switch (t->id) {
    case PM_TYPE_BOOLEAN: f = "b"; break;
    case PM_TYPE_TINYINT: f = "c"; break;
    case PM_TYPE_SMALLINT: f = "s"; break;
    case PM_TYPE_INT: f = "i"; break;
    case PM_TYPE_BIGINT: f = "l"; break;
    case PM_TYPE_FLOAT: f = "f"; break;
    case PM_TYPE_DOUBLE: f = "g"; break;
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR: f = "u"; break;
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: f = "z"; break;
    case PM_TYPE_DATE: f = "tdD"; break;
    case PM_TYPE_TIME: f = t->precision <= 3 ? "ttm" : t->precision <= 6 ? "ttu" : "ttn"; break;
    case PM_TYPE_ARRAY: f = "+l"; break;
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: f = "+m"; break;
    case PM_TYPE_ROW: f = "+s"; break;
    case PM_TYPE_DECIMAL: snprintf(buf, cap, "d:%d,%d", (int)t->precision, (int)t->scale); return 0;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: {
        int64_t per = pm_timestamp_units_per_second(t->precision);
        int u = per == 1 ? 0 : per == 1000 ? 1 : per == 1000000 ? 2 : 3;
        snprintf(buf, cap, "%s%s", ts_units[u], t->id == PM_TYPE_TIMESTAMP_LTZ ? "UTC" : "");
        return 0;
    }
    default: return PAIMON_EUNSUPPORTED;
    }
    snprintf(buf, cap, "%s", f);
    return 0;
}

/* ---- schema export --------------------------------------------------------------------- */

typedef struct schema_node {
    char *format;
    char *name;
    struct ArrowSchema *kids; /* owned structs */
    struct ArrowSchema **kid_ptrs;
} schema_node;

static void release_schema(struct ArrowSchema *s)
{
    schema_node *n = s->private_data;
    for (int64_t i = 0; i < s->n_children; i++)
        if (s->children[i]->release != NULL)
            s->children[i]->release(s->children[i]);
    pm_free(n->format);
    pm_free(n->name);
    pm_free(n->kids);
    pm_free(n->kid_ptrs);
    pm_free(n);
    s->release = NULL;
}

/* Fills `out` for a field `name` of type `t` (format given when t is NULL: map entries). */
static int schema_node_new(struct ArrowSchema *out, const char *format, const char *name,
                           bool nullable, int64_t kids)
{
    schema_node *n = pm_calloc(1, sizeof(*n));
    memset(out, 0, sizeof(*out));
    if (n == NULL)
        return PAIMON_ENOMEM;
    n->format = pm_strdup(format);
    n->name = pm_strdup(name);
    if (kids > 0) {
        n->kids = pm_calloc((size_t)kids, sizeof(struct ArrowSchema));
        n->kid_ptrs = pm_calloc((size_t)kids, sizeof(struct ArrowSchema *));
    }
    if (n->format == NULL || n->name == NULL || (kids > 0 && (!n->kids || !n->kid_ptrs))) {
        pm_free(n->format);
        pm_free(n->name);
        pm_free(n->kids);
        pm_free(n->kid_ptrs);
        pm_free(n);
        return PAIMON_ENOMEM;
    }
    for (int64_t i = 0; i < kids; i++)
        n->kid_ptrs[i] = &n->kids[i];
    out->format = n->format;
    out->name = n->name;
    out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
    out->n_children = 0; /* grows as children are filled, so release sees only those */
    out->children = kids > 0 ? n->kid_ptrs : NULL;
    out->release = release_schema;
    out->private_data = n;
    return 0;
}

static int export_type(const pm_type *t, const char *name, bool nullable, struct ArrowSchema *out)
{
    char fmt[32];
    int rc = pm_arrow_format(t, fmt, sizeof(fmt));
    int64_t kids = 0;
    if (rc != 0)
        return rc;
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: kids = 1; break;
    case PM_TYPE_ROW: kids = (int64_t)t->field_count; break;
    default: break;
    }
    if ((rc = schema_node_new(out, fmt, name, nullable, kids)) != 0)
        return rc;
    if (t->id == PM_TYPE_ARRAY) {
        rc = export_type(t->element, "element", t->element->nullable, out->children[0]);
        out->n_children = rc == 0 ? 1 : 0;
    } else if (t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET) {
        struct ArrowSchema *e = out->children[0];
        const pm_type *vt = t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type;
        rc = schema_node_new(e, "+s", "entries", false, 2);
        if (rc == 0) {
            out->n_children = 1;
            rc = export_type(t->element, "key", false, e->children[0]);
            if (rc == 0) {
                e->n_children = 1;
                rc = export_type(vt, "value", vt->nullable, e->children[1]);
                if (rc == 0)
                    e->n_children = 2;
            }
        }
    } else if (t->id == PM_TYPE_ROW) {
        for (size_t i = 0; rc == 0 && i < t->field_count; i++) {
            const pm_field *f = &t->fields[i];
            rc = export_type(f->type, f->name, f->type->nullable, out->children[i]);
            if (rc == 0)
                out->n_children = (int64_t)i + 1;
        }
    }
    if (rc != 0)
        out->release(out);
    return rc;
}

int pm_arrow_export_schema(const pm_type *row, struct ArrowSchema *out, paimon_error *err)
{
    int rc;
    memset(out, 0, sizeof(*out));
    if (row->id != PM_TYPE_ROW)
        return pm_err_set(err, PAIMON_EINVALID, "arrow: a batch schema must be a ROW type");
    rc = export_type(row, "", false, out);
    if (rc == PAIMON_ENOMEM)
        return pm_nomem(err);
    if (rc != 0)
        return pm_err_set(err, rc, "arrow: a column type has no Arrow form");
    return 0;
}

/* ---- array export ---------------------------------------------------------------------- */

typedef struct array_node {
    pm_column *col; /* owned, children detached; NULL for the root and map entries */
    const void *buffers[3];
    struct ArrowArray *kids; /* owned structs */
    struct ArrowArray **kid_ptrs;
} array_node;

static void release_array(struct ArrowArray *a)
{
    array_node *n = a->private_data;
    for (int64_t i = 0; i < a->n_children; i++)
        if (a->children[i]->release != NULL)
            a->children[i]->release(a->children[i]);
    pm_column_free(n->col);
    pm_free(n->kids);
    pm_free(n->kid_ptrs);
    pm_free(n);
    a->release = NULL;
}

static array_node *array_node_new(struct ArrowArray *out, int64_t kids)
{
    array_node *n = pm_calloc(1, sizeof(*n));
    memset(out, 0, sizeof(*out));
    if (n == NULL)
        return NULL;
    if (kids > 0) {
        n->kids = pm_calloc((size_t)kids, sizeof(struct ArrowArray));
        n->kid_ptrs = pm_calloc((size_t)kids, sizeof(struct ArrowArray *));
        if (n->kids == NULL || n->kid_ptrs == NULL) {
            pm_free(n->kids);
            pm_free(n->kid_ptrs);
            pm_free(n);
            return NULL;
        }
        for (int64_t i = 0; i < kids; i++)
            n->kid_ptrs[i] = &n->kids[i];
    }
    out->buffers = n->buffers;
    out->children = kids > 0 ? n->kid_ptrs : NULL;
    out->n_children = 0; /* counts the children filled so far */
    out->release = release_array;
    out->private_data = n;
    return n;
}

static const void *buf_ptr(const pm_buf *b)
{
    return b->len > 0 && b->data != NULL ? (const void *)b->data : (const void *)empty_buffer;
}

/* Moves column `c` (taking ownership, also on failure) into `out`. */
static int export_column(pm_column *c, struct ArrowArray *out)
{
    pm_column **kids = c->children;
    size_t kid_count = c->child_count;
    int64_t n_kids = c->layout == PM_LAYOUT_MAP ? 1 : (int64_t)kid_count;
    array_node *n;
    size_t moved = 0;
    int rc = 0;

    c->children = NULL;
    c->child_count = 0;
    n = array_node_new(out, n_kids);
    if (n == NULL) {
        rc = PAIMON_ENOMEM;
        goto done;
    }
    n->col = c;
    c = NULL;
    out->length = n->col->length;
    out->null_count = n->col->null_count;
    n->buffers[0] = n->col->validity.len > 0 ? n->col->validity.data : NULL;
    switch (n->col->layout) {
    case PM_LAYOUT_BITS:
    case PM_LAYOUT_FIXED:
        out->n_buffers = 2;
        n->buffers[1] = buf_ptr(&n->col->values);
        break;
    case PM_LAYOUT_VAR:
        out->n_buffers = 3;
        n->buffers[1] = buf_ptr(&n->col->offsets);
        n->buffers[2] = buf_ptr(&n->col->values);
        break;
    case PM_LAYOUT_LIST:
    case PM_LAYOUT_MAP:
        out->n_buffers = 2;
        n->buffers[1] = buf_ptr(&n->col->offsets);
        break;
    default: out->n_buffers = 1; break;
    }
    if (n->col->layout == PM_LAYOUT_MAP) {
        struct ArrowArray *e = out->children[0];
        array_node *en = array_node_new(e, 2);
        if (en == NULL) {
            rc = PAIMON_ENOMEM;
            goto done;
        }
        out->n_children = 1;
        e->length = kids[0]->length;
        e->n_buffers = 1;
        for (; moved < 2; moved++) {
            pm_column *k = kids[moved];
            kids[moved] = NULL;
            if ((rc = export_column(k, e->children[moved])) != 0)
                goto done;
            e->n_children = (int64_t)moved + 1;
        }
    } else {
        for (; moved < kid_count; moved++) {
            pm_column *k = kids[moved];
            kids[moved] = NULL;
            if ((rc = export_column(k, out->children[moved])) != 0)
                goto done;
            out->n_children = (int64_t)moved + 1;
        }
    }
    pm_free(kids);
    return 0;
done:
    for (size_t i = moved; i < kid_count; i++)
        pm_column_free(kids[i]);
    pm_free(kids);
    pm_column_free(c);
    if (out->release != NULL)
        out->release(out);
    return rc;
}

int pm_arrow_export_batch(pm_batch *b, struct ArrowArray *out, paimon_error *err)
{
    array_node *n;
    int rc = 0;
    size_t i = 0;

    PM_ASSERT(pm_batch_is_aligned(b)); /* every batch leaving the library is whole */
    n = array_node_new(out, (int64_t)b->column_count);
    if (n == NULL) {
        pm_batch_free(b);
        return pm_nomem(err);
    }
    out->length = b->row_count;
    out->n_buffers = 1;
    for (; i < b->column_count; i++) {
        pm_column *c = b->columns[i];
        b->columns[i] = NULL;
        if ((rc = export_column(c, out->children[i])) != 0)
            break;
        out->n_children = (int64_t)i + 1;
    }
    pm_batch_free(b);
    if (rc != 0) {
        out->release(out);
        return pm_nomem(err);
    }
    return 0;
}

/* ---- import ---------------------------------------------------------------------------- */

static bool bit_at(const void *bits, int64_t i)
{
    return bits == NULL || (((const uint8_t *)bits)[i >> 3] >> (i & 7)) & 1;
}

PM_MUST_CHECK static int check_format(const pm_type *t, const struct ArrowSchema *s,
                                      const char *name, paimon_error *err)
{
    char fmt[32];
    int64_t want = 0;
    if (pm_arrow_format(t, fmt, sizeof(fmt)) != 0)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: no Arrow form", name);
    if (t->id == PM_TYPE_TIMESTAMP_LTZ) {
        /* any time zone names the same instant */
        if (strncmp(s->format, fmt, 4) != 0 || strlen(s->format) <= 4)
            return pm_err_set(err, PAIMON_EINVALID, "%s: Arrow format '%s', expected '%s'", name,
                              s->format, fmt);
    } else if (strcmp(s->format, fmt) != 0) {
        return pm_err_set(err, PAIMON_EINVALID, "%s: Arrow format '%s', expected '%s'", name,
                          s->format, fmt);
    }
    switch (t->id) {
    case PM_TYPE_ARRAY:
    case PM_TYPE_MAP:
    case PM_TYPE_MULTISET: want = 1; break;
    case PM_TYPE_ROW: want = (int64_t)t->field_count; break;
    default: break;
    }
    if (s->n_children != want)
        return pm_err_set(err, PAIMON_EINVALID, "%s: %lld Arrow children, expected %lld", name,
                          (long long)s->n_children, (long long)want);
    if (t->id == PM_TYPE_ARRAY)
        return check_format(t->element, s->children[0], name, err);
    if (t->id == PM_TYPE_MAP || t->id == PM_TYPE_MULTISET) {
        const struct ArrowSchema *e = s->children[0];
        int rc;
        if (strcmp(e->format, "+s") != 0 || e->n_children != 2)
            return pm_err_set(err, PAIMON_EINVALID, "%s: map entries are not a 2-field struct",
                              name);
        if ((rc = check_format(t->element, e->children[0], name, err)) != 0)
            return rc;
        return check_format(t->id == PM_TYPE_MAP ? t->value : &pm_multiset_count_type,
                            e->children[1], name, err);
    }
    if (t->id == PM_TYPE_ROW) {
        for (size_t i = 0; i < t->field_count; i++) {
            int rc = check_format(t->fields[i].type, s->children[i], t->fields[i].name, err);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

/* Appends slot `i` (relative to the array's own offset) of `a` to `dst`. */
static int import_slot(pm_column *dst, const struct ArrowArray *a, int64_t i)
{
    int64_t j = a->offset + i;
    int rc = 0;
    if (a->null_count != 0 && a->n_buffers > 0 && !bit_at(a->buffers[0], j))
        return pm_column_append_null(dst);
    switch (dst->layout) {
    case PM_LAYOUT_BITS: {
        pm_datum d = {.is_null = false};
        d.v.b = bit_at(a->buffers[1], j);
        return pm_column_append_datum(dst, &d);
    }
    case PM_LAYOUT_FIXED:
        return pm_column_append_raw(dst, (const uint8_t *)a->buffers[1] + j * dst->width);
    case PM_LAYOUT_VAR: {
        const int32_t *off = a->buffers[1];
        return pm_column_append_bytes(dst, (const uint8_t *)a->buffers[2] + off[j],
                                      (size_t)(off[j + 1] - off[j]));
    }
    case PM_LAYOUT_LIST: {
        const int32_t *off = a->buffers[1];
        for (int32_t k = off[j]; rc == 0 && k < off[j + 1]; k++)
            rc = import_slot(dst->children[0], a->children[0], k);
        return rc != 0 ? rc : pm_column_list_end(dst, true);
    }
    case PM_LAYOUT_MAP: {
        const int32_t *off = a->buffers[1];
        const struct ArrowArray *e = a->children[0];
        for (int32_t k = off[j]; rc == 0 && k < off[j + 1]; k++) {
            rc = import_slot(dst->children[0], e->children[0], e->offset + k);
            if (rc == 0)
                rc = import_slot(dst->children[1], e->children[1], e->offset + k);
        }
        return rc != 0 ? rc : pm_column_list_end(dst, true);
    }
    case PM_LAYOUT_STRUCT:
        for (size_t k = 0; rc == 0 && k < dst->child_count; k++)
            rc = import_slot(dst->children[k], a->children[k], j);
        return rc != 0 ? rc : pm_column_struct_end(dst, true);
    default: return PAIMON_EINVALID;
    }
}

int pm_arrow_import_batch(const pm_type *row, const struct ArrowSchema *schema,
                          const struct ArrowArray *array, pm_batch **out, paimon_error *err)
{
    pm_batch *b = NULL;
    int rc;

    *out = NULL;
    if ((rc = check_format(row, schema, "arrow", err)) != 0)
        return rc;
    if (array->n_children != (int64_t)row->field_count)
        return pm_err_set(err, PAIMON_EINVALID, "arrow: %lld children, expected %zu",
                          (long long)array->n_children, row->field_count);
    if ((rc = pm_batch_new(&b, row, err)) != 0)
        return rc;
    for (size_t c = 0; c < b->column_count; c++) {
        for (int64_t i = 0; i < array->length; i++) {
            if ((rc = import_slot(b->columns[c], array->children[c], array->offset + i)) != 0) {
                pm_batch_free(b);
                return pm_buf_error(err, rc);
            }
        }
    }
    b->row_count = array->length;
    *out = b;
    return 0;
}

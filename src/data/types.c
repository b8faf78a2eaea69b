/* The Paimon type tree: construction, copying, comparison.  See types.h. */
#include "data/types.h"

#include <string.h>

#include "util/alloc.h"
#include "util/error.h"

pm_type *pm_type_new(pm_type_id id)
{
    pm_type *t = pm_calloc(1, sizeof(*t));
    if (t == NULL)
        return NULL;
    t->id = id;
    t->nullable = true;
    switch (id) {
    case PM_TYPE_CHAR:
    case PM_TYPE_VARCHAR:
    case PM_TYPE_BINARY:
    case PM_TYPE_VARBINARY: t->length = 1; break;
    case PM_TYPE_DECIMAL:
        t->precision = 10;
        t->scale = 0;
        break;
    case PM_TYPE_TIME: t->precision = 0; break;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: t->precision = 6; break;
    default: break;
    }
    return t;
}

static void field_clear(pm_field *f)
{
    pm_free(f->name);
    pm_type_free(f->type);
    pm_free(f->description);
    pm_free(f->default_value);
}

void pm_type_free(pm_type *t)
{
    if (t == NULL)
        return;
    pm_type_free(t->element);
    pm_type_free(t->value);
    for (size_t i = 0; i < t->field_count; i++)
        field_clear(&t->fields[i]);
    pm_free(t->fields);
    pm_free(t);
}

static char *dup_or_null(const char *s, bool *failed)
{
    char *copy;
    if (s == NULL)
        return NULL;
    copy = pm_strdup(s);
    if (copy == NULL)
        *failed = true;
    return copy;
}

pm_type *pm_type_clone(const pm_type *t)
{
    pm_type *c;
    bool failed = false;
    if (t == NULL)
        return NULL;
    c = pm_calloc(1, sizeof(*c));
    if (c == NULL)
        return NULL;
    *c = *t;
    c->element = NULL;
    c->value = NULL;
    c->fields = NULL;
    c->field_count = 0;
    if (t->element != NULL && (c->element = pm_type_clone(t->element)) == NULL)
        failed = true;
    if (t->value != NULL && (c->value = pm_type_clone(t->value)) == NULL)
        failed = true;
    if (!failed && t->field_count > 0) {
        c->fields = pm_calloc(t->field_count, sizeof(pm_field));
        if (c->fields == NULL)
            failed = true;
        for (size_t i = 0; !failed && i < t->field_count; i++) {
            const pm_field *src = &t->fields[i];
            pm_field *dst = &c->fields[i];
            c->field_count = i + 1;
            dst->id = src->id;
            dst->name = dup_or_null(src->name, &failed);
            dst->description = dup_or_null(src->description, &failed);
            dst->default_value = dup_or_null(src->default_value, &failed);
            if ((dst->type = pm_type_clone(src->type)) == NULL)
                failed = true;
        }
    }
    if (failed) {
        pm_type_free(c);
        return NULL;
    }
    return c;
}

int pm_type_row_add(pm_type *row, int32_t id, const char *name, pm_type *type)
{
    pm_field *grown, *f;
    if (type == NULL)
        return PAIMON_ENOMEM;
    grown = pm_realloc(row->fields, (row->field_count + 1) * sizeof(pm_field));
    if (grown == NULL) {
        pm_type_free(type);
        return PAIMON_ENOMEM;
    }
    row->fields = grown;
    f = &row->fields[row->field_count];
    memset(f, 0, sizeof(*f));
    f->name = pm_strdup(name);
    if (f->name == NULL) {
        pm_type_free(type);
        return PAIMON_ENOMEM;
    }
    f->id = id;
    f->type = type;
    row->field_count++;
    return 0;
}

static bool str_eq(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    return strcmp(a, b) == 0;
}

static bool equals(const pm_type *a, const pm_type *b, bool check_nullable)
{
    if (a == NULL || b == NULL)
        return a == b;
    if (a->id != b->id || (check_nullable && a->nullable != b->nullable))
        return false;
    if (a->length != b->length || a->precision != b->precision || a->scale != b->scale)
        return false;
    if (!equals(a->element, b->element, true) || !equals(a->value, b->value, true))
        return false;
    if (a->field_count != b->field_count)
        return false;
    for (size_t i = 0; i < a->field_count; i++) {
        const pm_field *fa = &a->fields[i], *fb = &b->fields[i];
        if (fa->id != fb->id || !str_eq(fa->name, fb->name) ||
            !str_eq(fa->description, fb->description) ||
            !str_eq(fa->default_value, fb->default_value) || !equals(fa->type, fb->type, true))
            return false;
    }
    return true;
}

bool pm_type_equals(const pm_type *a, const pm_type *b)
{
    return equals(a, b, true);
}

bool pm_type_equals_ignore_nullable(const pm_type *a, const pm_type *b)
{
    return equals(a, b, false);
}

bool pm_type_is_compact(const pm_type *t)
{
    switch (t->id) {
    case PM_TYPE_DECIMAL: return t->precision <= PM_DECIMAL_MAX_COMPACT_PRECISION;
    case PM_TYPE_TIMESTAMP:
    case PM_TYPE_TIMESTAMP_LTZ: return t->precision <= PM_TIMESTAMP_MAX_COMPACT_PRECISION;
    default: return true;
    }
}

const pm_field *pm_type_field_by_name(const pm_type *row, const char *name, size_t *idx)
{
    for (size_t i = 0; i < row->field_count; i++) {
        if (strcmp(row->fields[i].name, name) == 0) {
            if (idx != NULL)
                *idx = i;
            return &row->fields[i];
        }
    }
    return NULL;
}

const pm_field *pm_type_field_by_id(const pm_type *row, int32_t id, size_t *idx)
{
    for (size_t i = 0; i < row->field_count; i++) {
        if (row->fields[i].id == id) {
            if (idx != NULL)
                *idx = i;
            return &row->fields[i];
        }
    }
    return NULL;
}

/* The nesting of `t`, looking at most `limit` levels below it. */
static int nesting(const pm_type *t, int limit)
{
    int best = 0, sub;
    if (t == NULL || !pm_type_is_nested(t))
        return 0;
    if (limit == 0)
        return 1;
    best = nesting(t->element, limit - 1);
    sub = nesting(t->value, limit - 1);
    if (sub > best)
        best = sub;
    for (size_t i = 0; i < t->field_count; i++) {
        sub = nesting(t->fields[i].type, limit - 1);
        if (sub > best)
            best = sub;
    }
    return best + 1;
}

int pm_type_nesting(const pm_type *t)
{
    return nesting(t, PM_MAX_NESTING + 1);
}

int32_t pm_type_highest_field_id(const pm_type *t)
{
    int32_t best = -1, sub;
    if (t == NULL)
        return -1;
    for (size_t i = 0; i < t->field_count; i++) {
        if (t->fields[i].id > best)
            best = t->fields[i].id;
        sub = pm_type_highest_field_id(t->fields[i].type);
        if (sub > best)
            best = sub;
    }
    sub = pm_type_highest_field_id(t->element);
    if (sub > best)
        best = sub;
    sub = pm_type_highest_field_id(t->value);
    return sub > best ? sub : best;
}

typedef struct id_set {
    int32_t *ids;
    size_t count, cap;
} id_set;

PM_MUST_CHECK static int collect_ids(const pm_type *t, id_set *s, paimon_error *err)
{
    int rc;
    if (t == NULL)
        return 0;
    for (size_t i = 0; i < t->field_count; i++) {
        const pm_field *f = &t->fields[i];
        for (size_t j = 0; j < s->count; j++)
            if (s->ids[j] == f->id)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "broken schema: field id %d is duplicated (field %s)", f->id,
                                  f->name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(t->fields[j].name, f->name) == 0)
                return pm_err_set(err, PAIMON_EINVALID, "duplicate field name %s", f->name);
        if (s->count == s->cap) {
            size_t cap = s->cap == 0 ? 32 : s->cap * 2;
            int32_t *grown = pm_realloc(s->ids, cap * sizeof(int32_t));
            if (grown == NULL)
                return pm_nomem(err);
            s->ids = grown;
            s->cap = cap;
        }
        s->ids[s->count++] = f->id;
        if ((rc = collect_ids(f->type, s, err)) != 0)
            return rc;
    }
    if ((rc = collect_ids(t->element, s, err)) != 0)
        return rc;
    return collect_ids(t->value, s, err);
}

int pm_type_check_ids(const pm_type *row, paimon_error *err)
{
    id_set s = {0};
    int rc = collect_ids(row, &s, err);
    pm_free(s.ids);
    return rc;
}

/* Merge engines: see merge_function.h and behaviour.md §2. */
#include "lsm/merge_function.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "data/datum_compare.h"
#include "util/alloc.h"
#include "util/error.h"

typedef enum engine_kind { ENGINE_DEDUP, ENGINE_FIRST_ROW, ENGINE_PARTIAL, ENGINE_AGG } engine_kind;

typedef enum agg_kind {
    AGG_PRIMARY_KEY, /* keeps the input: equal in every record */
    AGG_LAST_VALUE,
    AGG_LAST_NON_NULL,
    AGG_FIRST_VALUE,
    AGG_FIRST_NON_NULL,
    AGG_SUM,
    AGG_PRODUCT,
    AGG_MAX,
    AGG_MIN,
    AGG_BOOL_AND,
    AGG_BOOL_OR,
    AGG_LISTAGG
} agg_kind;

typedef struct field_agg {
    agg_kind kind;
    bool ignore_retract;
    char *delimiter; /* listagg */
    pm_buf text;     /* listagg result */
} field_agg;

/* One accumulated value: a reference to a record's slot, or a computed datum. */
typedef struct slot {
    bool computed;
    pm_datum d;           /* computed value (or null) */
    const pm_column *col; /* referenced value: column and row */
    int64_t row;
    bool seen; /* first_value / first_non_null_value: decided */
} slot;

struct pm_merge_fn {
    engine_kind engine;
    bool ignore_delete;
    bool remove_on_delete; /* partial-update / aggregation .remove-record-on-delete */
    bool lookup;
    const pm_type *value_type;
    size_t count; /* value columns */
    field_agg *aggs;
    slot *slots;
};

static const struct {
    const char *name;
    agg_kind kind;
} AGG_NAMES[] = {{"last_value", AGG_LAST_VALUE},
                 {"last_non_null_value", AGG_LAST_NON_NULL},
                 {"first_value", AGG_FIRST_VALUE},
                 {"first_non_null_value", AGG_FIRST_NON_NULL},
                 {"first_not_null_value", AGG_FIRST_NON_NULL},
                 {"sum", AGG_SUM},
                 {"product", AGG_PRODUCT},
                 {"max", AGG_MAX},
                 {"min", AGG_MIN},
                 {"bool_and", AGG_BOOL_AND},
                 {"bool_or", AGG_BOOL_OR},
                 {"listagg", AGG_LISTAGG}};

static int field_option(const pm_schema *s, const char *field, const char *suffix, const char **out)
{
    char key[512];
    snprintf(key, sizeof(key), "fields.%s.%s", field, suffix);
    *out = pm_schema_option(s, key);
    return 0;
}

static int setup_aggs(pm_merge_fn *f, const pm_schema *s, paimon_error *err)
{
    const char *dflt = pm_schema_option(s, "fields.default-aggregate-function");
    const char *seq = pm_schema_option(s, "sequence.field");
    for (size_t i = 0; i < f->count; i++) {
        const pm_field *fd = &f->value_type->fields[i];
        field_agg *a = &f->aggs[i];
        const char *fn = NULL, *v = NULL;
        pm_buf_init(&a->text, 0);
        if (pm_strlist_find(&s->primary_keys, fd->name) >= 0) {
            a->kind = AGG_PRIMARY_KEY;
            continue;
        }
        if (seq != NULL) {
            /* sequence fields always keep the last value */
            char *copy = pm_strdup(seq), *save = NULL;
            bool is_seq = false;
            if (copy == NULL)
                return pm_nomem(err);
            for (char *tok = strtok_r(copy, ",", &save); tok != NULL;
                 tok = strtok_r(NULL, ",", &save))
                is_seq |= strcmp(tok, fd->name) == 0;
            pm_free(copy);
            if (is_seq) {
                a->kind = AGG_LAST_VALUE;
                continue;
            }
        }
        field_option(s, fd->name, "aggregate-function", &fn);
        if (fn == NULL)
            fn = dflt;
        if (fn == NULL)
            fn = "last_non_null_value";
        a->kind = (agg_kind)-1;
        for (size_t k = 0; k < sizeof(AGG_NAMES) / sizeof(AGG_NAMES[0]); k++)
            if (strcasecmp(fn, AGG_NAMES[k].name) == 0)
                a->kind = AGG_NAMES[k].kind;
        if ((int)a->kind == -1)
            return pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "aggregate function '%s' (field %s) is not supported yet", fn,
                              fd->name);
        field_option(s, fd->name, "ignore-retract", &v);
        a->ignore_retract = v != NULL && strcasecmp(v, "true") == 0;
        if (a->kind == AGG_LISTAGG) {
            field_option(s, fd->name, "list-agg-delimiter", &v);
            a->delimiter = pm_strdup(v != NULL ? v : ",");
            if (a->delimiter == NULL)
                return pm_nomem(err);
        }
    }
    return 0;
}

int pm_merge_fn_new(pm_merge_fn **out, const pm_schema *s, const pm_type *value_type,
                    paimon_error *err)
{
    pm_merge_fn *f = pm_calloc(1, sizeof(*f));
    const char *engine = pm_schema_option(s, "merge-engine");
    const char *producer = pm_schema_option(s, "changelog-producer");
    bool dv = false, force = false;
    int rc = 0;

    *out = NULL;
    if (f == NULL)
        return pm_nomem(err);
    f->value_type = value_type;
    f->count = value_type->field_count;
    f->aggs = pm_calloc(f->count + 1, sizeof(field_agg));
    f->slots = pm_calloc(f->count + 1, sizeof(slot));
    if (f->aggs == NULL || f->slots == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (engine == NULL || strcasecmp(engine, "deduplicate") == 0)
        f->engine = ENGINE_DEDUP;
    else if (strcasecmp(engine, "first-row") == 0)
        f->engine = ENGINE_FIRST_ROW;
    else if (strcasecmp(engine, "partial-update") == 0)
        f->engine = ENGINE_PARTIAL;
    else if (strcasecmp(engine, "aggregation") == 0)
        f->engine = ENGINE_AGG;
    else {
        rc = pm_err_set(err, PAIMON_EUNSUPPORTED, "merge-engine '%s' is not supported", engine);
        goto done;
    }
    if ((rc = pm_options_get_bool(&s->options, "ignore-delete", false, &f->ignore_delete, err)) ||
        (rc = pm_options_get_bool(&s->options, "deletion-vectors.enabled", false, &dv, err)) ||
        (rc = pm_options_get_bool(&s->options, "force-lookup", false, &force, err)))
        goto done;
    if (f->engine == ENGINE_PARTIAL) {
        for (size_t i = 0; i < s->options.count; i++) {
            const char *k = s->options.keys[i];
            size_t kl = strlen(k);
            if (strncmp(k, "fields.", 7) == 0 &&
                ((kl > 15 && strcmp(k + kl - 15, ".sequence-group") == 0) ||
                 (kl > 19 && strcmp(k + kl - 19, ".aggregate-function") == 0) ||
                 strcmp(k, "fields.default-aggregate-function") == 0)) {
                rc = pm_err_set(err, PAIMON_EUNSUPPORTED,
                                "partial-update with sequence groups or aggregate functions (%s) "
                                "is not supported yet",
                                k);
                goto done;
            }
        }
        rc = pm_options_get_bool(&s->options, "partial-update.remove-record-on-delete", false,
                                 &f->remove_on_delete, err);
    } else if (f->engine == ENGINE_AGG) {
        if ((rc = pm_options_get_bool(&s->options, "aggregation.remove-record-on-delete", false,
                                      &f->remove_on_delete, err)) == 0)
            rc = setup_aggs(f, s, err);
    }
    f->lookup = f->engine != ENGINE_FIRST_ROW &&
                ((producer != NULL && strcasecmp(producer, "lookup") == 0) || dv || force);
done:
    if (rc != 0) {
        pm_merge_fn_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

void pm_merge_fn_free(pm_merge_fn *f)
{
    if (f == NULL)
        return;
    for (size_t i = 0; f->aggs != NULL && i < f->count; i++) {
        pm_free(f->aggs[i].delimiter);
        pm_buf_free(&f->aggs[i].text);
    }
    pm_free(f->aggs);
    pm_free(f->slots);
    pm_free(f);
}

bool pm_merge_fn_lookup(const pm_merge_fn *f)
{
    return f->lookup;
}

/* ---- output ------------------------------------------------------------------------------ */

static int append_record(pm_batch *out, const pm_record *r, size_t count, paimon_error *err)
{
    for (size_t i = 0; i < count; i++) {
        int rc = pm_column_append_from(out->columns[i], r->batch->columns[i], r->row);
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    return 0;
}

static int append_slots(pm_merge_fn *f, pm_batch *out, paimon_error *err)
{
    for (size_t i = 0; i < f->count; i++) {
        const slot *s = &f->slots[i];
        int rc;
        if (s->computed) {
            if (!s->d.is_null && pm_type_is_nested(f->value_type->fields[i].type))
                return pm_err_set(err, PAIMON_EINVALID, "computed nested value");
            rc = pm_column_append_datum(out->columns[i], &s->d);
        } else if (s->col == NULL) {
            rc = pm_column_append_null(out->columns[i]);
        } else {
            rc = pm_column_append_from(out->columns[i], s->col, s->row);
        }
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    return 0;
}

static void slot_ref(slot *s, const pm_record *r, size_t i)
{
    s->computed = false;
    s->col = r->batch->columns[i];
    s->row = r->row;
}

static bool slot_is_null(const slot *s)
{
    if (s->computed)
        return s->d.is_null;
    return s->col == NULL || !pm_column_is_valid(s->col, s->row);
}

static void slot_value(const slot *s, pm_datum *d)
{
    if (s->computed)
        *d = s->d;
    else if (s->col == NULL)
        *d = pm_datum_null();
    else
        pm_column_get_datum(s->col, s->row, d);
}

static void reset_slots(pm_merge_fn *f)
{
    memset(f->slots, 0, f->count * sizeof(slot));
    for (size_t i = 0; i < f->count; i++)
        f->slots[i].d.is_null = true;
}

/* ---- partial-update ---------------------------------------------------------------------- */

static int partial_update(pm_merge_fn *f, const pm_record *recs, size_t n, pm_batch *out,
                          paimon_error *err)
{
    bool filled = false, meet_insert = false, deleted = false;
    reset_slots(f);
    for (size_t r = 0; r < n; r++) {
        const pm_record *rec = &recs[r];
        deleted = false;
        if (!pm_kind_is_add(rec->kind)) {
            if (!filled) { /* a first retract seeds the row */
                for (size_t i = 0; i < f->count; i++)
                    slot_ref(&f->slots[i], rec, i);
                filled = true;
            }
            if (f->ignore_delete)
                continue;
            if (f->remove_on_delete) {
                if (rec->kind == PM_KIND_DELETE) {
                    deleted = true;
                    for (size_t i = 0; i < f->count; i++)
                        slot_ref(&f->slots[i], rec, i);
                }
                continue;
            }
            return pm_err_set(err, PAIMON_EINVALID,
                              "partial-update can not accept delete records: configure "
                              "'ignore-delete', 'partial-update.remove-record-on-delete' or "
                              "sequence groups");
        }
        for (size_t i = 0; i < f->count; i++)
            if (pm_column_is_valid(rec->batch->columns[i], rec->row))
                slot_ref(&f->slots[i], rec, i);
        meet_insert = true;
        filled = true;
    }
    if (deleted || !meet_insert)
        return 0; /* the result is a delete: batch reads drop it */
    return append_slots(f, out, err);
}

/* ---- aggregation ------------------------------------------------------------------------- */

static pm_int128 pow10_i128(int n)
{
    pm_int128 v = 1;
    while (n-- > 0)
        v *= 10;
    return v;
}

static int64_t wrap_int(const pm_type *t, int64_t v)
{
    switch (t->id) {
    case PM_TYPE_TINYINT: return (int8_t)(uint8_t)v;
    case PM_TYPE_SMALLINT: return (int16_t)(uint16_t)v;
    case PM_TYPE_INT: return (int32_t)(uint32_t)v;
    default: return v;
    }
}

/* acc (op) x for sum/product with Java's arithmetic; DECIMAL overflow gives null. */
static pm_datum arith(const pm_type *t, pm_datum acc, pm_datum x, char op)
{
    pm_datum r = acc;
    r.is_null = false;
    switch (t->id) {
    case PM_TYPE_TINYINT:
    case PM_TYPE_SMALLINT:
    case PM_TYPE_INT:
    case PM_TYPE_BIGINT: {
        uint64_t a = (uint64_t)acc.v.i, b = (uint64_t)x.v.i;
        if (op == '+')
            r.v.i = wrap_int(t, (int64_t)(a + b));
        else if (op == '-')
            r.v.i = wrap_int(t, (int64_t)(a - b));
        else if (op == '*')
            r.v.i = wrap_int(t, (int64_t)(a * b));
        else
            r.v.i = x.v.i == 0 ? acc.v.i : wrap_int(t, acc.v.i / x.v.i);
        break;
    }
    case PM_TYPE_FLOAT:
        r.v.f = op == '+'   ? acc.v.f + x.v.f
                : op == '-' ? acc.v.f - x.v.f
                : op == '*' ? acc.v.f * x.v.f
                            : acc.v.f / x.v.f;
        break;
    case PM_TYPE_DOUBLE:
        r.v.d = op == '+'   ? acc.v.d + x.v.d
                : op == '-' ? acc.v.d - x.v.d
                : op == '*' ? acc.v.d * x.v.d
                            : acc.v.d / x.v.d;
        break;
    case PM_TYPE_DECIMAL: {
        pm_int128 limit = pow10_i128(t->precision), v;
        if (op == '+')
            v = acc.v.dec + x.v.dec;
        else if (op == '-')
            v = acc.v.dec - x.v.dec;
        else if (op == '*')
            v = acc.v.dec * x.v.dec / pow10_i128(t->scale);
        else
            v = x.v.dec == 0 ? acc.v.dec : acc.v.dec * pow10_i128(t->scale) / x.v.dec;
        if (v >= limit || v <= -limit)
            r = pm_datum_null();
        else
            r.v.dec = v;
        break;
    }
    default: r = pm_datum_null(); break;
    }
    return r;
}

static pm_datum negate(const pm_type *t, pm_datum x)
{
    pm_datum zero = x;
    memset(&zero.v, 0, sizeof(zero.v));
    return arith(t, zero, x, '-');
}

static const char *agg_name(agg_kind k)
{
    for (size_t i = 0; i < sizeof(AGG_NAMES) / sizeof(AGG_NAMES[0]); i++)
        if (AGG_NAMES[i].kind == k)
            return AGG_NAMES[i].name;
    return "primary-key";
}

static int agg_field(pm_merge_fn *f, size_t i, const pm_record *rec, bool retract,
                     paimon_error *err)
{
    field_agg *a = &f->aggs[i];
    slot *s = &f->slots[i];
    const pm_type *t = f->value_type->fields[i].type;
    const pm_column *col = rec->batch->columns[i];
    bool x_null = !pm_column_is_valid(col, rec->row);
    pm_datum x, acc;

    if (retract) {
        switch (a->kind) {
        case AGG_PRIMARY_KEY: slot_ref(s, rec, i); return 0;
        case AGG_LAST_VALUE:
            s->computed = true;
            s->d = pm_datum_null();
            return 0;
        case AGG_LAST_NON_NULL:
            if (!x_null) {
                s->computed = true;
                s->d = pm_datum_null();
            }
            return 0;
        case AGG_SUM:
        case AGG_PRODUCT:
            if (x_null)
                return 0;
            pm_column_get_datum(col, rec->row, &x);
            slot_value(s, &acc);
            s->computed = true;
            if (a->kind == AGG_SUM)
                s->d = acc.is_null ? negate(t, x) : arith(t, acc, x, '-');
            else
                s->d = acc.is_null ? acc : arith(t, acc, x, '/');
            return 0;
        default:
            if (a->ignore_retract)
                return 0;
            return pm_err_set(err, PAIMON_EINVALID,
                              "aggregate function '%s' (field %s) does not support retraction; "
                              "set 'fields.%s.ignore-retract' to ignore retract messages",
                              agg_name(a->kind), f->value_type->fields[i].name,
                              f->value_type->fields[i].name);
        }
    }
    switch (a->kind) {
    case AGG_PRIMARY_KEY:
    case AGG_LAST_VALUE: slot_ref(s, rec, i); return 0;
    case AGG_LAST_NON_NULL:
        if (!x_null)
            slot_ref(s, rec, i);
        return 0;
    case AGG_FIRST_VALUE:
        if (!s->seen) {
            slot_ref(s, rec, i);
            s->seen = true;
        }
        return 0;
    case AGG_FIRST_NON_NULL:
        if (!s->seen && !x_null) {
            slot_ref(s, rec, i);
            s->seen = true;
        }
        return 0;
    default: break;
    }
    if (x_null)
        return 0;
    if (slot_is_null(s)) {
        if (a->kind == AGG_LISTAGG) {
            pm_column_get_datum(col, rec->row, &x);
            pm_buf_reset(&a->text);
            if (x.v.s.len > 0 && pm_buf_append(&a->text, x.v.s.ptr, x.v.s.len) != 0)
                return pm_nomem(err);
            s->computed = true;
            s->d = pm_datum_bytes(NULL, 0); /* placed when the key is done */
            s->d.is_null = x.v.s.len == 0;
            return 0;
        }
        slot_ref(s, rec, i);
        return 0;
    }
    pm_column_get_datum(col, rec->row, &x);
    slot_value(s, &acc);
    switch (a->kind) {
    case AGG_SUM:
        s->d = arith(t, acc, x, '+');
        s->computed = true;
        return 0;
    case AGG_PRODUCT:
        s->d = arith(t, acc, x, '*');
        s->computed = true;
        return 0;
    case AGG_MAX:
    case AGG_MIN: {
        int c = pm_datum_compare(t, &x, &acc);
        if ((a->kind == AGG_MAX && c > 0) || (a->kind == AGG_MIN && c < 0))
            slot_ref(s, rec, i);
        return 0;
    }
    case AGG_BOOL_AND:
    case AGG_BOOL_OR:
        s->computed = true;
        s->d.is_null = false;
        s->d.v.b = a->kind == AGG_BOOL_AND ? (acc.v.b && x.v.b) : (acc.v.b || x.v.b);
        return 0;
    case AGG_LISTAGG:
        if (x.v.s.len == 0)
            return 0;
        if ((a->text.len > 0 && pm_buf_puts(&a->text, a->delimiter) != 0) ||
            pm_buf_append(&a->text, x.v.s.ptr, x.v.s.len) != 0)
            return pm_nomem(err);
        s->computed = true;
        s->d.is_null = false;
        return 0;
    default: return 0;
    }
}

static int aggregate(pm_merge_fn *f, const pm_record *recs, size_t n, pm_batch *out,
                     paimon_error *err)
{
    bool deleted = false;
    int rc;
    reset_slots(f);
    for (size_t i = 0; i < f->count; i++)
        pm_buf_reset(&f->aggs[i].text);
    for (size_t r = 0; r < n; r++) {
        const pm_record *rec = &recs[r];
        deleted = f->remove_on_delete && rec->kind == PM_KIND_DELETE;
        if (deleted) {
            for (size_t i = 0; i < f->count; i++) {
                slot_ref(&f->slots[i], rec, i);
                f->slots[i].seen = false;
            }
            continue;
        }
        for (size_t i = 0; i < f->count; i++)
            if ((rc = agg_field(f, i, rec, !pm_kind_is_add(rec->kind), err)) != 0)
                return rc;
    }
    if (deleted)
        return 0;
    for (size_t i = 0; i < f->count; i++)
        if (f->aggs[i].kind == AGG_LISTAGG && f->slots[i].computed && !f->slots[i].d.is_null)
            f->slots[i].d = pm_datum_bytes(f->aggs[i].text.data, f->aggs[i].text.len);
    return append_slots(f, out, err);
}

/* ---- dispatch ---------------------------------------------------------------------------- */

int pm_merge_fn_apply(pm_merge_fn *f, const pm_record *recs, size_t n, pm_batch *out,
                      paimon_error *err)
{
    const pm_record *pick;
    if (n == 0)
        return 0;
    /* The reducer wrapper: a single record passes through unmerged (not under lookup). */
    if (n == 1 && !f->lookup)
        return pm_kind_is_add(recs[0].kind) ? append_record(out, &recs[0], f->count, err) : 0;
    switch (f->engine) {
    case ENGINE_DEDUP:
        pick = &recs[n - 1];
        if (f->ignore_delete) {
            size_t k = n;
            while (k > 0 && !pm_kind_is_add(recs[k - 1].kind))
                k--;
            if (k == 0)
                return 0;
            pick = &recs[k - 1];
        }
        return pm_kind_is_add(pick->kind) ? append_record(out, pick, f->count, err) : 0;
    case ENGINE_FIRST_ROW:
        for (size_t k = 0; k < n; k++) {
            if (pm_kind_is_add(recs[k].kind))
                return append_record(out, &recs[k], f->count, err);
            if (!f->ignore_delete)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "first-row merge engine can not accept delete records; "
                                  "configure 'ignore-delete'");
        }
        return 0;
    case ENGINE_PARTIAL: return partial_update(f, recs, n, out, err);
    case ENGINE_AGG: return aggregate(f, recs, n, out, err);
    }
    return 0;
}

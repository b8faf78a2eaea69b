/* Merge engines: see merge_function.h and behaviour.md §2. */
#include "lsm/merge_function.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lsm/field_agg.h"
#include "lsm/partial_update.h"
#include "util/alloc.h"
#include "util/error.h"

typedef enum engine_kind { ENGINE_DEDUP, ENGINE_FIRST_ROW, ENGINE_PARTIAL, ENGINE_AGG } engine_kind;

struct pm_merge_fn {
    engine_kind engine;
    bool ignore_delete;
    bool remove_on_delete; /* aggregation.remove-record-on-delete */
    bool lookup;
    const pm_type *value_type;
    size_t count;       /* value columns */
    pm_field_agg *aggs; /* aggregation: one per value column */
    pm_vref *row;       /* aggregation: the accumulators */
    pm_partial_update *partial;
};

/* AggregateMergeFunction.getAggFuncName: sequence fields keep the last value, keys the
 * input, the rest their configured function or last_non_null_value. */
static const char *agg_function(const pm_schema *s, const char *field)
{
    const char *seq = pm_schema_option(s, "sequence.field"), *fn;
    char key[512];
    if (seq != NULL) {
        size_t fl = strlen(field);
        for (const char *p = seq; *p != '\0';) {
            const char *comma = strchr(p, ',');
            size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
            if (len == fl && strncmp(p, field, fl) == 0)
                return "last_value";
            p += len + (comma != NULL);
        }
    }
    if (pm_strlist_find(&s->primary_keys, field) >= 0)
        return "primary-key";
    snprintf(key, sizeof(key), "fields.%s.aggregate-function", field);
    fn = pm_schema_option(s, key);
    if (fn == NULL)
        fn = pm_schema_option(s, "fields.default-aggregate-function");
    return fn != NULL ? fn : "last_non_null_value";
}

PM_MUST_CHECK static int setup_aggs(pm_merge_fn *f, const pm_schema *s, paimon_error *err)
{
    f->aggs = pm_calloc(f->count + 1, sizeof(pm_field_agg));
    f->row = pm_calloc(f->count + 1, sizeof(pm_vref));
    if (f->aggs == NULL || f->row == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < f->count; i++) {
        const pm_field *fd = &f->value_type->fields[i];
        int rc = pm_field_agg_init(&f->aggs[i], s, fd, agg_function(s, fd->name), err);
        if (rc != 0)
            return rc;
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
    if ((rc = pm_options_get_bool(&s->options, "ignore-delete", &f->ignore_delete, err)) ||
        (rc = pm_options_get_bool(&s->options, "deletion-vectors.enabled", &dv, err)) ||
        (rc = pm_options_get_bool(&s->options, "force-lookup", &force, err)))
        goto done;
    if (f->engine == ENGINE_PARTIAL) {
        rc = pm_partial_update_new(&f->partial, s, value_type, err);
    } else if (f->engine == ENGINE_AGG) {
        if ((rc = pm_options_get_bool(&s->options, "aggregation.remove-record-on-delete",
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
    for (size_t i = 0; f->aggs != NULL && i < f->count; i++)
        pm_field_agg_free(&f->aggs[i]);
    pm_free(f->aggs);
    pm_free(f->row);
    pm_partial_update_free(f->partial);
    pm_free(f);
}

bool pm_merge_fn_lookup(const pm_merge_fn *f)
{
    return f->lookup;
}

/* ---- output ------------------------------------------------------------------------------ */

PM_MUST_CHECK static int append_record(pm_batch *out, const pm_record *r, size_t count,
                                       paimon_error *err)
{
    for (size_t i = 0; i < count; i++) {
        int rc = pm_column_append_from(out->columns[i], r->batch->columns[i], r->row);
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    return 0;
}

/* ---- aggregation ------------------------------------------------------------------------- */

/* AggregateMergeFunction: acc = agg(acc, input) or retract(acc, input) field by field from
 * nulls; a -D under remove-record-on-delete resets the row to the delete's values and makes
 * the result a delete, unless a later record follows.  *deleted reports that. */
PM_MUST_CHECK static int aggregate_row(pm_merge_fn *f, const pm_record *recs, size_t n,
                                       bool *deleted, paimon_error *err)
{
    int rc;
    *deleted = false;
    for (size_t i = 0; i < f->count; i++) {
        f->row[i] = pm_vref_null();
        pm_field_agg_reset(&f->aggs[i]);
    }
    for (size_t r = 0; r < n; r++) {
        const pm_record *rec = &recs[r];
        bool retract = !pm_kind_is_add(rec->kind);
        *deleted = f->remove_on_delete && rec->kind == PM_KIND_DELETE;
        for (size_t i = 0; i < f->count; i++) {
            pm_vref in = pm_vref_of(rec->batch->columns[i], rec->row);
            if (*deleted) {
                if (pm_vref_is_null(in) && !f->value_type->fields[i].type->nullable)
                    return pm_err_set(err, PAIMON_EINVALID, "field %s can not be null",
                                      f->value_type->fields[i].name);
                f->row[i] = in;
                continue;
            }
            rc = retract ? pm_field_agg_retract(&f->aggs[i], f->row[i], in, &f->row[i], err)
                         : pm_field_agg_agg(&f->aggs[i], f->row[i], in, &f->row[i], err);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

PM_MUST_CHECK static int append_acc(pm_merge_fn *f, pm_batch *out, paimon_error *err)
{
    for (size_t i = 0; i < f->count; i++) {
        pm_vref v = f->row[i];
        int rc = pm_vref_is_null(v) ? pm_column_append_null(out->columns[i])
                                    : pm_column_append_from(out->columns[i], v.col, v.row);
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    return 0;
}

PM_MUST_CHECK static int aggregate(pm_merge_fn *f, const pm_record *recs, size_t n, pm_batch *out,
                                   paimon_error *err)
{
    bool deleted;
    int rc = aggregate_row(f, recs, n, &deleted, err);
    if (rc != 0 || deleted)
        return rc;
    return append_acc(f, out, err);
}

/* ---- dispatch ---------------------------------------------------------------------------- */

long pm_merge_fn_pick(const pm_merge_fn *f, const pm_record *recs, size_t n)
{
    if (n == 0)
        return PM_MERGE_DELETED;
    if (n == 1 && !f->lookup) /* the reducer wrapper passes a single record through */
        return pm_kind_is_add(recs[0].kind) ? 0 : PM_MERGE_DELETED;
    switch (f->engine) {
    case ENGINE_DEDUP: {
        size_t k = n;
        if (f->ignore_delete)
            while (k > 0 && !pm_kind_is_add(recs[k - 1].kind))
                k--;
        if (k == 0 || !pm_kind_is_add(recs[k - 1].kind))
            return PM_MERGE_DELETED;
        return (long)(k - 1);
    }
    case ENGINE_FIRST_ROW:
        for (size_t k = 0; k < n; k++) {
            if (pm_kind_is_add(recs[k].kind))
                return (long)k;
            if (!f->ignore_delete)
                return PM_MERGE_COMPUTE; /* apply reports the error */
        }
        return PM_MERGE_DELETED;
    default: return PM_MERGE_COMPUTE;
    }
}

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
    case ENGINE_PARTIAL: return pm_partial_update_apply(f->partial, recs, n, out, err);
    case ENGINE_AGG: return aggregate(f, recs, n, out, err);
    }
    return 0;
}

int pm_merge_fn_reduce(pm_merge_fn *f, const pm_record *recs, size_t n, pm_batch *out, int8_t *kind,
                       int64_t *seq, bool *emitted, paimon_error *err)
{
    const pm_record *pick;
    bool deleted;
    int rc;
    *emitted = false;
    if (n == 0)
        return 0;
    if (n == 1 && !f->lookup) { /* the reducer wrapper passes a lone record through */
        pick = &recs[0];
        goto emit_pick;
    }
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
        goto emit_pick;
    case ENGINE_FIRST_ROW:
        for (size_t k = 0; k < n; k++) {
            if (pm_kind_is_add(recs[k].kind)) {
                pick = &recs[k];
                goto emit_pick;
            }
            if (!f->ignore_delete)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "first-row merge engine can not accept delete records; "
                                  "configure 'ignore-delete'");
        }
        return 0;
    case ENGINE_PARTIAL:
        if ((rc = pm_partial_update_merge(f->partial, recs, n, out, kind, seq, err)) == 0)
            *emitted = true;
        return rc;
    case ENGINE_AGG:
        if ((rc = aggregate_row(f, recs, n, &deleted, err)) != 0 ||
            (rc = append_acc(f, out, err)) != 0)
            return rc;
        *kind = deleted ? PM_KIND_DELETE : PM_KIND_INSERT;
        *seq = recs[n - 1].seq;
        *emitted = true;
        return 0;
    }
    return 0;
emit_pick:
    if ((rc = append_record(out, pick, f->count, err)) != 0)
        return rc;
    *kind = pick->kind;
    *seq = pick->seq;
    *emitted = true;
    return 0;
}

int pm_merge_fn_reduce_pick(const pm_merge_fn *f, const pm_record *recs, size_t n)
{
    if (n == 1 && !f->lookup)
        return 0;
    if (f->engine != ENGINE_DEDUP)
        return -1;
    if (f->ignore_delete) {
        size_t k = n;
        while (k > 0 && !pm_kind_is_add(recs[k - 1].kind))
            k--;
        return k == 0 ? -2 : (int)(k - 1);
    }
    return (int)(n - 1);
}

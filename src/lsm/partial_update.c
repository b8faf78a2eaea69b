/* The partial-update merge engine: see partial_update.h. */
#include "lsm/partial_update.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "data/datum_compare.h"
#include "lsm/field_agg.h"
#include "util/alloc.h"
#include "util/error.h"

#define SEQUENCE_GROUP_SUFFIX ".sequence-group"

typedef struct seq_group {
    int *fields; /* sequence fields (indexes into the value row), in the option's order */
    size_t count;
} seq_group;

struct pm_partial_update {
    const pm_type *value_type;
    size_t count; /* value fields */
    bool ignore_delete;
    bool remove_on_delete; /* partial-update.remove-record-on-delete */
    seq_group *groups;
    size_t group_count;
    int *group_of;        /* per field: its group (a protected or sequence field), or -1 */
    bool *is_seq;         /* per field: a sequence field of its group */
    bool *partial_delete; /* per field: named in remove-record-on-sequence-group */
    pm_field_agg **aggs;  /* per field: its aggregator, or NULL */
    pm_vref *row;         /* the row being merged */
    bool *empty;          /* per field, per record: its group's sequence fields are null */
    bool *updated;        /* per field, per retract: sequence field already set */
};

bool pm_schema_has_sequence_groups(const pm_schema *s)
{
    size_t sl = strlen(SEQUENCE_GROUP_SUFFIX);
    for (size_t i = 0; i < s->options.count; i++) {
        const char *k = s->options.keys[i];
        size_t kl = strlen(k);
        if (strncmp(k, "fields.", 7) == 0 && kl > 7 + sl &&
            strcmp(k + kl - sl, SEQUENCE_GROUP_SUFFIX) == 0)
            return true;
    }
    return false;
}

bool pm_partial_update_has_groups(const pm_partial_update *p)
{
    return p->group_count > 0;
}

void pm_partial_update_free(pm_partial_update *p)
{
    if (p == NULL)
        return;
    for (size_t g = 0; g < p->group_count; g++)
        pm_free(p->groups[g].fields);
    pm_free(p->groups);
    for (size_t i = 0; p->aggs != NULL && i < p->count; i++) {
        pm_field_agg_free(p->aggs[i]);
        pm_free(p->aggs[i]);
    }
    pm_free(p->aggs);
    pm_free(p->group_of);
    pm_free(p->is_seq);
    pm_free(p->partial_delete);
    pm_free(p->row);
    pm_free(p->empty);
    pm_free(p->updated);
    pm_free(p);
}

/* Field `name` of the value row, or an error naming the option. */
PM_MUST_CHECK static int require_field(const pm_partial_update *p, const char *name,
                                       const char *option, int *idx, paimon_error *err)
{
    size_t at;
    if (pm_type_field_by_name(p->value_type, name, &at) == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: field %s can not be found in table schema",
                          option, name);
    *idx = (int)at;
    return 0;
}

/* One `fields.<s1>,<s2>.sequence-group = <f1>,<f2>` option. */
PM_MUST_CHECK static int add_group(pm_partial_update *p, const char *key, const char *value,
                                   paimon_error *err)
{
    size_t kl = strlen(key), sl = strlen(SEQUENCE_GROUP_SUFFIX);
    char *names = pm_strndup(key + 7, kl - 7 - sl), *fields = pm_strdup(value), *save = NULL;
    seq_group *g;
    int rc = 0, idx = -1;
    size_t gi = p->group_count;

    if (names == NULL || fields == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    g = &p->groups[p->group_count++];
    g->fields = pm_calloc(p->count + 1, sizeof(int));
    if (g->fields == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (char *t = strtok_r(names, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
        if ((rc = require_field(p, t, key, &idx, err)) != 0)
            goto done;
        if (g->count < p->count)
            g->fields[g->count++] = idx;
    }
    for (char *t = strtok_r(fields, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
        if ((rc = require_field(p, t, key, &idx, err)) != 0)
            goto done;
        if (p->group_of[idx] >= 0) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "field %s is defined repeatedly by multiple groups: %s", t, key);
            goto done;
        }
        p->group_of[idx] = (int)gi;
    }
    for (size_t k = 0; k < g->count; k++) { /* a group's sequence fields belong to it */
        p->group_of[g->fields[k]] = (int)gi;
        p->is_seq[g->fields[k]] = true;
    }
done:
    pm_free(names);
    pm_free(fields);
    return rc;
}

/* The aggregate function of a field (PartialUpdateMergeFunction.getAggFuncName): none for
 * sequence fields, primary-key for keys, else the configured one, which must be
 * last_non_null_value unless a sequence group protects the field. */
PM_MUST_CHECK static int setup_agg(pm_partial_update *p, const pm_schema *s, size_t i,
                                   paimon_error *err)
{
    const pm_field *f = &p->value_type->fields[i];
    const char *fn;
    char key[512];
    int rc;
    if (p->is_seq[i])
        return 0;
    if (pm_strlist_find(&s->primary_keys, f->name) >= 0) {
        fn = "primary-key";
    } else {
        snprintf(key, sizeof(key), "fields.%s.aggregate-function", f->name);
        fn = pm_schema_option(s, key);
        if (fn == NULL)
            fn = pm_schema_option(s, "fields.default-aggregate-function");
        if (fn == NULL)
            return 0;
        if (strcmp(fn, "last_non_null_value") != 0 && p->group_of[i] < 0)
            return pm_err_set(err, PAIMON_EINVALID,
                              "must use sequence group for aggregation functions but not found "
                              "for field %s",
                              f->name);
    }
    p->aggs[i] = pm_calloc(1, sizeof(pm_field_agg));
    if (p->aggs[i] == NULL)
        return pm_nomem(err);
    if ((rc = pm_field_agg_init(p->aggs[i], s, f, fn, err)) != 0)
        return rc;
    return 0;
}

int pm_partial_update_new(pm_partial_update **out, const pm_schema *s, const pm_type *value_type,
                          paimon_error *err)
{
    pm_partial_update *p = pm_calloc(1, sizeof(*p));
    const char *on_group = pm_schema_option(s, "partial-update.remove-record-on-sequence-group");
    size_t n = value_type->field_count;
    int rc = 0;

    *out = NULL;
    if (p == NULL)
        return pm_nomem(err);
    p->value_type = value_type;
    p->count = n;
    p->groups = pm_calloc(s->options.count + 1, sizeof(seq_group));
    p->group_of = pm_malloc((n + 1) * sizeof(int));
    p->is_seq = pm_calloc(n + 1, sizeof(bool));
    p->partial_delete = pm_calloc(n + 1, sizeof(bool));
    p->aggs = pm_calloc(n + 1, sizeof(pm_field_agg *));
    p->row = pm_calloc(n + 1, sizeof(pm_vref));
    p->empty = pm_calloc(n + 1, sizeof(bool));
    p->updated = pm_calloc(n + 1, sizeof(bool));
    if (p->groups == NULL || p->group_of == NULL || p->is_seq == NULL ||
        p->partial_delete == NULL || p->aggs == NULL || p->row == NULL || p->empty == NULL ||
        p->updated == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        p->group_of[i] = -1;
    if ((rc = pm_options_get_bool(&s->options, "ignore-delete", &p->ignore_delete, err)) ||
        (rc = pm_options_get_bool(&s->options, "partial-update.remove-record-on-delete",
                                  &p->remove_on_delete, err)))
        goto done;
    for (size_t i = 0; i < s->options.count; i++) {
        const char *k = s->options.keys[i];
        size_t kl = strlen(k), sl = strlen(SEQUENCE_GROUP_SUFFIX);
        if (strncmp(k, "fields.", 7) == 0 && kl > 7 + sl &&
            strcmp(k + kl - sl, SEQUENCE_GROUP_SUFFIX) == 0 &&
            (rc = add_group(p, k, s->options.values[i], err)) != 0)
            goto done;
    }
    for (size_t i = 0; i < n; i++)
        if ((rc = setup_agg(p, s, i, err)) != 0)
            goto done;
    if (p->remove_on_delete && p->ignore_delete) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "ignore-delete and partial-update.remove-record-on-delete have "
                        "conflicting behavior so should not be enabled at the same time");
        goto done;
    }
    if (on_group != NULL && p->ignore_delete) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "ignore-delete and partial-update.remove-record-on-sequence-group have "
                        "conflicting behavior so should not be enabled at the same time");
        goto done;
    }
    if (p->remove_on_delete && p->group_count > 0) {
        rc = pm_err_set(err, PAIMON_EINVALID,
                        "sequence-group and partial-update.remove-record-on-delete have "
                        "conflicting behavior so should not be enabled at the same time");
        goto done;
    }
    if (on_group != NULL) {
        char *copy = pm_strdup(on_group), *save = NULL;
        if (copy == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (char *t = strtok_r(copy, ",", &save); rc == 0 && t != NULL;
             t = strtok_r(NULL, ",", &save)) {
            size_t at;
            if (pm_type_field_by_name(value_type, t, &at) == NULL || !p->is_seq[at])
                rc = pm_err_set(err, PAIMON_EINVALID,
                                "field '%s' defined in 'partial-update.remove-record-on-sequence-"
                                "group' option must be part of sequence groups",
                                on_group);
            else
                p->partial_delete[at] = true;
        }
        pm_free(copy);
    }
done:
    if (rc != 0) {
        pm_partial_update_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* ---- merging ----------------------------------------------------------------------------- */

static pm_vref rec_value(const pm_record *r, size_t i)
{
    return pm_vref_of(r->batch->columns[i], r->row);
}

PM_MUST_CHECK static int init_row(pm_partial_update *p, const pm_record *r, paimon_error *err)
{
    for (size_t i = 0; i < p->count; i++) {
        pm_vref v = rec_value(r, i);
        if (pm_vref_is_null(v) && !p->value_type->fields[i].type->nullable)
            return pm_err_set(err, PAIMON_EINVALID, "field %s can not be null",
                              p->value_type->fields[i].name);
        p->row[i] = v;
    }
    return 0;
}

/* Record against row on group g's sequence fields, in order, nulls first. */
static int compare_group(const pm_partial_update *p, const pm_record *r, const seq_group *g)
{
    for (size_t k = 0; k < g->count; k++) {
        int f = g->fields[k];
        pm_vref a = rec_value(r, (size_t)f), b = p->row[f];
        bool an = pm_vref_is_null(a), bn = pm_vref_is_null(b);
        int c;
        if (an || bn) {
            if (an && bn)
                continue;
            return an ? -1 : 1;
        }
        c = pm_column_compare(a.col, a.row, b.col, b.row);
        if (c != 0)
            return c;
    }
    return 0;
}

/* Whether the record's sequence fields of g are all null (remembered per record). */
static bool group_is_empty(pm_partial_update *p, const pm_record *r, const seq_group *g)
{
    if (p->empty[g->fields[0]])
        return true;
    for (size_t k = 0; k < g->count; k++)
        if (!pm_vref_is_null(rec_value(r, (size_t)g->fields[k])))
            return false;
    for (size_t k = 0; k < g->count; k++)
        p->empty[g->fields[k]] = true;
    return true;
}

PM_MUST_CHECK static int update_non_null(pm_partial_update *p, const pm_record *r,
                                         paimon_error *err)
{
    for (size_t i = 0; i < p->count; i++) {
        pm_vref v = rec_value(r, i);
        if (!pm_vref_is_null(v))
            p->row[i] = v;
        else if (!p->value_type->fields[i].type->nullable)
            return pm_err_set(err, PAIMON_EINVALID, "field %s can not be null",
                              p->value_type->fields[i].name);
    }
    return 0;
}

PM_MUST_CHECK static int update_with_groups(pm_partial_update *p, const pm_record *r,
                                            paimon_error *err)
{
    memset(p->empty, 0, p->count * sizeof(bool));
    for (size_t i = 0; i < p->count; i++) {
        pm_field_agg *agg = p->aggs[i];
        pm_vref in = rec_value(r, i);
        const seq_group *g;
        int rc;
        if (p->group_of[i] < 0) {
            if (agg != NULL) {
                if ((rc = pm_field_agg_agg(agg, p->row[i], in, &p->row[i], err)) != 0)
                    return rc;
            } else if (!pm_vref_is_null(in)) {
                p->row[i] = in;
            }
            continue;
        }
        g = &p->groups[p->group_of[i]];
        if (group_is_empty(p, r, g))
            continue;
        if (compare_group(p, r, g) >= 0) {
            if (p->is_seq[i]) { /* the group's sequence fields move together */
                for (size_t k = 0; k < g->count; k++)
                    p->row[g->fields[k]] = rec_value(r, (size_t)g->fields[k]);
                continue;
            }
            if (agg == NULL)
                p->row[i] = in;
            else if ((rc = pm_field_agg_agg(agg, p->row[i], in, &p->row[i], err)) != 0)
                return rc;
        } else if (agg != NULL &&
                   (rc = pm_field_agg_agg_reversed(agg, p->row[i], in, &p->row[i], err)) != 0) {
            return rc;
        }
    }
    return 0;
}

/* A retract record under sequence groups.  Sets *deleted when it removes the row. */
PM_MUST_CHECK static int retract_with_groups(pm_partial_update *p, const pm_record *r,
                                             bool *deleted, paimon_error *err)
{
    memset(p->empty, 0, p->count * sizeof(bool));
    memset(p->updated, 0, p->count * sizeof(bool));
    for (size_t i = 0; i < p->count; i++) {
        pm_field_agg *agg = p->aggs[i];
        const seq_group *g;
        int rc;
        if (p->group_of[i] < 0)
            continue;
        g = &p->groups[p->group_of[i]];
        if (group_is_empty(p, r, g))
            continue;
        if (compare_group(p, r, g) >= 0) {
            if (p->is_seq[i]) {
                for (size_t k = 0; k < g->count; k++) {
                    int f = g->fields[k];
                    if (p->updated[f])
                        continue;
                    if (r->kind == PM_KIND_DELETE && p->partial_delete[f]) {
                        *deleted = true;
                        return init_row(p, r, err);
                    }
                    p->row[f] = rec_value(r, (size_t)f);
                    p->updated[f] = true;
                }
            } else if (agg == NULL) {
                p->row[i] = pm_vref_null();
            } else if ((rc = pm_field_agg_retract(agg, p->row[i], rec_value(r, i), &p->row[i],
                                                  err)) != 0) {
                return rc;
            }
        } else if (agg != NULL && (rc = pm_field_agg_retract(agg, p->row[i], rec_value(r, i),
                                                             &p->row[i], err)) != 0) {
            return rc;
        }
    }
    return 0;
}

/* Folds the records into p->row; *is_delete tells Java's result kind (DELETE when the row
 * was removed or no add record was seen) and *seq its sequence number. */
PM_MUST_CHECK static int merge_records(pm_partial_update *p, const pm_record *recs, size_t n,
                                       bool *is_delete, int64_t *seq, paimon_error *err)
{
    bool filled = false, meet_insert = false, deleted = false;
    int rc;

    *seq = recs[n - 1].seq;
    for (size_t i = 0; i < p->count; i++) {
        p->row[i] = pm_vref_null();
        if (p->aggs[i] != NULL)
            pm_field_agg_reset(p->aggs[i]);
    }
    for (size_t k = 0; k < n; k++) {
        const pm_record *r = &recs[k];
        deleted = false;
        if (!pm_kind_is_add(r->kind)) {
            if (!filled) { /* a first retract seeds the row */
                if ((rc = init_row(p, r, err)) != 0)
                    return rc;
                filled = true;
            }
            if (p->ignore_delete)
                continue;
            *seq = r->seq;
            if (p->group_count > 0) {
                if ((rc = retract_with_groups(p, r, &deleted, err)) != 0)
                    return rc;
                continue;
            }
            if (p->remove_on_delete) {
                if (r->kind == PM_KIND_DELETE) {
                    deleted = true;
                    if ((rc = init_row(p, r, err)) != 0)
                        return rc;
                }
                continue;
            }
            return pm_err_set(err, PAIMON_EINVALID,
                              "partial-update can not accept delete records: configure "
                              "'ignore-delete', 'partial-update.remove-record-on-delete' or "
                              "sequence groups");
        }
        *seq = r->seq;
        rc = p->group_count == 0 ? update_non_null(p, r, err) : update_with_groups(p, r, err);
        if (rc != 0)
            return rc;
        meet_insert = true;
        filled = true;
    }
    *is_delete = deleted || !meet_insert;
    return 0;
}

PM_MUST_CHECK static int append_row(pm_partial_update *p, pm_batch *out, paimon_error *err)
{
    for (size_t i = 0; i < p->count; i++) {
        pm_vref v = p->row[i];
        int rc = pm_vref_is_null(v) ? pm_column_append_null(out->columns[i])
                                    : pm_column_append_from(out->columns[i], v.col, v.row);
        if (rc != 0)
            return pm_buf_error(err, rc);
    }
    return 0;
}

int pm_partial_update_apply(pm_partial_update *p, const pm_record *recs, size_t n, pm_batch *out,
                            paimon_error *err)
{
    bool is_delete = false;
    int64_t seq;
    int rc = merge_records(p, recs, n, &is_delete, &seq, err);
    if (rc != 0 || is_delete)
        return rc; /* a delete result: batch reads drop it */
    return append_row(p, out, err);
}

int pm_partial_update_merge(pm_partial_update *p, const pm_record *recs, size_t n, pm_batch *out,
                            int8_t *kind, int64_t *seq, paimon_error *err)
{
    bool is_delete = false;
    int rc = merge_records(p, recs, n, &is_delete, seq, err);
    if (rc != 0)
        return rc;
    *kind = is_delete ? PM_KIND_DELETE : PM_KIND_INSERT;
    return append_row(p, out, err);
}

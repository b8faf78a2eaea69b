/* The columns a handle shows its callers: see columns.h. */
#include "api/columns.h"

#include <string.h>
#include <strings.h>

#include "api/api.h"
#include "meta/options.h"
#include "table/file_reader.h"
#include "util/alloc.h"

int pm_api_columns_init(pm_api_columns *c, pm_type *type, paimon_error *err)
{
    memset(c, 0, sizeof(*c));
    c->type = type;
    if (type == NULL || (c->type_names = pm_calloc(type->field_count + 1, sizeof(char *))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < type->field_count; i++)
        if ((c->type_names[i] = pm_api_type_string(type->fields[i].type)) == NULL)
            return pm_nomem(err);
    return 0;
}

void pm_api_columns_release(pm_api_columns *c)
{
    for (size_t i = 0; c->type_names != NULL && i < c->type->field_count; i++)
        pm_free(c->type_names[i]);
    pm_free(c->type_names);
    pm_type_free(c->type);
    memset(c, 0, sizeof(*c));
}

size_t pm_api_columns_count(const pm_api_columns *c)
{
    return c->type_names != NULL ? c->type->field_count : 0;
}

const char *pm_api_columns_name(const pm_api_columns *c, size_t column)
{
    return column < pm_api_columns_count(c) ? c->type->fields[column].name : NULL;
}

const char *pm_api_columns_type(const pm_api_columns *c, size_t column)
{
    return column < pm_api_columns_count(c) ? c->type_names[column] : NULL;
}

int pm_api_change_columns(const pm_type *row, const char *kind_name, const char *const *names,
                          size_t count, int **columns, size_t *column_count, pm_api_columns *out,
                          paimon_error *err)
{
    pm_type *kind = pm_type_new(PM_TYPE_VARCHAR), *type = pm_type_new(PM_TYPE_ROW);
    size_t n = names != NULL ? count : row->field_count;
    int *idx = pm_calloc(n + 1, sizeof(int));
    int rc = 0;
    memset(out, 0, sizeof(*out));
    *columns = NULL;
    *column_count = 0;
    if (kind == NULL || type == NULL || idx == NULL)
        goto nomem;
    kind->length = INT32_MAX;
    kind->nullable = false;
    type->nullable = false;
    rc = pm_type_row_add(type, PM_ROW_KIND_ID, kind_name != NULL ? kind_name : PM_ROW_KIND_NAME,
                         kind);
    kind = NULL;
    if (rc != 0)
        goto nomem;
    for (size_t i = 0; i < n; i++) {
        size_t at = i;
        if (names != NULL && (rc = pm_api_find_column(row, names[i], &at, err)) != 0)
            goto done;
        for (size_t k = 0; k < i; k++)
            if (idx[k] == (int)at) {
                rc = pm_err_set(err, PAIMON_EINVALID, "%s: column selected twice",
                                row->fields[at].name);
                goto done;
            }
        idx[i] = (int)at;
        if (pm_type_row_add(type, row->fields[at].id, row->fields[at].name,
                            pm_type_clone(row->fields[at].type)) != 0)
            goto nomem;
    }
    rc = pm_api_columns_init(out, type, err); /* takes `type` */
    type = NULL;
    if (rc == 0) {
        *columns = idx;
        *column_count = n;
        idx = NULL;
    }
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    pm_free(idx);
    pm_type_free(kind);
    pm_type_free(type);
    return rc;
}

int pm_api_read_sequence(const paimon_table *t, const char *const *keys, const char *const *values,
                         size_t count, bool *out, paimon_error *err)
{
    static const char KEY[] = "table-read.sequence-number.enabled";
    int rc;
    *out = false;
    for (size_t i = 0; i < count; i++)
        if (keys != NULL && values != NULL && keys[i] != NULL && values[i] != NULL &&
            strcmp(keys[i], KEY) == 0 && strcasecmp(values[i], "true") == 0)
            return pm_err_set(err, PAIMON_EINVALID, "%s: %s is not supported by hint.", t->path,
                              KEY);
    rc = pm_options_get_bool(&t->schema->options, KEY, out, err);
    if (rc != 0 || !*out)
        return rc;
    if (t->schema->primary_keys.count == 0)
        return pm_err_set(err, PAIMON_EINVALID,
                          "%s: option %s is set on a table without primary keys (sequence "
                          "numbers exist only in primary-key tables)",
                          t->path, KEY);
    return 0;
}

int pm_api_columns_add_sequence(pm_api_columns *c, paimon_error *err)
{
    pm_type *t = pm_type_new(PM_TYPE_ROW), *seq = pm_type_new(PM_TYPE_BIGINT);
    if (t == NULL || seq == NULL)
        goto nomem;
    t->nullable = false;
    seq->nullable = false;
    for (size_t i = 0; i < c->type->field_count; i++) {
        const pm_field *f = &c->type->fields[i];
        if (pm_type_row_add(t, f->id, f->name, pm_type_clone(f->type)) != 0)
            goto nomem;
        if (i == 0) { /* after the kind */
            pm_type *q = seq;
            seq = NULL;
            if (pm_type_row_add(t, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", q) != 0)
                goto nomem;
        }
    }
    pm_api_columns_release(c);
    return pm_api_columns_init(c, t, err); /* takes `t` */
nomem:
    pm_type_free(seq);
    pm_type_free(t);
    return pm_nomem(err);
}

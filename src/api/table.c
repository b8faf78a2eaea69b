/* Public table functions: argument checks and error translation over src/table. */
#include <string.h>

#include "api/api.h"
#include "table/table.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"

PAIMON_API int paimon_table_open(paimon_table **out, const char *path, paimon_error *err)
{
    paimon_error_clear(err);
    if (out == NULL || path == NULL || path[0] == '\0')
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_open: no table path given");
    pm_fs *fs = NULL;
    int rc;
    *out = NULL;
    if ((rc = pm_api_fs_for_path(&fs, path, true, err)) != 0)
        return rc;
    return pm_table_open(out, pm_fs_local_path(path), fs, err); /* takes `fs` */
}

PAIMON_API void paimon_table_free(paimon_table *table)
{
    pm_table_close(table);
}

PAIMON_API const char *paimon_table_path(const paimon_table *table)
{
    return table != NULL ? table->path : NULL;
}

PAIMON_API int paimon_columns_check(const char *columns, paimon_error *err)
{
    pm_type *row = NULL;
    int rc;
    paimon_error_clear(err);
    if (columns == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "no columns given");
    rc = pm_columns_parse(columns, &row, err);
    pm_type_free(row);
    return rc;
}

PAIMON_API int paimon_type_check(const char *type, paimon_error *err)
{
    pm_type *t = NULL;
    int rc;
    paimon_error_clear(err);
    if (type == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "no type given");
    rc = pm_type_parse(type, &t, err);
    pm_type_free(t);
    return rc;
}

PM_MUST_CHECK static int add_keys(pm_strlist *list, const char *const *keys, size_t count,
                                  const char *kind, paimon_error *err)
{
    for (size_t i = 0; i < count; i++) {
        if (keys[i] == NULL || keys[i][0] == '\0')
            return pm_err_set(err, PAIMON_EINVALID, "empty %s key", kind);
        if (pm_strlist_push(list, keys[i]) != 0)
            return pm_nomem(err);
    }
    return 0;
}

PAIMON_API int paimon_table_create(const char *path, const paimon_create_options *options,
                                   paimon_error *err)
{
    paimon_create_options given;
    const paimon_create_options *o = &given;
    pm_schema *s = NULL;
    pm_fs *fs = NULL;
    int rc;

    paimon_error_clear(err);
    if (path == NULL || path[0] == '\0')
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_create: no table path given");
    if ((rc = pm_api_options_get(&pm_api_create_options, "paimon_table_create", options, &given,
                                 err)) != 0)
        return rc;
    if (o->columns == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no columns given", path);
    s = pm_calloc(1, sizeof(*s));
    if (s == NULL)
        return pm_nomem(err);
    pm_strlist_init(&s->partition_keys);
    pm_strlist_init(&s->primary_keys);
    pm_options_init(&s->options);
    s->version = PM_SCHEMA_VERSION;
    s->id = 0;
    s->time_millis = pm_now_millis();
    if ((rc = pm_columns_parse(o->columns, &s->row, err)) != 0)
        goto done;
    s->highest_field_id = pm_type_highest_field_id(s->row);
    if ((rc = add_keys(&s->primary_keys, o->primary_keys, o->primary_key_count, "primary", err)) ||
        (rc = add_keys(&s->partition_keys, o->partition_keys, o->partition_key_count, "partition",
                       err)))
        goto done;
    for (size_t i = 0; i < o->option_count; i++) {
        if (o->option_keys[i] == NULL || o->option_keys[i][0] == '\0' ||
            o->option_values[i] == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID, "option %zu has no key or value", i + 1);
            goto done;
        }
        if (pm_options_set(&s->options, o->option_keys[i], o->option_values[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    if (o->comment != NULL && (s->comment = pm_strdup(o->comment)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    /* Java makes primary-key columns NOT NULL when the table is created. */
    for (size_t i = 0; i < s->primary_keys.count; i++) {
        size_t idx;
        if (pm_type_field_by_name(s->row, s->primary_keys.items[i], &idx) != NULL)
            s->row->fields[idx].type->nullable = false;
    }
    if ((rc = pm_api_fs_for_path(&fs, path, true, err)) != 0)
        goto done;
    path = pm_fs_local_path(path);
    rc = pm_table_create(fs, path, s, err);
    if (rc == PAIMON_EINVALID || rc == PAIMON_EUNSUPPORTED)
        pm_err_prefix(err, rc, "%s: ", path);
done:
    pm_fs_free(fs);
    pm_schema_free(s);
    return rc;
}

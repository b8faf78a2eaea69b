/* Public tag, rollback and orphan-file functions (include/paimon/maintenance.h): argument
 * checks over src/table/tag*.c, rollback.c and orphans.c. */
#include "paimon/maintenance.h"

#include "api/api.h"
#include "table/inspect.h"
#include "table/orphans.h"
#include "table/rollback.h"
#include "table/tag.h"
#include "table/tag_list.h"
#include "util/error.h"
#include "util/units.h"

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            return pm_err_set(err, PAIMON_EINVALID, __VA_ARGS__);                                  \
    } while (0)

/* A duration argument: "WHAT: 'TEXT' is not a duration" otherwise. */
PM_MUST_CHECK static int duration(const char *fn, const char *what, const char *text, int64_t *ms,
                                  paimon_error *err)
{
    if (pm_parse_duration_ms(text, ms) != 0 || *ms < 0)
        return pm_err_set(err, PAIMON_EINVALID, "%s: %s '%s' is not a duration (e.g. 12 h, 7 d)",
                          fn, what, text);
    return 0;
}

PAIMON_API int paimon_tag_create(paimon_table *table, const char *name,
                                 const paimon_tag_options *options, paimon_error *err)
{
    paimon_tag_options o;
    int64_t retained = PM_TAG_NO_RETENTION;
    int rc;
    paimon_error_clear(err);
    CHECK(table != NULL && name != NULL, "%s: table and name are required", __func__);
    if ((rc = pm_api_options_get(&pm_api_tag_options, __func__, options, &o, err)) != 0)
        return rc;
    CHECK(o.snapshot > 0 || o.snapshot == PAIMON_LATEST_SNAPSHOT,
          "%s: snapshot %lld is not a snapshot id", __func__, (long long)o.snapshot);
    if (o.time_retained != NULL &&
        (rc = duration(table->path, "time retained", o.time_retained, &retained, err)) != 0)
        return rc;
    pm_table_begin(table);
    return pm_tag_create(table, name, o.snapshot, retained, err);
}

PAIMON_API int paimon_tag_delete(paimon_table *table, const char *name, paimon_error *cleanup_err,
                                 paimon_error *err)
{
    paimon_error_clear(err);
    paimon_error_clear(cleanup_err);
    CHECK(table != NULL && name != NULL, "%s: table and name are required", __func__);
    pm_table_begin(table);
    return pm_tag_delete(table->fs, table->path, name, cleanup_err, err);
}

PAIMON_API int paimon_tag_rename(paimon_table *table, const char *from, const char *to,
                                 paimon_error *err)
{
    paimon_error_clear(err);
    CHECK(table != NULL && from != NULL && to != NULL, "%s: table and both names are required",
          __func__);
    return pm_tag_rename(table, from, to, err);
}

PAIMON_API int paimon_table_tags(paimon_table *table, paimon_list **out, paimon_error *err)
{
    paimon_error_clear(err);
    CHECK(table != NULL && out != NULL, "%s: table and out are required", __func__);
    return pm_inspect_tags(table, out, err);
}

PAIMON_API const paimon_tag_info *paimon_list_tag(const paimon_list *list, size_t i)
{
    if (list == NULL || list->kind != PM_LIST_TAGS || i >= list->count)
        return NULL;
    return (const paimon_tag_info *)list->items + i;
}

PAIMON_API int paimon_table_rollback(paimon_table *table, int64_t snapshot, const char *tag,
                                     paimon_error *err)
{
    paimon_error_clear(err);
    CHECK(table != NULL, "%s: table is required", __func__);
    CHECK(tag != NULL || snapshot > 0, "%s: snapshot %lld is not a snapshot id", __func__,
          (long long)snapshot);
    pm_table_begin(table);
    return pm_table_rollback(table->fs, table->path, snapshot, tag, err);
}

PAIMON_API int paimon_table_remove_orphans(paimon_table *table,
                                           const paimon_orphan_options *options, uint64_t *count,
                                           uint64_t *bytes, paimon_error *err)
{
    paimon_orphan_options o;
    pm_orphan_args a = {86400000, false, NULL, NULL};
    int rc;
    paimon_error_clear(err);
    if (count != NULL)
        *count = 0;
    if (bytes != NULL)
        *bytes = 0;
    CHECK(table != NULL, "%s: table is required", __func__);
    if ((rc = pm_api_options_get(&pm_api_orphan_options, __func__, options, &o, err)) != 0)
        return rc;
    if (o.older_than != NULL &&
        (rc = duration(table->path, "older than", o.older_than, &a.older_than_ms, err)) != 0)
        return rc;
    a.dry_run = o.dry_run;
    a.on_file = o.on_file;
    a.ctx = o.ctx;
    pm_table_begin(table);
    return pm_table_remove_orphans(table->fs, table->path, &a, count, bytes, err);
}

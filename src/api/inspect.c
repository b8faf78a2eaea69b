/* Public inspection functions: argument checks over src/table/inspect.c. */
#include "paimon/inspect.h"
#include "table/inspect.h"
#include "util/error.h"

#define CHECK_TABLE(t, out)                                                                        \
    do {                                                                                           \
        paimon_error_clear(err);                                                                   \
        if ((t) == NULL || (out) == NULL)                                                          \
            return pm_err_set(err, PAIMON_EINVALID, "%s: table and out are required", __func__);   \
    } while (0)

PAIMON_API size_t paimon_list_count(const paimon_list *list)
{
    return list != NULL ? list->count : 0;
}

PAIMON_API void paimon_list_free(paimon_list *list)
{
    pm_list_free(list);
}

static const void *item(const paimon_list *l, pm_list_kind kind, size_t size, size_t i)
{
    if (l == NULL || l->kind != kind || i >= l->count)
        return NULL;
    return (const char *)l->items + i * size;
}

PAIMON_API int paimon_table_snapshots(paimon_table *table, paimon_list **out, paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_inspect_snapshots(table, out, err);
}

PAIMON_API const paimon_snapshot_info *paimon_list_snapshot(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_SNAPSHOTS, sizeof(paimon_snapshot_info), i);
}

PAIMON_API int paimon_table_schemas(paimon_table *table, paimon_list **out, paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_inspect_schemas(table, out, err);
}

PAIMON_API const paimon_schema_info *paimon_list_schema(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_SCHEMAS, sizeof(paimon_schema_info), i);
}

PAIMON_API int paimon_table_options(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                    paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_inspect_options(table, snapshot_id, out, err);
}

PAIMON_API const paimon_option_info *paimon_list_option(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_OPTIONS, sizeof(paimon_option_info), i);
}

PAIMON_API int paimon_table_manifests(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                      paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_inspect_manifests(table, snapshot_id, out, err);
}

PAIMON_API const paimon_manifest_info *paimon_list_manifest(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_MANIFESTS, sizeof(paimon_manifest_info), i);
}

PAIMON_API int paimon_table_files(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                  paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_inspect_files(table, snapshot_id, out, err);
}

PAIMON_API const paimon_file_info *paimon_list_file(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_FILES, sizeof(paimon_file_info), i);
}

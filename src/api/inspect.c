/* Public inspection functions: argument checks over src/table/inspect.c. */
#include "paimon/inspect.h"
#include "table/inspect.h"
#include "table/report.h"
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

/* ---- the shape of a table (table/report.c, table/health.c) ------------------------------ */

PAIMON_API int paimon_table_health_limits(paimon_table *table, paimon_health_limits *out,
                                          paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_report_limits(table, out, err);
}

PAIMON_API int paimon_table_buckets(paimon_table *table, int64_t snapshot_id, paimon_list **out,
                                    paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_report_buckets(table, snapshot_id, out, err);
}

PAIMON_API const paimon_bucket_info *paimon_list_bucket(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_BUCKETS, sizeof(paimon_bucket_info), i);
}

PAIMON_API int paimon_table_commits(paimon_table *table, paimon_list **out, paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_report_commits(table, out, err);
}

PAIMON_API const paimon_commit_info *paimon_list_commit(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_COMMITS, sizeof(paimon_commit_info), i);
}

PAIMON_API int paimon_table_deletion_vectors(paimon_table *table, int64_t snapshot_id,
                                             paimon_list **out, paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_report_dvs(table, snapshot_id, out, err);
}

PAIMON_API const paimon_dv_info *paimon_list_dv(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_DVS, sizeof(paimon_dv_info), i);
}

PAIMON_API int paimon_table_health(paimon_table *table, paimon_list **out, paimon_error *err)
{
    CHECK_TABLE(table, out);
    return pm_report_health(table, out, err);
}

PAIMON_API const paimon_health_item *paimon_list_health(const paimon_list *list, size_t i)
{
    return item(list, PM_LIST_HEALTH, sizeof(paimon_health_item), i);
}

PAIMON_API const char *paimon_option_java_default(const char *key, bool *known)
{
    return pm_report_option_default(key, known);
}

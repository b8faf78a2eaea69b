/* Public consumer functions (include/paimon/consumer.h) over table/consumers.h. */
#include "api/api.h"
#include "table/consumers.h"
#include "util/alloc.h"

PAIMON_API int paimon_table_consumers(paimon_table *table, paimon_consumer_info **out,
                                      size_t *count, paimon_error *err)
{
    pm_consumer_entry *v = NULL;
    paimon_consumer_info *info;
    size_t n = 0;
    int rc;

    paimon_error_clear(err);
    if (table == NULL || out == NULL || count == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_consumers: table, out and count are required");
    *out = NULL;
    *count = 0;
    if ((rc = pm_consumers_list(table->fs, table->path, &v, &n, err)) != 0)
        return rc;
    if (n == 0)
        return 0;
    /* The entries' ids become the infos' ids: one allocation per id either way. */
    if ((info = pm_calloc(n, sizeof(*info))) == NULL) {
        pm_consumer_entries_free(v, n);
        return pm_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        info[i].id = v[i].id;
        info[i].next_snapshot = v[i].next_snapshot;
    }
    pm_free(v);
    *out = info;
    *count = n;
    return 0;
}

PAIMON_API void paimon_consumers_free(paimon_consumer_info *consumers, size_t count)
{
    for (size_t i = 0; consumers != NULL && i < count; i++)
        pm_free((char *)consumers[i].id);
    pm_free(consumers);
}

PAIMON_API int paimon_consumer_reset(paimon_table *table, const char *id, int64_t next_snapshot,
                                     paimon_error *err)
{
    paimon_error_clear(err);
    if (table == NULL || id == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_consumer_reset: table and id are required");
    return pm_consumer_reset(table, id, next_snapshot, err);
}

PAIMON_API int paimon_consumer_delete(paimon_table *table, const char *id, paimon_error *err)
{
    paimon_error_clear(err);
    if (table == NULL || id == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_consumer_delete: table and id are required");
    return pm_consumer_delete(table, id, err);
}

/* Public partition expiration (include/paimon/partition_expire.h) over
 * table/partition_expire.h. */
#include <string.h>

#include "api/api.h"
#include "table/partition_expire.h"
#include "table/table.h"
#include "util/alloc.h"
#include "util/units.h"

PAIMON_API void paimon_expired_partitions_free(paimon_expired_partitions *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->count; i++)
        pm_free(r->partitions[i]);
    pm_free(r->partitions);
    pm_free(r);
}

PAIMON_API int paimon_table_expire_partitions(paimon_table *table,
                                              const paimon_expire_partitions_options *options,
                                              paimon_expired_partitions **out, paimon_error *err)
{
    paimon_expire_partitions_options o;
    pm_partition_expire_opts po;
    pm_options overrides;
    pm_strlist expired;
    paimon_expired_partitions *r = NULL;
    int64_t snapshot_id = 0;
    int rc = 0;

    paimon_error_clear(err);
    if (table == NULL || out == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_expire_partitions: table and out are required");
    *out = NULL;
    if ((rc = pm_api_options_get(&pm_api_expire_partitions_options,
                                 "paimon_table_expire_partitions", options, &o, err)) != 0)
        return rc;
    pm_options_init(&overrides);
    pm_strlist_init(&expired);
    for (size_t i = 0; i < o.option_count; i++) {
        if (o.option_keys == NULL || o.option_values == NULL || o.option_keys[i] == NULL ||
            o.option_values[i] == NULL) {
            rc = pm_err_set(err, PAIMON_EINVALID,
                            "paimon_table_expire_partitions: option %zu has no key or value", i);
            goto done;
        }
        if (pm_options_set(&overrides, o.option_keys[i], o.option_values[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    memset(&po, 0, sizeof(po));
    if (o.older_than != NULL) {
        if (pm_parse_duration_ms(o.older_than, &po.older_than_ms) != 0 || po.older_than_ms < 0) {
            rc =
                pm_err_set(err, PAIMON_EINVALID, "older than '%s' is not a duration", o.older_than);
            goto done;
        }
        po.has_older_than = true;
    }
    po.dry_run = o.dry_run != 0;
    po.overrides = &overrides;
    po.commit_user = "";
    po.identifier = INT64_MAX; /* Java's procedure: expire(Long.MAX_VALUE) */
    PM_TRY(pm_partition_expire(table->fs, table->path, &po, &expired, &snapshot_id, err));
    if ((r = pm_calloc(1, sizeof(*r))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    r->partitions = expired.items; /* the list's strings, from pm_malloc */
    r->count = expired.count;
    r->snapshot_id = snapshot_id;
    pm_strlist_init(&expired);
    *out = r;
done:
    pm_strlist_free(&expired);
    pm_options_free(&overrides);
    return rc;
}

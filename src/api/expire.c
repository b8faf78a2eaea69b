/*
 * paimon_table_expire (include/paimon/expire.h): the table's expiration config
 * (table/expire.h) with the caller's overrides, as Java's ProcedureUtils.fillInSnapshotOptions
 * builds it for the expire_snapshots procedure: each value given replaces the table's, and
 * older_than replaces snapshot.time-retained.  Unlike the procedure, the table's changelog.*
 * values still apply, so a table that keeps changelogs longer keeps them here too (Java's
 * procedure builds its config without them and would delete the changelog files that
 * streaming readers of such a table rely on).
 */
#include <string.h>

#include "api/api.h"
#include "meta/schema.h"
#include "paimon/expire.h"
#include "table/expire.h"
#include "table/table.h"
#include "util/error.h"
#include "util/time.h"
#include "util/units.h"

PM_MUST_CHECK static int apply(const paimon_expire_options *o, pm_expire_config *c,
                               paimon_error *err)
{
    static const char fn[] = "paimon_table_expire";
    if (o->retain_min < 0 || o->retain_max < 0 || o->max_deletes < 0)
        return pm_err_set(err, PAIMON_EINVALID, "%s: %s must not be negative", fn,
                          o->retain_min < 0   ? "retain_min"
                          : o->retain_max < 0 ? "retain_max"
                                              : "max_deletes");
    if (o->older_than != NULL) {
        int64_t ms = 0;
        int rc = pm_parse_duration_ms(o->older_than, &ms);
        if (rc == PAIMON_ENOMEM)
            return pm_nomem(err);
        if (rc != 0)
            return pm_err_set(err, PAIMON_EINVALID, "older-than: '%s' is not a duration",
                              o->older_than);
        c->time_retained_ms = ms;
    }
    if (o->retain_min > 0)
        c->retain_min = o->retain_min;
    if (o->retain_max > 0)
        c->retain_max = o->retain_max;
    if (o->max_deletes > 0)
        c->max_deletes = o->max_deletes;
    if (c->retain_max < c->retain_min)
        return pm_err_set(err, PAIMON_EINVALID,
                          "retain-max (%lld) must not be less than retain-min (%lld)",
                          (long long)c->retain_max, (long long)c->retain_min);
    return 0;
}

PAIMON_API int paimon_table_expire(paimon_table *table, const paimon_expire_options *options,
                                   paimon_expire_result *result, paimon_error *err)
{
    paimon_expire_options o;
    pm_expire_config cfg;
    pm_expire_result r;
    pm_schema *schema = NULL;
    int rc;

    paimon_error_clear(err);
    memset(&r, 0, sizeof(r));
    if (table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_expire: no table");
    if (result != NULL && result->version != PAIMON_EXPIRE_RESULT_VERSION)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_expire: paimon_expire_result version %u; this library "
                          "knows version %u",
                          result->version, (unsigned)PAIMON_EXPIRE_RESULT_VERSION);
    if ((rc = pm_api_options_get(&pm_api_expire_options, "paimon_table_expire", options, &o,
                                 err)) != 0)
        return rc;
    /* the options as they are now (an alter since the handle was opened counts) */
    pm_table_begin(table);
    if ((rc = pm_schema_read_latest(table->fs, table->path, &schema, err)) != 0)
        return rc;
    rc = pm_expire_config_from_options(&schema->options, pm_now_millis(), &cfg, err);
    pm_schema_free(schema);
    if (rc == 0)
        rc = apply(&o, &cfg, err);
    if (rc == 0)
        rc = pm_expire_snapshots(table->fs, table->path, &cfg, o.dry_run != 0, &r, err);
    if (rc == 0 && cfg.changelog_decoupled)
        rc = pm_expire_changelogs(table->fs, table->path, &cfg, o.dry_run != 0, &r, err);
    if (result != NULL) {
        result->snapshots = r.snapshots;
        result->changelogs = r.changelogs;
        result->files = r.files;
        result->first = r.begin;
        result->end = r.end;
    }
    return rc;
}

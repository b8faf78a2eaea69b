/* Post-commit upkeep: see maintain.h.  Each step lives in its own module; this file only
 * orders them. */
#include "table/maintain.h"
#include "table/tag_auto.h"

#include "table/partition_expire.h"

int pm_table_maintain(pm_fs *fs, const char *table, int64_t committed_snapshot, paimon_error *err)
{
    int rc = 0;
    (void)fs;
    (void)table;
    (void)committed_snapshot;
    (void)err;
    /* 1. consumer expiration */
    /* 2. snapshot and changelog expiration */
    /* 3. partition expiration */
    if ((rc = pm_partition_expire_after_commit(fs, table, committed_snapshot, err)) != 0)
        return rc;
    /* 4. automatic tag creation and retention */
    rc = rc != 0 ? rc : pm_tag_auto_run(fs, table, err);
    return rc;
}

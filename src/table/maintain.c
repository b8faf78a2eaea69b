/* Post-commit upkeep: see maintain.h.  Each step lives in its own module; this file only
 * orders them. */
#include "table/maintain.h"

#include "table/expire.h"

int pm_table_maintain(pm_fs *fs, const char *table, int64_t committed_snapshot, paimon_error *err)
{
    int rc = 0;
    (void)fs;
    (void)table;
    (void)committed_snapshot;
    (void)err;
    /* 1. consumer expiration */
    if ((rc = pm_expire_consumers_step(fs, table, err)) != 0)
        return rc;
    /* 2. snapshot and changelog expiration */
    if ((rc = pm_expire_step(fs, table, err)) != 0)
        return rc;
    /* 3. partition expiration */
    /* 4. automatic tag creation and retention */
    return rc;
}

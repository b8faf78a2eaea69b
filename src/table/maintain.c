/* Post-commit upkeep: see maintain.h.  Each step lives in its own module; this file only
 * orders them, as Java 1.4.2's TableCommitImpl.maintain does. */
#include "table/maintain.h"

#include "table/expire.h"
#include "table/partition_expire.h"
#include "table/tag_auto.h"

int pm_table_maintain(pm_fs *fs, const char *table, int64_t committed_snapshot, bool expire,
                      paimon_error *err)
{
    int rc = 0;
    /* 1. automatic tags first: a tag made now protects its snapshot from the expiration
     *    below */
    if ((rc = pm_tag_auto_run(fs, table, err)) != 0)
        return rc;
    if (!expire)
        return 0;
    /* 2. partition expiration */
    if ((rc = pm_partition_expire_after_commit(fs, table, committed_snapshot, err)) != 0)
        return rc;
    /* 3. consumer expiration, before snapshots: an expired consumer no longer holds them */
    if ((rc = pm_expire_consumers_step(fs, table, err)) != 0)
        return rc;
    /* 4. snapshot and changelog expiration, the longest step, last */
    return pm_expire_step(fs, table, err);
}

/* Post-commit upkeep: see maintain.h.  Each step lives in its own module; this file only
 * orders them, as Java 1.4.2's TableCommitImpl.maintain does. */
#include "table/maintain.h"

#include <strings.h>

#include "meta/schema.h"
#include "table/expire.h"
#include "table/partition_expire.h"
#include "table/tag_auto.h"

/* Whether no snapshot can expire after the commit that made `committed`: expiration keeps
 * at least snapshot.num-retained.min snapshots, so while the ids reach no further than that
 * nothing goes (Java's ExpireSnapshotsImpl finds an empty window after reading LATEST,
 * EARLIEST and the consumers: 6 requests on S3 that tell nothing, issue 14).  A decoupled
 * changelog has its own window: never quiet then. */
PM_MUST_CHECK static int expiry_quiet(pm_fs *fs, const char *table, int64_t committed, bool *quiet,
                                      bool *auto_tags, paimon_error *err)
{
    pm_schema *schema = NULL;
    pm_expire_config cfg;
    const char *mode;
    int rc;
    *quiet = false;
    *auto_tags = true;
    if ((rc = pm_schema_read_latest(fs, table, &schema, err)) != 0)
        return rc;
    mode = pm_schema_option(schema, "tag.automatic-creation");
    *auto_tags = mode != NULL && strcasecmp(mode, "none") != 0;
    rc = pm_expire_config_from_options(&schema->options, 0, &cfg, err);
    if (rc == 0)
        *quiet = committed > 0 && committed <= cfg.retain_min && !cfg.changelog_decoupled;
    pm_schema_free(schema);
    return rc;
}

int pm_table_maintain(pm_fs *fs, const char *table, int64_t committed_snapshot, bool expire,
                      paimon_error *err)
{
    bool quiet = false, auto_tags = true;
    int rc = 0;
    if ((rc = expiry_quiet(fs, table, committed_snapshot, &quiet, &auto_tags, err)) != 0)
        return rc;
    /* 1. automatic tags first: a tag made now protects its snapshot from the expiration
     *    below.  Without automatic creation, this step only expires tags by their retained
     *    time, which needs a listing of tag/; it runs with the expiration of snapshots (not
     *    while they are quiet), so a tag past its time goes at the first commit that can
     *    expire snapshots rather than at the very next commit. */
    if ((auto_tags || !quiet) && (rc = pm_tag_auto_run(fs, table, err)) != 0)
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
    return quiet ? 0 : pm_expire_step(fs, table, err);
}

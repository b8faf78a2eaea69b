/* Public write functions: argument checks and error translation over src/table. */
#include "paimon/write.h"
#include "table/alter.h"
#include "util/error.h"

PAIMON_API int paimon_table_alter(const char *path, const paimon_alter *change, int64_t *schema_id,
                                  paimon_error *err)
{
    pm_fs *fs;
    int rc;
    paimon_error_clear(err);
    if (path == NULL || path[0] == '\0' || change == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_alter: path and change needed");
    if (change->version != PAIMON_ALTER_VERSION)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_alter: change version %u, this library knows %d",
                          change->version, PAIMON_ALTER_VERSION);
    if ((fs = pm_fs_local_new(true)) == NULL)
        return pm_nomem(err);
    rc = pm_table_alter(fs, path, change, schema_id, err);
    pm_fs_free(fs);
    return rc;
}

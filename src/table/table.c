/* Table handles: see table.h. */
#include "table/table.h"

#include <string.h>

#include "io/s3/s3_config.h"
#include "meta/paths.h"
#include "table/option_check.h"
#include "util/alloc.h"
#include "util/error.h"

int pm_table_open(paimon_table **out, const char *path, pm_fs *fs, paimon_error *err)
{
    paimon_table *t = NULL;
    size_t len = strlen(path);
    int kind = 0, rc;
    uint64_t size;

    *out = NULL;
    if (fs == NULL)
        return pm_nomem(err);
    while (len > 1 && path[len - 1] == '/')
        len--;
    t = pm_calloc(1, sizeof(*t));
    if (t == NULL || (t->path = pm_strndup(path, len)) == NULL) {
        pm_free(t);
        pm_fs_free(fs);
        return pm_nomem(err);
    }
    t->fs = fs;
    /* The schema says whether this is a table: no stat of the root first (on S3 a HEAD and
     * a LIST for nothing, issue 14).  Only a failure asks what the root is, to say why. */
    if ((rc = pm_schema_read_latest(fs, t->path, &t->schema, err)) != 0) {
        paimon_error ignored;
        if (fs->stat(fs, t->path, &kind, &size, &ignored) != 0)
            goto done;
        if (kind == 0)
            rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such table", t->path);
        else if (kind == 1)
            rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: not a Paimon table (not a directory)",
                            t->path);
        goto done;
    }
    *out = t;
    return 0;
done:
    pm_table_close(t);
    return rc;
}

void pm_table_begin(paimon_table *t)
{
    if (atomic_exchange(&t->begun, true))
        pm_schema_forget(t->fs, t->path);
}

void pm_table_close(paimon_table *t)
{
    if (t == NULL)
        return;
    pm_schema_free(t->schema);
    pm_fs_free(t->fs);
    pm_free(t->path);
    pm_free(t);
}

int pm_table_snapshot(paimon_table *t, int64_t id, pm_snapshot **out, paimon_error *err)
{
    bool found;
    int rc;
    *out = NULL;
    if (id < 0) {
        /* the hint's snapshot read and checked in one go: 3 requests on S3, not 5 */
        if ((rc = pm_snapshot_read_latest(t->fs, t->path, true, out, &found, err)) != 0)
            return rc;
        if (!found)
            return pm_err_set(err, PAIMON_ENOTFOUND, "%s: the table has no snapshot yet", t->path);
        return 0;
    }
    rc = pm_snapshot_read(t->fs, t->path, id, out, err);
    if (rc == PAIMON_ENOTFOUND)
        return pm_err_set(err, rc, "%s: snapshot %lld does not exist", t->path, (long long)id);
    return rc;
}

int pm_table_schema(paimon_table *t, int64_t id, pm_schema **out, paimon_error *err)
{
    if (t->schema != NULL && t->schema->id == id) {
        *out = t->schema;
        return 0;
    }
    return pm_schema_read(t->fs, t->path, id, out, err);
}

void pm_table_schema_release(paimon_table *t, pm_schema *s)
{
    if (s != t->schema)
        pm_schema_free(s);
}

int pm_table_create(pm_fs *fs, const char *path, pm_schema *schema, paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    uint64_t size;
    int rc, kind = 0;

    if ((rc = pm_schema_validate(schema, err)) != 0)
        return rc;
    /* Java's file-system catalog (AbstractCatalog.validateCustomTablePath): a table is where
     * it is created */
    if (pm_schema_option(schema, "path") != NULL)
        return pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "option path: a table's location is where it is created; setting "
                          "it is not supported");
    if ((rc = pm_table_options_check(schema, err)) != 0)
        return rc;
    if ((rc = fs->stat(fs, path, &kind, &size, err)) != 0)
        return rc;
    if (kind == 1) /* a table is a directory */
        return pm_err_set(err, PAIMON_EEXISTS, "%s: exists and is a file, not a table directory",
                          path);
    if ((rc = pm_schema_list_ids(fs, path, &ids, &n, err)) != 0)
        return rc;
    pm_free(ids);
    if (n > 0)
        return pm_err_set(err, PAIMON_EEXISTS, "%s: a table exists already", path);
    rc = pm_schema_commit(fs, path, schema, err);
    if (rc == PAIMON_EEXISTS)
        return pm_err_set(err, rc, "%s: a table exists already", path);
    return rc;
}

const char *pm_table_shown_value(const char *key, const char *value)
{
    return pm_s3_config_is_secret(key) ? PM_TABLE_SECRET_MASK : value;
}

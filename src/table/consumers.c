/* Consumer management: see consumers.h. */
#include "table/consumers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta/file_path.h"
#include "meta/paths.h"
#include "meta/snapshot.h"
#include "util/alloc.h"
#include "util/strlist.h"

void pm_consumer_entries_free(pm_consumer_entry *entries, size_t count)
{
    for (size_t i = 0; entries != NULL && i < count; i++)
        pm_free(entries[i].id);
    pm_free(entries);
}

int pm_consumer_id_check(const char *table, const char *id, paimon_error *err)
{
    if (id == NULL || !pm_file_name_is_plain(id))
        return pm_err_set(err, PAIMON_EINVALID, "%s: consumer id '%s' is not a plain name", table,
                          id != NULL ? id : "");
    return 0;
}

int pm_consumers_list(pm_fs *fs, const char *table, pm_consumer_entry **out, size_t *count,
                      paimon_error *err)
{
    pm_strlist ids;
    pm_consumer_entry *v = NULL;
    size_t n = 0;
    int rc = 0;

    *out = NULL;
    *count = 0;
    pm_strlist_init(&ids);
    PM_TRY(pm_consumer_list(fs, table, &ids, err));
    pm_strlist_sort(&ids);
    if (ids.count > 0 && (v = pm_calloc(ids.count, sizeof(*v))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < ids.count; i++) {
        int64_t next = 0;
        if (!pm_file_name_is_plain(ids.items[i]))
            continue;
        rc = pm_consumer_read(fs, table, ids.items[i], &next, err);
        if (rc == PAIMON_ENOTFOUND) { /* removed meanwhile */
            paimon_error_clear(err);
            rc = 0;
            continue;
        }
        if (rc != 0)
            goto done;
        if ((v[n].id = pm_strdup(ids.items[i])) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        v[n++].next_snapshot = next;
    }
    *out = v;
    *count = n;
    v = NULL;
done:
    pm_consumer_entries_free(v, n);
    pm_strlist_free(&ids);
    return rc;
}

/* 0 when consumer `id` of `t` exists, PAIMON_ENOTFOUND naming it otherwise. */
PM_MUST_CHECK static int consumer_exists(paimon_table *t, const char *id, paimon_error *err)
{
    int64_t next = 0;
    int rc = pm_consumer_id_check(t->path, id, err);
    if (rc != 0)
        return rc;
    rc = pm_consumer_read(t->fs, t->path, id, &next, err);
    if (rc == PAIMON_ENOTFOUND)
        return pm_err_set(err, PAIMON_ENOTFOUND, "%s: consumer %s does not exist", t->path, id);
    return rc;
}

int pm_consumer_reset(paimon_table *t, const char *id, int64_t next_snapshot, paimon_error *err)
{
    pm_snapshot *s = NULL;
    int rc;
    if ((rc = consumer_exists(t, id, err)) != 0)
        return rc;
    if (next_snapshot < 1)
        return pm_err_set(err, PAIMON_EINVALID, "%s: snapshot ids start at 1, not %lld", t->path,
                          (long long)next_snapshot);
    if ((rc = pm_table_snapshot(t, next_snapshot, &s, err)) != 0)
        return rc;
    pm_snapshot_free(s);
    return pm_consumer_write(t->fs, t->path, id, next_snapshot, err);
}

int pm_consumer_delete(paimon_table *t, const char *id, paimon_error *err)
{
    char name[512];
    char *path;
    int rc;
    if ((rc = consumer_exists(t, id, err)) != 0)
        return rc;
    if ((size_t)snprintf(name, sizeof(name), "consumer-%s", id) >= sizeof(name))
        return pm_err_set(err, PAIMON_EINVALID, "%s: consumer id '%s' is too long", t->path, id);
    if ((path = pm_table_file(t->path, PM_DIR_CONSUMER, name)) == NULL)
        return pm_nomem(err);
    rc = t->fs->remove(t->fs, path, err);
    pm_free(path);
    return rc;
}

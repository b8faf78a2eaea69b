/*
 * Snapshot, hint, tag and consumer files: finding, reading and publishing them.
 * See snapshot.h; the hint rules are metadata.md §14.3–14.4.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "meta/paths.h"
#include "meta/snapshot.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/json.h"

#define METADATA_FILE_MAX (256u << 20) /* a JSON metadata file larger than this is corrupt */

char *pm_snapshot_path(const char *table, int64_t id)
{
    char name[40];
    snprintf(name, sizeof(name), "snapshot-%" PRId64, id);
    return pm_table_file(table, PM_DIR_SNAPSHOT, name);
}

int pm_snapshot_list_ids(pm_fs *fs, const char *table, int64_t **ids, size_t *count,
                         paimon_error *err)
{
    char *dir = pm_table_file(table, PM_DIR_SNAPSHOT, NULL);
    int rc;
    if (dir == NULL)
        return pm_nomem(err);
    rc = pm_list_versioned(fs, dir, "snapshot-", ids, count, err);
    pm_free(dir);
    return rc;
}

/* Reads a hint file: digits only; any other content (a newline, garbage) counts as absent. */
PM_MUST_CHECK static int read_hint(pm_fs *fs, const char *table, const char *hint, int64_t *id,
                                   bool *ok, paimon_error *err)
{
    char *path = pm_table_file(table, PM_DIR_SNAPSHOT, hint);
    uint8_t *data = NULL;
    size_t len = 0;
    paimon_error ignored = {0, {0}};
    int rc = 0;

    *ok = false;
    if (path == NULL)
        return pm_nomem(err);
    if (pm_fs_read_all(fs, path, 64, &data, &len, &ignored) == 0 && len > 0) {
        char name[80];
        snprintf(name, sizeof(name), "x%.*s", (int)len, (const char *)data);
        *ok = len < 40 && pm_parse_versioned_name(name, "x", id);
    } else if (ignored.code == PAIMON_ENOMEM) {
        rc = pm_nomem(err);
    }
    pm_free(data);
    pm_free(path);
    return rc;
}

PM_MUST_CHECK static int snapshot_exists(pm_fs *fs, const char *table, int64_t id, bool *exists,
                                         paimon_error *err)
{
    char *path = pm_snapshot_path(table, id);
    int rc;
    if (path == NULL)
        return pm_nomem(err);
    rc = pm_fs_exists_file(fs, path, exists, err); /* a snapshot is a file: one HEAD on S3 */
    pm_free(path);
    return rc;
}

/* The id a hint file names, if it still holds: its snapshot exists and the one beyond it
 * (the next for LATEST, `step` 1; the previous for EARLIEST, `step` -1) does not.  Else
 * the directory is the truth: the last or first id listed. */
PM_MUST_CHECK static int hinted_id(pm_fs *fs, const char *table, const char *hint_name, int step,
                                   int64_t *id, bool *found, paimon_error *err)
{
    int64_t hint = 0, *ids = NULL;
    size_t n = 0;
    bool ok, exists, beyond = false;
    int rc;

    *found = false;
    *id = 0;
    if ((rc = read_hint(fs, table, hint_name, &hint, &ok, err)) != 0)
        return rc;
    if (ok && hint > 0) {
        if ((rc = snapshot_exists(fs, table, hint, &exists, err)) != 0)
            return rc;
        if ((step > 0 || (exists && hint > 1)) &&
            (rc = snapshot_exists(fs, table, hint + step, &beyond, err)) != 0)
            return rc;
        if (exists && !beyond) {
            *id = hint;
            *found = true;
            return 0;
        }
    }
    /* Missing or stale hint: the directory is the truth. */
    if ((rc = pm_snapshot_list_ids(fs, table, &ids, &n, err)) != 0)
        return rc;
    if (n > 0) {
        *id = step > 0 ? ids[n - 1] : ids[0];
        *found = true;
    }
    pm_free(ids);
    return 0;
}

int pm_snapshot_latest_id(pm_fs *fs, const char *table, int64_t *id, bool *found, paimon_error *err)
{
    return hinted_id(fs, table, "LATEST", 1, id, found, err);
}

int pm_snapshot_read_latest(pm_fs *fs, const char *table, bool probe, pm_snapshot **out,
                            bool *found, paimon_error *err)
{
    int64_t hint = 0, *ids = NULL;
    size_t n = 0;
    bool ok, beyond = false;
    int rc;

    *out = NULL;
    *found = false;
    if ((rc = read_hint(fs, table, "LATEST", &hint, &ok, err)) != 0)
        return rc;
    if (ok && hint > 0) {
        rc = pm_snapshot_read(fs, table, hint, out, err);
        if (rc != 0 && rc != PAIMON_ENOTFOUND)
            return rc;
        if (rc == 0 && probe && (rc = snapshot_exists(fs, table, hint + 1, &beyond, err)) != 0) {
            pm_snapshot_free(*out);
            *out = NULL;
            return rc;
        }
        if (rc == 0 && !beyond) {
            *found = true;
            return 0;
        }
        pm_snapshot_free(*out);
        *out = NULL;
        if (err != NULL)
            paimon_error_clear(err);
    }
    /* Missing or stale hint: the directory is the truth. */
    if ((rc = pm_snapshot_list_ids(fs, table, &ids, &n, err)) != 0)
        return rc;
    if (n > 0 && (rc = pm_snapshot_read(fs, table, ids[n - 1], out, err)) == 0)
        *found = true;
    pm_free(ids);
    return rc;
}

int pm_snapshot_earliest_id(pm_fs *fs, const char *table, int64_t *id, bool *found,
                            paimon_error *err)
{
    return hinted_id(fs, table, "EARLIEST", -1, id, found, err);
}

int pm_snapshot_read(pm_fs *fs, const char *table, int64_t id, pm_snapshot **out, paimon_error *err)
{
    char *path = pm_snapshot_path(table, id);
    uint8_t *data = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    if (path == NULL)
        return pm_nomem(err);
    rc = pm_fs_read_all(fs, path, METADATA_FILE_MAX, &data, &len, err);
    if (rc == PAIMON_ENOTFOUND)
        rc = pm_err_set(err, rc, "%s: snapshot %lld does not exist", path, (long long)id);
    if (rc == 0)
        rc = pm_snapshot_parse(data, len, path, out, err);
    if (rc == 0 && (*out)->id != id) {
        rc = pm_corrupt(err, "%s: holds snapshot id %lld", path, (long long)(*out)->id);
        pm_snapshot_free(*out);
        *out = NULL;
    }
    pm_free(data);
    pm_free(path);
    return rc;
}

int pm_snapshot_commit(pm_fs *fs, const char *table, const pm_snapshot *s, paimon_error *err)
{
    return pm_metadata_create_json(fs, pm_snapshot_path(table, s->id), pm_snapshot_to_json(s), err);
}

int pm_snapshot_write_hint(pm_fs *fs, const char *table, const char *hint, int64_t id,
                           paimon_error *err)
{
    char *path = pm_table_file(table, PM_DIR_SNAPSHOT, hint);
    char text[24];
    int rc, n = snprintf(text, sizeof(text), "%" PRId64, id);
    if (path == NULL)
        return pm_nomem(err);
    rc = fs->write_atomic(fs, path, text, (size_t)n, true, err);
    pm_free(path);
    return rc;
}

/* ---- tags ------------------------------------------------------------------------------ */

void pm_tag_free(pm_tag *t)
{
    if (t == NULL)
        return;
    pm_free(t->name);
    pm_snapshot_free(t->snapshot);
    json_decref(t->create_time);
    json_decref(t->time_retained);
    pm_free(t);
}

PM_MUST_CHECK static int list_prefixed(pm_fs *fs, const char *table, const char *dir_name,
                                       const char *prefix, pm_strlist *out, paimon_error *err)
{
    char *dir = pm_table_file(table, dir_name, NULL);
    pm_strlist names;
    int rc;
    if (dir == NULL)
        return pm_nomem(err);
    pm_strlist_init(&names);
    /* a missing directory lists as PAIMON_ENOTFOUND: none (not asked first, as
     * pm_list_versioned does not) */
    if ((rc = fs->list(fs, dir, &names, err)) == PAIMON_ENOTFOUND) {
        paimon_error_clear(err);
        rc = 0;
    }
    for (size_t i = 0; rc == 0 && i < names.count; i++) {
        size_t pl = strlen(prefix);
        if (strncmp(names.items[i], prefix, pl) == 0 && names.items[i][pl] != '\0' &&
            pm_strlist_push(out, names.items[i] + pl) != 0)
            rc = pm_nomem(err);
    }
    pm_strlist_sort(out);
    pm_strlist_free(&names);
    pm_free(dir);
    return rc;
}

int pm_tag_list(pm_fs *fs, const char *table, pm_strlist *names, paimon_error *err)
{
    return list_prefixed(fs, table, PM_DIR_TAG, "tag-", names, err);
}

/* "<table>/<dir>/<prefix><name>"; release with pm_free. */
static char *prefixed_path(const char *table, const char *dir, const char *prefix, const char *name)
{
    size_t n = strlen(prefix) + strlen(name) + 1;
    char *file = pm_malloc(n), *path;
    if (file == NULL)
        return NULL;
    snprintf(file, n, "%s%s", prefix, name);
    path = pm_table_file(table, dir, file);
    pm_free(file);
    return path;
}

static char *tag_path(const char *table, const char *name)
{
    return prefixed_path(table, PM_DIR_TAG, "tag-", name);
}

int pm_tag_read(pm_fs *fs, const char *table, const char *name, pm_tag **out, paimon_error *err)
{
    char *path = tag_path(table, name);
    uint8_t *data = NULL;
    size_t len = 0;
    pm_tag *t = NULL;
    int rc;

    *out = NULL;
    if (path == NULL)
        return pm_nomem(err);
    rc = pm_fs_read_all(fs, path, METADATA_FILE_MAX, &data, &len, err);
    if (rc == PAIMON_ENOTFOUND)
        rc = pm_err_set(err, rc, "%s: tag %s does not exist", table, name);
    if (rc != 0)
        goto done;
    t = pm_calloc(1, sizeof(*t));
    if (t == NULL || (t->name = pm_strdup(name)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if ((rc = pm_snapshot_parse(data, len, path, &t->snapshot, err)) != 0)
        goto done;
    t->create_time = json_incref(json_object_get(t->snapshot->json, "tagCreateTime"));
    t->time_retained = json_incref(json_object_get(t->snapshot->json, "tagTimeRetained"));
    *out = t;
    t = NULL;
done:
    pm_tag_free(t);
    pm_free(data);
    pm_free(path);
    return rc;
}

int pm_tag_write(pm_fs *fs, const char *table, const pm_tag *tag, paimon_error *err)
{
    char *path = tag_path(table, tag->name);
    json_t *o = pm_snapshot_to_json(tag->snapshot);
    if (o != NULL &&
        ((tag->create_time != NULL && json_object_set(o, "tagCreateTime", tag->create_time) != 0) ||
         (tag->time_retained != NULL &&
          json_object_set(o, "tagTimeRetained", tag->time_retained) != 0))) {
        json_decref(o);
        o = NULL; /* out of memory */
    }
    return pm_metadata_create_json(fs, path, o, err);
}

/* ---- consumers ------------------------------------------------------------------------- */

static char *consumer_path(const char *table, const char *id)
{
    return prefixed_path(table, PM_DIR_CONSUMER, "consumer-", id);
}

int pm_consumer_list(pm_fs *fs, const char *table, pm_strlist *ids, paimon_error *err)
{
    return list_prefixed(fs, table, PM_DIR_CONSUMER, "consumer-", ids, err);
}

int pm_consumer_read(pm_fs *fs, const char *table, const char *id, int64_t *next_snapshot,
                     paimon_error *err)
{
    char *path = consumer_path(table, id);
    uint8_t *data = NULL;
    size_t len = 0;
    json_t *root = NULL;
    int rc;
    if (path == NULL)
        return pm_nomem(err);
    rc = pm_fs_read_all(fs, path, 1 << 20, &data, &len, err);
    if (rc == 0)
        rc = pm_json_parse_object(data, len, path, &root, err);
    if (rc == 0)
        rc = pm_json_get_i64(root, "nextSnapshot", true, next_snapshot, NULL, path, err);
    json_decref(root);
    pm_free(data);
    pm_free(path);
    return rc;
}

int pm_consumer_write(pm_fs *fs, const char *table, const char *id, int64_t next_snapshot,
                      paimon_error *err)
{
    char *path = consumer_path(table, id);
    char text[64];
    int rc,
        n = snprintf(text, sizeof(text), "{\n  \"nextSnapshot\" : %" PRId64 "\n}", next_snapshot);
    if (path == NULL)
        return pm_nomem(err);
    rc = fs->write_atomic(fs, path, text, (size_t)n, true, err);
    pm_free(path);
    return rc;
}

/*
 * Deleting a tag and the files only it kept (tag.h), as Java 1.4.2's TagManager.deleteTag
 * and TagDeletion do:
 *
 *  1. A snapshot file of the tag's id still exists: only the tag file goes (the snapshot's
 *     expiration will clean up).  Otherwise every tag is read first, then the tag file is
 *     deleted; another tag of the same snapshot stops here.
 *  2. The skipping snapshots: the previous tagged snapshot, and the nearer of the next
 *     tagged snapshot and the earliest snapshot.
 *  3. Data files: the live files of the tag's snapshot that no skipping snapshot has live,
 *     with their extra files.  If the skipping set cannot be built, data files are kept.
 *  4. Manifests: the manifests of the tag's base and delta lists and the lists themselves,
 *     its index manifest and index files, its statistics file -- each unless a skipping
 *     snapshot references it.  If that set cannot be built, they are kept.
 *
 * Removal failures do not stop the cleanup and do not undo the deletion (the tag file is
 * already gone, so readers of the remaining snapshots and tags never miss a file): the
 * first one is reported in cleanup_err, and the files left are orphans.
 */
#include <inttypes.h>
#include <string.h>

#include "meta/file_entry.h"
#include "meta/file_path.h"
#include "meta/paths.h"
#include "table/orphans_refs.h"
#include "table/scan.h"
#include "table/tag.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct cleaner {
    pm_fs *fs;
    paimon_table t;
    pm_arena arena;
    int rc; /* the first cleanup failure */
    paimon_error *err;
} cleaner;

static void note(cleaner *c, int rc, const paimon_error *e)
{
    if (c->rc != 0 || rc == 0)
        return;
    c->rc = rc;
    if (c->err != NULL && e != NULL)
        *c->err = *e;
}

static void remove_path(cleaner *c, const char *path)
{
    paimon_error e = {0, {0}};
    int rc = c->fs->remove(c->fs, path, &e);
    if (rc != PAIMON_ENOTFOUND)
        note(c, rc, &e);
}

static void remove_meta(cleaner *c, const char *dir, const char *name)
{
    paimon_error e = {0, {0}};
    pm_buf b;
    pm_buf_init(&b, 0);
    if (pm_refs_meta_path(&c->t, dir, name, &b, &e) != 0)
        note(c, e.code, &e);
    else
        remove_path(c, pm_buf_cstr(&b));
    pm_buf_free(&b);
}

/* The data files of the tag's snapshot that no skipping snapshot has live. */
static void clean_data_files(cleaner *c, const pm_snapshot *tagged, const pm_refs *skip)
{
    const pm_manifest_entry **live = NULL;
    size_t n = 0;
    paimon_error e = {0, {0}};
    if (pm_snapshot_live_entries(c->fs, c->t.path, tagged, &c->arena, &live, &n, &e) != 0) {
        note(c, e.code, &e); /* Java: the data-file cleanup is skipped */
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const pm_data_file_meta *f = &live[i]->file;
        const char *path, *slash;
        if (pm_refs_has(skip, f->file_name))
            continue;
        if ((path = pm_data_file_path(&c->t, c->t.schema, live[i], &c->arena, &e)) == NULL) {
            note(c, e.code, &e);
            continue;
        }
        /* extra files (file indexes) sit beside their data file, each name checked */
        slash = strrchr(path, '/');
        for (size_t k = 0; f->extra_files.present && k < f->extra_files.count; k++) {
            const char *x = ((const char *const *)f->extra_files.items)[k];
            char *dir =
                pm_arena_strndup(&c->arena, path, slash != NULL ? (size_t)(slash - path) : 0);
            pm_buf b;
            pm_buf_init(&b, 0);
            if (dir == NULL)
                note(c, PAIMON_ENOMEM, NULL);
            else if (pm_file_path_resolve(c->t.path, &c->t.schema->options, dir, x, NULL, &b, &e) !=
                     0)
                note(c, e.code, &e);
            else
                remove_path(c, pm_buf_cstr(&b));
            pm_buf_free(&b);
        }
        remove_path(c, path);
    }
}

static void clean_list(cleaner *c, const char *list, int64_t size, pm_refs *skip)
{
    pm_manifest_file_meta *metas = NULL;
    size_t n = 0;
    paimon_error e = {0, {0}};
    if (list == NULL)
        return;
    /* Java's tryReadManifestList: an unreadable list has nothing to clean */
    if (pm_manifest_list_read(c->fs, c->t.path, list, size, &c->arena, &metas, &n, &e) == 0) {
        for (size_t i = 0; i < n; i++) {
            if (pm_refs_has(skip, metas[i].file_name))
                continue;
            remove_meta(c, PM_DIR_MANIFEST, metas[i].file_name);
            if (pm_refs_add(skip, metas[i].file_name, &e) != 0)
                note(c, e.code, &e);
        }
    }
    if (!pm_refs_has(skip, list))
        remove_meta(c, PM_DIR_MANIFEST, list);
}

static void clean_manifests(cleaner *c, const pm_snapshot *s, pm_refs *skip)
{
    paimon_error e = {0, {0}};
    clean_list(c, s->base_manifest_list, s->base_manifest_list_size, skip);
    clean_list(c, s->delta_manifest_list, s->delta_manifest_list_size, skip);
    if (s->index_manifest != NULL) {
        pm_index_manifest_entry *ie = NULL;
        size_t n = 0;
        int rc =
            pm_index_manifest_read(c->fs, c->t.path, s->index_manifest, &c->arena, &ie, &n, &e);
        if (rc == 0) {
            for (size_t i = 0; i < n; i++) {
                const char *path;
                if (pm_refs_has(skip, ie[i].file_name))
                    continue;
                if ((path = pm_refs_index_path(&c->t, &ie[i], &c->arena, &e)) == NULL)
                    note(c, e.code, &e);
                else
                    remove_path(c, path);
            }
            if (!pm_refs_has(skip, s->index_manifest))
                remove_meta(c, PM_DIR_MANIFEST, s->index_manifest);
        } else if (rc != PAIMON_ENOTFOUND) {
            note(c, rc, &e);
        }
    }
    if (s->statistics != NULL && !pm_refs_has(skip, s->statistics))
        remove_meta(c, "statistics", s->statistics);
}

/* The cleanup of steps 2-4 for the tag's snapshot `tagged` at index `at` of `tags`. */
static void clean(cleaner *c, pm_tag **tags, size_t n, const pm_snapshot *tagged)
{
    const pm_snapshot *skip_snaps[2] = {NULL, NULL};
    pm_snapshot *earliest = NULL;
    pm_refs data, meta;
    int64_t earliest_id = 0;
    bool found = false, ok = true;
    paimon_error e = {0, {0}};
    size_t k = 0;

    /* the previous and next tagged snapshots (other ids than the tag's) */
    for (size_t i = 0; i < n; i++)
        if (tags[i]->snapshot->id < tagged->id)
            skip_snaps[0] = tags[i]->snapshot;
    for (size_t i = n; i-- > 0;)
        if (tags[i]->snapshot->id > tagged->id)
            skip_snaps[1] = tags[i]->snapshot;
    if (pm_snapshot_earliest_id(c->fs, c->t.path, &earliest_id, &found, &e) != 0 ||
        (found && pm_snapshot_read(c->fs, c->t.path, earliest_id, &earliest, &e) != 0)) {
        note(c, e.code, &e); /* without the right neighbour nothing is safe to delete */
        return;
    }
    if (earliest != NULL && (skip_snaps[1] == NULL || earliest->id < skip_snaps[1]->id))
        skip_snaps[1] = earliest;

    pm_refs_init(&data);
    pm_refs_init(&meta);
    for (k = 0; k < 2 && ok; k++)
        if (skip_snaps[k] != NULL &&
            pm_refs_add_live(&data, c->fs, c->t.path, skip_snaps[k], &e) != 0) {
            note(c, e.code, &e);
            ok = false;
        }
    if (ok)
        clean_data_files(c, tagged, &data);
    ok = true;
    for (k = 0; k < 2 && ok; k++)
        if (skip_snaps[k] != NULL &&
            pm_refs_add_snapshot(&meta, NULL, c->fs, c->t.path, skip_snaps[k], false, &e) != 0) {
            note(c, e.code, &e);
            ok = false;
        }
    if (ok)
        clean_manifests(c, tagged, &meta);
    pm_refs_free(&data);
    pm_refs_free(&meta);
    pm_snapshot_free(earliest);
}

int pm_tag_delete(pm_fs *fs, const char *table, const char *name, paimon_error *cleanup_err,
                  paimon_error *err)
{
    pm_tag *tag = NULL, **tags = NULL;
    size_t n = 0, same = 0;
    char *path = NULL, *snap_path = NULL;
    bool snapshot_exists = false;
    cleaner c;
    int rc = 0;

    memset(&c, 0, sizeof(c));
    PM_TRY(pm_tag_name_check(table, name, err));
    PM_TRY(pm_tag_read(fs, table, name, &tag, err));
    if ((snap_path = pm_snapshot_path(table, tag->snapshot->id)) == NULL)
        PM_TRY(pm_nomem(err));
    {
        size_t len = strlen(name) + 5;
        char *file = pm_malloc(len);
        if (file == NULL)
            PM_TRY(pm_nomem(err));
        memcpy(file, "tag-", 4);
        memcpy(file + 4, name, len - 4);
        path = pm_table_file(table, PM_DIR_TAG, file);
        pm_free(file);
        if (path == NULL)
            PM_TRY(pm_nomem(err));
    }
    PM_TRY(pm_fs_exists(fs, snap_path, &snapshot_exists, err));
    if (!snapshot_exists) /* every tag, read before the file goes (Java's order) */
        PM_TRY(pm_tag_read_all(fs, table, &tags, &n, err));
    rc = fs->remove(fs, path, err);
    if (rc == PAIMON_ENOTFOUND)
        rc = pm_err_set(err, rc, "%s: tag %s does not exist", table, name);
    PM_TRY(rc);
    if (snapshot_exists)
        goto done;
    for (size_t i = 0; i < n; i++)
        if (tags[i]->snapshot->id == tag->snapshot->id)
            same++;
    if (same > 1) /* another tag keeps the snapshot's files */
        goto done;

    c.fs = fs;
    c.err = cleanup_err;
    pm_arena_init(&c.arena, 1 << 16);
    if ((c.rc = pm_refs_table_open(&c.t, fs, table, cleanup_err)) == 0) {
        /* the remaining tags: the deleted one is no neighbour of itself */
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (strcmp(tags[i]->name, name) != 0)
                tags[m++] = tags[i];
            else
                pm_tag_free(tags[i]);
        n = m;
        clean(&c, tags, n, tag->snapshot);
    }
    pm_refs_table_close(&c.t);
    pm_arena_free(&c.arena);
done:
    pm_tag_free_all(tags, n);
    pm_tag_free(tag);
    pm_free(path);
    pm_free(snap_path);
    return rc;
}

/* The files a snapshot references, and their checked paths: see orphans_refs.h. */
#include "table/orphans_refs.h"

#include <string.h>

#include "meta/file_entry.h"
#include "meta/file_path.h"
#include "meta/paths.h"
#include "meta/schema.h"
#include "table/scan.h"
#include "util/alloc.h"
#include "util/error.h"

void pm_refs_init(pm_refs *r)
{
    pm_bytes_map_init(&r->names);
}

void pm_refs_free(pm_refs *r)
{
    pm_bytes_map_free(&r->names);
}

bool pm_refs_has(const pm_refs *r, const char *name)
{
    return pm_bytes_map_find(&r->names, name, strlen(name)) >= 0;
}

int pm_refs_add(pm_refs *r, const char *name, paimon_error *err)
{
    int64_t id;
    bool inserted;
    if (name == NULL)
        return 0;
    return pm_bytes_map_put(&r->names, name, strlen(name), 0, &id, &inserted) != 0 ? pm_nomem(err)
                                                                                   : 0;
}

/* The data file of `f` and its extra files. */
PM_MUST_CHECK static int add_data_file(pm_refs *data, const pm_data_file_meta *f, paimon_error *err)
{
    int rc = pm_refs_add(data, f->file_name, err);
    const char *const *extra = (const char *const *)f->extra_files.items;
    for (size_t i = 0; rc == 0 && f->extra_files.present && i < f->extra_files.count; i++)
        rc = pm_refs_add(data, extra[i], err);
    return rc;
}

/* One manifest list: the list, its manifests, and (data != NULL) their entries' files.
 * With `missing_ok`, a list that is gone names nothing (see pm_refs_add_changelog). */
PM_MUST_CHECK static int add_list(pm_refs *meta, pm_refs *data, pm_fs *fs, const char *table,
                                  const char *list, int64_t list_size, bool missing_ok,
                                  paimon_error *err)
{
    pm_arena arena;
    pm_manifest_file_meta *metas = NULL;
    size_t n = 0;
    int rc = 0;

    if (list == NULL)
        return 0;
    PM_TRY(pm_file_name_check(table, "manifest list", list, err));
    PM_TRY(pm_refs_add(meta, list, err));
    pm_arena_init(&arena, 1 << 14);
    rc = pm_manifest_list_read(fs, table, list, list_size, &arena, &metas, &n, err);
    if (rc == PAIMON_ENOTFOUND && missing_ok) {
        paimon_error_clear(err);
        rc = 0;
        n = 0;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        pm_arena entries_arena;
        pm_manifest_entry *entries = NULL;
        size_t ne = 0;
        if (pm_refs_has(meta, metas[i].file_name))
            continue; /* read for an earlier snapshot */
        if ((rc = pm_file_name_check(table, "manifest", metas[i].file_name, err)) != 0 ||
            (rc = pm_refs_add(meta, metas[i].file_name, err)) != 0 || data == NULL)
            continue;
        pm_arena_init(&entries_arena, 1 << 16);
        rc = pm_manifest_read(fs, table, metas[i].file_name, metas[i].file_size, &entries_arena,
                              &entries, &ne, err);
        for (size_t j = 0; rc == 0 && j < ne; j++)
            rc = add_data_file(data, &entries[j].file, err);
        pm_arena_free(&entries_arena);
    }
    pm_arena_free(&arena);
done:
    return rc;
}

PM_MUST_CHECK static int add_snapshot(pm_refs *meta, pm_refs *data, pm_fs *fs, const char *table,
                                      const pm_snapshot *s, bool changelog, bool missing_ok,
                                      paimon_error *err)
{
    int rc = 0;
    PM_TRY(add_list(meta, data, fs, table, s->base_manifest_list, s->base_manifest_list_size,
                    missing_ok, err));
    PM_TRY(add_list(meta, data, fs, table, s->delta_manifest_list, s->delta_manifest_list_size,
                    missing_ok, err));
    /* A changelog manifest list may be gone although a tag names it: expiration removes an
     * expired snapshot's changelog whatever its tags say (tags keep data, not changelog),
     * and a rollback to the tag brings the name back into a snapshot.  Java's
     * OrphanFilesClean reads every list with retryReadingFiles, a missing file naming
     * nothing; so does this one for changelog lists (data lists stay strict: a missing one
     * is a damaged table, and sweeping on would delete live files). */
    if (changelog)
        PM_TRY(add_list(meta, data, fs, table, s->changelog_manifest_list,
                        s->changelog_manifest_list_size, true, err));
    if (s->index_manifest != NULL && !pm_refs_has(meta, s->index_manifest)) {
        pm_arena arena;
        pm_index_manifest_entry *ie = NULL;
        size_t n = 0;
        PM_TRY(pm_file_name_check(table, "index manifest", s->index_manifest, err));
        PM_TRY(pm_refs_add(meta, s->index_manifest, err));
        pm_arena_init(&arena, 1 << 14);
        rc = pm_index_manifest_read(fs, table, s->index_manifest, &arena, &ie, &n, err);
        if (rc == PAIMON_ENOTFOUND && missing_ok) {
            paimon_error_clear(err);
            rc = 0;
            n = 0;
        }
        for (size_t i = 0; rc == 0 && i < n; i++)
            rc = pm_refs_add(meta, ie[i].file_name, err);
        pm_arena_free(&arena);
        PM_TRY(rc);
    }
    if (s->statistics != NULL)
        PM_TRY(pm_refs_add(meta, s->statistics, err));
done:
    return rc;
}

int pm_refs_add_snapshot(pm_refs *meta, pm_refs *data, pm_fs *fs, const char *table,
                         const pm_snapshot *s, bool changelog, paimon_error *err)
{
    return add_snapshot(meta, data, fs, table, s, changelog, false, err);
}

int pm_refs_add_changelog(pm_refs *meta, pm_refs *data, pm_fs *fs, const char *table,
                          const pm_snapshot *c, paimon_error *err)
{
    return add_snapshot(meta, data, fs, table, c, true, true, err);
}

int pm_refs_add_live(pm_refs *data, pm_fs *fs, const char *table, const pm_snapshot *s,
                     paimon_error *err)
{
    pm_arena arena;
    const pm_manifest_entry **live = NULL;
    size_t n = 0;
    int rc;
    pm_arena_init(&arena, 1 << 16);
    rc = pm_snapshot_live_entries(fs, table, s, &arena, &live, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = add_data_file(data, &live[i]->file, err);
    pm_arena_free(&arena);
    return rc;
}

/* ---- checked paths --------------------------------------------------------------------- */

int pm_refs_table_open(paimon_table *t, pm_fs *fs, const char *table, paimon_error *err)
{
    memset(t, 0, sizeof(*t));
    t->path = (char *)table;
    t->fs = fs;
    return pm_schema_read_latest(fs, table, &t->schema, err);
}

void pm_refs_table_close(paimon_table *t)
{
    pm_schema_free(t->schema);
    t->schema = NULL;
}

int pm_refs_meta_path(const paimon_table *t, const char *dir, const char *name, pm_buf *out,
                      paimon_error *err)
{
    char *d = pm_table_file(t->path, dir, NULL);
    int rc;
    if (d == NULL)
        return pm_nomem(err);
    rc = pm_file_path_resolve(t->path, &t->schema->options, d, name, NULL, out, err);
    pm_free(d);
    return rc;
}

const char *pm_refs_index_path(paimon_table *t, const pm_index_manifest_entry *ie, pm_arena *arena,
                               paimon_error *err)
{
    bool in_data_dir = false;
    pm_buf b;
    const char *out = NULL;

    if (pm_options_get_bool(&t->schema->options, "index-file-in-data-file-dir", &in_data_dir,
                            err) != 0)
        return NULL;
    if (in_data_dir || ie->external_path != NULL) {
        pm_manifest_entry e;
        memset(&e, 0, sizeof(e));
        e.partition = ie->partition;
        e.bucket = ie->bucket;
        e.file.file_name = ie->file_name;
        e.file.external_path = ie->external_path;
        return pm_data_file_path(t, t->schema, &e, arena, err);
    }
    pm_buf_init(&b, 0);
    if (pm_refs_meta_path(t, PM_DIR_INDEX, ie->file_name, &b, err) == 0 &&
        (out = pm_arena_strndup(arena, (const char *)b.data, b.len)) == NULL)
        PM_IGNORE(pm_nomem(err));
    pm_buf_free(&b);
    return out;
}

/* File removal for snapshot and changelog expiration: see expire_files.h. */
#include "table/expire_files.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meta/file_entry.h"
#include "meta/file_path.h"
#include "meta/manifest.h"
#include "meta/paths.h"
#include "table/scan.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/progress.h"

/* ---- setup --------------------------------------------------------------------------------- */

static int cmp_snapshot_id(const void *a, const void *b)
{
    int64_t x = (*(pm_snapshot *const *)a)->id, y = (*(pm_snapshot *const *)b)->id;
    return x < y ? -1 : x > y;
}

/* TagManager.taggedSnapshots: the snapshots of all tags, by id, one per id. */
PM_MUST_CHECK static int read_tags(pm_expire_cleaner *c, paimon_error *err)
{
    pm_strlist names;
    size_t n = 0;
    int rc = 0;
    pm_strlist_init(&names);
    if ((rc = pm_tag_list(c->fs, c->table.path, &names, err)) != 0)
        goto done;
    if (names.count == 0)
        goto done;
    if ((c->tags = pm_calloc(names.count, sizeof(*c->tags))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < names.count; i++) {
        pm_tag *t = NULL;
        rc = pm_tag_read(c->fs, c->table.path, names.items[i], &t, err);
        if (rc == PAIMON_ENOTFOUND) { /* deleted meanwhile */
            rc = 0;
            continue;
        }
        if (rc != 0)
            goto done;
        c->tags[n++] = t->snapshot;
        t->snapshot = NULL;
        pm_tag_free(t);
    }
    qsort(c->tags, n, sizeof(*c->tags), cmp_snapshot_id);
    c->tag_count = 0;
    for (size_t i = 0; i < n; i++) {
        if (c->tag_count > 0 && c->tags[c->tag_count - 1]->id == c->tags[i]->id)
            pm_snapshot_free(c->tags[i]);
        else
            c->tags[c->tag_count++] = c->tags[i];
    }
done:
    pm_strlist_free(&names);
    return rc;
}

int pm_expire_cleaner_init(pm_expire_cleaner *c, pm_fs *fs, const char *table,
                           const pm_expire_config *cfg, bool dry_run, pm_expire_result *res,
                           paimon_error *err)
{
    const char *producer;
    int rc;
    memset(c, 0, sizeof(*c));
    c->fs = fs;
    c->table.path = (char *)table;
    c->table.fs = fs;
    c->dry_run = dry_run;
    c->clean_empty_dirs = cfg->clean_empty_dirs;
    c->res = res;
    pm_bytes_map_init(&c->tag_files);
    pm_bytes_map_init(&c->dirs);
    pm_bytes_map_init(&c->counted);
    pm_bytes_map_init(&c->lists);
    pm_strlist_init(&c->list_names);
    pm_strlist_init(&c->pending);
    if ((rc = pm_schema_read_latest(fs, table, &c->table.schema, err)) != 0)
        return rc;
    if ((rc = pm_options_get_bool(&c->table.schema->options, "index-file-in-data-file-dir",
                                  &c->index_in_data_dir, err)) != 0)
        return rc;
    producer = pm_options_get_str(&c->table.schema->options, "changelog-producer");
    c->produce_changelog = producer != NULL && strcasecmp(producer, "none") != 0;
    return read_tags(c, err);
}

void pm_expire_cleaner_free(pm_expire_cleaner *c)
{
    for (size_t i = 0; i < c->tag_count; i++)
        pm_snapshot_free(c->tags[i]);
    pm_free(c->tags);
    pm_bytes_map_free(&c->tag_files);
    pm_bytes_map_free(&c->dirs);
    pm_bytes_map_free(&c->counted);
    pm_bytes_map_free(&c->lists);
    pm_strlist_free(&c->list_names);
    pm_strlist_free(&c->pending);
    pm_schema_free(c->table.schema);
    memset(c, 0, sizeof(*c));
}

/* ---- removal ------------------------------------------------------------------------------- */

int pm_expire_remove(pm_expire_cleaner *c, const char *path, paimon_error *err)
{
    paimon_error e;
    int rc;
    if (c->dry_run) {
        bool exists = false, inserted = false;
        int64_t id;
        if ((rc = pm_fs_exists(c->fs, path, &exists, err)) != 0)
            return rc;
        if (!exists)
            return 0;
        if (pm_bytes_map_put(&c->counted, path, strlen(path), 0, &id, &inserted) != 0)
            return pm_nomem(err);
        if (inserted)
            c->res->files++;
        return 0;
    }
    rc = c->fs->remove(c->fs, path, &e);
    if (rc == 0) {
        c->res->files++;
        pm_progress_add(PM_PROGRESS_FILES_REMOVED, 1);
    } else if (rc != PAIMON_ENOTFOUND) {
        if (err != NULL)
            *err = e;
        return rc;
    }
    return 0;
}

/* The most paths one batch delete takes (S3's limit). */
#define BATCH_MAX 1000

int pm_expire_flush(pm_expire_cleaner *c, paimon_error *err)
{
    int rc;
    if (c->pending.count == 0)
        return 0;
    rc = pm_fs_remove_many(c->fs, (const char *const *)c->pending.items, c->pending.count, err);
    if (rc == 0) {
        c->res->files += (int64_t)c->pending.count;
        pm_progress_add(PM_PROGRESS_FILES_REMOVED, (int64_t)c->pending.count);
    }
    pm_strlist_free(&c->pending);
    pm_strlist_init(&c->pending);
    return rc;
}

/* pm_expire_remove, or queued for the next batch delete where the store has one. */
PM_MUST_CHECK static int remove_later(pm_expire_cleaner *c, const char *path, paimon_error *err)
{
    if (c->dry_run || c->fs->remove_many == NULL)
        return pm_expire_remove(c, path, err);
    if (pm_strlist_push(&c->pending, path) != 0)
        return pm_nomem(err);
    return c->pending.count >= BATCH_MAX ? pm_expire_flush(c, err) : 0;
}

/* Removes the file `name` that metadata places in table directory `dir_name`. */
PM_MUST_CHECK static int remove_in(pm_expire_cleaner *c, const char *dir_name, const char *name,
                                   paimon_error *err)
{
    char *dir = pm_table_file(c->table.path, dir_name, NULL);
    pm_buf path;
    int rc;
    if (dir == NULL)
        return pm_nomem(err);
    pm_buf_init(&path, 0);
    rc =
        pm_file_path_resolve(c->table.path, &c->table.schema->options, dir, name, NULL, &path, err);
    if (rc == 0)
        rc = remove_later(c, pm_buf_cstr(&path), err);
    pm_buf_free(&path);
    pm_free(dir);
    return rc;
}

/* Remembers the directory of `path` for the empty-directory sweep. */
static int note_dir(pm_expire_cleaner *c, const char *path)
{
    const char *slash = strrchr(path, '/');
    int64_t id;
    bool inserted;
    if (!c->clean_empty_dirs || slash == NULL)
        return 0;
    return pm_bytes_map_put(&c->dirs, path, (size_t)(slash - path), 0, &id, &inserted);
}

/* Removes a data file and its extra files (which live next to it, external or not). */
PM_MUST_CHECK static int remove_data_file(pm_expire_cleaner *c, const pm_manifest_entry *e,
                                          pm_arena *arena, paimon_error *err)
{
    const char *path = pm_data_file_path(&c->table, c->table.schema, e, arena, err);
    const char *slash;
    int rc;
    if (path == NULL)
        return err != NULL && err->code != 0 ? err->code : PAIMON_ENOMEM;
    if ((rc = remove_later(c, path, err)) != 0)
        return rc;
    if (e->file.external_path == NULL && note_dir(c, path) != 0)
        return pm_nomem(err);
    slash = strrchr(path, '/');
    for (size_t i = 0; i < e->file.extra_files.count; i++) {
        const char *extra = ((const char *const *)e->file.extra_files.items)[i];
        pm_buf p;
        if ((rc = pm_file_name_check(c->table.path, "extra file", extra, err)) != 0)
            return rc;
        pm_buf_init(&p, 0);
        if (pm_buf_append(&p, path, slash != NULL ? (size_t)(slash - path) + 1 : 0) != 0 ||
            pm_buf_append(&p, extra, strlen(extra)) != 0) {
            pm_buf_free(&p);
            return pm_nomem(err);
        }
        rc = remove_later(c, pm_buf_cstr(&p), err);
        pm_buf_free(&p);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* ---- reading what may already be gone ------------------------------------------------------ */

/* The manifests of list `name`; none when the list is gone (tryReadManifestList). */
PM_MUST_CHECK static int try_read_list(pm_expire_cleaner *c, const char *name, pm_arena *arena,
                                       pm_manifest_file_meta **metas, size_t *n, paimon_error *err)
{
    int rc = pm_manifest_list_read(c->fs, c->table.path, name, -1, arena, metas, n, err);
    if (rc == PAIMON_ENOTFOUND) {
        *metas = NULL;
        *n = 0;
        return 0;
    }
    return rc;
}

/* Keeps the manifest names of delta list `name` (read by the data step) for the manifest
 * step, which would read the same list again: one read less per expired snapshot. */
PM_MUST_CHECK static int remember_list(pm_expire_cleaner *c, const char *name,
                                       const pm_manifest_file_meta *metas, size_t n,
                                       paimon_error *err)
{
    pm_buf joined;
    int64_t id;
    bool inserted;
    int rc = 0;
    pm_buf_init(&joined, 0);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = pm_buf_printf(&joined, "%s%s", i > 0 ? "\n" : "", metas[i].file_name);
    if (rc == 0 && pm_bytes_map_put(&c->lists, name, strlen(name), (int64_t)c->list_names.count,
                                    &id, &inserted) == 0) {
        if (inserted && pm_strlist_push(&c->list_names, pm_buf_cstr(&joined)) != 0)
            rc = PAIMON_ENOMEM;
    } else {
        rc = PAIMON_ENOMEM;
    }
    pm_buf_free(&joined);
    return rc == 0 ? 0 : pm_nomem(err);
}

/* ---- tags ---------------------------------------------------------------------------------- */

PM_MUST_CHECK static int tag_key(const pm_manifest_entry *e, pm_buf *key)
{
    pm_buf_reset(key);
    if (pm_buf_append(key, &e->bucket, sizeof(e->bucket)) != 0 ||
        pm_buf_append(key, e->partition.ptr, e->partition.len) != 0 ||
        pm_buf_append(key, "", 1) != 0 ||
        pm_buf_append(key, e->file.file_name, strlen(e->file.file_name)) != 0)
        return PAIMON_ENOMEM;
    return 0;
}

/* SnapshotManager.findPreviousSnapshot: the last tag with id < `id`, or -1. */
static long previous_tag(const pm_expire_cleaner *c, int64_t id, bool or_equal)
{
    long found = -1;
    for (size_t i = 0; i < c->tag_count; i++)
        if (c->tags[i]->id < id || (or_equal && c->tags[i]->id == id))
            found = (long)i;
    return found;
}

void pm_expire_skipping_tags(const pm_expire_cleaner *c, int64_t begin, int64_t end, long *left,
                             long *right)
{
    *right = previous_tag(c, end, false);
    *left = previous_tag(c, begin, true);
    if (*left < 0)
        *left = 0;
    if (*right < 0)
        *left = 1, *right = 0;
}

/* createDataFileSkipperForTags: loads the files of the nearest tag before `id` (once per
 * tag); *has_tag false when there is none. */
PM_MUST_CHECK static int load_tag_files(pm_expire_cleaner *c, int64_t id, bool *has_tag,
                                        paimon_error *err)
{
    long idx = previous_tag(c, id, false);
    const pm_manifest_entry **live = NULL;
    size_t n = 0;
    pm_arena arena;
    pm_buf key;
    int rc = 0;
    *has_tag = idx >= 0;
    if (idx < 0 || c->tags[idx]->id == c->cached_tag)
        return 0;
    c->cached_tag = 0;
    pm_bytes_map_free(&c->tag_files);
    pm_bytes_map_init(&c->tag_files);
    pm_arena_init(&arena, 1 << 16);
    pm_buf_init(&key, 0);
    if ((rc = pm_snapshot_live_entries(c->fs, c->table.path, c->tags[idx], &arena, &live, &n,
                                       err)) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        int64_t slot;
        bool inserted;
        if (tag_key(live[i], &key) != 0 ||
            pm_bytes_map_put(&c->tag_files, key.data, key.len, 0, &slot, &inserted) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    c->cached_tag = c->tags[idx]->id;
done:
    pm_buf_free(&key);
    pm_arena_free(&arena);
    return rc;
}

/* ---- data and changelog files -------------------------------------------------------------- */

typedef struct doomed {
    const pm_manifest_entry *e; /* the last DELETE entry of the path */
    bool live;                  /* false once an ADD of the same path came after it */
} doomed;

int pm_expire_clean_data_files(pm_expire_cleaner *c, const char *delta, int64_t id,
                               bool keep_append, paimon_error *err)
{
    pm_manifest_file_meta *metas = NULL;
    size_t nm = 0, cap = 0, count = 0;
    doomed *list = NULL;
    pm_bytes_map paths;
    pm_arena arena;
    pm_buf key;
    bool has_tag = false;
    int rc;

    if (delta == NULL)
        return 0;
    pm_arena_init(&arena, 1 << 16);
    pm_bytes_map_init(&paths);
    pm_buf_init(&key, 0);
    if ((rc = try_read_list(c, delta, &arena, &metas, &nm, err)) != 0 ||
        (rc = remember_list(c, delta, metas, nm, err)) != 0)
        goto done;
    for (size_t m = 0; m < nm; m++) {
        pm_manifest_entry *entries = NULL;
        size_t n = 0;
        rc = pm_manifest_read(c->fs, c->table.path, metas[m].file_name, metas[m].file_size, &arena,
                              &entries, &n, err);
        if (rc == PAIMON_ENOTFOUND) {
            /* an earlier run removed the manifests: it also removed these files.  Java cancels
             * the whole list, as an ADD in the missing manifest could protect a DELETE. */
            rc = 0;
            goto done;
        }
        if (rc != 0)
            goto done;
        for (size_t i = 0; i < n; i++) {
            const char *path =
                pm_data_file_path(&c->table, c->table.schema, &entries[i], &arena, err);
            int64_t slot;
            bool inserted;
            if (path == NULL) {
                rc = err != NULL && err->code != 0 ? err->code : PAIMON_ENOMEM;
                goto done;
            }
            if (entries[i].kind == PM_FILE_KIND_ADD) {
                int64_t found = pm_bytes_map_find(&paths, path, strlen(path));
                if (found >= 0)
                    list[found].live = false;
                continue;
            }
            if (pm_bytes_map_put(&paths, path, strlen(path), 0, &slot, &inserted) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
            if (inserted) {
                if (count == cap) {
                    size_t ncap = cap == 0 ? 64 : cap * 2;
                    doomed *grown = pm_realloc(list, ncap * sizeof(*grown));
                    if (grown == NULL) {
                        rc = pm_nomem(err);
                        goto done;
                    }
                    list = grown;
                    cap = ncap;
                }
                count++;
            }
            list[slot].e = &entries[i];
            list[slot].live = true;
        }
    }
    if (count > 0 && (rc = load_tag_files(c, id, &has_tag, err)) != 0)
        goto done;
    for (size_t i = 0; i < count; i++) {
        const pm_manifest_entry *e = list[i].e;
        if (!list[i].live)
            continue;
        if (keep_append && (!e->file.has_file_source || e->file.file_source == 0))
            continue;
        if (has_tag) {
            if (tag_key(e, &key) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
            if (pm_bytes_map_find(&c->tag_files, key.data, key.len) >= 0)
                continue;
        }
        if ((rc = remove_data_file(c, e, &arena, err)) != 0)
            goto done;
    }
done:
    pm_buf_free(&key);
    pm_free(list);
    pm_bytes_map_free(&paths);
    pm_arena_free(&arena);
    return rc;
}

int pm_expire_delete_added(pm_expire_cleaner *c, const char *list, paimon_error *err)
{
    pm_manifest_file_meta *metas = NULL;
    size_t nm = 0;
    pm_arena arena;
    int rc;
    if (list == NULL)
        return 0;
    pm_arena_init(&arena, 1 << 16);
    if ((rc = try_read_list(c, list, &arena, &metas, &nm, err)) != 0)
        goto done;
    for (size_t m = 0; m < nm; m++) {
        pm_manifest_entry *entries = NULL;
        size_t n = 0;
        rc = pm_manifest_read(c->fs, c->table.path, metas[m].file_name, metas[m].file_size, &arena,
                              &entries, &n, err);
        if (rc == PAIMON_ENOTFOUND) { /* removed by an earlier run, after its files */
            rc = 0;
            continue;
        }
        if (rc != 0)
            goto done;
        for (size_t i = 0; i < n; i++)
            if (entries[i].kind == PM_FILE_KIND_ADD &&
                (rc = remove_data_file(c, &entries[i], &arena, err)) != 0)
                goto done;
    }
done:
    pm_arena_free(&arena);
    return rc;
}

/* ---- manifests, index files, statistics ---------------------------------------------------- */

static int skip_add(pm_bytes_map *skip, const char *name)
{
    int64_t id;
    bool inserted;
    return pm_bytes_map_put(skip, name, strlen(name), 0, &id, &inserted);
}

bool pm_expire_skipped(const pm_bytes_map *skip, const char *name)
{
    return pm_bytes_map_find(skip, name, strlen(name)) >= 0;
}

PM_MUST_CHECK static int skip_list(pm_expire_cleaner *c, const char *list, bool tolerate_missing,
                                   pm_bytes_map *skip, pm_arena *arena, paimon_error *err)
{
    pm_manifest_file_meta *metas = NULL;
    size_t n = 0;
    int rc;
    if (list == NULL)
        return 0;
    rc = pm_manifest_list_read(c->fs, c->table.path, list, -1, arena, &metas, &n, err);
    if (rc == PAIMON_ENOTFOUND && tolerate_missing)
        return 0;
    if (rc != 0)
        return rc;
    if (skip_add(skip, list) != 0)
        return pm_nomem(err);
    for (size_t i = 0; i < n; i++)
        if (skip_add(skip, metas[i].file_name) != 0)
            return pm_nomem(err);
    return 0;
}

int pm_expire_skip_snapshot(pm_expire_cleaner *c, const pm_snapshot *snap, bool tolerate_missing,
                            pm_bytes_map *skip, paimon_error *err)
{
    pm_arena arena;
    int rc;
    pm_arena_init(&arena, 1 << 14);
    if ((rc = skip_list(c, snap->base_manifest_list, tolerate_missing, skip, &arena, err)) != 0 ||
        (rc = skip_list(c, snap->delta_manifest_list, tolerate_missing, skip, &arena, err)) != 0)
        goto done;
    if (snap->index_manifest != NULL) {
        pm_index_manifest_entry *idx = NULL;
        size_t n = 0;
        rc = pm_index_manifest_read(c->fs, c->table.path, snap->index_manifest, &arena, &idx, &n,
                                    err);
        if (rc == PAIMON_ENOTFOUND && tolerate_missing) {
            rc = 0;
        } else if (rc == 0) {
            if (skip_add(skip, snap->index_manifest) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
            for (size_t i = 0; i < n; i++)
                if (skip_add(skip, idx[i].file_name) != 0) {
                    rc = pm_nomem(err);
                    goto done;
                }
        } else {
            goto done;
        }
    }
    if (snap->statistics != NULL && skip_add(skip, snap->statistics) != 0)
        rc = pm_nomem(err);
done:
    pm_arena_free(&arena);
    return rc;
}

int pm_expire_clean_manifest_list(pm_expire_cleaner *c, const char *list, pm_bytes_map *skip,
                                  paimon_error *err)
{
    pm_manifest_file_meta *metas = NULL;
    const char **names = NULL;
    char *joined = NULL;
    size_t n = 0;
    int64_t cached;
    pm_arena arena;
    int rc = 0;
    if (list == NULL)
        return 0;
    pm_arena_init(&arena, 1 << 14);
    if ((cached = pm_bytes_map_find(&c->lists, list, strlen(list))) >= 0) {
        /* the data step read it: split its joined names in place (a copy) */
        const char *text = c->list_names.items[cached];
        joined = pm_arena_strndup(&arena, text, strlen(text));
        names = pm_arena_calloc(&arena, strlen(text) + 2, sizeof(*names));
        if (joined == NULL || names == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (char *p = joined; *joined != '\0' && p != NULL;) {
            char *nl = strchr(p, '\n');
            if (nl != NULL)
                *nl++ = '\0';
            names[n++] = p;
            p = nl;
        }
    } else {
        if ((rc = try_read_list(c, list, &arena, &metas, &n, err)) != 0)
            goto done;
        if (n > 0 && (names = pm_arena_calloc(&arena, n, sizeof(*names))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (size_t i = 0; i < n; i++)
            names[i] = metas[i].file_name;
    }
    /* the manifests first, then the list: a list that is gone means its manifests are too */
    for (size_t i = 0; i < n; i++) {
        if (pm_expire_skipped(skip, names[i]))
            continue;
        if ((rc = remove_in(c, PM_DIR_MANIFEST, names[i], err)) != 0)
            goto done;
        if (skip_add(skip, names[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    if (!pm_expire_skipped(skip, list))
        rc = remove_in(c, PM_DIR_MANIFEST, list, err);
done:
    pm_arena_free(&arena);
    return rc;
}

/* IndexFileHandler.deleteIndexFile: the index directory, or next to the data files with
 * index-file-in-data-file-dir, or the external path. */
PM_MUST_CHECK static int remove_index_file(pm_expire_cleaner *c, const pm_index_manifest_entry *ie,
                                           pm_arena *arena, paimon_error *err)
{
    if (c->index_in_data_dir || ie->external_path != NULL) {
        pm_manifest_entry e;
        const char *path;
        memset(&e, 0, sizeof(e));
        e.partition = ie->partition;
        e.bucket = ie->bucket;
        e.file.file_name = ie->file_name;
        e.file.external_path = ie->external_path;
        if ((path = pm_data_file_path(&c->table, c->table.schema, &e, arena, err)) == NULL)
            return err != NULL && err->code != 0 ? err->code : PAIMON_ENOMEM;
        return remove_later(c, path, err);
    }
    return remove_in(c, PM_DIR_INDEX, ie->file_name, err);
}

int pm_expire_clean_index_and_stats(pm_expire_cleaner *c, const pm_snapshot *snap,
                                    pm_bytes_map *skip, paimon_error *err)
{
    pm_arena arena;
    int rc = 0;
    pm_arena_init(&arena, 1 << 14);
    if (snap->index_manifest != NULL) {
        pm_index_manifest_entry *idx = NULL;
        size_t n = 0;
        rc = pm_index_manifest_read(c->fs, c->table.path, snap->index_manifest, &arena, &idx, &n,
                                    err);
        if (rc == PAIMON_ENOTFOUND) { /* removed by an earlier run, after its files */
            rc = 0;
        } else if (rc == 0) {
            for (size_t i = 0; i < n; i++)
                if (!pm_expire_skipped(skip, idx[i].file_name) &&
                    (rc = remove_index_file(c, &idx[i], &arena, err)) != 0)
                    goto done;
            if (!pm_expire_skipped(skip, snap->index_manifest) &&
                (rc = remove_in(c, PM_DIR_MANIFEST, snap->index_manifest, err)) != 0)
                goto done;
        } else {
            goto done;
        }
    }
    if (snap->statistics != NULL && !pm_expire_skipped(skip, snap->statistics))
        rc = remove_in(c, "statistics", snap->statistics, err);
done:
    pm_arena_free(&arena);
    return rc;
}

/* ---- empty directories --------------------------------------------------------------------- */

/* Removes `dir` when it has no entries; *removed tells. */
PM_MUST_CHECK static int remove_if_empty(pm_expire_cleaner *c, const char *dir, bool *removed,
                                         paimon_error *err)
{
    pm_strlist names;
    paimon_error e;
    int rc;
    *removed = false;
    pm_strlist_init(&names);
    rc = c->fs->list(c->fs, dir, &names, &e);
    if (rc == 0 && names.count == 0 && !c->dry_run)
        *removed = c->fs->remove(c->fs, dir, &e) == 0;
    pm_strlist_free(&names);
    if (rc == PAIMON_ENOMEM)
        return pm_nomem(err);
    return 0; /* like Java's tryDeleteEmptyDirectory: a failure only keeps the directory */
}

int pm_expire_clean_empty_dirs(pm_expire_cleaner *c, paimon_error *err)
{
    size_t root_len = strlen(c->table.path);
    int rc = pm_expire_flush(c, err); /* the queued files first: they empty the directories */
    if (rc != 0)
        return rc;
    for (size_t i = 0; rc == 0 && i < c->dirs.count; i++) {
        size_t len;
        const uint8_t *k = pm_bytes_map_key(&c->dirs, (int64_t)i, &len);
        char *dir = pm_strndup((const char *)k, len);
        bool removed = true;
        if (dir == NULL)
            return pm_nomem(err);
        /* the bucket directory, then each partition directory up to the table's root */
        while (removed && strlen(dir) > root_len + 1 &&
               strncmp(dir, c->table.path, root_len) == 0 && dir[root_len] == '/') {
            char *slash;
            if ((rc = remove_if_empty(c, dir, &removed, err)) != 0)
                break;
            if ((slash = strrchr(dir, '/')) == NULL)
                break;
            *slash = '\0';
        }
        pm_free(dir);
    }
    pm_bytes_map_free(&c->dirs);
    pm_bytes_map_init(&c->dirs);
    return rc;
}

/* ---- consumers ----------------------------------------------------------------------------- */

int pm_expire_min_next_snapshot(pm_fs *fs, const char *table, int64_t *min, bool *found,
                                paimon_error *err)
{
    pm_strlist ids;
    int rc;
    *found = false;
    *min = INT64_MAX;
    pm_strlist_init(&ids);
    if ((rc = pm_consumer_list(fs, table, &ids, err)) != 0)
        goto done;
    for (size_t i = 0; i < ids.count; i++) {
        int64_t next = 0;
        rc = pm_consumer_read(fs, table, ids.items[i], &next, err);
        if (rc == PAIMON_ENOTFOUND) { /* expired or deleted meanwhile */
            rc = 0;
            continue;
        }
        if (rc != 0)
            goto done;
        if (next < *min)
            *min = next;
        *found = true;
    }
done:
    pm_strlist_free(&ids);
    return rc;
}

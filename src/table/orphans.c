/* Orphan file removal: see orphans.h. */
#include "table/orphans.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "meta/file_path.h"
#include "meta/paths.h"
#include "meta/schema.h"
#include "meta/snapshot.h"
#include "table/orphans_refs.h"
#include "table/tag.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"

#define METADATA_MAX (256u << 20)

typedef struct sweep {
    pm_fs *fs;
    const char *table;
    const pm_orphan_args *args;
    int64_t cutoff; /* epoch millis */
    pm_refs meta, data;
    uint64_t count, bytes;
    int rc; /* the first deletion failure */
    paimon_error *err;
    /* One directory's orphans queued for one batch delete, on a store that has it
     * (pm_fs remove_many: S3); elsewhere each file goes when it is found. */
    pm_strlist batch;
    uint64_t *batch_sizes; /* per queued path */
    size_t batch_sizes_cap;
} sweep;

/* ---- references ---------------------------------------------------------------------------- */

PM_MUST_CHECK static int add_snapshots(sweep *s, paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = 0;
    PM_TRY(pm_snapshot_list_ids(s->fs, s->table, &ids, &n, err));
    for (size_t i = 0; i < n; i++) {
        pm_snapshot *snap = NULL;
        rc = pm_snapshot_read(s->fs, s->table, ids[i], &snap, err);
        if (rc == PAIMON_ENOTFOUND) { /* expired while we listed */
            rc = 0;
            continue;
        }
        if (rc == 0)
            rc = pm_refs_add_snapshot(&s->meta, &s->data, s->fs, s->table, snap, true, err);
        pm_snapshot_free(snap);
        PM_TRY(rc);
    }
done:
    pm_free(ids);
    return rc;
}

PM_MUST_CHECK static int add_tags(sweep *s, paimon_error *err)
{
    pm_tag **tags = NULL;
    size_t n = 0;
    int rc = 0;
    PM_TRY(pm_tag_read_all(s->fs, s->table, &tags, &n, err));
    for (size_t i = 0; i < n; i++)
        PM_TRY(pm_refs_add_snapshot(&s->meta, &s->data, s->fs, s->table, tags[i]->snapshot, true,
                                    err));
done:
    pm_tag_free_all(tags, n);
    return rc;
}

PM_MUST_CHECK static int add_changelogs(sweep *s, paimon_error *err)
{
    char *dir = pm_table_file(s->table, "changelog", NULL);
    int64_t *ids = NULL;
    size_t n = 0;
    int rc = 0;
    if (dir == NULL)
        return pm_nomem(err);
    PM_TRY(pm_list_versioned(s->fs, dir, "changelog-", &ids, &n, err));
    for (size_t i = 0; i < n; i++) {
        char name[40], *path;
        uint8_t *bytes = NULL;
        size_t len = 0;
        pm_snapshot *snap = NULL;
        snprintf(name, sizeof(name), "changelog-%" PRId64, ids[i]);
        if ((path = pm_path_join(dir, name)) == NULL)
            PM_TRY(pm_nomem(err));
        rc = pm_fs_read_all(s->fs, path, METADATA_MAX, &bytes, &len, err);
        if (rc == 0)
            rc = pm_snapshot_parse(bytes, len, path, &snap, err);
        if (rc == 0)
            rc = pm_refs_add_changelog(&s->meta, &s->data, s->fs, s->table, snap, err);
        pm_snapshot_free(snap);
        pm_free(bytes);
        pm_free(path);
        if (rc == PAIMON_ENOTFOUND && snap == NULL)
            rc = 0; /* expired while we listed */
        PM_TRY(rc);
    }
done:
    pm_free(ids);
    pm_free(dir);
    return rc;
}

/* Branches keep references of their own, which this sweep does not read. */
PM_MUST_CHECK static int refuse_branches(sweep *s, paimon_error *err)
{
    char *dir = pm_table_file(s->table, "branch", NULL);
    pm_strlist names;
    int kind = 0;
    uint64_t size = 0;
    int rc = 0;
    if (dir == NULL)
        return pm_nomem(err);
    pm_strlist_init(&names);
    PM_TRY(s->fs->stat(s->fs, dir, &kind, &size, err));
    if (kind == 2)
        PM_TRY(s->fs->list(s->fs, dir, &names, err));
    for (size_t i = 0; i < names.count; i++)
        if (strncmp(names.items[i], "branch-", 7) == 0)
            PM_TRY(pm_err_set(err, PAIMON_EUNSUPPORTED,
                              "%s: remove-orphans: the table has branches, which paimon-c does "
                              "not read",
                              s->table));
done:
    pm_strlist_free(&names);
    pm_free(dir);
    return rc;
}

/* ---- candidates ---------------------------------------------------------------------------- */

typedef enum which { DATA_DIR, META_DIR, SNAPSHOT_DIR, CHANGELOG_DIR, TEMP_ONLY } which;

static bool is_temp(const char *name)
{
    size_t n = strlen(name);
    return name[0] == '.' && n > 4 && strcmp(name + n - 4, ".tmp") == 0;
}

static bool is_candidate(const sweep *s, which w, const char *name)
{
    switch (w) {
    case DATA_DIR: return !pm_refs_has(&s->data, name) && !pm_refs_has(&s->meta, name);
    case META_DIR: return !pm_refs_has(&s->meta, name);
    case SNAPSHOT_DIR:
        return strncmp(name, "snapshot-", 9) != 0 && strcmp(name, "EARLIEST") != 0 &&
               strcmp(name, "LATEST") != 0;
    case CHANGELOG_DIR:
        return strncmp(name, "changelog-", 10) != 0 && strcmp(name, "EARLIEST") != 0 &&
               strcmp(name, "LATEST") != 0;
    case TEMP_ONLY: return is_temp(name);
    }
    return false;
}

static void note(sweep *s, int rc, const paimon_error *e)
{
    if (s->rc == 0 && rc != 0) {
        s->rc = rc;
        if (s->err != NULL)
            *s->err = *e;
    }
}

/* Queues an orphan for the directory's batch delete; true when queued. */
static bool queue(sweep *s, const char *path, uint64_t size)
{
    paimon_error e = {0, {0}};
    if (s->batch.count == s->batch_sizes_cap) {
        size_t cap = s->batch_sizes_cap == 0 ? 64 : s->batch_sizes_cap * 2;
        uint64_t *grown = pm_realloc(s->batch_sizes, cap * sizeof(uint64_t));
        if (grown == NULL) {
            note(s, pm_nomem(&e), &e);
            return false;
        }
        s->batch_sizes = grown;
        s->batch_sizes_cap = cap;
    }
    if (pm_strlist_push(&s->batch, path) != 0) {
        note(s, pm_nomem(&e), &e);
        return false;
    }
    s->batch_sizes[s->batch.count - 1] = size;
    return true;
}

/* Deletes the queued orphans in one request (or as few as the store needs) and reports
 * them; returns how many of them did not go (all of them when the batch failed). */
static size_t flush(sweep *s)
{
    paimon_error e = {0, {0}};
    size_t n = s->batch.count;
    int rc;
    if (n == 0)
        return 0;
    rc = pm_fs_remove_many(s->fs, (const char *const *)s->batch.items, n, &e);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        s->count++;
        s->bytes += s->batch_sizes[i];
        if (s->args->on_file != NULL)
            s->args->on_file(s->args->ctx, s->batch.items[i], s->batch_sizes[i]);
    }
    note(s, rc, &e);
    pm_strlist_free(&s->batch);
    pm_strlist_init(&s->batch);
    return rc == 0 ? 0 : n;
}

/* One file: old enough and unreferenced, it goes; true when it went (or would, dry, or is
 * queued for the directory's batch delete). */
static bool consider(sweep *s, which w, const char *path, const char *name)
{
    paimon_error e = {0, {0}};
    int kind = 0;
    uint64_t size = 0;
    int64_t mtime = 0;
    int rc;
    if (!pm_file_name_is_plain(name) || !is_candidate(s, w, name))
        return false;
    if ((rc = s->fs->stat(s->fs, path, &kind, &size, &e)) != 0 || kind != 1) {
        note(s, rc, &e); /* a directory (kind 2) or gone (0): not ours */
        return false;
    }
    if ((rc = s->fs->mtime(s->fs, path, &mtime, &e)) != 0) {
        if (rc != PAIMON_ENOTFOUND)
            note(s, rc, &e);
        return false;
    }
    if (mtime >= s->cutoff)
        return false;
    if (!s->args->dry_run && s->fs->remove_many != NULL)
        return queue(s, path, size);
    if (!s->args->dry_run && (rc = s->fs->remove(s->fs, path, &e)) != 0) {
        if (rc != PAIMON_ENOTFOUND)
            note(s, rc, &e);
        return false;
    }
    s->count++;
    s->bytes += size;
    if (s->args->on_file != NULL)
        s->args->on_file(s->args->ctx, path, size);
    return true;
}

/* A data directory left with no entries by the sweep (`emptied`), or found empty and last
 * modified before the cutoff, goes as Java's LocalOrphanFilesClean removes it: with a
 * non-recursive delete (fs.h: remove() of a directory with entries fails), which keeps a
 * directory that a writer filled meanwhile; a failure only keeps it.  A dry run reports it
 * (path with a trailing '/', size 0) without touching it.  True when it went (would go). */
static bool remove_empty_dir(sweep *s, const char *dir, bool emptied)
{
    paimon_error e = {0, {0}};
    int64_t mtime = 0;
    int rc;
    if (!emptied && (s->fs->mtime(s->fs, dir, &mtime, &e) != 0 || mtime >= s->cutoff))
        return false;
    if (!s->args->dry_run && (rc = s->fs->remove(s->fs, dir, &e)) != 0 &&
        !(emptied && rc == PAIMON_ENOTFOUND)) /* on S3 a prefix goes with its last key */
        return false;
    s->count++;
    if (s->args->on_file != NULL) {
        char *shown = pm_path_join(dir, "");
        s->args->on_file(s->args->ctx, shown != NULL ? shown : dir, 0);
        pm_free(shown);
    }
    return true;
}

/* The files of `dir` (a missing directory has none); `walk` > 0 descends into partition
 * directories that many levels, then into bucket directories (the data layout).  `top` is
 * a root, never removed; below it, an emptied data directory goes (remove_empty_dir).
 * True when `dir` went (or would, dry). */
static bool sweep_dir(sweep *s, which w, const char *dir, int walk, bool top)
{
    pm_strlist names;
    paimon_error e = {0, {0}};
    int kind = 0;
    uint64_t size = 0;
    size_t gone = 0, total;
    int rc;

    pm_strlist_init(&names);
    if ((rc = s->fs->stat(s->fs, dir, &kind, &size, &e)) != 0 || kind != 2 ||
        (rc = s->fs->list(s->fs, dir, &names, &e)) != 0) {
        if (rc != PAIMON_ENOTFOUND)
            note(s, rc, &e);
        pm_strlist_free(&names);
        return false;
    }
    pm_strlist_sort(&names);
    for (size_t i = 0; i < names.count; i++) {
        const char *name = names.items[i];
        char *path = pm_path_join(dir, name);
        if (path == NULL) {
            note(s, pm_nomem(&e), &e);
            pm_strlist_free(&names);
            return false;
        }
        if (walk > 0 && strchr(name, '=') != NULL && pm_file_name_is_plain(name))
            gone += sweep_dir(s, w, path, walk - 1, false);
        else if (walk == 0 && strncmp(name, "bucket-", 7) == 0 && pm_file_name_is_plain(name))
            gone += sweep_dir(s, w, path, -1, false);
        else if (walk < 0)
            gone += consider(s, w, path, name);
        pm_free(path);
    }
    gone -= flush(s);
    total = names.count;
    pm_strlist_free(&names);
    if (top || w != DATA_DIR || gone < total)
        return false;
    return remove_empty_dir(s, dir, gone > 0);
}

/* The data root: the table, or its data-file.path-directory (checked by file_path.h). */
PM_MUST_CHECK static int data_root(const pm_schema *schema, const char *table, pm_buf *out,
                                   paimon_error *err)
{
    const char *dir = pm_options_get(&schema->options, "data-file.path-directory");
    paimon_error e = {0, {0}};
    int rc = pm_file_path_check_options(&schema->options, &e);
    if (rc != 0)
        return pm_err_set(err, PAIMON_ECORRUPT, "%s: %s", table, e.message);
    rc = pm_buf_printf(out, "%s%s%s", table, dir != NULL ? "/" : "", dir != NULL ? dir : "");
    return rc != 0 ? pm_nomem(err) : 0;
}

/* The local directory of an external root (`file:///a`, `file:/a`), or NULL: a root on
 * another file system is not listed. */
static const char *local_root(const char *root)
{
    if (strncmp(root, "file://", 7) == 0) {
        root += 7;
        if (strncmp(root, "localhost/", 10) == 0)
            root += 9;
        return root[0] == '/' ? root : NULL;
    }
    if (strncmp(root, "file:", 5) == 0)
        return root[5] == '/' ? root + 5 : NULL;
    return root[0] == '/' ? root : NULL;
}

/* The bucket directories under each local root of data-file.external-paths (Java lists
 * them as it lists the table's own data directory). */
static void sweep_external(sweep *s, const pm_schema *schema)
{
    const char *roots = pm_options_get(&schema->options, "data-file.external-paths");
    pm_buf one;
    if (roots == NULL)
        return;
    pm_buf_init(&one, 0);
    for (const char *p = roots;; p = strchr(p, ',') + 1) {
        const char *end = strchr(p, ','), *dir, *q = p;
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        while (len > 0 && (*q == ' ' || *q == '\t'))
            q++, len--;
        while (len > 0 && (q[len - 1] == ' ' || q[len - 1] == '\t' || q[len - 1] == '/'))
            len--;
        one.len = 0;
        if (len > 0 && pm_buf_append(&one, q, len) == 0 && pm_buf_putc(&one, '\0') == 0 &&
            (dir = local_root((const char *)one.data)) != NULL)
            (void)sweep_dir(s, DATA_DIR, dir, (int)schema->partition_keys.count, true);
        if (end == NULL)
            break;
    }
    pm_buf_free(&one);
}

int pm_table_remove_orphans(pm_fs *fs, const char *table, const pm_orphan_args *args,
                            uint64_t *count, uint64_t *bytes, paimon_error *err)
{
    static const struct {
        const char *dir;
        which w;
    } DIRS[] = {
        {PM_DIR_MANIFEST, META_DIR},     {PM_DIR_INDEX, META_DIR},     {"statistics", META_DIR},
        {PM_DIR_SNAPSHOT, SNAPSHOT_DIR}, {"changelog", CHANGELOG_DIR}, {PM_DIR_SCHEMA, TEMP_ONLY},
        {PM_DIR_TAG, TEMP_ONLY},         {PM_DIR_CONSUMER, TEMP_ONLY},
    };
    pm_schema *schema = NULL;
    pm_buf root;
    sweep s;
    int rc = 0;

    memset(&s, 0, sizeof(s));
    pm_strlist_init(&s.batch);
    pm_refs_init(&s.meta);
    pm_refs_init(&s.data);
    pm_buf_init(&root, 0);
    if (fs->mtime == NULL)
        PM_TRY(pm_err_set(err, PAIMON_EUNSUPPORTED,
                          "%s: remove-orphans: the %s file system keeps no modification times",
                          table, fs->name));
    if (args->older_than_ms < 0)
        PM_TRY(pm_err_set(err, PAIMON_EINVALID, "%s: remove-orphans: a negative age", table));
    s.fs = fs;
    s.table = table;
    s.args = args;
    s.err = err;
    s.cutoff = pm_now_millis() - args->older_than_ms;
    PM_TRY(pm_schema_read_latest(fs, table, &schema, err));
    PM_TRY(refuse_branches(&s, err));
    /* every reference first: any unreadable one aborts before a file goes */
    PM_TRY(add_snapshots(&s, err));
    PM_TRY(add_tags(&s, err));
    PM_TRY(add_changelogs(&s, err));
    PM_TRY(data_root(schema, table, &root, err));

    for (size_t i = 0; i < sizeof(DIRS) / sizeof(DIRS[0]); i++) {
        char *dir = pm_table_file(table, DIRS[i].dir, NULL);
        if (dir == NULL)
            PM_TRY(pm_nomem(err));
        (void)sweep_dir(&s, DIRS[i].w, dir, -1, true);
        pm_free(dir);
    }
    (void)sweep_dir(&s, DATA_DIR, pm_buf_cstr(&root), (int)schema->partition_keys.count, true);
    /* roots as create checks them; local roots are on the table's file system only when the
     * table is local (a table on S3 would be handed a local path) */
    if (pm_file_path_check_options(&schema->options, NULL) == 0 && strstr(table, "://") == NULL)
        sweep_external(&s, schema);
    rc = s.rc;
done:
    if (count != NULL)
        *count = s.count;
    if (bytes != NULL)
        *bytes = s.bytes;
    pm_buf_free(&root);
    pm_schema_free(schema);
    pm_refs_free(&s.meta);
    pm_refs_free(&s.data);
    pm_strlist_free(&s.batch);
    pm_free(s.batch_sizes);
    return rc;
}

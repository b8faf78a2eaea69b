/*
 * Removing the files of commit messages that will not be committed (commit.h,
 * pm_commit_messages_abort; Java's FileStoreCommit.abort).
 *
 * A writer's files become part of the table only through a snapshot that names them.  When
 * the commit of their messages certainly failed, or was skipped because the same commit
 * had landed before (an exactly-once retry whose files were written anew), nothing names
 * them: they would stay as orphans.  This removes them, and only them:
 *
 *   data part     ADD entries of data files, except a name the same list also DELETEs;
 *                 changelog files; ADD entries of index files;
 *   compact part  ADD entries of the compact increment, except a name it also DELETEs (an
 *                 upgrade moves a live file to another level under the same name); its
 *                 changelog files; its new index files.
 *
 * Paths are derived by pm_data_file_path (which checks them with meta/file_path.h);
 * index files live in the table's index directory, or in their bucket's directory with
 * index-file-in-data-file-dir, or at their external path.  A piece of a compacted changelog
 * file names no file of its own: removing it finds nothing, and its physical file is removed
 * under the first piece's name, which is the physical file's.
 */
#include <string.h>

#include "meta/file_path.h"
#include "meta/paths.h"
#include "meta/schema.h"
#include "table/commit.h"
#include "table/scan.h"
#include "table/table.h"
#include "util/alloc.h"
#include "util/error.h"

typedef struct aborter {
    pm_fs *fs;
    paimon_table table; /* borrowed path and schema, for pm_data_file_path */
    bool index_in_data_dir;
    pm_arena arena;
    int rc; /* the first failure */
    paimon_error *err;
} aborter;

/* Keeps the first failure (`e` NULL: out of memory). */
static void note(aborter *a, int rc, const paimon_error *e)
{
    if (a->rc != 0 || rc == 0)
        return;
    if (e == NULL) {
        a->rc = pm_nomem(a->err);
        return;
    }
    a->rc = rc;
    if (a->err != NULL)
        *a->err = *e;
}

static void remove_path(aborter *a, const char *path)
{
    paimon_error e;
    int rc = a->fs->remove(a->fs, path, &e);
    if (rc != PAIMON_ENOTFOUND)
        note(a, rc, &e);
}

static void remove_entry(aborter *a, const pm_manifest_entry *entry)
{
    paimon_error e;
    const char *path = pm_data_file_path(&a->table, a->table.schema, entry, &a->arena, &e);
    if (path == NULL) {
        note(a, e.code != 0 ? e.code : PAIMON_EINVALID, &e);
        return;
    }
    remove_path(a, path);
}

static void remove_index(aborter *a, const pm_index_manifest_entry *ie)
{
    if (a->index_in_data_dir || ie->external_path != NULL) {
        /* the bucket directory, or the external path: both checked by pm_data_file_path */
        pm_manifest_entry e;
        memset(&e, 0, sizeof(e));
        e.partition = ie->partition;
        e.bucket = ie->bucket;
        e.file.file_name = ie->file_name;
        e.file.external_path = ie->external_path;
        remove_entry(a, &e);
    } else {
        paimon_error e;
        char *dir = pm_table_file(a->table.path, PM_DIR_INDEX, NULL);
        pm_buf path;
        int rc;
        if (dir == NULL) {
            note(a, PAIMON_ENOMEM, NULL);
            return;
        }
        pm_buf_init(&path, 0);
        rc = pm_file_path_resolve(a->table.path, &a->table.schema->options, dir, ie->file_name,
                                  NULL, &path, &e);
        if (rc != 0)
            note(a, rc, &e);
        else
            remove_path(a, pm_buf_cstr(&path));
        pm_buf_free(&path);
        pm_free(dir);
    }
}

/* Does `list` DELETE a file named `name`? */
static bool deletes(const pm_manifest_entry *list, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (list[i].kind == PM_FILE_KIND_DELETE && strcmp(list[i].file.file_name, name) == 0)
            return true;
    return false;
}

static void remove_added(aborter *a, const pm_manifest_entry *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (list[i].kind == PM_FILE_KIND_ADD && !deletes(list, count, list[i].file.file_name))
            remove_entry(a, &list[i]);
}

static void remove_added_index(aborter *a, const pm_index_manifest_entry *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (list[i].kind == PM_FILE_KIND_ADD)
            remove_index(a, &list[i]);
}

int pm_commit_messages_abort(pm_fs *fs, const char *table, const pm_commit_messages *m, bool data,
                             bool compact, paimon_error *err)
{
    pm_schema *schema = NULL;
    aborter a;
    int rc;

    if ((data ? m->data_count + m->changelog_count + m->index_count : 0) +
            (compact ? m->compact_count + m->compact_changelog_count + m->compact_index_count
                     : 0) ==
        0)
        return 0;
    if ((rc = pm_schema_read_latest(fs, table, &schema, err)) != 0)
        return rc;
    memset(&a, 0, sizeof(a));
    a.fs = fs;
    a.table.path = (char *)table;
    a.table.fs = fs;
    a.table.schema = schema;
    a.err = err;
    pm_arena_init(&a.arena, 4096);
    if ((rc = pm_options_get_bool(&schema->options, "index-file-in-data-file-dir",
                                  &a.index_in_data_dir, err)) != 0)
        goto done;
    if (data) {
        remove_added(&a, m->data, m->data_count);
        remove_added(&a, m->changelog, m->changelog_count);
        remove_added_index(&a, m->index, m->index_count);
    }
    if (compact) {
        remove_added(&a, m->compact, m->compact_count);
        remove_added(&a, m->compact_changelog, m->compact_changelog_count);
        remove_added_index(&a, m->compact_index, m->compact_index_count);
    }
    rc = a.rc;
done:
    pm_arena_free(&a.arena);
    pm_schema_free(schema);
    return rc;
}

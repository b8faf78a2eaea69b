/* Public write functions: argument checks and error translation over src/table. */
#include "paimon/write.h"
#include "table/alter.h"
#include <string.h>

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

/* ---- commits --------------------------------------------------------------------------- */

#include "table/commit.h"
#include "table/compact.h"
#include "table/table.h"
#include "table/write/changelog_compact.h"
#include "util/alloc.h"
#include "util/uuid.h"

PAIMON_API int paimon_commit_messages_new(paimon_commit_messages **out, paimon_error *err)
{
    paimon_error_clear(err);
    if (out == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_commit_messages_new: no out pointer");
    if ((*out = pm_malloc(sizeof(**out))) == NULL)
        return pm_nomem(err);
    pm_commit_messages_init(*out);
    return 0;
}

PAIMON_API void paimon_commit_messages_free(paimon_commit_messages *messages)
{
    if (messages == NULL)
        return;
    pm_commit_messages_release(messages);
    pm_free(messages);
}

PAIMON_API int paimon_commit_messages_merge(paimon_commit_messages *dst,
                                            paimon_commit_messages *src, paimon_error *err)
{
    paimon_error_clear(err);
    if (dst == NULL || src == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_commit_messages_merge: NULL messages");
    if (pm_commit_messages_append(dst, src) != 0)
        return pm_nomem(err);
    pm_commit_messages_release(src);
    pm_commit_messages_init(src);
    return 0;
}

PAIMON_API size_t paimon_commit_messages_count(const paimon_commit_messages *messages)
{
    size_t n = 0;
    for (size_t i = 0; messages != NULL && i < messages->data_count; i++)
        n += messages->data[i].kind == PM_FILE_KIND_ADD;
    return n;
}

PAIMON_API int paimon_table_commit(paimon_table *table, const paimon_commit_messages *messages,
                                   const paimon_commit_options *options, int64_t *snapshot_id,
                                   paimon_error *err)
{
    pm_commit_opts o;
    paimon_commit_result *res;
    char user[PM_UUID_STRLEN + 1];
    int64_t id = 0;
    int rc;
    paimon_error_clear(err);
    if (table == NULL || messages == NULL || options == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_commit: table, messages and "
                          "options needed");
    if (options->version < 1 || options->version > PAIMON_COMMIT_OPTIONS_VERSION)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_commit: options version %u, this library knows %d",
                          options->version, PAIMON_COMMIT_OPTIONS_VERSION);
    res = options->version >= 2 ? options->result : NULL;
    if (res != NULL && res->version != PAIMON_COMMIT_RESULT_VERSION)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_commit: result version %u, this library knows %d",
                          res->version, PAIMON_COMMIT_RESULT_VERSION);
    memset(&o, 0, sizeof(o));
    if (options->commit_user == NULL && pm_uuid_v4(user) != 0)
        return pm_err_set(err, PAIMON_EIO, "no random numbers for a commit user");
    o.commit_user = options->commit_user != NULL ? options->commit_user : user;
    o.identifier = options->identifier;
    o.kind = PM_COMMIT_APPEND;
    o.overwrite = options->overwrite != 0;
    o.partition = options->partition;
    o.partition_count = options->partition_count;
    /* a fresh user has no snapshots to find */
    o.skip_committed = options->commit_user != NULL;
    o.result = res;
    rc = pm_changelog_compact_commit(table->fs, table->path, messages, &o, &id, err);
    if (res != NULL && res->compact_err.code != 0 &&
        strncmp(res->compact_err.message, table->path, strlen(table->path)) != 0)
        pm_err_prefix(&res->compact_err, res->compact_err.code, "%s: ", table->path);
    if (snapshot_id != NULL)
        *snapshot_id = id;
    /* name the table once: errors of the table writer already start with its path */
    if (rc != 0 && rc != PAIMON_ENOMEM && err != NULL &&
        strncmp(err->message, table->path, strlen(table->path)) != 0)
        pm_err_prefix(err, rc, "%s: ", table->path);
    return rc;
}

PAIMON_API int paimon_commit_messages_abort(paimon_table *table,
                                            const paimon_commit_messages *messages,
                                            paimon_error *err)
{
    paimon_error_clear(err);
    if (table == NULL || messages == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_commit_messages_abort: table and messages needed");
    return pm_commit_messages_abort(table->fs, table->path, messages, true, true, err);
}

PAIMON_API int paimon_table_compact(paimon_table *table, const paimon_compact_options *options,
                                    int64_t *snapshot_id, paimon_error *err)
{
    pm_compact_opts o;
    char user[PM_UUID_STRLEN + 1];
    int64_t id = 0;
    int rc;
    paimon_error_clear(err);
    if (snapshot_id != NULL)
        *snapshot_id = 0;
    if (table == NULL || options == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_compact: table and options needed");
    if (options->version != PAIMON_COMPACT_OPTIONS_VERSION)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_compact: options version %u, this library knows %d",
                          options->version, PAIMON_COMPACT_OPTIONS_VERSION);
    if (options->commit_user == NULL && pm_uuid_v4(user) != 0)
        return pm_err_set(err, PAIMON_EIO, "no random numbers for a commit user");
    memset(&o, 0, sizeof(o));
    o.full = options->full != 0;
    o.partition = options->partition;
    o.partition_count = options->partition_count;
    o.commit_user = options->commit_user != NULL ? options->commit_user : user;
    rc = pm_table_compact(table->fs, table->path, &o, &id, NULL, NULL, err);
    if (snapshot_id != NULL)
        *snapshot_id = id;
    /* name the table once: errors of the table writer already start with its path */
    if (rc != 0 && rc != PAIMON_ENOMEM && err != NULL &&
        strncmp(err->message, table->path, strlen(table->path)) != 0)
        pm_err_prefix(err, rc, "%s: ", table->path);
    return rc;
}

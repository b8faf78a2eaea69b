/*
 * Public schema-change, commit and compaction functions (include/paimon/write.h): argument
 * checks and translation over src/table.  Errors come up from the table layer as they are:
 * it names the table where it knows that the table is the context.
 */
#include <string.h>

#include "api/api.h"
#include "paimon/write.h"
#include "meta/partition_spec.h"
#include "table/maintain.h"
#include "table/alter.h"
#include "table/commit.h"
#include "table/compact.h"
#include "table/table.h"
#include "table/write/changelog_compact.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/uuid.h"

PAIMON_API int paimon_table_alter(const char *path, const paimon_alter *change, int64_t *schema_id,
                                  paimon_error *err)
{
    paimon_alter c;
    pm_fs *fs = NULL;
    int rc;
    paimon_error_clear(err);
    if (path == NULL || path[0] == '\0' || change == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_alter: path and change needed");
    if ((rc = pm_api_options_get(&pm_api_alter, "paimon_table_alter", change, &c, err)) != 0)
        return rc;
    if ((rc = pm_api_fs_for_path(&fs, path, true, err)) != 0)
        return rc;
    rc = pm_table_alter(fs, pm_fs_local_path(path), &c, schema_id, err);
    pm_fs_free(fs);
    return rc;
}

/* ---- commits --------------------------------------------------------------------------- */

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

PAIMON_API bool paimon_commit_messages_empty(const paimon_commit_messages *messages)
{
    return messages == NULL ||
           (messages->data_count == 0 && messages->changelog_count == 0 &&
            messages->index_count == 0 && messages->compact_count == 0 &&
            messages->compact_changelog_count == 0 && messages->compact_index_count == 0);
}

/* The table's upkeep after a commit that made snapshot `id` (table/maintain.h): expiration
 * only when the table is not write-only (a dedicated compaction job does it then).  The
 * commit stands whatever happens here: a failure goes to the result (version 2), or nowhere
 * when the caller gave none, as the next commit's upkeep redoes the work. */
static void maintain_after_commit(paimon_table *table, int64_t id, paimon_commit_result *res)
{
    paimon_error merr;
    bool write_only = false;
    memset(&merr, 0, sizeof(merr));
    if (pm_options_get_bool(&table->schema->options, "write-only", &write_only, &merr) != 0 ||
        pm_table_maintain(table->fs, table->path, id, !write_only, &merr) != 0) {
        if (res != NULL && res->version >= 2)
            res->maintain_err = merr;
    }
}

/* The snapshot properties of a version-3 commit: arrays given, keys non-empty and
 * distinct, values present (the snapshot's JSON map has string values). */
PM_MUST_CHECK static int check_properties(const paimon_commit_options *o, paimon_error *err)
{
    if (o->property_keys == NULL || o->property_values == NULL)
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_commit: %zu properties but no keys or values",
                          o->property_count);
    for (size_t i = 0; i < o->property_count; i++) {
        if (o->property_keys[i] == NULL || o->property_keys[i][0] == '\0' ||
            o->property_values[i] == NULL)
            return pm_err_set(err, PAIMON_EINVALID,
                              "paimon_table_commit: property %zu has no key or no value", i);
        for (size_t j = 0; j < i; j++)
            if (strcmp(o->property_keys[i], o->property_keys[j]) == 0)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "paimon_table_commit: property \"%s\" given twice",
                                  o->property_keys[i]);
    }
    return 0;
}

PAIMON_API int paimon_table_commit(paimon_table *table, const paimon_commit_messages *messages,
                                   const paimon_commit_options *options, int64_t *snapshot_id,
                                   paimon_error *err)
{
    paimon_commit_options given;
    pm_commit_opts o;
    paimon_commit_result *res;
    char user[PM_UUID_STRLEN + 1];
    int64_t id = 0;
    int rc;
    paimon_error_clear(err);
    if (snapshot_id != NULL)
        *snapshot_id = 0;
    if (table == NULL || messages == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_commit: table and messages needed");
    if ((rc = pm_api_options_get(&pm_api_commit_options, "paimon_table_commit", options, &given,
                                 err)) != 0)
        return rc;
    res = given.result;
    if (given.property_count > 0 && (rc = check_properties(&given, err)) != 0)
        return rc;
    if (res != NULL && (res->version < 1 || res->version > PAIMON_COMMIT_RESULT_VERSION))
        return pm_err_set(err, PAIMON_EINVALID,
                          "paimon_table_commit: result version %u, this library knows 1 to %d",
                          res->version, PAIMON_COMMIT_RESULT_VERSION);
    if (res != NULL && res->version >= 2)
        memset(&res->maintain_err, 0, sizeof(res->maintain_err));
    memset(&o, 0, sizeof(o));
    if (given.commit_user == NULL && pm_uuid_v4(user) != 0)
        return pm_err_set(err, PAIMON_EIO, "no random numbers for a commit user");
    o.commit_user = given.commit_user != NULL ? given.commit_user : user;
    o.identifier = given.identifier;
    o.kind = PM_COMMIT_APPEND;
    o.overwrite = given.overwrite != 0;
    o.partition = given.partition;
    o.partition_count = given.partition_count;
    /* a fresh user has no snapshots to find */
    o.skip_committed = given.commit_user != NULL;
    o.result = res;
    o.property_keys = given.property_keys;
    o.property_values = given.property_values;
    o.property_count = given.property_count;
    rc = pm_changelog_compact_commit(table->fs, table->path, messages, &o, &id, err);
    if (snapshot_id != NULL)
        *snapshot_id = id;
    if (rc == 0 && id > 0)
        maintain_after_commit(table, id, res);
    return rc;
}

PAIMON_API int paimon_table_check_partition(paimon_table *table, const char *const *partition,
                                            size_t partition_count, paimon_error *err)
{
    pm_partition_spec *spec = NULL;
    int rc;
    paimon_error_clear(err);
    if (table == NULL || (partition == NULL && partition_count > 0))
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_check_partition: table needed");
    rc = pm_partition_spec_parse(&spec, table->schema, partition, partition_count, err);
    pm_partition_spec_free(spec);
    return rc != 0 ? pm_err_prefix(err, rc, "%s: ", table->path) : 0;
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
    paimon_compact_options given;
    pm_compact_opts o;
    char user[PM_UUID_STRLEN + 1];
    int64_t id = 0;
    int rc;
    paimon_error_clear(err);
    if (snapshot_id != NULL)
        *snapshot_id = 0;
    if (table == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "paimon_table_compact: no table");
    if ((rc = pm_api_options_get(&pm_api_compact_options, "paimon_table_compact", options, &given,
                                 err)) != 0)
        return rc;
    if (given.commit_user == NULL && pm_uuid_v4(user) != 0)
        return pm_err_set(err, PAIMON_EIO, "no random numbers for a commit user");
    memset(&o, 0, sizeof(o));
    o.full = given.full != 0;
    o.partition = given.partition;
    o.partition_count = given.partition_count;
    o.commit_user = given.commit_user != NULL ? given.commit_user : user;
    pm_table_begin(table);
    o.threads = given.threads;
    rc = pm_table_compact(table->fs, table->path, &o, &id, NULL, NULL, err);
    if (snapshot_id != NULL)
        *snapshot_id = id;
    if (given.maintain_err != NULL)
        memset(given.maintain_err, 0, sizeof(*given.maintain_err));
    /* a dedicated compaction does the upkeep even for write-only tables (they rely on it) */
    if (rc == 0 && id > 0) {
        paimon_error merr;
        memset(&merr, 0, sizeof(merr));
        if (pm_table_maintain(table->fs, table->path, id, true, &merr) != 0 &&
            given.maintain_err != NULL)
            *given.maintain_err = merr;
    }
    return rc;
}

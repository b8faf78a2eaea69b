/* Snapshot JSON: see snapshot.h and metadata.md §4. */
#include "meta/snapshot.h"

#include <string.h>

#include "util/alloc.h"
#include "util/error.h"
#include "util/json.h"

static const char *const KIND_NAMES[] = {"APPEND", "COMPACT", "OVERWRITE", "ANALYZE"};

const char *pm_commit_kind_name(pm_commit_kind kind)
{
    return kind < PM_COMMIT_UNKNOWN ? KIND_NAMES[kind] : "UNKNOWN";
}

void pm_snapshot_free(pm_snapshot *s)
{
    if (s == NULL)
        return;
    pm_free(s->base_manifest_list);
    pm_free(s->delta_manifest_list);
    pm_free(s->changelog_manifest_list);
    pm_free(s->index_manifest);
    pm_free(s->commit_user);
    pm_free(s->commit_kind_name);
    pm_free(s->statistics);
    pm_options_free(&s->properties);
    json_decref(s->json);
    pm_free(s);
}

/* Copies an optional string member into *out (NULL when absent). */
PM_MUST_CHECK static int take_str(const json_t *root, const char *key, bool required, char **out,
                                  const char *what, paimon_error *err)
{
    const char *v = NULL;
    int rc = pm_json_get_str(root, key, required, &v, what, err);
    *out = NULL;
    if (rc != 0 || v == NULL)
        return rc;
    *out = pm_strdup(v);
    return *out == NULL ? pm_nomem(err) : 0;
}

/* An optional size: PM_ABSENT when missing; a negative size is corrupt. */
PM_MUST_CHECK static int take_size(const json_t *root, const char *key, int64_t *out,
                                   const char *what, paimon_error *err)
{
    int rc;
    *out = PM_ABSENT;
    rc = pm_json_get_i64(root, key, false, out, NULL, what, err);
    if (rc == 0 && *out < PM_ABSENT)
        return pm_corrupt(err, "%s: \"%s\" is negative", what, key);
    return rc;
}

/* An optional record count: PM_ABSENT_COUNT when missing (deltas may be negative). */
PM_MUST_CHECK static int take_count(const json_t *root, const char *key, int64_t *out,
                                    const char *what, paimon_error *err)
{
    *out = PM_ABSENT_COUNT;
    return pm_json_get_i64(root, key, false, out, NULL, what, err);
}

int pm_snapshot_parse(const uint8_t *data, size_t len, const char *what, pm_snapshot **out,
                      paimon_error *err)
{
    json_t *root = NULL;
    pm_snapshot *s = NULL;
    const json_t *props;
    int64_t v = 0;
    int rc;

    *out = NULL;
    if ((rc = pm_json_parse_object(data, len, what, &root, err)) != 0)
        return rc;
    s = pm_calloc(1, sizeof(*s));
    if (s == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pm_options_init(&s->properties);
    PM_TRY(pm_json_get_i64(root, "version", true, &v, NULL, what, err));
    s->version = (int32_t)v;
    PM_TRY(pm_json_get_i64(root, "id", true, &s->id, NULL, what, err));
    PM_TRY(pm_json_get_i64(root, "schemaId", true, &s->schema_id, NULL, what, err));
    PM_TRY(take_str(root, "baseManifestList", true, &s->base_manifest_list, what, err));
    PM_TRY(take_size(root, "baseManifestListSize", &s->base_manifest_list_size, what, err));
    PM_TRY(take_str(root, "deltaManifestList", true, &s->delta_manifest_list, what, err));
    PM_TRY(take_size(root, "deltaManifestListSize", &s->delta_manifest_list_size, what, err));
    PM_TRY(take_str(root, "changelogManifestList", false, &s->changelog_manifest_list, what, err));
    PM_TRY(
        take_size(root, "changelogManifestListSize", &s->changelog_manifest_list_size, what, err));
    PM_TRY(take_str(root, "indexManifest", false, &s->index_manifest, what, err));
    PM_TRY(take_str(root, "commitUser", true, &s->commit_user, what, err));
    PM_TRY(pm_json_get_i64(root, "commitIdentifier", true, &s->commit_identifier, NULL, what, err));
    PM_TRY(take_str(root, "commitKind", true, &s->commit_kind_name, what, err));
    s->commit_kind = PM_COMMIT_UNKNOWN;
    for (int k = 0; k < PM_COMMIT_UNKNOWN; k++)
        if (strcmp(s->commit_kind_name, KIND_NAMES[k]) == 0)
            s->commit_kind = (pm_commit_kind)k;
    PM_TRY(pm_json_get_i64(root, "timeMillis", true, &s->time_millis, NULL, what, err));
    PM_TRY(take_count(root, "totalRecordCount", &s->total_record_count, what, err));
    PM_TRY(take_count(root, "deltaRecordCount", &s->delta_record_count, what, err));
    PM_TRY(take_count(root, "changelogRecordCount", &s->changelog_record_count, what, err));
    PM_TRY(pm_json_get_i64(root, "watermark", false, &s->watermark, &s->has_watermark, what, err));
    PM_TRY(take_str(root, "statistics", false, &s->statistics, what, err));
    PM_TRY(
        pm_json_get_i64(root, "nextRowId", false, &s->next_row_id, &s->has_next_row_id, what, err));
    props = json_object_get(root, "properties");
    if (props != NULL && !json_is_null(props)) {
        const char *key;
        const json_t *val;
        if (!json_is_object(props)) {
            rc = pm_corrupt(err, "%s: \"properties\" is not an object", what);
            goto done;
        }
        json_object_foreach((json_t *)props, key, val)
        {
            if (!json_is_string(val)) {
                rc = pm_corrupt(err, "%s: property \"%s\" is not a string", what, key);
                goto done;
            }
            if (pm_options_set(&s->properties, key, json_string_value(val)) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        }
    }
    if (s->id < 0 || s->schema_id < 0) {
        rc = pm_corrupt(err, "%s: negative snapshot or schema id", what);
        goto done;
    }
    s->json = root;
    root = NULL;
    *out = s;
    s = NULL;
done:
    pm_snapshot_free(s);
    json_decref(root);
    return rc;
}

json_t *pm_snapshot_to_json(const pm_snapshot *s)
{
    json_t *o = json_object();
    bool ok = o != NULL;
#define SET(key, value) ok = ok && json_object_set_new(o, key, value) == 0
    /* Field order of Snapshot.java's creator; NON_NULL fields only when present. */
    SET("version", json_integer(PM_SNAPSHOT_VERSION));
    SET("id", json_integer(s->id));
    SET("schemaId", json_integer(s->schema_id));
    SET("baseManifestList", json_string(s->base_manifest_list));
    if (s->base_manifest_list_size >= 0)
        SET("baseManifestListSize", json_integer(s->base_manifest_list_size));
    SET("deltaManifestList", json_string(s->delta_manifest_list));
    if (s->delta_manifest_list_size >= 0)
        SET("deltaManifestListSize", json_integer(s->delta_manifest_list_size));
    if (s->changelog_manifest_list != NULL) {
        SET("changelogManifestList", json_string(s->changelog_manifest_list));
        if (s->changelog_manifest_list_size >= 0)
            SET("changelogManifestListSize", json_integer(s->changelog_manifest_list_size));
    }
    if (s->index_manifest != NULL)
        SET("indexManifest", json_string(s->index_manifest));
    SET("commitUser", json_string(s->commit_user));
    SET("commitIdentifier", json_integer(s->commit_identifier));
    SET("commitKind", json_string(pm_commit_kind_name(s->commit_kind)));
    SET("timeMillis", json_integer(s->time_millis));
    SET("totalRecordCount",
        json_integer(s->total_record_count == PM_ABSENT_COUNT ? 0 : s->total_record_count));
    SET("deltaRecordCount",
        json_integer(s->delta_record_count == PM_ABSENT_COUNT ? 0 : s->delta_record_count));
    if (s->changelog_record_count != PM_ABSENT_COUNT && s->changelog_manifest_list != NULL)
        SET("changelogRecordCount", json_integer(s->changelog_record_count));
    if (s->has_watermark)
        SET("watermark", json_integer(s->watermark));
    if (s->statistics != NULL)
        SET("statistics", json_string(s->statistics));
    if (s->properties.count > 0) {
        json_t *p = json_object();
        for (size_t i = 0; p != NULL && i < s->properties.count; i++)
            if (json_object_set_new(p, s->properties.keys[i],
                                    json_string(s->properties.values[i])) != 0) {
                json_decref(p);
                p = NULL;
            }
        SET("properties", p);
    }
    /* 1.3+ writes nextRowId always (0 without row tracking). */
    SET("nextRowId", json_integer(s->has_next_row_id ? s->next_row_id : 0));
#undef SET
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int pm_snapshot_write_json(const pm_snapshot *s, pm_buf *out)
{
    return pm_json_write_jackson_owned(out, pm_snapshot_to_json(s));
}

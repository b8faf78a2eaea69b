/* Schema files: see schema.h and metadata.md §3. */
#include "meta/schema.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "data/type_json.h"
#include "format/avro/avro_data.h"
#include "meta/paths.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/json.h"

void pm_schema_free(pm_schema *s)
{
    if (s == NULL)
        return;
    pm_type_free(s->row);
    pm_strlist_free(&s->partition_keys);
    pm_strlist_free(&s->primary_keys);
    pm_options_free(&s->options);
    pm_free(s->comment);
    pm_free(s);
}

PM_MUST_CHECK static int read_key_list(const json_t *root, const char *key, pm_strlist *out,
                                       const char *what, paimon_error *err)
{
    const json_t *arr = json_object_get(root, key), *v;
    size_t i;
    if (!json_is_array(arr))
        return pm_corrupt(err, "%s: missing or invalid \"%s\"", what, key);
    json_array_foreach(arr, i, v)
    {
        if (!json_is_string(v))
            return pm_corrupt(err, "%s: \"%s\" must hold strings", what, key);
        if (pm_strlist_push(out, json_string_value(v)) != 0)
            return pm_nomem(err);
    }
    return 0;
}

int pm_schema_parse(const uint8_t *data, size_t len, const char *what, pm_schema **out,
                    paimon_error *err)
{
    json_t *root = NULL;
    pm_schema *s = NULL;
    const json_t *opts, *comment;
    int64_t v = 0;
    bool present;
    int rc;

    *out = NULL;
    if ((rc = pm_json_parse_object(data, len, what, &root, err)) != 0)
        return rc;
    s = pm_calloc(1, sizeof(*s));
    if (s == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pm_strlist_init(&s->partition_keys);
    pm_strlist_init(&s->primary_keys);
    pm_options_init(&s->options);

    s->version = 1; /* Paimon 0.7 wrote no version */
    PM_TRY(pm_json_get_i64(root, "version", false, &v, &present, what, err));
    if (present)
        s->version = (int32_t)v;
    PM_TRY(pm_json_get_i64(root, "id", true, &s->id, NULL, what, err));
    rc = pm_fields_from_json(json_object_get(root, "fields"), &s->row, err);
    if (rc != 0) {
        rc = pm_err_prefix(err, rc, "%s: ", what);
        goto done;
    }
    PM_TRY(pm_json_get_i64(root, "highestFieldId", true, &v, NULL, what, err));
    s->highest_field_id = (int32_t)v;
    PM_TRY(read_key_list(root, "partitionKeys", &s->partition_keys, what, err));
    PM_TRY(read_key_list(root, "primaryKeys", &s->primary_keys, what, err));

    opts = json_object_get(root, "options");
    if (!json_is_object(opts)) {
        rc = pm_corrupt(err, "%s: missing or invalid \"options\"", what);
        goto done;
    } else {
        const char *key;
        const json_t *val;
        json_object_foreach((json_t *)opts, key, val)
        {
            char text[64];
            const char *value = text;
            /* Java reads every option with asText(). */
            if (json_is_string(val))
                value = json_string_value(val);
            else if (json_is_integer(val))
                snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(val));
            else if (json_is_boolean(val))
                value = json_is_true(val) ? "true" : "false";
            else if (json_is_real(val))
                snprintf(text, sizeof(text), "%.17g", json_real_value(val));
            else {
                rc = pm_corrupt(err, "%s: option \"%s\" is not a scalar", what, key);
                goto done;
            }
            if (pm_options_set(&s->options, key, value) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        }
    }
    /* SchemaSerializer.deserialize: defaults of old versions. */
    if (s->version <= 1 && pm_options_get(&s->options, "bucket") == NULL &&
        pm_options_set(&s->options, "bucket", "1") != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    if (s->version <= 2 && pm_options_get(&s->options, "file.format") == NULL &&
        pm_options_set(&s->options, "file.format", "orc") != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    comment = json_object_get(root, "comment");
    if (comment != NULL && !json_is_null(comment)) {
        if (!json_is_string(comment)) {
            rc = pm_corrupt(err, "%s: \"comment\" is not a string", what);
            goto done;
        }
        if ((s->comment = pm_strdup(json_string_value(comment))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    PM_TRY(pm_json_get_i64(root, "timeMillis", false, &s->time_millis, NULL, what, err));
    *out = s;
    s = NULL;
done:
    pm_schema_free(s);
    json_decref(root);
    return rc;
}

static json_t *string_array(const pm_strlist *l)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr != NULL && i < l->count; i++) {
        if (json_array_append_new(arr, json_string(l->items[i])) != 0) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

json_t *pm_schema_to_json(const pm_schema *s)
{
    json_t *root = json_object(), *opts = json_object();
    bool ok = root != NULL && opts != NULL;
    for (size_t i = 0; ok && i < s->options.count; i++)
        ok = json_object_set_new(opts, s->options.keys[i], json_string(s->options.values[i])) == 0;
    /* Key order of SchemaSerializer.serialize. */
    ok = ok && json_object_set_new(root, "version", json_integer(PM_SCHEMA_VERSION)) == 0;
    ok = ok && json_object_set_new(root, "id", json_integer(s->id)) == 0;
    ok = ok && json_object_set_new(root, "fields", pm_fields_to_json(s->row)) == 0;
    ok = ok && json_object_set_new(root, "highestFieldId", json_integer(s->highest_field_id)) == 0;
    ok = ok && json_object_set_new(root, "partitionKeys", string_array(&s->partition_keys)) == 0;
    ok = ok && json_object_set_new(root, "primaryKeys", string_array(&s->primary_keys)) == 0;
    if (ok) {
        ok = json_object_set_new(root, "options", opts) == 0;
        opts = NULL;
    }
    if (ok && s->comment != NULL)
        ok = json_object_set_new(root, "comment", json_string(s->comment)) == 0;
    ok = ok && json_object_set_new(root, "timeMillis", json_integer(s->time_millis)) == 0;
    json_decref(opts);
    if (!ok) {
        json_decref(root);
        return NULL;
    }
    return root;
}

int pm_schema_write_json(const pm_schema *s, pm_buf *out)
{
    return pm_json_write_jackson_owned(out, pm_schema_to_json(s));
}

const pm_field *pm_schema_field(const pm_schema *s, const char *name)
{
    return pm_type_field_by_name(s->row, name, NULL);
}

PM_MUST_CHECK static int fields_of(const pm_schema *s, const pm_strlist *names,
                                   const pm_strlist *skip, const pm_field **out, size_t cap,
                                   size_t *count, paimon_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < names->count; i++) {
        const pm_field *f;
        if (skip != NULL && pm_strlist_find(skip, names->items[i]) >= 0)
            continue;
        f = pm_schema_field(s, names->items[i]);
        if (f == NULL)
            return pm_corrupt(err, "schema-%lld: key %s is not a column", (long long)s->id,
                              names->items[i]);
        if (n == cap)
            return pm_err_set(err, PAIMON_ELIMIT, "schema-%lld: too many key columns",
                              (long long)s->id);
        out[n++] = f;
    }
    *count = n;
    return 0;
}

int pm_schema_partition_fields(const pm_schema *s, const pm_field **out, size_t cap, size_t *count,
                               paimon_error *err)
{
    return fields_of(s, &s->partition_keys, NULL, out, cap, count, err);
}

int pm_schema_trimmed_pk_fields(const pm_schema *s, const pm_field **out, size_t cap, size_t *count,
                                paimon_error *err)
{
    return fields_of(s, &s->primary_keys, &s->partition_keys, out, cap, count, err);
}

PM_MUST_CHECK static int check_keys(const pm_schema *s, const pm_strlist *keys, const char *kind,
                                    paimon_error *err)
{
    for (size_t i = 0; i < keys->count; i++) {
        if (pm_schema_field(s, keys->items[i]) == NULL)
            return pm_err_set(err, PAIMON_EINVALID, "%s key %s is not a column", kind,
                              keys->items[i]);
        for (size_t j = 0; j < i; j++)
            if (strcmp(keys->items[i], keys->items[j]) == 0)
                return pm_err_set(err, PAIMON_EINVALID, "%s key %s is listed twice", kind,
                                  keys->items[i]);
    }
    return 0;
}

/* True when `t` holds a VARIANT anywhere (the tree is at most PM_MAX_NESTING deep). */
static bool has_variant(const pm_type *t)
{
    if (t == NULL)
        return false;
    if (t->id == PM_TYPE_VARIANT || has_variant(t->element) || has_variant(t->value))
        return true;
    for (size_t i = 0; i < t->field_count; i++)
        if (has_variant(t->fields[i].type))
            return true;
    return false;
}

/* What the table's file format cannot store, refused as Java's FileFormat.validateDataFields
 * refuses it when a table is created or altered (SchemaValidation.validateTableSchema). */
PM_MUST_CHECK static int check_columns(const pm_schema *s, paimon_error *err)
{
    const char *format = pm_options_get(&s->options, "file.format");
    if (format == NULL)
        format = "parquet"; /* CoreOptions.FILE_FORMAT's default */
    for (size_t i = 0; i < s->row->field_count; i++) {
        const pm_field *f = &s->row->fields[i];
        if (pm_type_nesting(f->type) > PM_MAX_NESTING)
            return pm_err_set(err, PAIMON_EINVALID, "column %s: type nested deeper than %d levels",
                              f->name, PM_MAX_NESTING);
        /* OrcTypeUtil.convertToOrcType has no ORC type for VARIANT. */
        if (strcasecmp(format, "orc") == 0 && has_variant(f->type))
            return pm_err_set(err, PAIMON_EINVALID,
                              "column %s: ORC has no form for VARIANT (file.format orc)", f->name);
    }
    if (strcasecmp(format, "avro") == 0)
        return pm_avro_data_check(s->row, err);
    return 0;
}

int pm_schema_validate(const pm_schema *s, paimon_error *err)
{
    int rc;
    if (s->row == NULL || s->row->field_count == 0)
        return pm_err_set(err, PAIMON_EINVALID, "a table needs at least one column");
    if ((rc = check_columns(s, err)) != 0)
        return rc;
    if ((rc = pm_type_check_ids(s->row, err)) != 0)
        return rc;
    if (pm_type_highest_field_id(s->row) > s->highest_field_id)
        return pm_err_set(err, PAIMON_EINVALID, "highestFieldId %d is below field id %d",
                          s->highest_field_id, pm_type_highest_field_id(s->row));
    if ((rc = check_keys(s, &s->partition_keys, "partition", err)) != 0 ||
        (rc = check_keys(s, &s->primary_keys, "primary", err)) != 0)
        return rc;
    if (s->partition_keys.count == s->row->field_count)
        return pm_err_set(err, PAIMON_EINVALID,
                          "every column is a partition key: a table "
                          "needs at least one column that is not");
    if (s->primary_keys.count > 0) {
        /* A primary key without every partition column is Java's cross-partition upsert
         * (TableSchema.crossPartitionUpdate); it must keep a column that is not a partition
         * column (TableSchema.trimmedPrimaryKeys). */
        size_t trimmed = 0;
        for (size_t i = 0; i < s->primary_keys.count; i++)
            trimmed += pm_strlist_find(&s->partition_keys, s->primary_keys.items[i]) < 0;
        if (trimmed == 0)
            return pm_err_set(err, PAIMON_EINVALID,
                              "primary key must hold a column that is not a partition key");
    }
    return 0;
}

/* ---- files ----------------------------------------------------------------------------- */

char *pm_schema_path(const char *table, int64_t id)
{
    char name[40];
    snprintf(name, sizeof(name), "schema-%" PRId64, id);
    return pm_table_file(table, PM_DIR_SCHEMA, name);
}

int pm_schema_list_ids(pm_fs *fs, const char *table, int64_t **ids, size_t *count,
                       paimon_error *err)
{
    char *dir = pm_table_file(table, PM_DIR_SCHEMA, NULL);
    int rc;
    if (dir == NULL)
        return pm_nomem(err);
    rc = pm_list_versioned(fs, dir, "schema-", ids, count, err);
    pm_free(dir);
    return rc;
}

/* Reads and parses schema `id`; with `raw`, also hands over the file's bytes. */
PM_MUST_CHECK static int read_schema(pm_fs *fs, const char *table, int64_t id, pm_schema **out,
                                     uint8_t **raw, size_t *raw_len, paimon_error *err)
{
    char *path = pm_schema_path(table, id);
    uint8_t *data = NULL;
    size_t len = 0;
    int rc;
    *out = NULL;
    if (path == NULL)
        return pm_nomem(err);
    rc = pm_fs_read_all(fs, path, 64 << 20, &data, &len, err);
    if (rc == 0)
        rc = pm_schema_parse(data, len, path, out, err);
    if (rc == 0 && (*out)->id != id) {
        rc = pm_corrupt(err, "%s: holds schema id %lld", path, (long long)(*out)->id);
        pm_schema_free(*out);
        *out = NULL;
    }
    if (rc == 0 && raw != NULL) {
        *raw = data;
        *raw_len = len;
        data = NULL;
    }
    pm_free(data);
    pm_free(path);
    return rc;
}

int pm_schema_read(pm_fs *fs, const char *table, int64_t id, pm_schema **out, paimon_error *err)
{
    return read_schema(fs, table, id, out, NULL, NULL, err);
}

int pm_schema_read_latest(pm_fs *fs, const char *table, pm_schema **out, paimon_error *err)
{
    int64_t *ids = NULL;
    uint8_t *raw = NULL;
    size_t n = 0, len = 0;
    int rc;

    *out = NULL;
    if ((rc = pm_schema_memo_get(fs, table, &raw, &len, err)) != 0)
        return rc;
    if (raw != NULL) {
        rc = pm_schema_parse(raw, len, table, out, err);
        pm_free(raw);
        return rc;
    }
    rc = pm_schema_list_ids(fs, table, &ids, &n, err);
    if (rc == 0 && n == 0)
        rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: not a Paimon table (no schema)", table);
    if (rc == 0)
        rc = read_schema(fs, table, ids[n - 1], out, &raw, &len, err);
    if (rc == 0)
        pm_schema_memo_put(fs, table, raw, len);
    pm_free(raw);
    pm_free(ids);
    return rc;
}

int pm_schema_commit(pm_fs *fs, const char *table, const pm_schema *s, paimon_error *err)
{
    /* whether it lands or another writer's does, the latest schema changed */
    pm_schema_forget(fs, table);
    return pm_metadata_create_json(fs, pm_schema_path(table, s->id), pm_schema_to_json(s), err);
}

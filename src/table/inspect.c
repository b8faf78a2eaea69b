/* Metadata inspection lists: see inspect.h. */
#include "table/inspect.h"

#include <stdlib.h>
#include <string.h>

#include "data/binary_row.h"
#include "io/s3/s3_config.h"
#include "meta/file_path.h"
#include "meta/live_files.h"
#include "meta/manifest.h"
#include "meta/partition.h"
#include "meta/paths.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/json.h"

int pm_inspect_list_new(pm_list_kind kind, size_t item_size, size_t count, paimon_list **out,
                        paimon_error *err)
{
    paimon_list *l = pm_calloc(1, sizeof(*l));
    if (l == NULL)
        return pm_nomem(err);
    l->kind = kind;
    pm_arena_init(&l->arena, 1 << 14);
    l->items = pm_arena_calloc(&l->arena, count + 1, item_size);
    if (l->items == NULL) {
        pm_list_free(l);
        return pm_nomem(err);
    }
    *out = l;
    return 0;
}

/* The end of every list's build: PAIMON_ENOMEM when an allocation failed on the way, else
 * the list is handed out with its first `count` items (*out = *l, *l = NULL). */
int pm_inspect_list_finish(paimon_list **l, size_t count, bool failed, paimon_list **out,
                           paimon_error *err)
{
    if (failed)
        return pm_nomem(err);
    (*l)->count = count;
    *out = *l;
    *l = NULL;
    return 0;
}

void pm_list_free(paimon_list *l)
{
    if (l == NULL)
        return;
    pm_arena_free(&l->arena);
    pm_free(l);
}

/* Copies a string (or NULL) into the list's arena; sets *failed on allocation failure. */
const char *pm_inspect_keep(paimon_list *l, const char *s, bool *failed)
{
    char *c;
    if (s == NULL)
        return NULL;
    c = pm_arena_strndup(&l->arena, s, strlen(s));
    if (c == NULL)
        *failed = true;
    return c;
}

const char *pm_inspect_keep_buf(paimon_list *l, pm_buf *b, bool *failed)
{
    char *c = pm_arena_strndup(&l->arena, (const char *)b->data, b->len);
    if (c == NULL)
        *failed = true;
    return c;
}

/* The credentials among a schema file's "options" replaced by the mask (the file's own
 * JSON is shown, never a secret). */
static void mask_secrets(json_t *schema, bool *failed)
{
    json_t *opts = json_object_get(schema, "options");
    const char *key;
    json_t *value;
    if (!json_is_object(opts))
        return;
    json_object_foreach(opts, key, value)
    {
        if (!pm_s3_config_is_secret(key) || !json_is_string(value))
            continue;
        if (json_string_set(value, PM_TABLE_SECRET_MASK) != 0)
            *failed = true;
    }
}

static const char *keep_json(paimon_list *l, const json_t *j, bool *failed)
{
    pm_buf b;
    const char *s = NULL;
    pm_buf_init(&b, 0);
    if (pm_json_write_compact(&b, j) == 0)
        s = pm_inspect_keep_buf(l, &b, failed);
    else
        *failed = true;
    pm_buf_free(&b);
    return s;
}

/* ---- snapshots --------------------------------------------------------------------------- */

int pm_inspect_each_snapshot(paimon_table *t, pm_list_kind kind, size_t item_size,
                             pm_inspect_snapshot_fill fill, void *ctx, paimon_list **out,
                             paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0, kept = 0;
    paimon_list *l = NULL;
    bool failed = false;
    int rc;

    *out = NULL;
    if ((rc = pm_snapshot_list_ids(t->fs, t->path, &ids, &n, err)) != 0)
        return rc;
    if ((rc = pm_inspect_list_new(kind, item_size, n, &l, err)) != 0)
        goto done;
    for (size_t i = 0; i < n && !failed; i++) {
        void *item = (char *)l->items + kept * item_size;
        paimon_error e = {0, {0}};
        pm_snapshot *s = NULL;
        int r = pm_snapshot_read(t->fs, t->path, ids[i], &s, &e);
        if (r == PAIMON_ENOTFOUND)
            continue;           /* expired between listing and reading */
        if (r != PAIMON_ENOMEM) /* any other failure: the item says why */
            r = fill(l, item, ids[i], s, r == 0 ? NULL : e.message, ctx, &failed, err);
        pm_snapshot_free(s);
        if (r != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        kept++;
    }
    rc = pm_inspect_list_finish(&l, kept, failed, out, err);
done:
    pm_list_free(l);
    pm_free(ids);
    return rc;
}

PM_MUST_CHECK static int fill_snapshot(paimon_list *l, void *item, int64_t id, const pm_snapshot *s,
                                       const char *why, void *ctx, bool *failed, paimon_error *err)
{
    paimon_snapshot_info *info = item;
    (void)ctx;
    (void)err;
    info->id = id;
    if (s == NULL) {
        info->unreadable = pm_inspect_keep(l, why, failed);
        return 0;
    }
    info->schema_id = s->schema_id;
    info->commit_kind = pm_inspect_keep(l, s->commit_kind_name, failed);
    info->commit_user = pm_inspect_keep(l, s->commit_user, failed);
    info->commit_identifier = s->commit_identifier;
    info->time_millis = s->time_millis;
    info->total_record_count = s->total_record_count;
    info->delta_record_count = s->delta_record_count;
    info->changelog_record_count = s->changelog_record_count;
    info->watermark = s->has_watermark ? s->watermark : INT64_MIN;
    info->base_manifest_list = pm_inspect_keep(l, s->base_manifest_list, failed);
    info->delta_manifest_list = pm_inspect_keep(l, s->delta_manifest_list, failed);
    info->changelog_manifest_list = pm_inspect_keep(l, s->changelog_manifest_list, failed);
    info->index_manifest = pm_inspect_keep(l, s->index_manifest, failed);
    info->json = keep_json(l, s->json, failed);
    return 0;
}

int pm_inspect_snapshots(paimon_table *t, paimon_list **out, paimon_error *err)
{
    return pm_inspect_each_snapshot(t, PM_LIST_SNAPSHOTS, sizeof(paimon_snapshot_info),
                                    fill_snapshot, NULL, out, err);
}

/* ---- schemas ----------------------------------------------------------------------------- */

static const char *join_keys(paimon_list *l, const pm_strlist *keys, bool *failed)
{
    pm_buf b;
    const char *s;
    pm_buf_init(&b, 0);
    for (size_t i = 0; i < keys->count; i++)
        if ((i > 0 && pm_buf_putc(&b, ',') != 0) || pm_buf_puts(&b, keys->items[i]) != 0)
            *failed = true;
    s = pm_inspect_keep_buf(l, &b, failed);
    pm_buf_free(&b);
    return s;
}

int pm_inspect_schemas(paimon_table *t, paimon_list **out, paimon_error *err)
{
    int64_t *ids = NULL;
    size_t n = 0;
    paimon_list *l = NULL;
    bool failed = false;
    int rc;

    *out = NULL;
    if ((rc = pm_schema_list_ids(t->fs, t->path, &ids, &n, err)) != 0)
        return rc;
    if ((rc = pm_inspect_list_new(PM_LIST_SCHEMAS, sizeof(paimon_schema_info), n, &l, err)) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        paimon_schema_info *info = (paimon_schema_info *)l->items + i;
        char *path = pm_schema_path(t->path, ids[i]);
        uint8_t *data = NULL;
        size_t len = 0;
        pm_schema *s = NULL;
        json_t *raw = NULL;
        pm_buf cols;

        if (path == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        rc = pm_fs_read_all(t->fs, path, 64 << 20, &data, &len, err);
        if (rc == 0)
            rc = pm_schema_parse(data, len, path, &s, err);
        if (rc == 0)
            rc = pm_json_parse(data, len, path, &raw, err);
        pm_free(data);
        pm_free(path);
        if (rc != 0) {
            pm_schema_free(s);
            goto done;
        }
        info->id = s->id;
        info->time_millis = s->time_millis;
        info->highest_field_id = s->highest_field_id;
        info->field_count = s->row->field_count;
        info->option_count = s->options.count;
        info->comment = pm_inspect_keep(l, s->comment, &failed);
        info->partition_keys = join_keys(l, &s->partition_keys, &failed);
        info->primary_keys = join_keys(l, &s->primary_keys, &failed);
        mask_secrets(raw, &failed);
        info->json = keep_json(l, raw, &failed);
        /* COLUMNS syntax: the ROW<...> form without its brackets. */
        pm_buf_init(&cols, 0);
        if (pm_type_format(s->row, &cols) != 0)
            failed = true;
        if (!failed && cols.len >= 14) { /* "ROW<" ... "> NOT NULL" */
            const char *text = pm_buf_cstr(&cols);
            const char *end =
                strstr(text, "> NOT NULL") != NULL ? text + cols.len - 10 : text + cols.len - 1;
            char *c = pm_arena_strndup(&l->arena, text + 4, (size_t)(end - text - 4));
            if (c == NULL)
                failed = true;
            info->columns = c;
        }
        pm_buf_free(&cols);
        json_decref(raw);
        pm_schema_free(s);
        if (failed) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    rc = pm_inspect_list_finish(&l, n, false, out, err);
done:
    pm_list_free(l);
    pm_free(ids);
    return rc;
}

/* ---- options ----------------------------------------------------------------------------- */

static int cmp_option(const void *a, const void *b)
{
    return strcmp(((const paimon_option_info *)a)->key, ((const paimon_option_info *)b)->key);
}

int pm_inspect_options(paimon_table *t, int64_t snapshot_id, paimon_list **out, paimon_error *err)
{
    pm_schema *s = t->schema;
    paimon_list *l = NULL;
    bool failed = false;
    int rc = 0;

    *out = NULL;
    if (snapshot_id >= 0) {
        pm_snapshot *snap = NULL;
        if ((rc = pm_table_snapshot(t, snapshot_id, &snap, err)) != 0)
            return rc;
        rc = pm_table_schema(t, snap->schema_id, &s, err);
        pm_snapshot_free(snap);
        if (rc != 0)
            return rc;
    }
    if ((rc = pm_inspect_list_new(PM_LIST_OPTIONS, sizeof(paimon_option_info), s->options.count, &l,
                                  err)))
        goto done;
    for (size_t i = 0; i < s->options.count; i++) {
        paimon_option_info *o = (paimon_option_info *)l->items + i;
        o->key = pm_inspect_keep(l, s->options.keys[i], &failed);
        o->value = pm_inspect_keep(
            l, pm_table_shown_value(s->options.keys[i], s->options.values[i]), &failed);
    }
    if (!failed)
        qsort(l->items, s->options.count, sizeof(paimon_option_info), cmp_option);
    rc = pm_inspect_list_finish(&l, s->options.count, failed, out, err);
done:
    pm_list_free(l);
    if (s != t->schema)
        pm_table_schema_release(t, s);
    return rc;
}

/* ---- manifests --------------------------------------------------------------------------- */

int pm_inspect_ctx_open(paimon_table *t, int64_t id, pm_inspect_ctx *c, paimon_error *err)
{
    int rc;
    memset(c, 0, sizeof(*c));
    if ((rc = pm_table_snapshot(t, id, &c->snap, err)) != 0)
        return rc;
    if ((rc = pm_table_schema(t, c->snap->schema_id, &c->schema, err)) != 0)
        return rc;
    return pm_schema_partition_fields(c->schema, c->parts, PM_INSPECT_MAX_PARTITION_KEYS,
                                      &c->part_count, err);
}

void pm_inspect_ctx_close(paimon_table *t, pm_inspect_ctx *c)
{
    pm_snapshot_free(c->snap);
    if (c->schema != NULL)
        pm_table_schema_release(t, c->schema);
}

/* Canonical JSON of a serialized partition row, or NULL when it does not decode as the
 * table's partition (statistics are only ever a hint). */
const char *pm_inspect_partition_json(paimon_list *l, const pm_inspect_ctx *c,
                                      const pm_avro_bytes *bytes, bool *failed)
{
    pm_binrow row;
    pm_buf b;
    const char *s = NULL;
    if (bytes->ptr == NULL || c->part_count == 0)
        return NULL;
    if (pm_binrow_deserialize(&row, bytes->ptr, bytes->len, NULL) != 0 ||
        row.arity != (int32_t)c->part_count)
        return NULL;
    pm_buf_init(&b, 0);
    if (pm_partition_json(&b, c->parts, c->part_count, &row, NULL) == 0)
        s = pm_inspect_keep_buf(l, &b, failed);
    pm_buf_free(&b);
    return s;
}

int pm_inspect_manifests(paimon_table *t, int64_t snapshot_id, paimon_list **out, paimon_error *err)
{
    static const char *const kinds[] = {"base", "delta", "changelog"};
    pm_inspect_ctx c;
    paimon_list *l = NULL;
    pm_arena tmp;
    pm_manifest_file_meta *lists[3] = {NULL, NULL, NULL};
    size_t counts[3] = {0, 0, 0}, total, k = 0;
    bool failed = false;
    int rc;

    *out = NULL;
    pm_arena_init(&tmp, 1 << 14);
    if ((rc = pm_inspect_ctx_open(t, snapshot_id, &c, err)) != 0)
        goto done;
    {
        const char *names[3] = {c.snap->base_manifest_list, c.snap->delta_manifest_list,
                                c.snap->changelog_manifest_list};
        int64_t sizes[3] = {c.snap->base_manifest_list_size, c.snap->delta_manifest_list_size,
                            c.snap->changelog_manifest_list_size};
        for (int i = 0; i < 3; i++) {
            if (names[i] == NULL)
                continue;
            rc = pm_manifest_list_read(t->fs, t->path, names[i], sizes[i], &tmp, &lists[i],
                                       &counts[i], err);
            if (rc != 0)
                goto done;
        }
    }
    total = counts[0] + counts[1] + counts[2];
    if ((rc = pm_inspect_list_new(PM_LIST_MANIFESTS, sizeof(paimon_manifest_info), total, &l,
                                  err)) != 0)
        goto done;
    for (int i = 0; i < 3; i++) {
        for (size_t j = 0; j < counts[i]; j++) {
            const pm_manifest_file_meta *m = &lists[i][j];
            paimon_manifest_info *info = (paimon_manifest_info *)l->items + k++;
            info->list_kind = kinds[i];
            info->file_name = pm_inspect_keep(l, m->file_name, &failed);
            info->file_size = m->file_size;
            info->num_added_files = m->num_added_files;
            info->num_deleted_files = m->num_deleted_files;
            info->schema_id = m->schema_id;
            info->min_bucket = m->has_min_bucket ? m->min_bucket : PAIMON_ABSENT_INT;
            info->max_bucket = m->has_max_bucket ? m->max_bucket : PAIMON_ABSENT_INT;
            info->min_level = m->has_min_level ? m->min_level : PAIMON_ABSENT_INT;
            info->max_level = m->has_max_level ? m->max_level : PAIMON_ABSENT_INT;
            info->partition_min =
                pm_inspect_partition_json(l, &c, &m->partition_stats.min_values, &failed);
            info->partition_max =
                pm_inspect_partition_json(l, &c, &m->partition_stats.max_values, &failed);
        }
    }
    rc = pm_inspect_list_finish(&l, total, failed, out, err);
done:
    pm_list_free(l);
    pm_inspect_ctx_close(t, &c);
    pm_arena_free(&tmp);
    return rc;
}

/* ---- files ------------------------------------------------------------------------------- */

int pm_inspect_files(paimon_table *t, int64_t snapshot_id, paimon_list **out, paimon_error *err)
{
    pm_inspect_ctx c;
    paimon_list *l = NULL;
    pm_arena tmp;
    pm_live_file *rows = NULL;
    pm_partition_naming naming;
    size_t n = 0;
    bool failed = false;
    pm_buf b;
    int rc;

    *out = NULL;
    pm_buf_init(&b, 0);
    pm_arena_init(&tmp, 1 << 16);
    if ((rc = pm_inspect_ctx_open(t, snapshot_id, &c, err)) != 0)
        goto done;
    if ((rc = pm_partition_naming_from(c.schema, &naming, err)) != 0)
        goto done;
    if ((rc = pm_live_files_sorted(t->fs, t->path, c.snap, c.parts, c.part_count, NULL, NULL, &tmp,
                                   &rows, &n, err)) != 0)
        goto done;
    if ((rc = pm_inspect_list_new(PM_LIST_FILES, sizeof(paimon_file_info), n, &l, err)) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        const pm_manifest_entry *e = rows[i].e;
        paimon_file_info *info = (paimon_file_info *)l->items + i;
        paimon_error path_err;
        pm_buf_reset(&b);
        if ((rc = pm_partition_json(&b, c.parts, c.part_count, &rows[i].partition, err)) != 0)
            goto done;
        info->partition = pm_inspect_keep_buf(l, &b, &failed);
        pm_buf_reset(&b);
        if (pm_partition_path(&b, c.parts, c.part_count, &rows[i].partition, &naming, &path_err) ==
            0)
            info->partition_path = pm_inspect_keep_buf(l, &b, &failed);
        info->bucket = e->bucket;
        info->total_buckets = e->total_buckets;
        info->level = e->file.level;
        info->file_name = pm_inspect_keep(l, e->file.file_name, &failed);
        info->row_count = e->file.row_count;
        info->file_size = e->file.file_size;
        info->min_sequence_number = e->file.min_sequence_number;
        info->max_sequence_number = e->file.max_sequence_number;
        info->schema_id = e->file.schema_id;
        info->delete_row_count =
            e->file.has_delete_row_count ? e->file.delete_row_count : PAIMON_ABSENT_COUNT;
        info->creation_time = e->file.has_creation_time ? e->file.creation_time : INT64_MIN;
        info->file_source = e->file.has_file_source ? e->file.file_source : -1;
        info->external_path = pm_inspect_keep(l, e->file.external_path, &failed);
        if (e->file.external_path != NULL || info->partition_path != NULL) {
            /* [data-file.path-directory/]<partition>/bucket-<n>/<file> (bucket-postpone for
             * -2, metadata.md §1) or the external path, as every reader checks them
             * (meta/file_path.h): a listing never shows a path no reader would open */
            pm_buf dir;
            pm_buf_init(&dir, 0);
            pm_buf_reset(&b);
            rc = e->file.external_path != NULL
                     ? 0
                     : pm_file_path_bucket_dir(t->path, &c.schema->options, c.parts, c.part_count,
                                               &rows[i].partition, &naming, e->bucket, &dir, err);
            if (rc == 0)
                rc = pm_file_path_resolve(t->path, &c.schema->options, pm_buf_cstr(&dir),
                                          e->file.file_name, e->file.external_path, &b, err);
            pm_buf_free(&dir);
            if (rc != 0)
                goto done;
            info->path = pm_inspect_keep_buf(l, &b, &failed);
        }
    }
    rc = pm_inspect_list_finish(&l, n, failed, out, err);
done:
    pm_buf_free(&b);
    pm_list_free(l);
    pm_inspect_ctx_close(t, &c);
    pm_arena_free(&tmp);
    return rc;
}

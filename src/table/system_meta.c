/*
 * `$snapshots`, `$schemas` and `$options` (Java 1.4.2's SnapshotsTable, SchemasTable and
 * OptionsTable): one row per snapshot file, per schema file, per option of the latest
 * schema.  None of them reads manifests, so they work on every table paimon-c can open.
 *
 * Java's details kept here:
 *  - commit_time and update_time are TIMESTAMP(3) values of the local date-time of the
 *    commit (LocalDateTime.ofInstant(timeMillis, ZoneId.systemDefault())); a schema without
 *    timeMillis shows the epoch in that zone;
 *  - `$schemas` shows fields, keys and options as compact JSON the way Jackson writes them
 *    (JsonSerdeUtil.toFlatJson): fields as DataField.serializeJson re-serializes them (type
 *    strings in Java's canonical form, not as the file spells them), options in the
 *    iteration order of the HashMap SchemaSerializer fills, including the defaults it adds
 *    to old schemas (bucket=1 before version 2, file.format=orc before version 3);
 *  - `$options` lists the options in that same order.
 */
#include <string.h>

#include "data/java_values.h"
#include "data/type_json.h"
#include "table/system_table_int.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/json.h"
#include "util/time.h"

/* ---- $snapshots ---------------------------------------------------------------------------- */

static const char SNAPSHOT_COLUMNS[] =
    "snapshot_id BIGINT NOT NULL, schema_id BIGINT NOT NULL, commit_user STRING NOT NULL, "
    "commit_identifier BIGINT NOT NULL, commit_kind STRING NOT NULL, "
    "commit_time TIMESTAMP(3) NOT NULL, base_manifest_list STRING NOT NULL, "
    "delta_manifest_list STRING NOT NULL, changelog_manifest_list STRING, "
    "total_record_count BIGINT, delta_record_count BIGINT, changelog_record_count BIGINT, "
    "watermark BIGINT, next_row_id BIGINT";

typedef struct snapshots_state {
    pm_snapshot **items;
    size_t count;
} snapshots_state;

static void snapshots_free(void *p)
{
    snapshots_state *s = p;
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->count; i++)
        pm_snapshot_free(s->items[i]);
    pm_free(s->items);
    pm_free(s);
}

static int count_or_null(pm_column *c, int64_t v)
{
    return pm_sys_put_opt(c, v != PM_ABSENT_COUNT, v);
}

PM_MUST_CHECK static int snapshots_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                          pm_buf *tmp, paimon_error *err)
{
    const pm_snapshot *s = ((const snapshots_state *)st->state)->items[row];
    int rc = 0;
    (void)tmp;
    rc |= pm_sys_put_i64(c[0], s->id);
    rc |= pm_sys_put_i64(c[1], s->schema_id);
    rc |= pm_sys_put_str(c[2], s->commit_user);
    rc |= pm_sys_put_i64(c[3], s->commit_identifier);
    rc |= pm_sys_put_str(c[4], s->commit_kind_name);
    rc |= pm_sys_put_ts(c[5], pm_epoch_to_local_millis(s->time_millis));
    rc |= pm_sys_put_str(c[6], s->base_manifest_list);
    rc |= pm_sys_put_str(c[7], s->delta_manifest_list);
    rc |= pm_sys_put_str(c[8], s->changelog_manifest_list);
    rc |= count_or_null(c[9], s->total_record_count);
    rc |= count_or_null(c[10], s->delta_record_count);
    rc |= count_or_null(c[11], s->changelog_record_count);
    rc |= pm_sys_put_opt(c[12], s->has_watermark, s->watermark);
    rc |= pm_sys_put_opt(c[13], s->has_next_row_id, s->next_row_id);
    return pm_sys_done(rc, err);
}

static const pm_sys_ops SNAPSHOTS_OPS = {snapshots_append, snapshots_free};

int pm_sys_open_snapshots(pm_sys_table *st, paimon_table *t, paimon_error *err)
{
    snapshots_state *s = pm_calloc(1, sizeof(*s));
    int64_t *ids = NULL;
    size_t n = 0;
    int rc;

    if (s == NULL)
        return pm_nomem(err);
    st->ops = &SNAPSHOTS_OPS;
    st->state = s;
    PM_TRY(pm_sys_set_columns(st, SNAPSHOT_COLUMNS, err));
    PM_TRY(pm_snapshot_list_ids(t->fs, t->path, &ids, &n, err));
    if ((s->items = pm_calloc(n + 1, sizeof(*s->items))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        rc = pm_snapshot_read(t->fs, t->path, ids[i], &s->items[s->count], err);
        if (rc == PAIMON_ENOTFOUND) {
            rc = 0; /* expired between listing and reading */
            continue;
        }
        if (rc != 0)
            goto done;
        s->count++;
    }
    st->row_count = s->count;
done:
    pm_free(ids);
    return rc;
}

/* ---- $schemas ------------------------------------------------------------------------------ */

static const char SCHEMA_COLUMNS[] =
    "schema_id BIGINT NOT NULL, fields STRING NOT NULL, partition_keys STRING NOT NULL, "
    "primary_keys STRING NOT NULL, options STRING NOT NULL, comment STRING, "
    "update_time TIMESTAMP(3) NOT NULL";

typedef struct schema_row {
    int64_t id;
    const char *fields, *partition_keys, *primary_keys, *options, *comment;
    int64_t time_millis;
} schema_row;

typedef struct schemas_state {
    pm_arena arena; /* the rows and their strings */
    schema_row *rows;
    size_t count;
} schemas_state;

static void schemas_free(void *p)
{
    schemas_state *s = p;
    if (s == NULL)
        return;
    pm_arena_free(&s->arena);
    pm_free(s);
}

/* ["a","b"] */
static int json_string_list(pm_buf *b, const pm_strlist *l)
{
    int rc = pm_buf_putc(b, '[');
    for (size_t i = 0; rc == 0 && i < l->count; i++) {
        if (i > 0)
            rc = pm_buf_putc(b, ',');
        if (rc == 0)
            rc = pm_json_quote_jackson(b, l->items[i], strlen(l->items[i]));
    }
    return rc != 0 ? rc : pm_buf_putc(b, ']');
}

/* The options in the order Java's HashMap iterates them (into *order, count entries). */
PM_MUST_CHECK static int options_order(const pm_options *o, size_t **order, paimon_error *err)
{
    *order = pm_calloc(o->count + 1, sizeof(size_t));
    if (*order == NULL)
        return pm_nomem(err);
    if (pm_java_hashmap_order((const char *const *)o->keys, o->count, *order) != 0)
        return pm_nomem(err);
    return 0;
}

/* {"k":"v",...} */
PM_MUST_CHECK static int json_options(pm_buf *b, const pm_options *o, paimon_error *err)
{
    size_t *order = NULL;
    int rc = options_order(o, &order, err);
    if (rc != 0)
        return rc;
    rc = pm_buf_putc(b, '{');
    for (size_t i = 0; rc == 0 && i < o->count; i++) {
        size_t k = order[i];
        if (i > 0)
            rc = pm_buf_putc(b, ',');
        if (rc == 0)
            rc = pm_json_quote_jackson(b, o->keys[k], strlen(o->keys[k]));
        if (rc == 0)
            rc = pm_buf_putc(b, ':');
        if (rc == 0) {
            const char *v = pm_table_shown_value(o->keys[k], o->values[k]);
            rc = pm_json_quote_jackson(b, v, strlen(v));
        }
    }
    pm_free(order);
    if (rc == 0)
        rc = pm_buf_putc(b, '}');
    return rc != 0 ? pm_buf_error(err, rc) : 0;
}

/* Copies the buffer's text into the arena. */
static const char *keep(pm_arena *a, const pm_buf *b)
{
    return pm_arena_strndup(a, b->len > 0 ? (const char *)b->data : "", b->len);
}

PM_MUST_CHECK static int schema_row_fill(schemas_state *s, schema_row *r, const pm_schema *schema,
                                         paimon_error *err)
{
    pm_buf b;
    json_t *fields = pm_fields_to_json(schema->row);
    int rc = 0;

    pm_buf_init(&b, 0);
    r->id = schema->id;
    r->time_millis = schema->time_millis;
    if (fields == NULL || pm_json_write_compact(&b, fields) != 0 ||
        (r->fields = keep(&s->arena, &b)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pm_buf_reset(&b);
    if (json_string_list(&b, &schema->partition_keys) != 0 ||
        (r->partition_keys = keep(&s->arena, &b)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pm_buf_reset(&b);
    if (json_string_list(&b, &schema->primary_keys) != 0 ||
        (r->primary_keys = keep(&s->arena, &b)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    pm_buf_reset(&b);
    if ((rc = json_options(&b, &schema->options, err)) != 0)
        goto done;
    if ((r->options = keep(&s->arena, &b)) == NULL ||
        (schema->comment != NULL &&
         (r->comment = pm_arena_strndup(&s->arena, schema->comment, strlen(schema->comment))) ==
             NULL))
        rc = pm_nomem(err);
done:
    json_decref(fields);
    pm_buf_free(&b);
    return rc;
}

PM_MUST_CHECK static int schemas_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                        pm_buf *tmp, paimon_error *err)
{
    const schema_row *r = &((const schemas_state *)st->state)->rows[row];
    int rc = 0;
    (void)tmp;
    rc |= pm_sys_put_i64(c[0], r->id);
    rc |= pm_sys_put_str(c[1], r->fields);
    rc |= pm_sys_put_str(c[2], r->partition_keys);
    rc |= pm_sys_put_str(c[3], r->primary_keys);
    rc |= pm_sys_put_str(c[4], r->options);
    rc |= pm_sys_put_str(c[5], r->comment);
    rc |= pm_sys_put_ts(c[6], pm_epoch_to_local_millis(r->time_millis));
    return pm_sys_done(rc, err);
}

static const pm_sys_ops SCHEMAS_OPS = {schemas_append, schemas_free};

int pm_sys_open_schemas(pm_sys_table *st, paimon_table *t, paimon_error *err)
{
    schemas_state *s = pm_calloc(1, sizeof(*s));
    int64_t *ids = NULL;
    size_t n = 0;
    int rc;

    if (s == NULL)
        return pm_nomem(err);
    pm_arena_init(&s->arena, 1 << 12);
    st->ops = &SCHEMAS_OPS;
    st->state = s;
    PM_TRY(pm_sys_set_columns(st, SCHEMA_COLUMNS, err));
    PM_TRY(pm_schema_list_ids(t->fs, t->path, &ids, &n, err));
    if ((s->rows = pm_arena_calloc(&s->arena, n + 1, sizeof(*s->rows))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        pm_schema *schema = NULL;
        PM_TRY(pm_schema_read(t->fs, t->path, ids[i], &schema, err));
        rc = schema_row_fill(s, &s->rows[s->count], schema, err);
        pm_schema_free(schema);
        if (rc != 0)
            goto done;
        s->count++;
    }
    st->row_count = s->count;
done:
    pm_free(ids);
    return rc;
}

/* ---- $options ------------------------------------------------------------------------------ */

typedef struct options_state {
    pm_options options; /* a copy of the latest schema's */
    size_t *order;      /* HashMap iteration order */
} options_state;

static void options_free(void *p)
{
    options_state *s = p;
    if (s == NULL)
        return;
    pm_options_free(&s->options);
    pm_free(s->order);
    pm_free(s);
}

PM_MUST_CHECK static int options_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                        pm_buf *tmp, paimon_error *err)
{
    const options_state *s = st->state;
    size_t k = s->order[row];
    (void)tmp;
    return pm_sys_done(
        pm_sys_put_str(c[0], s->options.keys[k]) |
            pm_sys_put_str(c[1], pm_table_shown_value(s->options.keys[k], s->options.values[k])),
        err);
}

static const pm_sys_ops OPTIONS_OPS = {options_append, options_free};

int pm_sys_open_options(pm_sys_table *st, paimon_table *t, paimon_error *err)
{
    options_state *s = pm_calloc(1, sizeof(*s));
    int rc;

    if (s == NULL)
        return pm_nomem(err);
    pm_options_init(&s->options);
    st->ops = &OPTIONS_OPS;
    st->state = s;
    PM_TRY(pm_sys_set_columns(st, "key STRING NOT NULL, value STRING NOT NULL", err));
    /* Java reads the latest schema file at read time; the handle read it when opened. */
    if (pm_options_copy(&s->options, &t->schema->options) != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(options_order(&s->options, &s->order, err));
    st->row_count = s->options.count;
done:
    return rc;
}

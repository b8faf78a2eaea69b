/*
 * `$files` (Java 1.4.2's FilesTable): one row per data file of a snapshot, every level.
 *
 * Which files: the live files of the selected snapshot (or the latest) except postpone
 * buckets (-2, which Java's batch scan leaves out), in the partitions that hold files in
 * the latest snapshot: Java lists the partitions with a plain snapshot reader, which does
 * not time travel, and only then scans each of them at the selected snapshot.  Rows are
 * sorted by partition, bucket, level and file name (Java's order follows its splits).
 *
 * How values are shown (FilesTable.toRow):
 *   partition          CAST(partition AS STRING): "{v1, v2}", "{}" unpartitioned
 *   file_path          <bucket directory>/<file name>, or the file's external path
 *   file_format        the extension (the one before a compression extension .gz, .bz2,
 *                      .deflate, .snappy, .lz4, .zst): DataFilePathFactory.formatIdentifier
 *   min_key, max_key   Arrays.toString of the key's internal objects, "[1, a]", under the
 *                      file's own schema (trimmed primary key); null when the key is empty
 *   null_value_counts  TreeMap.toString of column name -> null count, "{a=0, b=null}"
 *   min/max_value_stats  the same with the bounds' internal objects
 *   creation_time      the writer's local date-time as TIMESTAMP(3)
 * The statistics go through Java's SimpleStatsEvolution: from the file's schema to the
 * table's (the selected snapshot's schema, or the latest schema), by field id; columns
 * the file lacks have null bounds and a null count equal to the row count; bounds of a
 * column whose type changed are cast; dense statistics (_VALUE_STATS_COLS) are expanded,
 * columns without statistics showing null.  Only the first min(bound fields, table columns)
 * columns are shown, as Java does.  Values use pm_java_object_string().
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/cast.h"
#include "data/java_values.h"
#include "meta/live_files.h"
#include "table/scan.h"
#include "table/system_table_int.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/error.h"

#define MAX_KEYS 64

static const char FILES_COLUMNS[] =
    "partition STRING, bucket INT NOT NULL, file_path STRING NOT NULL, "
    "file_format STRING NOT NULL, schema_id BIGINT NOT NULL, level INT NOT NULL, "
    "record_count BIGINT NOT NULL, file_size_in_bytes BIGINT NOT NULL, min_key STRING, "
    "max_key STRING, null_value_counts STRING NOT NULL, min_value_stats STRING NOT NULL, "
    "max_value_stats STRING NOT NULL, min_sequence_number BIGINT, max_sequence_number BIGINT, "
    "creation_time TIMESTAMP(3), deleteRowCount BIGINT, file_source STRING, "
    "first_row_id BIGINT, write_cols ARRAY<STRING>";

/* A schema data files were written with, and how its statistics map onto the table's. */
typedef struct file_schema {
    pm_schema *schema;
    const pm_field *keys[MAX_KEYS]; /* the key columns (trimmed primary key, else all) */
    size_t key_count;
    int *to_data; /* per table column: its index in this schema, -1 if absent; NULL when the
                    * mapping is the identity (Java's createIndexMapping returns null) */
    bool same;    /* this is the table's schema */
    bool cast;    /* a mapped column changed type: bounds are cast */
} file_schema;

typedef struct file_item {
    const pm_manifest_entry *e;
    pm_binrow partition;
    const char *path;
    const file_schema *fs;
    const struct files_state *state;
} file_item;

typedef struct files_state {
    pm_arena arena;   /* manifests, paths, items */
    pm_schema *table; /* the schema the table is read with */
    const pm_field *parts[MAX_KEYS];
    size_t part_count;
    file_schema *schemas; /* distinct schemas of the files */
    size_t schema_count;
    file_item *items;
    size_t count;
} files_state;

static void files_free(void *p)
{
    files_state *s = p;
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->schema_count; i++) {
        pm_schema_free(s->schemas[i].schema);
        pm_free(s->schemas[i].to_data);
    }
    pm_free(s->schemas);
    pm_schema_free(s->table);
    pm_arena_free(&s->arena);
    pm_free(s);
}

/* ---- schemas ----------------------------------------------------------------------------- */

/* Java's SchemaEvolutionUtil.createIndexCastMapping from `fs` onto the table schema. */
PM_MUST_CHECK static int map_schema(files_state *s, file_schema *f, paimon_error *err)
{
    const pm_type *table = s->table->row, *data = f->schema->row;
    bool identity = true;
    int rc;

    if ((rc = pm_schema_trimmed_pk_fields(f->schema, f->keys, MAX_KEYS, &f->key_count, err)) != 0)
        return rc;
    if (f->key_count == 0) {
        for (size_t i = 0; i < data->field_count && i < MAX_KEYS; i++)
            f->keys[f->key_count++] = &data->fields[i];
    }
    f->same = f->schema->id == s->table->id;
    if (f->same)
        return 0;
    f->to_data = pm_calloc(table->field_count + 1, sizeof(int));
    if (f->to_data == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < table->field_count; i++) {
        size_t j;
        const pm_field *df = pm_type_field_by_id(data, table->fields[i].id, &j);
        f->to_data[i] = df != NULL ? (int)j : -1;
        identity = identity && df != NULL && j == i;
        if (df != NULL && !pm_type_equals_ignore_nullable(df->type, table->fields[i].type))
            f->cast = true;
    }
    if (identity) {
        pm_free(f->to_data);
        f->to_data = NULL;
    }
    return 0;
}

static const file_schema *schema_for(const files_state *s, int64_t id)
{
    for (size_t i = 0; i < s->schema_count; i++)
        if (s->schemas[i].schema->id == id)
            return &s->schemas[i];
    return NULL;
}

PM_MUST_CHECK static int add_schema(files_state *s, paimon_table *t, int64_t id, paimon_error *err)
{
    file_schema *grown;
    int rc;
    if (schema_for(s, id) != NULL)
        return 0;
    grown = pm_realloc(s->schemas, (s->schema_count + 1) * sizeof(*grown));
    if (grown == NULL)
        return pm_nomem(err);
    s->schemas = grown;
    memset(&grown[s->schema_count], 0, sizeof(*grown));
    if ((rc = pm_schema_read(t->fs, t->path, id, &grown[s->schema_count].schema, err)) != 0)
        return rc;
    s->schema_count++;
    return map_schema(s, &grown[s->schema_count - 1], err);
}

/* ---- formatting -------------------------------------------------------------------------- */

/* DataFilePathFactory.formatIdentifier. */
PM_MUST_CHECK static int format_identifier(pm_buf *out, const char *name, paimon_error *err)
{
    static const char *const COMPRESSION[] = {"gz", "bz2", "deflate", "snappy", "lz4", "zst"};
    const char *dot = strrchr(name, '.');
    if (dot == NULL)
        return pm_corrupt(err, "%s is not a legal file name", name);
    for (size_t i = 0; i < sizeof(COMPRESSION) / sizeof(COMPRESSION[0]); i++) {
        if (strcasecmp(dot + 1, COMPRESSION[i]) == 0) {
            const char *prev = dot;
            while (prev > name && prev[-1] != '.')
                prev--;
            if (prev == name)
                return pm_corrupt(err, "%s is not a legal file name", name);
            return pm_buf_append(out, prev, (size_t)(dot - prev));
        }
    }
    return pm_buf_puts(out, dot + 1);
}

/* Arrays.toString of a key row's objects; *is_null for an empty key. */
PM_MUST_CHECK static int key_string(pm_buf *out, const file_item *it, const pm_avro_bytes *bytes,
                                    bool *is_null, paimon_error *err)
{
    const file_schema *f = it->fs;
    pm_binrow row;
    int rc;
    *is_null = true;
    if (bytes->ptr == NULL)
        return 0;
    if ((rc = pm_binrow_deserialize(&row, bytes->ptr, bytes->len, err)) != 0)
        return pm_err_prefix(err, rc, "data file %s: key: ", it->e->file.file_name);
    if (row.arity <= 0)
        return 0;
    if ((size_t)row.arity != f->key_count)
        return pm_corrupt(err, "data file %s: a key of %d fields, the schema's has %zu",
                          it->e->file.file_name, row.arity, f->key_count);
    *is_null = false;
    rc = pm_buf_putc(out, '[');
    for (size_t i = 0; rc == 0 && i < f->key_count; i++) {
        pm_datum d;
        if (i > 0 && (rc = pm_buf_puts(out, ", ")) != 0)
            break;
        if ((rc = pm_binrow_get(&row, (int32_t)i, f->keys[i]->type, &d, err)) != 0)
            return pm_err_prefix(err, rc, "data file %s: key: ", it->e->file.file_name);
        rc = d.is_null ? pm_buf_puts(out, "null")
                       : pm_java_object_string(out, f->keys[i]->type, &d, err);
    }
    return rc != 0 ? rc : pm_buf_putc(out, ']');
}

/* The statistics of one data file as SimpleStatsEvolution presents them to FilesTable. */
typedef struct stats_view {
    const file_item *it;
    const pm_simple_stats *ss;
    pm_binrow min, max;
    bool has_rows;
    size_t length; /* table columns shown */
} stats_view;

/* The position of data column `j` in the file's statistics: -1 when the file has none for
 * it (dense statistics without the column). */
static int stats_position(const stats_view *v, size_t j)
{
    const pm_avro_array *dense = &v->it->e->file.value_stats_cols;
    const char *name = v->it->fs->schema->row->fields[j].name;
    if (!dense->present)
        return (int)j;
    for (size_t k = 0; k < dense->count; k++)
        if (strcmp(((const char *const *)dense->items)[k], name) == 0)
            return (int)k;
    return -1;
}

/* Table column `i`: the data column it reads, or -1 when the file lacks it. */
static int data_column(const stats_view *v, size_t i)
{
    const file_schema *f = v->it->fs;
    return f->to_data != NULL ? f->to_data[i] : (int)i;
}

PM_MUST_CHECK static int stats_view_open(stats_view *v, const file_item *it, paimon_error *err)
{
    const file_schema *f = it->fs;
    const pm_data_file_meta *m = &it->e->file;
    size_t table_count = it->state->table->row->field_count, fields;
    int rc;

    memset(v, 0, sizeof(*v));
    v->it = it;
    v->ss = &m->value_stats;
    if (v->ss->min_values.ptr != NULL && v->ss->max_values.ptr != NULL) {
        if ((rc = pm_binrow_deserialize(&v->min, v->ss->min_values.ptr, v->ss->min_values.len,
                                        err)) != 0 ||
            (rc = pm_binrow_deserialize(&v->max, v->ss->max_values.ptr, v->ss->max_values.len,
                                        err)) != 0)
            return pm_err_prefix(err, rc, "data file %s: value statistics: ", m->file_name);
        v->has_rows = true;
    }
    /* min.getFieldCount() after the projections: the table's columns when an index mapping
     * applies, else the file schema's columns when dense statistics are expanded, else the
     * bound row's own arity. */
    if (f->to_data != NULL)
        fields = table_count;
    else if (m->value_stats_cols.present)
        fields = f->schema->row->field_count;
    else
        fields = v->has_rows ? (size_t)v->min.arity : 0;
    v->length = fields < table_count ? fields : table_count;
    return 0;
}

/* Null count of table column `i`: *present false for a null count. */
static void stats_null_count(const stats_view *v, size_t i, bool *present, int64_t *count)
{
    int j = data_column(v, i), pos;
    *present = false;
    if (j < 0) {
        /* NullCountsEvoArray: a column the file does not have is null in every row. */
        *present = true;
        *count = v->it->e->file.row_count;
        return;
    }
    pos = stats_position(v, (size_t)j);
    if (pos < 0 || !v->ss->null_counts.present || (size_t)pos >= v->ss->null_counts.count)
        return;
    *count = ((const int64_t *)v->ss->null_counts.items)[pos];
    *present = *count != PM_AVRO_NULL_LONG;
}

/* A bound of table column `i` as text, or "null".  `scratch` holds cast text. */
PM_MUST_CHECK static int stats_bound(pm_buf *out, const stats_view *v, const pm_binrow *row,
                                     size_t i, pm_buf *scratch, paimon_error *err)
{
    const pm_field *tf = &v->it->state->table->row->fields[i];
    const pm_field *df;
    int j = data_column(v, i), pos;
    pm_datum d, cast;
    int rc;

    if (j < 0 || !v->has_rows)
        return pm_buf_puts(out, "null");
    df = &v->it->fs->schema->row->fields[j];
    pos = stats_position(v, (size_t)j);
    if (pos < 0 || pos >= row->arity)
        return pm_buf_puts(out, "null");
    if ((rc = pm_binrow_get(row, pos, df->type, &d, err)) != 0)
        return pm_err_prefix(err, rc, "data file %s: value statistics: ", v->it->e->file.file_name);
    if (d.is_null)
        return pm_buf_puts(out, "null");
    if (!pm_type_equals_ignore_nullable(df->type, tf->type)) {
        if (pm_type_is_nested(df->type) || pm_type_is_nested(tf->type))
            return pm_buf_puts(out, "null"); /* Java keeps no bounds for nested columns */
        pm_buf_reset(scratch);
        if ((rc = pm_cast_datum(df->type, &d, tf->type, scratch, &cast, tf->name, err)) != 0)
            return rc;
        d = cast;
    }
    return pm_java_object_string(out, tf->type, &d, err);
}

typedef struct name_idx {
    const char *name;
    size_t idx;
} name_idx;

static int cmp_name_idx(const void *a, const void *b)
{
    const char *x = ((const name_idx *)a)->name, *y = ((const name_idx *)b)->name;
    return pm_java_string_compare(x, strlen(x), y, strlen(y));
}

/* The three TreeMap strings of a file's statistics. */
PM_MUST_CHECK static int stats_strings(const file_item *it, pm_buf *nulls, pm_buf *mins,
                                       pm_buf *maxs, pm_buf *scratch, paimon_error *err)
{
    const pm_type *table = it->state->table->row;
    stats_view v;
    name_idx *order = NULL;
    int rc;

    if ((rc = stats_view_open(&v, it, err)) != 0)
        return rc;
    order = pm_calloc(v.length + 1, sizeof(*order));
    if (order == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < v.length; i++) {
        order[i].name = table->fields[i].name;
        order[i].idx = i;
    }
    qsort(order, v.length, sizeof(*order), cmp_name_idx);
    for (int k = 0; rc == 0 && k < 3; k++)
        rc = pm_buf_putc(k == 0 ? nulls : k == 1 ? mins : maxs, '{');
    for (size_t k = 0; rc == 0 && k < v.length; k++) {
        size_t i = order[k].idx;
        bool present;
        int64_t count = 0;
        const char *sep = k > 0 ? ", " : "";
        stats_null_count(&v, i, &present, &count);
        for (int x = 0; rc == 0 && x < 3; x++)
            rc = pm_buf_printf(x == 0 ? nulls : x == 1 ? mins : maxs, "%s%s=", sep, order[k].name);
        if (rc == 0)
            rc = present ? pm_buf_printf(nulls, "%lld", (long long)count)
                         : pm_buf_puts(nulls, "null");
        if (rc == 0)
            rc = stats_bound(mins, &v, &v.min, i, scratch, err);
        if (rc == 0)
            rc = stats_bound(maxs, &v, &v.max, i, scratch, err);
    }
    pm_free(order);
    for (int k = 0; rc == 0 && k < 3; k++)
        rc = pm_buf_putc(k == 0 ? nulls : k == 1 ? mins : maxs, '}');
    return rc;
}

/* ---- rows -------------------------------------------------------------------------------- */

static int put_text(pm_column *c, pm_buf *b, bool is_null)
{
    return is_null ? pm_sys_put_null(c) : pm_sys_put_buf(c, b);
}

PM_MUST_CHECK static int files_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                      pm_buf *tmp, paimon_error *err)
{
    const files_state *s = st->state;
    const file_item *it = &s->items[row];
    const pm_data_file_meta *m = &it->e->file;
    const char *source = !m->has_file_source   ? NULL
                         : m->file_source == 0 ? "APPEND"
                         : m->file_source == 1 ? "COMPACT"
                                               : NULL;
    pm_buf b[3];
    bool min_null, max_null;
    int rc, put;

    for (int i = 0; i < 3; i++)
        pm_buf_init(&b[i], 0);
    /* Text first (these set `err` themselves), then the appends (which only fail for
     * memory, or-ed together). */
    if ((rc = pm_java_row_cast_string(&b[0], s->parts, s->part_count, &it->partition, err)) != 0)
        goto done;
    put = pm_sys_put_buf(c[0], &b[0]) | pm_sys_put_i64(c[1], it->e->bucket) |
          pm_sys_put_str(c[2], it->path);
    pm_buf_reset(&b[0]);
    if ((rc = format_identifier(&b[0], m->file_name, err)) != 0)
        goto done;
    put |= pm_sys_put_buf(c[3], &b[0]) | pm_sys_put_i64(c[4], m->schema_id) |
           pm_sys_put_i64(c[5], m->level) | pm_sys_put_i64(c[6], m->row_count) |
           pm_sys_put_i64(c[7], m->file_size);
    pm_buf_reset(&b[0]);
    if ((rc = key_string(&b[0], it, &m->min_key, &min_null, err)) != 0 ||
        (rc = key_string(&b[1], it, &m->max_key, &max_null, err)) != 0)
        goto done;
    put |= put_text(c[8], &b[0], min_null) | put_text(c[9], &b[1], max_null);
    for (int i = 0; i < 3; i++)
        pm_buf_reset(&b[i]);
    if ((rc = stats_strings(it, &b[0], &b[1], &b[2], tmp, err)) != 0)
        goto done;
    put |=
        pm_sys_put_buf(c[10], &b[0]) | pm_sys_put_buf(c[11], &b[1]) | pm_sys_put_buf(c[12], &b[2]) |
        pm_sys_put_i64(c[13], m->min_sequence_number) |
        pm_sys_put_i64(c[14], m->max_sequence_number) |
        (m->has_creation_time ? pm_sys_put_ts(c[15], m->creation_time) : pm_sys_put_null(c[15])) |
        pm_sys_put_opt(c[16], m->has_delete_row_count, m->delete_row_count) |
        pm_sys_put_str(c[17], source) | pm_sys_put_opt(c[18], m->has_first_row_id, m->first_row_id);
    if (!m->write_cols.present) {
        put |= pm_sys_put_null(c[19]);
    } else {
        for (size_t i = 0; i < m->write_cols.count; i++)
            put |=
                pm_sys_put_str(c[19]->children[0], ((const char *const *)m->write_cols.items)[i]);
        put |= pm_column_list_end(c[19], true);
    }
    rc = pm_sys_done(put, err);
done:
    for (int i = 0; i < 3; i++)
        pm_buf_free(&b[i]);
    if (rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT)
        rc = pm_buf_error(err, rc); /* a text buffer ran out */
    return rc;
}

static const pm_sys_ops FILES_OPS = {files_append, files_free};

/* ---- open -------------------------------------------------------------------------------- */

/* Whether `p` is among the (sorted) partitions of the latest snapshot. */
static bool in_partitions(const pm_sys_group *groups, size_t n, const pm_avro_bytes *p)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = pm_avro_bytes_cmp(&groups[mid].partition, p);
        if (r == 0)
            return true;
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Which live files Java's $files lists. */
typedef struct files_filter {
    const pm_sys_group *groups; /* the latest snapshot's partitions, sorted */
    size_t group_count;
    bool restrict_partitions; /* list only files of those partitions */
} files_filter;

static bool keep_file(const pm_manifest_entry *e, void *ctx)
{
    const files_filter *f = ctx;
    if (e->bucket == -2)
        return false; /* postpone bucket: not read by Java's batch scan */
    return !f->restrict_partitions || in_partitions(f->groups, f->group_count, &e->partition);
}

int pm_sys_open_files(pm_sys_table *st, paimon_table *t, const pm_snapshot_selector *sel,
                      paimon_error *err)
{
    files_state *s = pm_calloc(1, sizeof(*s));
    pm_snapshot *snap = NULL, *latest = NULL;
    pm_live_file *live = NULL;
    pm_sys_group *groups = NULL;
    size_t nlive = 0, ngroups = 0;
    files_filter filter = {NULL, 0, false};
    int rc;

    if (s == NULL)
        return pm_nomem(err);
    pm_arena_init(&s->arena, 1 << 16);
    st->ops = &FILES_OPS;
    st->state = s;
    PM_TRY(pm_sys_set_columns(st, FILES_COLUMNS, err));
    if (sel != NULL) {
        /* Java lists the latest snapshot's partitions first and time travels only to scan
         * each of them: with none, there is nothing to scan and the selection is never
         * looked at. */
        PM_TRY(pm_sys_snapshot(t, NULL, &latest, err));
        if (latest != NULL)
            PM_TRY(
                pm_sys_group_entries(t, latest, false, false, &s->arena, &groups, &ngroups, err));
        if (ngroups == 0)
            goto done;
    }
    PM_TRY(pm_sys_snapshot(t, sel, &snap, err));
    if (snap == NULL)
        goto done; /* no snapshot: no files */
    st->snapshot_id = snap->id;
    filter.groups = groups;
    filter.group_count = ngroups;
    filter.restrict_partitions = sel != NULL && latest->id != snap->id;
    /* The table's schema: the selected snapshot's when time travelling, else the latest. */
    PM_TRY(pm_schema_read(t->fs, t->path, sel != NULL ? snap->schema_id : t->schema->id, &s->table,
                          err));
    PM_TRY(pm_schema_partition_fields(s->table, s->parts, MAX_KEYS, &s->part_count, err));
    PM_TRY(pm_live_files_sorted(t->fs, t->path, snap, s->parts, s->part_count, keep_file, &filter,
                                &s->arena, &live, &nlive, err));
    s->items = pm_arena_calloc(&s->arena, nlive + 1, sizeof(*s->items));
    if (s->items == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nlive; i++) {
        const pm_manifest_entry *e = live[i].e;
        file_item *it = &s->items[s->count];
        it->e = e;
        it->partition = live[i].partition;
        it->state = s;
        if ((it->path = pm_data_file_path(t, s->table, e, &s->arena, err)) == NULL) {
            rc = err != NULL && err->code != 0 ? err->code : PAIMON_EINVALID;
            goto done;
        }
        PM_TRY(add_schema(s, t, e->file.schema_id, err));
        s->count++;
    }
    /* schema_for() pointers are taken only now: add_schema() may move the array. */
    for (size_t i = 0; i < s->count; i++)
        s->items[i].fs = schema_for(s, s->items[i].e->file.schema_id);
    st->row_count = s->count;
done:
    pm_snapshot_free(snap);
    pm_snapshot_free(latest);
    return rc;
}

/*
 * `$manifests`, `$partitions` and `$buckets` (Java 1.4.2's ManifestsTable, PartitionsTable
 * and BucketsTable): views of a snapshot's manifest lists and of its manifest entries
 * summed per partition or bucket.
 *
 *  - `$manifests`: the manifests of the base, delta and changelog lists, in list order
 *    (ManifestList.readAllManifests); partition statistics as CAST(row AS STRING), "{}" for
 *    an unpartitioned table.
 *  - `$partitions`: per partition, sorted by the partition text, which is "k1=v1/k2=v2"
 *    with each value cast to STRING, or partition.default-name for a null or blank value
 *    (Java turns the partition into a spec of strings and back, which comes to that);
 *    "" for an unpartitioned table.  Counts come from pm_sys_group_entries() (DELETE
 *    entries subtract, so a partition whose files were all removed disappears).  The
 *    catalog columns created_at, created_by, updated_by and options are null: only a REST
 *    catalog fills them.
 *  - `$buckets`: per partition and bucket of the latest snapshot, sorted by the partition
 *    text ("{v1, v2}") and bucket; postpone buckets included, as Java's snapshot reader
 *    does not leave them out here.
 * last_update_time is the latest file creation time as a local date-time.
 */
#include <stdlib.h>
#include <string.h>

#include "data/java_values.h"
#include "meta/file_entry.h"
#include "meta/partition.h"
#include "table/system_table_int.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/error.h"
#include "util/time.h"

#define MAX_KEYS 64

/* ---- grouping ------------------------------------------------------------------------------ */

static int cmp_by_partition(const void *pa, const void *pb)
{
    const pm_manifest_entry *a = *(const pm_manifest_entry *const *)pa;
    const pm_manifest_entry *b = *(const pm_manifest_entry *const *)pb;
    return pm_avro_bytes_cmp(&a->partition, &b->partition);
}

static int cmp_by_bucket(const void *pa, const void *pb)
{
    const pm_manifest_entry *a = *(const pm_manifest_entry *const *)pa;
    const pm_manifest_entry *b = *(const pm_manifest_entry *const *)pb;
    int r = pm_avro_bytes_cmp(&a->partition, &b->partition);
    return r != 0 ? r : (a->bucket > b->bucket) - (a->bucket < b->bucket);
}

int pm_sys_group_entries(paimon_table *t, const pm_snapshot *snap, bool by_bucket,
                         bool skip_postpone, pm_arena *arena, pm_sys_group **out, size_t *count,
                         paimon_error *err)
{
    pm_arena tmp;
    pm_manifest_file_meta *metas = NULL;
    pm_manifest_entry **lists = NULL;
    size_t nm = 0, total = 0, n = 0, kept = 0, *counts = NULL;
    const pm_manifest_entry **all = NULL;
    pm_sys_group *groups = NULL;
    int rc;

    *out = NULL;
    *count = 0;
    pm_arena_init(&tmp, 1 << 16);
    PM_TRY(pm_snapshot_data_manifests(t->fs, t->path, snap, &tmp, &metas, &nm, err));
    lists = pm_arena_calloc(&tmp, nm + 1, sizeof(*lists));
    counts = pm_arena_calloc(&tmp, nm + 1, sizeof(*counts));
    if (lists == NULL || counts == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nm; i++) {
        PM_TRY(pm_manifest_read(t->fs, t->path, metas[i].file_name, metas[i].file_size, &tmp,
                                &lists[i], &counts[i], err));
        total += counts[i];
    }
    all = pm_arena_calloc(&tmp, total + 1, sizeof(*all));
    if (all == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nm; i++)
        for (size_t k = 0; k < counts[i]; k++)
            if (!(skip_postpone && lists[i][k].bucket < 0))
                all[n++] = &lists[i][k];
    qsort(all, n, sizeof(*all), by_bucket ? cmp_by_bucket : cmp_by_partition);
    groups = pm_arena_calloc(arena, n + 1, sizeof(*groups));
    if (groups == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t start = 0, i = 0; i < n; i++) {
        const pm_data_file_meta *f = &all[i]->file;
        pm_sys_group *g = &groups[kept];
        int64_t sign = all[i]->kind == PM_FILE_KIND_DELETE ? -1 : 1;
        if (i == start) {
            memset(g, 0, sizeof(*g));
            g->partition = all[i]->partition;
            g->bucket = all[i]->bucket;
        }
        g->record_count += sign * f->row_count;
        g->file_size += sign * f->file_size;
        g->file_count += sign;
        if (f->has_creation_time) {
            int64_t when = pm_local_to_epoch_millis(f->creation_time);
            if (!g->has_update_time || when > g->update_time)
                g->update_time = when;
            g->has_update_time = true;
        }
        if (i + 1 == n || (by_bucket ? cmp_by_bucket : cmp_by_partition)(&all[i], &all[i + 1])) {
            start = i + 1;
            if (g->file_count <= 0)
                continue;
            g->partition.ptr = pm_arena_dup(arena, g->partition.ptr, g->partition.len);
            if (g->partition.ptr == NULL) {
                rc = pm_nomem(err);
                goto done;
            }
            kept++;
        }
    }
    *out = groups;
    *count = kept;
done:
    pm_arena_free(&tmp);
    return rc;
}

/* ---- shared ---------------------------------------------------------------------------------- */

/* The table's schema as Java's copied table has it: the selected snapshot's, else the
 * latest.  Caller owns `*out`. */
PM_MUST_CHECK static int table_schema(paimon_table *t, const pm_snapshot_selector *sel,
                                      const pm_snapshot *snap, pm_schema **out, paimon_error *err)
{
    return pm_schema_read(t->fs, t->path,
                          sel != NULL && snap != NULL ? snap->schema_id : t->schema->id, out, err);
}

/* CAST(partition AS STRING) of serialized partition bytes into `out`; *ok false when the
 * bytes are not a row of the partition's arity. */
PM_MUST_CHECK static int row_text(pm_buf *out, const pm_field *const *parts, size_t np,
                                  const pm_avro_bytes *b, bool *ok, paimon_error *err)
{
    pm_binrow row;
    *ok = false;
    if (b->ptr == NULL || pm_binrow_deserialize(&row, b->ptr, b->len, NULL) != 0 ||
        row.arity != (int32_t)np)
        return 0;
    *ok = true;
    return pm_java_row_cast_string(out, parts, np, &row, err);
}

static const char *keep(pm_arena *a, const pm_buf *b)
{
    return pm_arena_strndup(a, b->len > 0 ? (const char *)b->data : "", b->len);
}

/* ---- $manifests ---------------------------------------------------------------------------- */

static const char MANIFEST_COLUMNS[] =
    "file_name STRING NOT NULL, file_size BIGINT NOT NULL, num_added_files BIGINT NOT NULL, "
    "num_deleted_files BIGINT NOT NULL, schema_id BIGINT NOT NULL, min_partition_stats STRING, "
    "max_partition_stats STRING, min_row_id BIGINT, max_row_id BIGINT";

typedef struct manifests_state {
    pm_arena arena;
    pm_schema *schema;
    const pm_field *parts[MAX_KEYS];
    size_t part_count;
    const pm_manifest_file_meta **items;
    size_t count;
} manifests_state;

static void manifests_free(void *p)
{
    manifests_state *s = p;
    if (s == NULL)
        return;
    pm_schema_free(s->schema);
    pm_arena_free(&s->arena);
    pm_free(s);
}

PM_MUST_CHECK static int manifests_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                          pm_buf *tmp, paimon_error *err)
{
    const manifests_state *s = st->state;
    const pm_manifest_file_meta *m = s->items[row];
    int put, rc;
    bool ok;

    put = pm_sys_put_str(c[0], m->file_name) | pm_sys_put_i64(c[1], m->file_size) |
          pm_sys_put_i64(c[2], m->num_added_files) | pm_sys_put_i64(c[3], m->num_deleted_files) |
          pm_sys_put_i64(c[4], m->schema_id);
    for (int k = 0; k < 2; k++) {
        const pm_avro_bytes *b =
            k == 0 ? &m->partition_stats.min_values : &m->partition_stats.max_values;
        pm_buf_reset(tmp);
        if ((rc = row_text(tmp, s->parts, s->part_count, b, &ok, err)) != 0)
            return rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT ? pm_buf_error(err, rc) : rc;
        put |= ok ? pm_sys_put_buf(c[5 + k], tmp) : pm_sys_put_null(c[5 + k]);
    }
    put |= pm_sys_put_opt(c[7], m->has_min_row_id, m->min_row_id) |
           pm_sys_put_opt(c[8], m->has_max_row_id, m->max_row_id);
    return pm_sys_done(put, err);
}

static const pm_sys_ops MANIFESTS_OPS = {manifests_append, manifests_free};

int pm_sys_open_manifests(pm_sys_table *st, paimon_table *t, const pm_snapshot_selector *sel,
                          paimon_error *err)
{
    manifests_state *s = pm_calloc(1, sizeof(*s));
    pm_snapshot *snap = NULL;
    pm_manifest_file_meta *lists[3] = {NULL, NULL, NULL};
    size_t counts[3] = {0, 0, 0};
    int rc;

    if (s == NULL)
        return pm_nomem(err);
    pm_arena_init(&s->arena, 1 << 14);
    st->ops = &MANIFESTS_OPS;
    st->state = s;
    PM_TRY(pm_sys_set_columns(st, MANIFEST_COLUMNS, err));
    PM_TRY(pm_sys_snapshot(t, sel, &snap, err));
    if (snap == NULL)
        goto done;
    st->snapshot_id = snap->id;
    PM_TRY(table_schema(t, sel, snap, &s->schema, err));
    PM_TRY(pm_schema_partition_fields(s->schema, s->parts, MAX_KEYS, &s->part_count, err));
    {
        const char *names[3] = {snap->base_manifest_list, snap->delta_manifest_list,
                                snap->changelog_manifest_list};
        int64_t sizes[3] = {snap->base_manifest_list_size, snap->delta_manifest_list_size,
                            snap->changelog_manifest_list_size};
        for (int i = 0; i < 3; i++)
            if (names[i] != NULL)
                PM_TRY(pm_manifest_list_read(t->fs, t->path, names[i], sizes[i], &s->arena,
                                             &lists[i], &counts[i], err));
    }
    s->items = pm_arena_calloc(&s->arena, counts[0] + counts[1] + counts[2] + 1, sizeof(*s->items));
    if (s->items == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (int i = 0; i < 3; i++)
        for (size_t k = 0; k < counts[i]; k++)
            s->items[s->count++] = &lists[i][k];
    st->row_count = s->count;
done:
    pm_snapshot_free(snap);
    return rc;
}

/* ---- $partitions and $buckets -------------------------------------------------------------- */

static const char PARTITION_COLUMNS[] =
    "partition STRING, record_count BIGINT NOT NULL, file_size_in_bytes BIGINT NOT NULL, "
    "file_count BIGINT NOT NULL, last_update_time TIMESTAMP(3), created_at TIMESTAMP(3), "
    "created_by STRING, updated_by STRING, options STRING";

static const char BUCKET_COLUMNS[] =
    "partition STRING, bucket INT NOT NULL, record_count BIGINT NOT NULL, "
    "file_size_in_bytes BIGINT NOT NULL, file_count BIGINT NOT NULL, "
    "last_update_time TIMESTAMP(3)";

typedef struct group_row {
    const pm_sys_group *g;
    const char *text; /* the partition as the table shows it */
} group_row;

typedef struct groups_state {
    pm_arena arena;
    group_row *rows;
    size_t count;
} groups_state;

static void groups_free(void *p)
{
    groups_state *s = p;
    if (s == NULL)
        return;
    pm_arena_free(&s->arena);
    pm_free(s);
}

static int put_update_time(pm_column *c, const pm_sys_group *g)
{
    return g->has_update_time ? pm_sys_put_ts(c, pm_epoch_to_local_millis(g->update_time))
                              : pm_sys_put_null(c);
}

PM_MUST_CHECK static int partitions_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                           pm_buf *tmp, paimon_error *err)
{
    const group_row *r = &((const groups_state *)st->state)->rows[row];
    (void)tmp;
    return pm_sys_done(pm_sys_put_str(c[0], r->text) | pm_sys_put_i64(c[1], r->g->record_count) |
                           pm_sys_put_i64(c[2], r->g->file_size) |
                           pm_sys_put_i64(c[3], r->g->file_count) | put_update_time(c[4], r->g) |
                           pm_sys_put_null(c[5]) | pm_sys_put_null(c[6]) | pm_sys_put_null(c[7]) |
                           pm_sys_put_null(c[8]),
                       err);
}

PM_MUST_CHECK static int buckets_append(const pm_sys_table *st, size_t row, pm_column *const *c,
                                        pm_buf *tmp, paimon_error *err)
{
    const group_row *r = &((const groups_state *)st->state)->rows[row];
    (void)tmp;
    return pm_sys_done(pm_sys_put_str(c[0], r->text) | pm_sys_put_i64(c[1], r->g->bucket) |
                           pm_sys_put_i64(c[2], r->g->record_count) |
                           pm_sys_put_i64(c[3], r->g->file_size) |
                           pm_sys_put_i64(c[4], r->g->file_count) | put_update_time(c[5], r->g),
                       err);
}

static const pm_sys_ops PARTITIONS_OPS = {partitions_append, groups_free};
static const pm_sys_ops BUCKETS_OPS = {buckets_append, groups_free};

static int cmp_group_row(const void *pa, const void *pb)
{
    const group_row *a = pa, *b = pb;
    int r = pm_java_string_compare(a->text, strlen(a->text), b->text, strlen(b->text));
    return r != 0 ? r : (a->g->bucket > b->g->bucket) - (a->g->bucket < b->g->bucket);
}

/* Character.isWhitespace over the ASCII range, as partition paths check it. */
static bool blank(const uint8_t *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!(s[i] == ' ' || (s[i] >= 0x09 && s[i] <= 0x0d) || (s[i] >= 0x1c && s[i] <= 0x1f)))
            return false;
    return true;
}

/* "k1=v1/k2=v2" as PartitionsTable shows a partition. */
PM_MUST_CHECK static int spec_text(pm_buf *out, const pm_field *const *parts, size_t np,
                                   const pm_partition_naming *naming, const pm_avro_bytes *bytes,
                                   paimon_error *err)
{
    pm_binrow row;
    pm_buf value;
    int rc;
    if ((rc = pm_binrow_deserialize(&row, bytes->ptr, bytes->len, err)) != 0)
        return rc;
    if (row.arity != (int32_t)np)
        return pm_corrupt(err, "a partition of %d fields, the table has %zu", row.arity, np);
    pm_buf_init(&value, 0);
    for (size_t i = 0; rc == 0 && i < np; i++) {
        pm_datum d;
        pm_buf_reset(&value);
        if ((rc = pm_binrow_get(&row, (int32_t)i, parts[i]->type, &d, err)) != 0)
            break;
        if (!d.is_null && (rc = pm_java_cast_string(&value, parts[i]->type, &d, err)) != 0)
            break;
        rc = pm_buf_printf(out, "%s%s=", i > 0 ? "/" : "", parts[i]->name);
        if (rc == 0)
            rc = d.is_null || blank(value.data, value.len)
                     ? pm_buf_puts(out, naming->default_name)
                     : pm_buf_append(out, value.data, value.len);
    }
    pm_buf_free(&value);
    return rc;
}

PM_MUST_CHECK static int open_groups(pm_sys_table *st, paimon_table *t,
                                     const pm_snapshot_selector *sel, bool by_bucket,
                                     paimon_error *err)
{
    groups_state *s = pm_calloc(1, sizeof(*s));
    pm_snapshot *snap = NULL;
    pm_schema *schema = NULL;
    const pm_field *parts[MAX_KEYS];
    size_t np = 0, n = 0;
    pm_sys_group *groups = NULL;
    pm_partition_naming naming;
    int64_t buckets = 0;
    pm_buf b;
    int rc;

    if (s == NULL)
        return pm_nomem(err);
    pm_buf_init(&b, 0);
    pm_arena_init(&s->arena, 1 << 14);
    st->ops = by_bucket ? &BUCKETS_OPS : &PARTITIONS_OPS;
    st->state = s;
    PM_TRY(pm_sys_set_columns(st, by_bucket ? BUCKET_COLUMNS : PARTITION_COLUMNS, err));
    PM_TRY(pm_sys_snapshot(t, sel, &snap, err));
    if (snap == NULL)
        goto done;
    st->snapshot_id = snap->id;
    PM_TRY(table_schema(t, sel, snap, &schema, err));
    PM_TRY(pm_schema_partition_fields(schema, parts, MAX_KEYS, &np, err));
    PM_TRY(pm_partition_naming_from(schema, &naming, err));
    PM_TRY(pm_options_get_i64(&schema->options, "bucket", &buckets, err));
    /* `$partitions` scans like a batch read, which skips postpone buckets in postpone-bucket
     * tables; `$buckets` reads every bucket. */
    PM_TRY(pm_sys_group_entries(t, snap, by_bucket, !by_bucket && buckets == -2, &s->arena, &groups,
                                &n, err));
    s->rows = pm_arena_calloc(&s->arena, n + 1, sizeof(*s->rows));
    if (s->rows == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        bool ok = true;
        pm_buf_reset(&b);
        if (by_bucket)
            rc = row_text(&b, parts, np, &groups[i].partition, &ok, err);
        else
            rc = spec_text(&b, parts, np, &naming, &groups[i].partition, err);
        if (rc == 0 && !ok)
            rc = pm_corrupt(err, "%s: a manifest entry's partition does not match the table's",
                            t->path);
        if (rc != 0)
            goto done;
        s->rows[i].g = &groups[i];
        if ((s->rows[i].text = keep(&s->arena, &b)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    s->count = n;
    qsort(s->rows, n, sizeof(*s->rows), cmp_group_row);
    st->row_count = n;
done:
    if (rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT)
        rc = pm_buf_error(err, rc);
    pm_buf_free(&b);
    pm_schema_free(schema);
    pm_snapshot_free(snap);
    return rc;
}

int pm_sys_open_partitions(pm_sys_table *st, paimon_table *t, const pm_snapshot_selector *sel,
                           paimon_error *err)
{
    return open_groups(st, t, sel, false, err);
}

int pm_sys_open_buckets(pm_sys_table *st, paimon_table *t, paimon_error *err)
{
    /* Java's BucketsTable uses a plain snapshot reader: the latest snapshot, always. */
    return open_groups(st, t, NULL, true, err);
}

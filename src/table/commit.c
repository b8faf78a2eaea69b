/*
 * The commit protocol (commit.h; metadata.md §14, behaviour.md §8.7).
 */
#include "table/commit.h"

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "data/binary_row.h"
#include "data/datum_compare.h"
#include "format/avro/avro_container.h"
#include "meta/file_entry.h"
#include "meta/manifest_write.h"
#include "meta/option_catalog.h"
#include "meta/partition.h"
#include "meta/partition_spec.h"
#include "meta/paths.h"
#include "meta/schema.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"
#include "util/uuid.h"

#define MAX_KEY_FIELDS 64

/* Settings a commit reads from the table options (behaviour.md §10). */
typedef struct commit_conf {
    const char *codec;
    int level;
    pm_manifest_format format;
    int64_t target_size, merge_min_count, full_compaction_size;
    int64_t max_retries, min_wait_ms, max_wait_ms, timeout_ms;
    bool ignore_empty, dynamic_overwrite;
    bool dv_by_file; /* deletion vectors of unaware-bucket append tables: by file name */
} commit_conf;

PM_MUST_CHECK static int read_conf(const pm_schema *s, commit_conf *c, paimon_error *err)
{
    const pm_options *o = &s->options;
    const char *fmt = pm_options_get(o, "manifest.format");
    const char *comp = pm_options_get_str(o, "manifest.compression");
    int64_t level = 1;
    int rc;
    /* Java 1.x writes all three manifest kinds in manifest.format (metadata.md §9A.1) */
    if ((rc = pm_manifest_format_parse(fmt, &c->format, err)) != 0)
        return rc;
    c->codec = pm_avro_codec_for_option(comp);
    if (c->codec == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "manifest.compression=%s is not supported", comp);
    if ((rc = pm_options_get_i64(o, "file.compression.zstd-level", &level, err)) != 0 ||
        (rc = pm_options_get_memory(o, "manifest.target-file-size", &c->target_size, err)) != 0 ||
        (rc = pm_options_get_i64(o, "manifest.merge-min-count", &c->merge_min_count, err)) != 0 ||
        (rc = pm_options_get_memory(o, "manifest.full-compaction-threshold-size",
                                    &c->full_compaction_size, err)) != 0 ||
        (rc = pm_options_get_i64(o, "commit.max-retries", &c->max_retries, err)) != 0 ||
        (rc = pm_options_get_duration(o, "commit.min-retry-wait", &c->min_wait_ms, err)) != 0 ||
        (rc = pm_options_get_duration(o, "commit.max-retry-wait", &c->max_wait_ms, err)) != 0 ||
        /* CoreOptions.commitTimeout: Long.MAX_VALUE when unset */
        (rc = pm_options_get_duration_or(o, "commit.timeout", INT64_MAX, &c->timeout_ms, err)) !=
            0 ||
        /* BatchWriteBuilderImpl.newCommit: true when unset */
        (rc = pm_options_get_bool_or(o, "snapshot.ignore-empty-commit", true, &c->ignore_empty,
                                     err)) != 0 ||
        (rc = pm_options_get_bool(o, "dynamic-partition-overwrite", &c->dynamic_overwrite, err)) !=
            0)
        return rc;
    c->level = (int)level;
    {
        int64_t bucket = -1;
        if ((rc = pm_options_get_i64(o, "bucket", &bucket, err)) != 0)
            return rc;
        c->dv_by_file = bucket == -1 && s->primary_keys.count == 0;
    }
    return 0;
}

/* ---- entry vectors --------------------------------------------------------------------- */

typedef struct entry_vec {
    const pm_manifest_entry **items;
    size_t count, cap;
} entry_vec;

static int vec_push(entry_vec *v, const pm_manifest_entry *e)
{
    if (v->count == v->cap) {
        size_t cap = v->cap == 0 ? 64 : v->cap * 2;
        const pm_manifest_entry **p = pm_realloc(v->items, cap * sizeof(*p));
        if (p == NULL)
            return PAIMON_ENOMEM;
        v->items = p;
        v->cap = cap;
    }
    v->items[v->count++] = e;
    return 0;
}

static bool same_bytes(const pm_avro_bytes *a, const pm_avro_bytes *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->ptr, b->ptr, a->len) == 0);
}

/* ---- the table as one attempt sees it -------------------------------------------------- */

typedef struct table_view {
    pm_schema *schema;                         /* latest schema */
    const pm_field *parts[MAX_KEY_FIELDS];     /* partition columns */
    const pm_type *part_types[MAX_KEY_FIELDS]; /* their types */
    size_t part_count;
    const pm_type *key_types[MAX_KEY_FIELDS]; /* trimmed primary key types */
    size_t key_count;
    pm_partition_naming naming;
    pm_partition_spec *spec; /* the overwrite spec, or NULL */
} table_view;

PM_MUST_CHECK static int view_load(pm_fs *fs, const char *table, table_view *v, paimon_error *err)
{
    const pm_field *keys[MAX_KEY_FIELDS];
    int rc;
    memset(v, 0, sizeof(*v));
    if ((rc = pm_schema_read_latest(fs, table, &v->schema, err)) != 0)
        return rc;
    if ((rc = pm_schema_partition_fields(v->schema, v->parts, MAX_KEY_FIELDS, &v->part_count,
                                         err)) != 0 ||
        (rc = pm_schema_trimmed_pk_fields(v->schema, keys, MAX_KEY_FIELDS, &v->key_count, err)) !=
            0 ||
        (rc = pm_partition_naming_from(v->schema, &v->naming, err)) != 0)
        return rc;
    for (size_t i = 0; i < v->part_count; i++)
        v->part_types[i] = v->parts[i]->type;
    for (size_t i = 0; i < v->key_count; i++)
        v->key_types[i] = keys[i]->type;
    return 0;
}

/* Does the partition (serialized row) match the overwrite spec (meta/partition_spec.h)? */
PM_MUST_CHECK static int partition_matches(const table_view *v, const pm_avro_bytes *part,
                                           bool *out, paimon_error *err)
{
    *out = true;
    return v->spec == NULL ? 0 : pm_partition_spec_match(v->spec, part->ptr, part->len, out, err);
}

/* ---- conflicts ------------------------------------------------------------------------- */

PM_MUST_CHECK static int compare_keys(const table_view *v, const pm_avro_bytes *a,
                                      const pm_avro_bytes *b, int *out, paimon_error *err)
{
    pm_binrow ra, rb;
    int rc;
    *out = 0;
    if ((rc = pm_binrow_deserialize(&ra, a->ptr, a->len, err)) != 0 ||
        (rc = pm_binrow_deserialize(&rb, b->ptr, b->len, err)) != 0)
        return rc;
    for (size_t i = 0; i < v->key_count && (int32_t)i < ra.arity && (int32_t)i < rb.arity; i++) {
        pm_datum da, db;
        if ((rc = pm_binrow_get(&ra, (int32_t)i, v->key_types[i], &da, err)) != 0 ||
            (rc = pm_binrow_get(&rb, (int32_t)i, v->key_types[i], &db, err)) != 0)
            return rc;
        if ((*out = pm_datum_compare(v->key_types[i], &da, &db)) != 0)
            return 0;
    }
    return 0;
}

PM_MUST_CHECK static int lsm_check(const table_view *v, const entry_vec *files, paimon_error *err)
{
    /* Files of the same partition, bucket and level >= 1 must not overlap in key range. */
    for (size_t i = 0; i < files->count; i++) {
        const pm_manifest_entry *a = files->items[i];
        if (a->file.level < 1)
            continue;
        for (size_t j = i + 1; j < files->count; j++) {
            const pm_manifest_entry *b = files->items[j];
            int c1, c2, rc;
            if (b->file.level != a->file.level || b->bucket != a->bucket ||
                !same_bytes(&a->partition, &b->partition))
                continue;
            if ((rc = compare_keys(v, &a->file.max_key, &b->file.min_key, &c1, err)) != 0 ||
                (rc = compare_keys(v, &b->file.max_key, &a->file.min_key, &c2, err)) != 0)
                return rc;
            if (c1 >= 0 && c2 >= 0)
                return pm_err_set(err, PAIMON_ECONFLICT,
                                  "LSM conflicts detected! Give up committing. Conflict files "
                                  "are: %s and %s",
                                  a->file.file_name, b->file.file_name);
        }
    }
    return 0;
}

/* Java's ConflictDetection.checkConflicts over the live files of `latest`. */
PM_MUST_CHECK static int check_conflicts(const table_view *v, const pm_manifest_entry *const *live,
                                         size_t live_count, const entry_vec *delta, bool overwrite,
                                         paimon_error *err)
{
    pm_file_set set = {0};
    entry_vec after = {0};
    int rc = 0;
    for (size_t i = 0; i < live_count; i++)
        if (pm_file_set_add(&set, live[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    for (size_t i = 0; i < delta->count; i++) {
        const pm_manifest_entry *e = delta->items[i];
        if (e->kind == PM_FILE_KIND_ADD) {
            if (pm_file_set_contains(&set, e)) {
                rc = pm_err_set(err, PAIMON_ECONFLICT,
                                "File deletion conflicts detected! Give up committing. %s is "
                                "added twice",
                                e->file.file_name);
                goto done;
            }
            if (pm_file_set_add(&set, e) != 0) {
                rc = pm_nomem(err);
                goto done;
            }
        } else if (!pm_file_set_remove(&set, e)) {
            rc = pm_err_set(err, PAIMON_ECONFLICT,
                            "File deletion conflicts detected! Give up committing. %s is not a "
                            "live file (removed by a concurrent commit?)",
                            e->file.file_name);
            goto done;
        }
    }
    for (size_t i = 0; i < set.order_count; i++)
        if (set.order[i] != NULL && vec_push(&after, set.order[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    /* One total-buckets value per partition (changing it needs an overwrite). */
    for (size_t i = 0; !overwrite && i < delta->count; i++) {
        const pm_manifest_entry *e = delta->items[i];
        if (e->kind != PM_FILE_KIND_ADD)
            continue;
        for (size_t j = 0; j < after.count; j++)
            if (same_bytes(&after.items[j]->partition, &e->partition) &&
                after.items[j]->total_buckets != e->total_buckets) {
                rc = pm_err_set(err, PAIMON_ECONFLICT,
                                "Total buckets of a partition changed from %d to %d: overwrite "
                                "the partition to change the bucket number",
                                (int)after.items[j]->total_buckets, (int)e->total_buckets);
                goto done;
            }
    }
    if (v->key_count > 0)
        rc = lsm_check(v, &after, err);
done:
    pm_free(after.items);
    pm_file_set_free(&set);
    return rc;
}

/* ---- one attempt ----------------------------------------------------------------------- */

typedef struct attempt {
    pm_arena arena;
    pm_manifest_ctx ctx;
    entry_vec delta;
    pm_snapshot *latest;
    int64_t schema_id;
    char *snapshot_path; /* the snapshot file this attempt writes (owned) */
} attempt;

static void attempt_cleanup(attempt *a, bool remove_files)
{
    for (size_t i = 0; remove_files && i < a->ctx.written.count; i++)
        (void)a->ctx.fs->remove(a->ctx.fs, a->ctx.written.items[i], NULL);
    pm_strlist_free(&a->ctx.written);
    pm_strlist_init(&a->ctx.written);
    pm_free(a->delta.items);
    memset(&a->delta, 0, sizeof(a->delta));
    pm_snapshot_free(a->latest);
    a->latest = NULL;
    pm_free(a->snapshot_path);
    a->snapshot_path = NULL;
    pm_arena_free(&a->arena);
    pm_arena_init(&a->arena, 64 * 1024);
}

/* Builds the delta: overwrite DELETEs (computed on the latest snapshot), then the
 * messages' entries.  Index changes go to `index_out`. */
PM_MUST_CHECK static int build_delta(attempt *a, const table_view *v, const pm_commit_messages *m,
                                     const pm_commit_opts *o, const commit_conf *conf,
                                     const pm_manifest_entry *const *live, size_t live_count,
                                     const pm_index_manifest_entry *prev_index,
                                     size_t prev_index_count, pm_index_manifest_entry **index_out,
                                     size_t *index_count, paimon_error *err)
{
    pm_index_manifest_entry *idx = NULL;
    size_t n = 0;
    int rc = 0;

    idx = pm_arena_alloc(&a->arena, (prev_index_count + m->index_count + 1) * sizeof(*idx));
    if (idx == NULL)
        return pm_nomem(err);
    if (o->overwrite) {
        /* Which partitions: the spec; or with dynamic-partition-overwrite those of the new
         * data; or (unpartitioned, or dynamic off without a spec) the whole table. */
        bool dynamic = o->partition_count == 0 && conf->dynamic_overwrite && v->part_count > 0;
        for (size_t i = 0; i < live_count; i++) {
            bool hit = true;
            pm_manifest_entry *d;
            if (dynamic) {
                hit = false;
                for (size_t k = 0; k < m->data_count && !hit; k++)
                    hit = m->data[k].kind == PM_FILE_KIND_ADD &&
                          same_bytes(&m->data[k].partition, &live[i]->partition);
            } else if ((rc = partition_matches(v, &live[i]->partition, &hit, err)) != 0) {
                return rc;
            }
            if (!hit)
                continue;
            if ((d = pm_arena_alloc(&a->arena, sizeof(*d))) == NULL)
                return pm_nomem(err);
            *d = *live[i];
            d->kind = PM_FILE_KIND_DELETE;
            if (vec_push(&a->delta, d) != 0)
                return pm_nomem(err);
        }
        for (size_t i = 0; i < prev_index_count; i++) {
            bool hit = true;
            if (dynamic) {
                hit = false;
                for (size_t k = 0; k < m->data_count && !hit; k++)
                    hit = same_bytes(&m->data[k].partition, &prev_index[i].partition);
            } else if ((rc = partition_matches(v, &prev_index[i].partition, &hit, err)) != 0) {
                return rc;
            }
            if (hit) {
                idx[n] = prev_index[i];
                idx[n++].kind = PM_FILE_KIND_DELETE;
            }
        }
    }
    for (size_t i = 0; i < m->data_count; i++) {
        if (o->overwrite && o->partition_count > 0 && m->data[i].kind == PM_FILE_KIND_ADD) {
            bool hit;
            if ((rc = partition_matches(v, &m->data[i].partition, &hit, err)) != 0)
                return rc;
            if (!hit)
                return pm_err_set(err, PAIMON_EINVALID,
                                  "%s: a row lies outside the partition being overwritten",
                                  a->ctx.table);
        }
        if (vec_push(&a->delta, &m->data[i]) != 0)
            return pm_nomem(err);
    }
    for (size_t i = 0; i < m->index_count; i++)
        idx[n++] = m->index[i];
    *index_out = idx;
    *index_count = n;
    return 0;
}

/* Whether index files of `type` are kept one per (partition, bucket) (Java's
 * BucketedCombiner: HASH, and deletion vectors of bucketed tables) rather than by file name
 * (GlobalCombiner). */
static bool bucketed_index(const commit_conf *conf, const char *type)
{
    if (strcmp(type, "HASH") == 0)
        return true;
    return strcmp(type, "DELETION_VECTORS") == 0 && !conf->dv_by_file;
}

static bool same_index_slot(const pm_index_manifest_entry *a, const pm_index_manifest_entry *b)
{
    return a->bucket == b->bucket && strcmp(a->index_type, b->index_type) == 0 &&
           same_bytes(&a->partition, &b->partition);
}

/* Drops the entries `change` replaces (same slot when bucketed, else same file name). */
static size_t drop_replaced(const commit_conf *conf, pm_index_manifest_entry *res, size_t n,
                            const pm_index_manifest_entry *change)
{
    bool by_slot = bucketed_index(conf, change->index_type);
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (by_slot ? !same_index_slot(&res[i], change)
                    : strcmp(res[i].file_name, change->file_name) != 0)
            res[w++] = res[i];
    return w;
}

/* The live index files after `changes` (IndexManifestFileHandler: bucketed entries replace
 * the previous file of their slot, deletions first; others by file name). */
PM_MUST_CHECK static int combine_index(attempt *a, const commit_conf *conf,
                                       const pm_index_manifest_entry *prev, size_t prev_count,
                                       const pm_index_manifest_entry *changes, size_t change_count,
                                       pm_index_manifest_entry **out, size_t *out_count,
                                       paimon_error *err)
{
    pm_index_manifest_entry *res =
        pm_arena_alloc(&a->arena, (prev_count + change_count + 1) * sizeof(*res));
    size_t n = 0;
    if (res == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < prev_count; i++)
        res[n++] = prev[i];
    for (int pass = 0; pass < 2; pass++)
        for (size_t c = 0; c < change_count; c++) {
            bool del = changes[c].kind != PM_FILE_KIND_ADD;
            if (bucketed_index(conf, changes[c].index_type) && del != (pass == 0))
                continue; /* bucketed: every DELETE before any ADD */
            if (!bucketed_index(conf, changes[c].index_type) && pass == 1)
                continue; /* by name: in order, in the first pass */
            n = drop_replaced(conf, res, n, &changes[c]);
            if (!del)
                res[n++] = changes[c];
        }
    for (size_t i = 0; i < n; i++) {
        res[i].kind = PM_FILE_KIND_ADD;
        res[i].version = PM_INDEX_MANIFEST_VERSION;
    }
    *out = res;
    *out_count = n;
    return 0;
}

static int64_t row_sum(const entry_vec *v, int kind)
{
    int64_t s = 0;
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i]->kind == kind)
            s += v->items[i]->file.row_count;
    return s;
}

/* Everything up to the snapshot write.  *snap is filled with names borrowed from `a`. */
PM_MUST_CHECK static int prepare(attempt *a, const table_view *v, const pm_commit_messages *m,
                                 const pm_commit_opts *o, const commit_conf *conf,
                                 pm_snapshot *snap, bool *empty, paimon_error *err)
{
    const pm_manifest_entry **live = NULL;
    size_t live_count = 0;
    pm_index_manifest_entry *prev_index = NULL, *index_changes = NULL, *index_live = NULL;
    size_t prev_index_count = 0, index_change_count = 0, index_live_count = 0;
    pm_manifest_file_meta *prev_metas = NULL;
    size_t prev_meta_count = 0;
    pm_meta_vec base = {0}, delta_metas = {0}, changelog_metas = {0};
    bool has_delete = false, check;
    int rc = 0;

    *empty = false;
    if (a->latest != NULL) {
        if (a->latest->index_manifest != NULL &&
            (rc = pm_index_manifest_read(a->ctx.fs, a->ctx.table, a->latest->index_manifest,
                                         &a->arena, &prev_index, &prev_index_count, err)) != 0)
            goto done;
    }
    check = o->overwrite || o->kind != PM_COMMIT_APPEND;
    for (size_t i = 0; i < m->data_count; i++)
        has_delete |= m->data[i].kind == PM_FILE_KIND_DELETE;
    if (a->latest != NULL && (check || has_delete) &&
        (rc = pm_snapshot_live_entries(a->ctx.fs, a->ctx.table, a->latest, &a->arena, &live,
                                       &live_count, err)) != 0)
        goto done;
    if ((rc = build_delta(a, v, m, o, conf, live, live_count, prev_index, prev_index_count,
                          &index_changes, &index_change_count, err)) != 0)
        goto done;
    if (a->delta.count == 0 && m->changelog_count == 0 && index_change_count == 0 &&
        conf->ignore_empty) {
        *empty = true;
        goto done;
    }
    for (size_t i = 0; i < a->delta.count; i++)
        has_delete |= a->delta.items[i]->kind == PM_FILE_KIND_DELETE;
    if (a->latest != NULL && (check || has_delete) &&
        (rc = check_conflicts(v, live, live_count, &a->delta, o->overwrite, err)) != 0) {
        if (rc == PAIMON_ECONFLICT) /* a conflict with the table's files: name the table */
            pm_err_prefix(err, rc, "%s: ", a->ctx.table);
        goto done;
    }

    /* base list: the previous data manifests, merged */
    if (a->latest != NULL &&
        ((rc = pm_snapshot_data_manifests(a->ctx.fs, a->ctx.table, a->latest, &a->arena,
                                          &prev_metas, &prev_meta_count, err)) != 0 ||
         (rc = pm_manifest_merge(&a->ctx, prev_metas, prev_meta_count, conf->merge_min_count,
                                 conf->full_compaction_size, &a->arena, &base, err)) != 0))
        goto done;
    if ((rc = pm_manifest_write_rolling(&a->ctx, a->delta.items, a->delta.count, &a->arena,
                                        &delta_metas, err)) != 0)
        goto done;
    {
        /* Java writes the base list, then the delta list: -0 and -1 of a fresh committer. */
        const char *name;
        int64_t size;
        if ((rc = pm_manifest_list_write(&a->ctx, base.items, base.count, &a->arena, &name, &size,
                                         err)) != 0)
            goto done;
        snap->base_manifest_list = (char *)name;
        snap->base_manifest_list_size = size;
        if ((rc = pm_manifest_list_write(&a->ctx, delta_metas.items, delta_metas.count, &a->arena,
                                         &name, &size, err)) != 0)
            goto done;
        snap->delta_manifest_list = (char *)name;
        snap->delta_manifest_list_size = size;
    }
    snap->changelog_manifest_list = NULL;
    snap->changelog_manifest_list_size = PM_ABSENT;
    snap->changelog_record_count = PM_ABSENT_COUNT;
    if (m->changelog_count > 0) {
        entry_vec cl = {0};
        const char *name;
        int64_t size, rows = 0;
        for (size_t i = 0; i < m->changelog_count; i++) {
            rows += m->changelog[i].file.row_count;
            if (vec_push(&cl, &m->changelog[i]) != 0) {
                pm_free(cl.items);
                rc = pm_nomem(err);
                goto done;
            }
        }
        rc = pm_manifest_write_rolling(&a->ctx, cl.items, cl.count, &a->arena, &changelog_metas,
                                       err);
        pm_free(cl.items);
        if (rc != 0 ||
            (rc = pm_manifest_list_write(&a->ctx, changelog_metas.items, changelog_metas.count,
                                         &a->arena, &name, &size, err)) != 0)
            goto done;
        snap->changelog_manifest_list = (char *)name;
        snap->changelog_manifest_list_size = size;
        snap->changelog_record_count = rows;
    }
    snap->index_manifest = a->latest != NULL ? a->latest->index_manifest : NULL;
    if (index_change_count > 0) {
        const char *name;
        if ((rc = combine_index(a, conf, prev_index, prev_index_count, index_changes,
                                index_change_count, &index_live, &index_live_count, err)) != 0 ||
            (rc = pm_index_manifest_write(&a->ctx, index_live, index_live_count, &a->arena, &name,
                                          err)) != 0)
            goto done;
        snap->index_manifest = (char *)name;
    }
    {
        int64_t delta_rows =
            row_sum(&a->delta, PM_FILE_KIND_ADD) - row_sum(&a->delta, PM_FILE_KIND_DELETE);
        int64_t prev_total = 0;
        if (a->latest != NULL && a->latest->total_record_count != PM_ABSENT_COUNT)
            prev_total = a->latest->total_record_count;
        snap->delta_record_count = delta_rows;
        snap->total_record_count = prev_total + delta_rows;
    }
    snap->has_watermark = m->has_watermark;
    snap->watermark = m->watermark;
    if (a->latest != NULL && a->latest->has_watermark &&
        (!snap->has_watermark || a->latest->watermark > snap->watermark)) {
        snap->has_watermark = true;
        snap->watermark = a->latest->watermark;
    }
    /* APPEND changes that delete files (row-level deletes) commit as OVERWRITE. */
    snap->commit_kind =
        o->overwrite || (o->kind == PM_COMMIT_APPEND && has_delete) ? PM_COMMIT_OVERWRITE : o->kind;
    snap->statistics =
        a->latest != NULL && a->latest->schema_id == a->schema_id ? a->latest->statistics : NULL;
    snap->has_next_row_id = true;
    snap->next_row_id =
        a->latest != NULL && a->latest->has_next_row_id ? a->latest->next_row_id : 0;
done:
    pm_meta_vec_free(&base);
    pm_meta_vec_free(&delta_metas);
    pm_meta_vec_free(&changelog_metas);
    return rc;
}

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static int64_t backoff_ms(const commit_conf *c, int64_t retry)
{
    int64_t wait = c->min_wait_ms;
    uint32_t r = 0;
    char u[PM_UUID_STRLEN + 1];
    for (int64_t i = 0; i < retry && wait < c->max_wait_ms; i++)
        wait *= 2;
    if (wait > c->max_wait_ms)
        wait = c->max_wait_ms;
    /* up to 20% jitter, so racing writers spread out */
    if (pm_uuid_v4(u) == 0)
        for (int i = 0; i < 8; i++)
            r = r * 16 + (uint32_t)(u[i] >= 'a' ? u[i] - 'a' + 10 : u[i] - '0');
    return wait + (wait > 0 ? (int64_t)(r % (uint32_t)(wait / 5 + 1)) : 0);
}

/* Java's latestSnapshotOfUser over snapshots (from, to], newest first, stopping at an
 * expired one: *found is the newest snapshot of o->commit_user when its identifier is at
 * least o->identifier (the commit was made before), else 0.  Batch commits (identifier
 * INT64_MAX) have no identity to retry by: they are passed over, so that a batch commit
 * by the same user never hides a later identified one. */
PM_MUST_CHECK static int find_committed(pm_fs *fs, const char *table, int64_t from, int64_t to,
                                        const pm_commit_opts *o, int64_t *found, paimon_error *err)
{
    *found = 0;
    for (int64_t id = to; id > from; id--) {
        pm_snapshot *s = NULL;
        bool mine;
        int rc = pm_snapshot_read(fs, table, id, &s, err);
        if (rc == PAIMON_ENOTFOUND)
            return 0; /* expired: older ones are gone too */
        if (rc != 0)
            return rc;
        mine = s->commit_user != NULL && strcmp(s->commit_user, o->commit_user) == 0 &&
               s->commit_identifier != INT64_MAX;
        if (mine && s->commit_identifier >= o->identifier)
            *found = id;
        pm_snapshot_free(s);
        if (mine)
            return 0;
    }
    return 0;
}

/* After a snapshot write that failed otherwise than by a taken name: is snapshot `id` the
 * one this attempt wrote?  Its delta manifest list was written by this attempt alone. */
PM_MUST_CHECK static int read_back(pm_fs *fs, const char *table, int64_t id, const char *delta_list,
                                   bool *ours, paimon_error *err)
{
    pm_snapshot *s = NULL;
    int rc = pm_snapshot_read(fs, table, id, &s, err);
    *ours = false;
    if (rc == PAIMON_ENOTFOUND)
        return 0;
    if (rc != 0)
        return rc;
    *ours = s->delta_manifest_list != NULL && strcmp(s->delta_manifest_list, delta_list) == 0;
    pm_snapshot_free(s);
    return 0;
}

/* read_back after a failed write of snapshot `id` at `path`: first whether the file is
 * there at all, which needs no memory, so a write that failed for lack of memory is known
 * not to have landed (reading the snapshot back would fail the same way). */
PM_MUST_CHECK static int read_back_failed(pm_fs *fs, const char *table, const char *path,
                                          int64_t id, const char *delta_list, bool *ours,
                                          paimon_error *err)
{
    int kind = 0;
    uint64_t size = 0;
    *ours = false;
    if (fs->stat(fs, path, &kind, &size, err) == 0 && kind == 0)
        return 0;
    return read_back(fs, table, id, delta_list, ours, err);
}

/* What one snapshot's commit did, beyond its id. */
typedef struct one_outcome {
    int64_t committed_before; /* skipped: this snapshot of the user has our identifier */
    bool uncertain;           /* failed, and whether the snapshot landed is unknown */
} one_outcome;

/* One snapshot of kind o->kind (or OVERWRITE) from m's data, changelog and index entries.
 * With `check_race` (exactly-once commits), each retry first looks among the snapshots that
 * won the race for one of ours with this identifier or a later one. */
PM_MUST_CHECK static int commit_one(pm_fs *fs, const char *table, const pm_commit_messages *m,
                                    const pm_commit_opts *o, bool check_race, int64_t *snapshot_id,
                                    one_outcome *out, paimon_error *err)
{
    table_view v;
    commit_conf conf;
    pm_path_factory names;
    attempt a;
    int64_t start = pm_now_millis();
    int64_t lost_base = -1; /* latest id seen by the attempt that lost the race */
    int rc;

    *snapshot_id = 0;
    memset(out, 0, sizeof(*out));
    memset(&a, 0, sizeof(a));
    pm_arena_init(&a.arena, 64 * 1024);
    pm_strlist_init(&a.ctx.written);
    if ((rc = view_load(fs, table, &v, err)) != 0)
        goto done;
    if ((rc = read_conf(v.schema, &conf, err)) != 0 ||
        (o->partition_count > 0 && (rc = pm_partition_spec_parse(&v.spec, v.schema, o->partition,
                                                                 o->partition_count, err)) != 0)) {
        pm_err_prefix(err, rc, "%s: ", table); /* the table's options, the overwrite spec */
        goto done;
    }
    if (pm_path_factory_init(&names) != 0) {
        rc = pm_err_set(err, PAIMON_EIO, "no random numbers for file names");
        goto done;
    }
    a.ctx.fs = fs;
    a.ctx.table = table;
    a.ctx.names = &names;
    a.ctx.codec = conf.codec;
    a.ctx.level = conf.level;
    a.ctx.format = conf.format;
    a.ctx.target_size = conf.target_size;
    a.ctx.partition_types = v.part_types;
    a.ctx.partition_count = v.part_count;

    for (int64_t retry = 0;; retry++) {
        pm_snapshot snap;
        int64_t latest_id = 0;
        bool found, empty, ours;
        pm_schema *latest_schema = NULL;

        attempt_cleanup(&a, false);
        /* The first attempt trusts the LATEST hint without probing for snapshot-(N+1): the
         * create-if-absent of snapshot-(N+1) below tells whether N was the latest (a lost
         * race otherwise, and the retry probes).  On S3 that saves 2 requests of a commit's
         * 12 (issue 14).  After a lost race another writer may also have changed the
         * schema: it is found again (schema_memo.c). */
        if (retry > 0)
            pm_schema_forget(fs, table);
        if ((rc = pm_snapshot_read_latest(fs, table, retry > 0, &a.latest, &found, err)) != 0)
            goto done;
        latest_id = found ? a.latest->id : 0;
        if (check_race && lost_base >= 0) {
            if ((rc = find_committed(fs, table, lost_base, found ? latest_id : 0, o,
                                     &out->committed_before, err)) != 0)
                goto done;
            if (out->committed_before != 0)
                goto done; /* a retry of this commit by someone else landed meanwhile */
        }
        /* the snapshot records the newest schema, as Java's does */
        if ((rc = pm_schema_read_latest(fs, table, &latest_schema, err)) != 0)
            goto done;
        a.schema_id = latest_schema->id;
        pm_schema_free(latest_schema);
        a.ctx.schema_id = a.schema_id;

        memset(&snap, 0, sizeof(snap));
        pm_options_init(&snap.properties);
        /* the caller's properties, borrowed: snap is never released, only written */
        snap.properties.keys = (char **)o->property_keys;
        snap.properties.values = (char **)o->property_values;
        snap.properties.count = o->property_count;
        if ((rc = prepare(&a, &v, m, o, &conf, &snap, &empty, err)) != 0) {
            attempt_cleanup(&a, true);
            /* The first attempt's base came from the LATEST hint unchecked: a conflict with it
             * (a compaction deleting files of a newer snapshot) or a file of it gone is no
             * verdict while a newer snapshot exists (a writer that died before its hint):
             * then it is a lost race, and the retry finds the latest by probing. */
            if (retry == 0 && (rc == PAIMON_ECONFLICT || rc == PAIMON_ENOTFOUND)) {
                bool newer = false;
                char *next = pm_snapshot_path(table, found ? latest_id + 1 : 1);
                paimon_error ignored;
                if (next != NULL && pm_fs_exists_file(fs, next, &newer, &ignored) == 0 && newer) {
                    pm_free(next);
                    paimon_error_clear(err);
                    lost_base = found ? latest_id : 0;
                    continue;
                }
                pm_free(next);
            }
            goto done;
        }
        if (empty)
            goto done;
        snap.version = PM_SNAPSHOT_VERSION;
        snap.id = found ? latest_id + 1 : 1;
        snap.schema_id = a.schema_id;
        snap.commit_user = (char *)o->commit_user;
        snap.commit_identifier = o->identifier;
        snap.time_millis = pm_now_millis();
        if ((a.snapshot_path = pm_snapshot_path(table, snap.id)) == NULL) {
            rc = pm_nomem(err);
            attempt_cleanup(&a, true);
            goto done;
        }
        if (o->before_snapshot != NULL)
            o->before_snapshot(o->before_snapshot_arg, snap.id);
        rc = pm_snapshot_commit(fs, table, &snap, err);
        if (rc == 0) {
            *snapshot_id = snap.id;
            goto hints;
        }
        if (rc != PAIMON_EEXISTS) {
            /* Not a lost race (permission, I/O, no space): no retry.  Did it land anyway? */
            paimon_error check;
            int crc = read_back_failed(fs, table, a.snapshot_path, snap.id,
                                       snap.delta_manifest_list, &ours, &check);
            if (crc == 0 && ours) {
                *snapshot_id = snap.id;
                goto hints;
            }
            if (crc != 0) {
                /* unknown: keep the files, which the snapshot may name */
                out->uncertain = true;
                pm_strlist_free(&a.ctx.written);
                pm_strlist_init(&a.ctx.written);
                pm_err_prefix(err, rc,
                              "snapshot %lld may or may not have been committed (reading it "
                              "back failed: %s): ",
                              (long long)snap.id, check.message);
            } else {
                pm_err_prefix(err, rc, "snapshot %lld not committed: ", (long long)snap.id);
            }
            attempt_cleanup(&a, true);
            goto done;
        }
        /* Lost the race: another writer took the id.  Remove this attempt's files, retry. */
        lost_base = found ? latest_id : 0;
        attempt_cleanup(&a, true);
        if (retry + 1 >= conf.max_retries ||
            (conf.timeout_ms != INT64_MAX && pm_now_millis() - start > conf.timeout_ms)) {
            rc = pm_err_set(err, PAIMON_ECONFLICT,
                            "%s: commit failed after %lld attempts: other writers kept taking the "
                            "next snapshot id (commit.max-retries=%lld)",
                            table, (long long)(retry + 1), (long long)conf.max_retries);
            goto done;
        }
        sleep_ms(backoff_ms(&conf, retry));
    }
hints:
    rc = 0;
    {
        paimon_error ignored;
        bool earliest;
        char *path = pm_table_file(table, PM_DIR_SNAPSHOT, "EARLIEST");
        int64_t hint = *snapshot_id;
        /* LATEST: ours, a plain overwrite as Java's commitLatestHint (readers check the next
         * id, and the next commit's create-if-absent does).  EARLIEST: written with the
         * first snapshot; when missing later, snapshot expiration writes it as Java's does,
         * without asking on every commit whether it exists (issue 14). */
        PM_IGNORE(pm_snapshot_write_hint(fs, table, "LATEST", hint, &ignored));
        if (path != NULL && hint == 1 && pm_fs_exists_file(fs, path, &earliest, &ignored) == 0 &&
            !earliest)
            PM_IGNORE(pm_snapshot_write_hint(fs, table, "EARLIEST", 1, &ignored));
        pm_free(path);
    }
done:
    attempt_cleanup(&a, false);
    pm_arena_free(&a.arena);
    pm_partition_spec_free(v.spec);
    pm_schema_free(v.schema);
    return rc;
}

int pm_commit(pm_fs *fs, const char *table, const pm_commit_messages *m, const pm_commit_opts *o,
              int64_t *snapshot_id, paimon_error *err)
{
    pm_commit_messages part;
    pm_commit_opts co;
    pm_commit_result local, *res = o->result != NULL ? o->result : &local;
    one_outcome out;
    int64_t id = 0;
    int rc;
    bool append_empty = m->data_count == 0 && m->changelog_count == 0 && m->index_count == 0;
    bool compact_empty = m->compact_count == 0 && m->compact_index_count == 0;
    bool exactly_once = o->skip_committed && o->identifier != INT64_MAX;

    *snapshot_id = 0;
    res->snapshot_id = 0;
    res->compact_snapshot_id = 0;
    res->committed_before = 0;
    res->uncertain = 0;
    memset(&res->compact_err, 0, sizeof(res->compact_err));
    if (exactly_once) {
        int64_t latest = 0;
        bool found;
        if ((rc = pm_snapshot_latest_id(fs, table, &latest, &found, err)) != 0 ||
            (rc = find_committed(fs, table, 0, found ? latest : 0, o, &res->committed_before,
                                 err)) != 0)
            return rc;
        if (res->committed_before != 0)
            return 0;
    }
    /* The APPEND (or OVERWRITE) snapshot: skipped when it would only precede a COMPACT one
     * with nothing in it (a dedicated compaction); otherwise commit_one applies
     * snapshot.ignore-empty-commit. */
    if (!(append_empty && !compact_empty && !o->overwrite)) {
        part = *m;
        part.compact = NULL;
        part.compact_count = 0;
        part.compact_changelog = NULL;
        part.compact_changelog_count = 0;
        part.compact_index = NULL;
        part.compact_index_count = 0;
        rc = commit_one(fs, table, &part, o, exactly_once, &id, &out, err);
        res->uncertain = out.uncertain;
        res->committed_before = out.committed_before;
        if (rc != 0 || out.committed_before != 0)
            return rc;
        res->snapshot_id = id;
        *snapshot_id = id;
    }
    if (compact_empty)
        return 0;
    memset(&part, 0, sizeof(part));
    part.data = m->compact;
    part.data_count = m->compact_count;
    part.index = m->compact_index;
    part.index_count = m->compact_index_count;
    /* CompactIncrement.changelogFiles: the COMPACT snapshot's changelog */
    part.changelog = m->compact_changelog;
    part.changelog_count = m->compact_changelog_count;
    co = *o;
    co.kind = PM_COMMIT_COMPACT;
    co.overwrite = false;
    co.partition = NULL;
    co.partition_count = 0;
    rc = commit_one(fs, table, &part, &co, false, &id, &out, err);
    if (rc != 0 && res->snapshot_id != 0) {
        /* The data is committed: the commit succeeded; its compaction did not. */
        paimon_error ignored;
        if (err != NULL)
            res->compact_err = *err;
        else
            res->compact_err.code = rc;
        if (!out.uncertain)
            PM_IGNORE(pm_commit_messages_abort(fs, table, m, false, true, &ignored));
        if (err != NULL)
            memset(err, 0, sizeof(*err));
        return 0;
    }
    if (rc != 0) {
        res->uncertain = out.uncertain;
        return rc;
    }
    res->compact_snapshot_id = id;
    if (id != 0)
        *snapshot_id = id;
    return 0;
}

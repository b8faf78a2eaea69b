/* Scan planning: see scan.h and behaviour.md §7.1. */
#include "table/scan.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "data/binary_row.h"
#include "meta/file_entry.h"
#include "meta/partition.h"
#include "meta/paths.h"
#include "meta/file_path.h"
#include "meta/schema_cache.h"
#include "table/feature_check.h"
#include "table/file_index.h"
#include "table/interval_partition.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/pool.h"
#include "util/time.h"

#define MAX_KEYS          64
#define MAX_BUCKET_COMBOS 1024

/* What planning needs to know about the table and the read. */
typedef struct plan_ctx {
    paimon_table *t;
    pm_scan_plan *plan;
    const pm_schema *schema;         /* the snapshot's schema */
    const pm_predicate *filter;      /* may be NULL */
    const pm_field *parts[MAX_KEYS]; /* partition fields */
    int part_cols[MAX_KEYS];         /* their column index in the schema row */
    size_t part_count;
    bool pk, dv, first_row, skip_level0;
    int32_t only_level; /* read only files at this level ($ro), or -1 */
    const char *merge_engine;
    int32_t num_buckets;     /* bucket option */
    bool *bucket_ok;         /* candidate buckets (fixed-bucket pruning), or NULL */
    pm_schema_cache schemas; /* of data files, by id */
    pm_partition_naming naming;
    pm_col_stats *cells;        /* statistics scratch: field_count + MAX_KEYS cells */
    const pm_col_stats **stats; /* per column of the schema row, NULL: nothing known */
    bool filter_partitions;     /* the filter reads a partition column */
} plan_ctx;

/* ---- schemas of data files --------------------------------------------------------------- */

PM_MUST_CHECK static int schema_of(plan_ctx *c, int64_t id, const pm_schema **out,
                                   paimon_error *err)
{
    return pm_schema_cache_get(&c->schemas, id, out, err);
}

/* ---- statistics as predicate inputs -------------------------------------------------------- */

/* Fills stats for the partition columns from a partition row: exact values. */
static void partition_value_stats(plan_ctx *c, const pm_binrow *row, pm_col_stats *cells,
                                  const pm_col_stats **stats, int64_t row_count)
{
    for (size_t i = 0; i < c->part_count; i++) {
        pm_col_stats *s = &cells[i];
        pm_datum d;
        memset(s, 0, sizeof(*s));
        if (pm_binrow_get(row, (int32_t)i, c->parts[i]->type, &d, NULL) != 0)
            continue; /* unknown */
        s->has_null_count = true;
        if (d.is_null) {
            s->null_count = row_count;
        } else {
            s->has_min_max = true;
            s->min = s->max = d;
        }
        stats[c->part_cols[i]] = s;
    }
}

/* Whether the filter may match rows whose partition columns lie within `min`..`max`. */
static bool partition_stats_may_match(plan_ctx *c, const pm_simple_stats *ps)
{
    pm_col_stats cells[MAX_KEYS];
    const pm_col_stats **stats;
    pm_binrow lo, hi;
    bool result = true;
    if (c->filter == NULL || c->part_count == 0 || ps->min_values.ptr == NULL)
        return true;
    if (pm_binrow_deserialize(&lo, ps->min_values.ptr, ps->min_values.len, NULL) != 0 ||
        pm_binrow_deserialize(&hi, ps->max_values.ptr, ps->max_values.len, NULL) != 0 ||
        lo.arity != (int32_t)c->part_count || hi.arity != (int32_t)c->part_count)
        return true;
    stats = pm_calloc(c->schema->row->field_count, sizeof(*stats));
    if (stats == NULL)
        return true;
    for (size_t i = 0; i < c->part_count; i++) {
        pm_col_stats *s = &cells[i];
        pm_datum a, b;
        memset(s, 0, sizeof(*s));
        if (pm_binrow_get(&lo, (int32_t)i, c->parts[i]->type, &a, NULL) != 0 ||
            pm_binrow_get(&hi, (int32_t)i, c->parts[i]->type, &b, NULL) != 0)
            continue;
        if (!a.is_null && !b.is_null) {
            s->has_min_max = true;
            s->min = a;
            s->max = b;
        }
        if (ps->null_counts.present && i < ps->null_counts.count) {
            int64_t n = ((const int64_t *)ps->null_counts.items)[i];
            if (n != PM_AVRO_NULL_LONG) {
                s->has_null_count = true;
                s->null_count = n;
            }
        }
        /* A manifest's row count is unknown: a null count only says "some nulls" when > 0;
         * it cannot prove "all null", so only the min/max bounds prune here. */
        s->has_null_count = s->has_null_count && s->null_count == 0;
        stats[c->part_cols[i]] = s;
    }
    result = pm_predicate_eval_stats(c->filter, stats, INT64_MAX);
    pm_free(stats);
    return result;
}

/* Statistics of a data file's columns, mapped by field id onto the read schema. */
static void file_stats(plan_ctx *c, const pm_schema *fs, const pm_simple_stats *ss,
                       const pm_avro_array *cols, bool key_stats, int64_t row_count,
                       pm_col_stats *cells, const pm_col_stats **stats)
{
    const pm_field *fields[1024];
    size_t n = 0;
    pm_binrow lo, hi;
    bool have_rows;

    if (key_stats) {
        if (pm_schema_trimmed_pk_fields(fs, fields, 1024, &n, NULL) != 0)
            return;
    } else if (cols->present) {
        for (size_t i = 0; i < cols->count && n < 1024; i++) {
            const pm_field *f = pm_schema_field(fs, ((const char *const *)cols->items)[i]);
            if (f == NULL)
                return;
            fields[n++] = f;
        }
    } else {
        for (size_t i = 0; i < fs->row->field_count && n < 1024; i++)
            fields[n++] = &fs->row->fields[i];
    }
    have_rows = ss->min_values.ptr != NULL &&
                pm_binrow_deserialize(&lo, ss->min_values.ptr, ss->min_values.len, NULL) == 0 &&
                pm_binrow_deserialize(&hi, ss->max_values.ptr, ss->max_values.len, NULL) == 0 &&
                lo.arity == (int32_t)n && hi.arity == (int32_t)n;
    for (size_t i = 0; i < n; i++) {
        size_t col;
        const pm_field *rf = pm_type_field_by_id(c->schema->row, fields[i]->id, &col);
        pm_col_stats *s = &cells[col];
        if (rf == NULL || pm_type_is_nested(rf->type))
            continue;
        memset(s, 0, sizeof(*s));
        if (have_rows && pm_type_equals_ignore_nullable(rf->type, fields[i]->type)) {
            pm_datum a, b;
            if (pm_binrow_get(&lo, (int32_t)i, fields[i]->type, &a, NULL) == 0 &&
                pm_binrow_get(&hi, (int32_t)i, fields[i]->type, &b, NULL) == 0 && !a.is_null &&
                !b.is_null) {
                s->has_min_max = true;
                s->min = a;
                s->max = b;
            }
        }
        if (ss->null_counts.present && i < ss->null_counts.count) {
            int64_t nc = ((const int64_t *)ss->null_counts.items)[i];
            if (nc != PM_AVRO_NULL_LONG) {
                s->has_null_count = true;
                s->null_count = nc;
            }
        }
        stats[col] = s;
    }
    /* Columns the file's schema does not have read as null in every row. */
    if (!key_stats) {
        for (size_t col = 0; col < c->schema->row->field_count; col++) {
            const pm_field *rf = &c->schema->row->fields[col];
            if (stats[col] == NULL && pm_type_field_by_id(fs->row, rf->id, NULL) == NULL) {
                memset(&cells[col], 0, sizeof(cells[col]));
                cells[col].has_null_count = true;
                cells[col].null_count = row_count;
                stats[col] = &cells[col];
            }
        }
    }
}

/* Whether an entry can hold matching rows, from its partition and statistics.  `values`:
 * also consult the value statistics. */
PM_MUST_CHECK static int entry_may_match(plan_ctx *c, const pm_manifest_entry *e, bool values,
                                         bool *match, paimon_error *err)
{
    size_t nf = c->schema->row->field_count;
    pm_col_stats *cells;
    const pm_col_stats **stats;
    pm_binrow part;
    const pm_schema *fs = NULL;
    int rc;

    *match = true;
    if (c->filter == NULL)
        return 0;
    cells = c->cells;
    stats = c->stats;
    memset(stats, 0, (nf + 1) * sizeof(*stats));
    if ((rc = schema_of(c, e->file.schema_id, &fs, err)) != 0)
        return rc;
    if (c->pk)
        file_stats(c, fs, &e->file.key_stats, NULL, true, e->file.row_count, cells, stats);
    if (values)
        file_stats(c, fs, &e->file.value_stats, &e->file.value_stats_cols, false, e->file.row_count,
                   cells, stats);
    if (pm_binrow_deserialize(&part, e->partition.ptr, e->partition.len, NULL) == 0 &&
        part.arity == (int32_t)c->part_count)
        partition_value_stats(c, &part, cells + nf, stats, e->file.row_count);
    *match = pm_predicate_eval_stats(c->filter, stats, e->file.row_count);
    return 0;
}

/* Whether an entry's bucket is one the bucket filter keeps. */
static bool bucket_may_match(const plan_ctx *c, const pm_manifest_entry *e)
{
    return c->bucket_ok == NULL || e->total_buckets != c->num_buckets ||
           (e->bucket >= 0 && e->bucket < c->num_buckets && c->bucket_ok[e->bucket]);
}

/* The manifest filter: entries of partitions and buckets the scan cannot need are skipped
 * before their file metadata is decoded.  An ADD and the DELETE of the same file share
 * partition and bucket, so folding what is left gives the same live files there. */
/* Statistics scratch of one manifest reader (threads read manifests side by side). */
typedef struct prefilter_ctx {
    plan_ctx *c;
    pm_col_stats *cells;        /* MAX_KEYS */
    const pm_col_stats **stats; /* per column of the schema row */
} prefilter_ctx;

static bool entry_prefilter(void *ctx, const pm_manifest_entry *e)
{
    prefilter_ctx *f = ctx;
    plan_ctx *c = f->c;
    pm_binrow part;
    if (!bucket_may_match(c, e))
        return false;
    if (!c->filter_partitions ||
        pm_binrow_deserialize(&part, e->partition.ptr, e->partition.len, NULL) != 0 ||
        part.arity != (int32_t)c->part_count)
        return true;
    memset(f->stats, 0, (c->schema->row->field_count + 1) * sizeof(*f->stats));
    partition_value_stats(c, &part, f->cells, f->stats, 1);
    return pm_predicate_eval_stats(c->filter, f->stats, 1);
}

/* ---- reading manifests, in parallel -------------------------------------------------------- */

/* One manifest reader: takes the next manifest to read from a shared cursor. */
typedef struct manifest_worker {
    plan_ctx *c;
    const pm_manifest_file_meta *metas;
    const bool *skip;            /* manifests pruned by their statistics */
    pm_manifest_entry **entries; /* per manifest: its (kept) entries */
    size_t *counts;
    size_t count; /* manifests */
    size_t *next; /* shared cursor, under `lock` */
    pthread_mutex_t *lock;
    pm_arena arena; /* this reader's decoded entries */
    prefilter_ctx filter;
    int rc; /* the first failure: its code, message and manifest */
    paimon_error err;
    size_t failed_at;
} manifest_worker;

/* A task of the thread pool (util/pool.h); its failure stays in the worker. */
PM_MUST_CHECK static int read_manifests(void *arg, paimon_error *unused)
{
    manifest_worker *w = arg;
    plan_ctx *c = w->c;
    (void)unused;
    for (;;) {
        size_t i;
        int rc;
        pthread_mutex_lock(w->lock);
        i = *w->next < w->count ? (*w->next)++ : SIZE_MAX;
        pthread_mutex_unlock(w->lock);
        if (i == SIZE_MAX)
            return 0;
        if (w->skip[i])
            continue;
        if (c->filter_partitions || c->bucket_ok != NULL) {
            pm_manifest_filter mf = {entry_prefilter, &w->filter};
            rc = pm_manifest_read_filtered(c->t->fs, c->t->path, w->metas[i].file_name,
                                           w->metas[i].file_size, &mf, &w->arena, &w->entries[i],
                                           &w->counts[i], &w->err);
        } else {
            rc =
                pm_manifest_read(c->t->fs, c->t->path, w->metas[i].file_name, w->metas[i].file_size,
                                 &w->arena, &w->entries[i], &w->counts[i], &w->err);
        }
        if (rc != 0) {
            w->rc = rc;
            w->failed_at = i;
            return 0;
        }
    }
}

/* How many threads read manifests: scan.manifest.parallelism, else the processors online
 * (at most 8), never more than the manifests to read. */
PM_MUST_CHECK static int manifest_threads(plan_ctx *c, size_t to_read, size_t *out,
                                          paimon_error *err)
{
    int64_t n;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int rc = pm_options_get_i64_or(&c->schema->options, "scan.manifest.parallelism",
                                   cpus > 0 ? (cpus > 8 ? 8 : cpus) : 1, &n, err);
    if (rc != 0)
        return rc;
    if (n < 1)
        n = 1;
    *out = (size_t)n < to_read ? (size_t)n : (to_read > 0 ? to_read : 1);
    return 0;
}

/* Reads the manifests not skipped into entries/counts (arrays of `count`), the entries'
 * memory ending in `arena`. */
PM_MUST_CHECK static int read_all_manifests(plan_ctx *c, const pm_manifest_file_meta *metas,
                                            const bool *skip, size_t count,
                                            pm_manifest_entry **entries, size_t *counts,
                                            pm_arena *arena, paimon_error *err)
{
    manifest_worker workers[8];
    pm_group group;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    size_t next = 0, nthreads = 1, to_read = 0, nf = c->schema->row->field_count;
    int rc;

    for (size_t i = 0; i < count; i++)
        to_read += !skip[i];
    if ((rc = manifest_threads(c, to_read, &nthreads, err)) != 0)
        return rc;
    if (nthreads > 8)
        nthreads = 8;
    memset(workers, 0, sizeof(workers));
    for (size_t t = 0; t < nthreads; t++) {
        manifest_worker *w = &workers[t];
        w->c = c;
        w->metas = metas;
        w->skip = skip;
        w->entries = entries;
        w->counts = counts;
        w->count = count;
        w->next = &next;
        w->lock = &lock;
        w->failed_at = SIZE_MAX;
        pm_arena_init(&w->arena, 1 << 16);
        w->filter.c = c;
        w->filter.cells = pm_calloc(MAX_KEYS + 1, sizeof(pm_col_stats));
        w->filter.stats = pm_calloc(nf + 1, sizeof(*w->filter.stats));
        if (w->filter.cells == NULL || w->filter.stats == NULL) {
            rc = pm_nomem(err);
            nthreads = t + 1;
            goto done;
        }
    }
    /* The calling thread is reader 0; the others run beside it on the process's pool (a
     * reader that cannot be queued leaves its share to the others). */
    pm_group_init(&group, pm_pool_shared(nthreads));
    for (size_t t = 1; t < nthreads; t++)
        if (pm_group_submit(&group, read_manifests, &workers[t], NULL) != 0)
            break;
    PM_IGNORE(read_manifests(&workers[0], NULL));
    PM_IGNORE(pm_group_wait(&group, NULL)); /* the readers keep their own failures */
    pm_group_destroy(&group);
    /* Report the failure of the earliest manifest, whichever thread met it. */
    {
        const manifest_worker *first = NULL;
        for (size_t t = 0; t < nthreads; t++)
            if (workers[t].rc != 0 && (first == NULL || workers[t].failed_at < first->failed_at))
                first = &workers[t];
        if (first != NULL) {
            rc = first->rc;
            if (err != NULL)
                *err = first->err;
        }
    }
done:
    for (size_t t = 0; t < nthreads; t++) {
        pm_arena_absorb(arena, &workers[t].arena);
        pm_arena_free(&workers[t].arena);
        pm_free(workers[t].filter.cells);
        pm_free(workers[t].filter.stats);
    }
    return rc;
}

static void note_column(int column, void *ctx)
{
    plan_ctx *c = ctx;
    for (size_t i = 0; i < c->part_count; i++)
        if (c->part_cols[i] == column)
            c->filter_partitions = true;
}

/* ---- bucket pruning ------------------------------------------------------------------------ */

/* The literals an AND-ed equality or IN on `column` allows, or none. */
static bool column_literals(const pm_predicate *p, int column, const pm_datum **lits, size_t *n)
{
    if (p->op == PM_PRED_AND) {
        for (size_t i = 0; i < p->child_count; i++)
            if (column_literals(p->children[i], column, lits, n))
                return true;
        return false;
    }
    if (p->column == column && (p->op == PM_PRED_EQ || p->op == PM_PRED_IN) &&
        p->literal_count > 0) {
        *lits = p->literals;
        *n = p->literal_count;
        return true;
    }
    return false;
}

/* For fixed-bucket tables whose filter fixes every bucket-key column: the buckets rows
 * matching it can be in (Java's bucket filter, DefaultBucketFunction). */
PM_MUST_CHECK static int prune_buckets(plan_ctx *c, paimon_error *err)
{
    const char *bucket_key = pm_schema_option(c->schema, "bucket-key");
    const char *fn = pm_schema_option(c->schema, "bucket-function.type");
    const pm_field *keys[MAX_KEYS];
    const pm_type *types[MAX_KEYS];
    const pm_datum *lits[MAX_KEYS];
    size_t counts[MAX_KEYS], idx[MAX_KEYS], nk = 0, combos = 1;
    pm_datum row[MAX_KEYS];
    pm_buf b;
    int rc = 0;

    if (c->filter == NULL || c->num_buckets <= 0 || (fn != NULL && strcasecmp(fn, "default") != 0))
        return 0;
    if (bucket_key != NULL) {
        char *copy = pm_strdup(bucket_key), *save = NULL;
        if (copy == NULL)
            return pm_nomem(err);
        for (char *tok = strtok_r(copy, ",", &save); tok != NULL && nk < MAX_KEYS;
             tok = strtok_r(NULL, ",", &save)) {
            const pm_field *f = pm_schema_field(c->schema, tok);
            if (f == NULL) {
                pm_free(copy);
                return 0;
            }
            keys[nk++] = f;
        }
        pm_free(copy);
    } else if ((rc = pm_schema_trimmed_pk_fields(c->schema, keys, MAX_KEYS, &nk, err)) != 0) {
        return rc;
    }
    if (nk == 0)
        return 0;
    for (size_t i = 0; i < nk; i++) {
        size_t col;
        pm_type_field_by_id(c->schema->row, keys[i]->id, &col);
        if (!column_literals(c->filter, (int)col, &lits[i], &counts[i]))
            return 0;
        types[i] = keys[i]->type;
        combos *= counts[i];
        if (combos > MAX_BUCKET_COMBOS)
            return 0;
    }
    c->bucket_ok = pm_arena_calloc(&c->plan->arena, (size_t)c->num_buckets, sizeof(bool));
    if (c->bucket_ok == NULL)
        return pm_nomem(err);
    memset(idx, 0, sizeof(idx));
    pm_buf_init(&b, 0);
    for (size_t k = 0; k < combos; k++) {
        for (size_t i = 0; i < nk; i++)
            row[i] = lits[i][idx[i]];
        pm_buf_reset(&b);
        if ((rc = pm_binrow_write(&b, types, row, (int32_t)nk, 0)) != 0) {
            rc = pm_buf_error(err, rc);
            break;
        }
        c->bucket_ok[pm_bucket_of_hash(pm_binrow_hash(b.data, b.len), c->num_buckets)] = true;
        for (size_t i = 0; i < nk && ++idx[i] == counts[i]; i++)
            idx[i] = 0;
    }
    pm_buf_free(&b);
    return rc;
}

/* ---- paths --------------------------------------------------------------------------------- */

static const char *bucket_dir(paimon_table *t, const pm_schema *schema, const pm_avro_bytes *p,
                              int32_t bucket, pm_arena *arena, paimon_error *err)
{
    const pm_field *parts[MAX_KEYS];
    size_t np = 0;
    pm_partition_naming naming;
    pm_binrow row;
    pm_buf b;
    const char *out = NULL;
    int rc;

    if ((rc = pm_schema_partition_fields(schema, parts, MAX_KEYS, &np, err)) != 0 ||
        (rc = pm_partition_naming_from(schema, &naming, err)) != 0 ||
        (rc = pm_binrow_deserialize(&row, p->ptr, p->len, err)) != 0)
        return NULL;
    pm_buf_init(&b, 0);
    rc = pm_file_path_bucket_dir(t->path, &schema->options, parts, np, &row, &naming, bucket, &b,
                                 err);
    if (rc == 0 && (out = pm_arena_strndup(arena, (const char *)b.data, b.len)) == NULL)
        PM_IGNORE(pm_nomem(err)); /* NULL tells the caller; err says why */
    pm_buf_free(&b);
    return out;
}

/* The checked path (meta/file_path.h) of a file that metadata places in `dir` or at
 * `external`, in `arena`; NULL with *err set on failure. */
static const char *file_path(paimon_table *t, const pm_schema *schema, const char *dir,
                             const char *name, const char *external, pm_arena *arena,
                             paimon_error *err)
{
    pm_buf b;
    const char *out = NULL;
    pm_buf_init(&b, 0);
    if (pm_file_path_resolve(t->path, &schema->options, dir, name, external, &b, err) == 0 &&
        (out = pm_arena_strndup(arena, (const char *)b.data, b.len)) == NULL)
        PM_IGNORE(pm_nomem(err));
    pm_buf_free(&b);
    return out;
}

const char *pm_data_file_path(paimon_table *t, const pm_schema *schema, const pm_manifest_entry *e,
                              pm_arena *arena, paimon_error *err)
{
    const char *dir = "";
    /* the name is checked first, so that an entry with an external path is judged by it too */
    if (e->file.external_path == NULL &&
        (dir = bucket_dir(t, schema, &e->partition, e->bucket, arena, err)) == NULL)
        return NULL;
    return file_path(t, schema, dir, e->file.file_name, e->file.external_path, arena, err);
}

/* ---- deletion vectors ---------------------------------------------------------------------- */

typedef struct dv_item {
    const char *file;
    pm_dv_ref ref;
} dv_item;

static int cmp_dv_item(const void *a, const void *b)
{
    return strcmp(((const dv_item *)a)->file, ((const dv_item *)b)->file);
}

PM_MUST_CHECK static int load_dvs(plan_ctx *c, dv_item **out, size_t *count, paimon_error *err)
{
    pm_index_manifest_entry *idx = NULL;
    size_t n = 0, total = 0, k = 0;
    dv_item *items;
    const char *index_dir;
    bool in_data_dir = false;
    int rc;

    *out = NULL;
    *count = 0;
    if (c->plan->snapshot->index_manifest == NULL)
        return 0;
    if ((rc = pm_options_get_bool(&c->schema->options, "index-file-in-data-file-dir", &in_data_dir,
                                  err)) != 0)
        return rc;
    if ((rc = pm_index_manifest_read(c->t->fs, c->t->path, c->plan->snapshot->index_manifest,
                                     &c->plan->arena, &idx, &n, err)) != 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (idx[i].kind == PM_FILE_KIND_ADD && strcmp(idx[i].index_type, "DELETION_VECTORS") == 0)
            total += idx[i].dv_ranges.count;
    items = pm_arena_calloc(&c->plan->arena, total + 1, sizeof(*items));
    if (items == NULL)
        return pm_nomem(err);
    {
        char *p = pm_table_file(c->t->path, PM_DIR_INDEX, NULL);
        if (p == NULL)
            return pm_nomem(err);
        index_dir = pm_arena_strndup(&c->plan->arena, p, strlen(p));
        pm_free(p);
        if (index_dir == NULL)
            return pm_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        const char *path, *dir = index_dir;
        if (idx[i].kind != PM_FILE_KIND_ADD || strcmp(idx[i].index_type, "DELETION_VECTORS") != 0)
            continue;
        if (in_data_dir && idx[i].external_path == NULL &&
            (dir = bucket_dir(c->t, c->schema, &idx[i].partition, idx[i].bucket, &c->plan->arena,
                              err)) == NULL)
            return err != NULL ? err->code : PAIMON_EINVALID;
        if ((path = file_path(c->t, c->schema, dir, idx[i].file_name, idx[i].external_path,
                              &c->plan->arena, err)) == NULL)
            return err != NULL ? err->code : PAIMON_EINVALID;
        for (size_t r = 0; r < idx[i].dv_ranges.count; r++) {
            const pm_dv_range *range = (const pm_dv_range *)idx[i].dv_ranges.items + r;
            items[k].file = range->data_file;
            items[k].ref.index_path = path;
            items[k].ref.offset = range->offset;
            items[k].ref.length = range->length;
            k++;
        }
    }
    qsort(items, k, sizeof(*items), cmp_dv_item);
    *out = items;
    *count = k;
    return 0;
}

static const pm_dv_ref *dv_for(const dv_item *items, size_t n, const char *file)
{
    dv_item key;
    const dv_item *hit;
    key.file = file;
    hit = bsearch(&key, items, n, sizeof(*items), cmp_dv_item);
    return hit != NULL ? &hit->ref : NULL;
}

/* ---- grouping into splits ------------------------------------------------------------------ */

static int cmp_entry(const void *pa, const void *pb)
{
    const pm_manifest_entry *a = *(const pm_manifest_entry *const *)pa;
    const pm_manifest_entry *b = *(const pm_manifest_entry *const *)pb;
    int r = pm_avro_bytes_cmp(&a->partition, &b->partition);
    if (r != 0)
        return r;
    if (a->bucket != b->bucket)
        return a->bucket < b->bucket ? -1 : 1;
    if (a->file.min_sequence_number != b->file.min_sequence_number)
        return a->file.min_sequence_number < b->file.min_sequence_number ? -1 : 1;
    if (a->file.level != b->file.level)
        return a->file.level < b->file.level ? -1 : 1;
    return strcmp(a->file.file_name, b->file.file_name);
}

/* Java's MergeTreeSplitGenerator.rawConvertible (for a whole bucket). */
/* Java's withoutDeleteRow negated: a file without the count has none. */
static bool has_delete_rows(const pm_manifest_entry *e)
{
    return e->file.has_delete_row_count && e->file.delete_row_count != 0;
}

static bool bucket_raw(plan_ctx *c, const pm_manifest_entry *const *files, size_t n)
{
    if (!c->pk)
        return true;
    for (size_t i = 0; i < n; i++) {
        if (files[i]->file.level == 0 || has_delete_rows(files[i]))
            return false;
    }
    if (c->dv || c->first_row)
        return true;
    for (size_t i = 1; i < n; i++)
        if (files[i]->file.level != files[0]->file.level)
            return false;
    return true;
}

/* A split of `files` with their deletion vectors (pm_scan_plan_add_split). */
PM_MUST_CHECK static int add_split(plan_ctx *c, const pm_manifest_entry *const *files, size_t n,
                                   bool raw, const dv_item *dvs, size_t ndv, size_t *cap,
                                   paimon_error *err)
{
    pm_split *s;
    int rc = pm_scan_plan_add_split(c->plan, c->t, files, n, raw, cap, &s, err);
    if (rc != 0 || ndv == 0)
        return rc;
    for (size_t i = 0; i < n; i++)
        s->dvs[i] = dv_for(dvs, ndv, files[i]->file.file_name);
    return 0;
}

/* A bucket that needs a merge (MergeTreeSplitGenerator): its files cut into sections of
 * sorted runs (table/interval_partition.h), sections packed in order into splits of about
 * `target` bytes, each counted at least `open_cost`; a split of one file without delete rows
 * is read raw. */
PM_MUST_CHECK static int plan_merged(plan_ctx *c, const pm_manifest_entry **files, size_t n,
                                     const dv_item *dvs, size_t ndv, int64_t target,
                                     int64_t open_cost, size_t *cap, paimon_error *err)
{
    const pm_field *keys[MAX_KEYS];
    const pm_type *types[MAX_KEYS];
    const pm_manifest_entry **flat = NULL;
    pm_section *sections = NULL;
    size_t nk = 0, nsec = 0, start = 0;
    int64_t weight = 0;
    int rc;

    if ((rc = pm_schema_trimmed_pk_fields(c->schema, keys, MAX_KEYS, &nk, err)) != 0)
        return rc;
    for (size_t k = 0; k < nk; k++)
        types[k] = keys[k]->type;
    if ((rc = pm_interval_partition(files, n, types, nk, &c->plan->arena, &sections, &nsec, err)) !=
        0)
        return rc;
    flat = pm_malloc((n + 1) * sizeof(*flat));
    if (flat == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i <= nsec && rc == 0; i++) {
        int64_t w = 0;
        if (i < nsec)
            w = sections[i].total_size > open_cost ? sections[i].total_size : open_cost;
        if (i == nsec || (i > start && weight + w > target)) {
            size_t m = 0;
            for (size_t s = start; s < i; s++)
                for (size_t r = 0; r < sections[s].run_count; r++)
                    for (size_t f = 0; f < sections[s].runs[r].file_count; f++)
                        flat[m++] = sections[s].runs[r].files[f];
            if (m > 0)
                rc = add_split(c, flat, m, m == 1 && !has_delete_rows(flat[0]), dvs, ndv, cap, err);
            start = i;
            weight = 0;
        }
        weight += w;
    }
    pm_free(flat);
    return rc;
}

/* One bucket's files: filtered by Java's rules, then into splits. */
PM_MUST_CHECK static int plan_bucket(plan_ctx *c, const pm_manifest_entry **files, size_t n,
                                     const dv_item *dvs, size_t ndv, int64_t target,
                                     int64_t open_cost, size_t *cap, paimon_error *err)
{
    bool raw, *keep = NULL;
    size_t kept = 0;
    int rc = 0;

    if (n == 0)
        return 0;
    raw = bucket_raw(c, files, n);
    keep = pm_calloc(n, sizeof(bool));
    if (keep == NULL)
        return pm_nomem(err);
    /* Value statistics: per file for append tables and raw primary-key buckets; for merged
     * primary-key buckets the whole bucket is dropped only when no file can match, and only
     * for engines whose merged rows come from one record (Java never value-filters
     * partial-update and aggregation buckets without deletion vectors). */
    {
        bool per_file = !c->pk || raw || c->only_level >= 0;
        bool whole = c->pk && !raw &&
                     (c->dv || c->first_row || strcasecmp(c->merge_engine, "deduplicate") == 0);
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            bool m = true;
            if ((per_file || whole) && (rc = entry_may_match(c, files[i], true, &m, err)) != 0)
                goto done;
            keep[i] = per_file ? m : true;
            any |= m;
        }
        if (whole && !any)
            memset(keep, 0, n * sizeof(bool));
    }
    for (size_t i = 0; i < n; i++)
        if (keep[i])
            files[kept++] = files[i];
    c->plan->files_skipped += n - kept;
    if (kept == 0)
        goto done;
    if (!raw) {
        rc = plan_merged(c, files, kept, dvs, ndv, target, open_cost, cap, err);
        goto done;
    }
    /* Raw: pack files into splits of about `target` bytes. */
    {
        size_t start = 0;
        int64_t weight = 0;
        for (size_t i = 0; i < kept; i++) {
            int64_t w = files[i]->file.file_size > open_cost ? files[i]->file.file_size : open_cost;
            if (i > start && weight + w > target) {
                if ((rc = add_split(c, files + start, i - start, true, dvs, ndv, cap, err)) != 0)
                    goto done;
                start = i;
                weight = 0;
            }
            weight += w;
        }
        rc = add_split(c, files + start, kept - start, true, dvs, ndv, cap, err);
    }
done:
    pm_free(keep);
    return rc;
}

/* ---- the plan ------------------------------------------------------------------------------ */

void pm_scan_plan_free(pm_scan_plan *p)
{
    if (p == NULL)
        return;
    pm_snapshot_free(p->snapshot);
    pm_schema_free(p->schema);
    pm_arena_free(&p->arena);
    pm_free(p);
}

int pm_scan_plan_build(paimon_table *t, const pm_scan_options *o, pm_scan_plan **out,
                       paimon_error *err)
{
    plan_ctx c;
    pm_scan_plan *p = pm_calloc(1, sizeof(*p));
    pm_manifest_file_meta *metas = NULL;
    const pm_manifest_entry **entries = NULL, **live = NULL, **candidates = NULL;
    size_t *counts = NULL, nm = 0, nlive = 0, ncand = 0, ndv = 0, cap = 0;
    dv_item *dvs = NULL;
    int64_t target, open_cost, buckets;
    bool dv_mor = false, *skipped = NULL;
    int rc;

    *out = NULL;
    memset(&c, 0, sizeof(c));
    if (p == NULL)
        return pm_nomem(err);
    pm_arena_init(&p->arena, 1 << 16);
    c.t = t;
    pm_schema_cache_init(&c.schemas, t->fs, t->path);
    c.plan = p;
    c.filter = o->filter;
    PM_TRY(pm_table_select_snapshot(t, &o->snapshot, &p->snapshot, err));
    if (o->latest_schema && o->schema_id < 0)
        PM_TRY(pm_schema_read_latest(t->fs, t->path, &p->schema, err));
    else if (o->latest_schema)
        PM_TRY(pm_schema_read(t->fs, t->path, o->schema_id, &p->schema, err));
    else
        PM_TRY(pm_schema_read(t->fs, t->path, p->snapshot->schema_id, &p->schema, err));
    c.schema = p->schema;
    PM_TRY(pm_table_check_read(t->path, p->schema, err));
    p->primary_key = c.pk = p->schema->primary_keys.count > 0;
    {
        const pm_field *parts[MAX_KEYS];
        PM_TRY(pm_schema_partition_fields(p->schema, parts, MAX_KEYS, &c.part_count, err));
        for (size_t i = 0; i < c.part_count; i++) {
            size_t col;
            c.parts[i] = parts[i];
            pm_type_field_by_id(p->schema->row, parts[i]->id, &col);
            c.part_cols[i] = (int)col;
        }
    }
    c.merge_engine = pm_options_get_str(&p->schema->options, "merge-engine");
    PM_TRY(pm_options_get_bool(&p->schema->options, "deletion-vectors.enabled", &c.dv, err));
    /* an option of Paimon after 1.4.2 (not in the catalogue): off unless set */
    PM_TRY(pm_options_get_bool_or(&p->schema->options, "deletion-vectors.merge-on-read", false,
                                  &dv_mor, err));
    c.first_row = c.pk && strcasecmp(c.merge_engine, "first-row") == 0;
    c.skip_level0 = c.pk && !o->keep_level0 && ((c.dv && !dv_mor) || c.first_row);
    c.only_level = -1;
    if (c.pk && o->read_optimized) {
        int64_t levels, trigger;
        PM_TRY(pm_options_get_i64(&p->schema->options, "num-sorted-run.compaction-trigger",
                                  &trigger, err));
        /* CoreOptions.numLevels: trigger + 1 when unset */
        PM_TRY(pm_options_get_i64_or(&p->schema->options, "num-levels", trigger + 1, &levels, err));
        if (levels < 1 || levels > INT32_MAX) {
            rc = pm_err_set(err, PAIMON_EINVALID, "%s: num-levels %lld is out of range", t->path,
                            (long long)levels);
            goto done;
        }
        c.only_level = (int32_t)(levels - 1);
    }
    PM_TRY(pm_options_get_i64(&p->schema->options, "bucket", &buckets, err));
    c.num_buckets = (int32_t)buckets;
    PM_TRY(pm_options_get_memory(&p->schema->options, "source.split.target-size", &target, err));
    PM_TRY(
        pm_options_get_memory(&p->schema->options, "source.split.open-file-cost", &open_cost, err));
    PM_TRY(pm_partition_naming_from(p->schema, &c.naming, err));
    PM_TRY(prune_buckets(&c, err));
    c.cells = pm_calloc(p->schema->row->field_count + MAX_KEYS, sizeof(*c.cells));
    c.stats = pm_calloc(p->schema->row->field_count + 1, sizeof(*c.stats));
    if (c.cells == NULL || c.stats == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    if (c.filter != NULL)
        pm_predicate_columns(c.filter, note_column, &c);

    /* Manifests, pruned by partition statistics and bucket range. */
    PM_TRY(pm_snapshot_data_manifests(t->fs, t->path, p->snapshot, &p->arena, &metas, &nm, err));
    p->manifests_total = nm;
    entries = pm_arena_calloc(&p->arena, nm + 1, sizeof(*entries));
    counts = pm_arena_calloc(&p->arena, nm + 1, sizeof(*counts));
    if (entries == NULL || counts == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    skipped = pm_arena_calloc(&p->arena, nm + 1, sizeof(*skipped));
    if (skipped == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nm; i++) {
        bool skip = !partition_stats_may_match(&c, &metas[i].partition_stats);
        if (!skip && c.bucket_ok != NULL && metas[i].has_min_bucket && metas[i].has_max_bucket) {
            skip = true;
            for (int32_t b = metas[i].min_bucket; b <= metas[i].max_bucket && skip; b++)
                skip = !(b >= 0 && b < c.num_buckets && c.bucket_ok[b]);
        }
        skipped[i] = skip;
        p->manifests_skipped += skip;
    }
    PM_TRY(read_all_manifests(&c, metas, skipped, nm, (pm_manifest_entry **)entries, counts,
                              &p->arena, err));
    PM_TRY(pm_fold_live_entries(metas, entries, counts, nm, &p->arena, &live, &nlive, err));
    p->files_total = nlive;

    /* Entries: postpone buckets, level 0, partition, bucket, key statistics. */
    candidates = pm_arena_alloc(&p->arena, (nlive + 1) * sizeof(*candidates));
    if (candidates == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nlive; i++) {
        const pm_manifest_entry *e = live[i];
        bool m = true;
        if (e->bucket == -2)
            continue; /* postpone buckets are not readable yet, as in Java */
        if (c.only_level >= 0 && e->file.level != c.only_level) {
            p->files_skipped++;
            continue;
        }
        if (c.skip_level0 && e->file.level == 0) {
            p->level0_skipped++;
            continue;
        }
        if (o->has_min_creation &&
            !(e->file.has_creation_time &&
              pm_local_to_epoch_millis(e->file.creation_time) >= o->min_creation_millis)) {
            p->files_skipped++;
            continue;
        }
        if (!bucket_may_match(&c, e)) {
            p->files_skipped++;
            continue;
        }
        PM_TRY(entry_may_match(&c, e, false, &m, err));
        if (m && !c.pk && c.filter != NULL) { /* the file's bloom filters (table/file_index.h) */
            bool skip;
            PM_TRY(pm_file_index_skips(t, c.schema, e, c.filter, &skip, err));
            m = !skip;
        }
        if (!m) {
            p->files_skipped++;
            continue;
        }
        candidates[ncand++] = e;
    }
    PM_TRY(load_dvs(&c, &dvs, &ndv, err));

    qsort(candidates, ncand, sizeof(*candidates), cmp_entry);
    for (size_t start = 0, i = 1; start < ncand; i++) {
        if (i == ncand || candidates[i]->bucket != candidates[start]->bucket ||
            pm_avro_bytes_cmp(&candidates[i]->partition, &candidates[start]->partition) != 0) {
            PM_TRY(plan_bucket(&c, candidates + start, i - start, dvs, ndv, target, open_cost, &cap,
                               err));
            start = i;
        }
    }
    *out = p;
    p = NULL;
done:
    pm_schema_cache_release(&c.schemas);
    pm_free(c.cells);
    pm_free(c.stats);
    pm_scan_plan_free(p);
    return rc;
}

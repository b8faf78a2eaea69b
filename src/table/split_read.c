/* Split reads: see split_read.h. */
#include "table/split_read.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "data/binary_row.h"
#include "data/readahead.h"
#include "lsm/run_ahead.h"
#include "lsm/merge_reader.h"
#include "lsm/partial_update.h"
#include "meta/schema_cache.h"
#include "table/file_reader.h"
#include "table/interval_partition.h"
#include "util/alloc.h"
#include "util/error.h"

/* A walk over some of a split's files in order, one open at a time: a raw split's files,
 * or the files of one sorted run of a merge (walk_next). */
typedef struct file_walk {
    size_t next;             /* the next file to open, an index into the walk's list */
    size_t opened_at;        /* the split's index of the file opened last */
    pm_file_reader *current; /* the open file, or NULL */
    int64_t batch_rows;      /* of its file readers; 0: the reader's batch_rows */
} file_walk;

struct pm_split_reader {
    paimon_table *t;
    const pm_scan_plan *plan;
    const pm_split *split;
    pm_type *out_type;  /* the output columns */
    pm_type *read_type; /* output columns, then the extra columns the read needs */
    size_t out_count;
    pm_predicate *filter;      /* over read_type */
    pm_predicate *file_filter; /* over read_type: what the file readers may prune with */
    int64_t batch_rows;
    /* change reads (pm_split_reader_open_changes): a leading _ROW_KIND output column made from
     * each row's _VALUE_KIND (primary-key files) or +I (append files) */
    size_t kind_off;   /* out_type's columns before the data: 1 in a change read (_ROW_KIND), 2 with
                        * _SEQUENCE_NUMBER (pm_split_reader_with_sequence), else 0 */
    bool kinds_stored; /* the files carry _VALUE_KIND (primary-key tables) */
    /* partition columns: position in read_type and value */
    int part_pos[64];
    pm_datum part_value[64];
    size_t part_count;
    pm_schema_cache schemas; /* of data files, by id */
    file_walk raw;           /* raw reads: the split's files */
    /* merged reads: sections read one after another, each a merge of its sorted runs */
    pm_arena arena; /* the sections */
    pm_section *sections;
    size_t section_count, next_section;
    struct run_ctx *run_ctxs; /* the current section's runs */
    pm_run_source *runs;
    size_t run_count;
    pm_merge_reader_options merge_options;
    pm_merge_fn *fn;
    pm_merge_reader *merge; /* of the current section, or NULL */
    pm_type *merged_type;   /* keep-delete reads: read_type, _SEQUENCE_NUMBER, _VALUE_KIND */
    int *key_cols, *seq_cols;
    size_t key_count, seq_count;
    /* read-ahead (pm_split_reader_set_threads): each run's files (of a raw split: its
     * files) decoded on this pool while the merge (the caller) consumes, or NULL: all
     * read on the caller's thread */
    pm_pool *pool;
    pm_readahead *raw_ra; /* raw reads on a pool: the split's files decoded ahead */
    /* The schema cache is one thread's at a time (meta/schema_cache.h), and runs read ahead
     * open their files on pool threads: each file's schema is taken under this lock, when
     * the file is opened, as on one thread (a schema that cannot be read fails the read at
     * the same file, after the same rows, whatever the thread count). */
    pthread_mutex_t schema_lock;
};

PM_MUST_CHECK static int schema_of(pm_split_reader *r, int64_t id, const pm_schema **out,
                                   paimon_error *err)
{
    int rc;
    pthread_mutex_lock(&r->schema_lock);
    rc = pm_schema_cache_get(&r->schemas, id, out, err);
    pthread_mutex_unlock(&r->schema_lock);
    return rc;
}

/* ---- the columns of the read ------------------------------------------------------------- */

/* Adds schema column `col` to the read type unless present; its position in *pos. */
PM_MUST_CHECK static int need_column(pm_split_reader *r, size_t col, int *pos, paimon_error *err)
{
    const pm_field *f = &r->plan->schema->row->fields[col];
    size_t at;
    if (pm_type_field_by_id(r->read_type, f->id, &at) != NULL) {
        *pos = (int)at;
        return 0;
    }
    if (pm_type_row_add(r->read_type, f->id, f->name, pm_type_clone(f->type)) != 0)
        return pm_nomem(err);
    *pos = (int)r->read_type->field_count - 1;
    return 0;
}

typedef struct col_set {
    pm_split_reader *r;
    int rc;
    paimon_error *err;
} col_set;

static void need_filter_column(int column, void *ctx)
{
    col_set *s = ctx;
    int pos;
    if (s->rc == 0)
        s->rc = need_column(s->r, (size_t)column, &pos, s->err);
}

/* Rebuilds the filter over read_type (columns renumbered by field id). */
PM_MUST_CHECK static int remap(pm_split_reader *r, const pm_predicate *p, pm_predicate **out,
                               paimon_error *err)
{
    const pm_type *schema_row = r->plan->schema->row;
    int *map = pm_malloc((schema_row->field_count + 1) * sizeof(int));
    int rc;
    if (map == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < schema_row->field_count; i++) {
        size_t at;
        map[i] =
            pm_type_field_by_id(r->read_type, schema_row->fields[i].id, &at) != NULL ? (int)at : -1;
    }
    rc = pm_predicate_map_columns(p, r->read_type, map, out, err);
    pm_free(map);
    return rc;
}

/* What may be pushed into the file readers: the whole filter for raw splits; for merged ones
 * only its conditions on key columns (a value condition would drop an old record whose key
 * a newer, dropped record still has to shadow -- behaviour.md §7.1). */
PM_MUST_CHECK static int file_filter(pm_split_reader *r, paimon_error *err)
{
    int *map;
    int rc;
    if (r->filter == NULL)
        return 0;
    map = pm_malloc((r->read_type->field_count + 1) * sizeof(int));
    if (map == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < r->read_type->field_count; i++) {
        bool key = false;
        for (size_t k = 0; k < r->key_count; k++)
            key |= r->key_cols[k] == (int)i;
        map[i] = r->split->raw || key ? (int)i : -1;
    }
    rc = pm_predicate_map_columns(r->filter, r->read_type, map, &r->file_filter, err);
    pm_free(map);
    return rc;
}

/* ---- runs over files ------------------------------------------------------------------------- */

/* Batches read ahead per run of a merged read on a pool, and the rows of each (at least the
 * read's batch_rows): each batch is one hand-over between the thread that decodes the run
 * and the merge's, a wake-up and a sleep when one waits for the other, so a run read ahead
 * decodes batches four times the scan's default (docs/PERFORMANCE.md, "Runs read ahead in
 * 16,384-row batches": 17% less CPU at two threads, for 12 MB more peak RSS on the bench). */
#define PM_SPLIT_READAHEAD      2
#define PM_SPLIT_READAHEAD_ROWS 16384

/* One sorted run of a merge: its files read in order, one open at a time. */
typedef struct run_ctx {
    pm_split_reader *r;
    const pm_sorted_run *run;
    pm_run_source *source; /* whose level follows the file being read */
    file_walk walk;
    int32_t level;       /* of the file being read (written by whoever reads the run) */
    pm_run_ahead *ahead; /* decoded ahead on the pool, or NULL (lsm/run_ahead.h) */
} run_ctx;

/* The index of an entry in the split's file list. */
static size_t split_index(const pm_split *split, const pm_manifest_entry *e)
{
    for (size_t i = 0; i < split->file_count; i++)
        if (split->files[i] == e)
            return i;
    return 0; /* unreachable: sections are made of the split's files */
}

PM_MUST_CHECK static int open_file(pm_split_reader *r, size_t i, bool system, int64_t batch_rows,
                                   pm_file_reader **out, paimon_error *err);

/* The next batch of a walk over files[0..count), which are the split's own list or some of
 * its entries (a sorted run's); `*opened` (may be NULL) is set to the entry of a file opened
 * on the way, so that the caller knows which file the batch comes from. */
PM_MUST_CHECK static int walk_next(pm_split_reader *r, file_walk *w,
                                   const pm_manifest_entry **files, size_t count, bool system,
                                   const pm_manifest_entry **opened, pm_batch **out,
                                   paimon_error *err)
{
    for (;;) {
        int rc;
        if (w->current == NULL) {
            const pm_manifest_entry *e;
            size_t at;
            if (w->next >= count)
                return PAIMON_ITEROVER;
            e = files[w->next++];
            at = files == r->split->files ? w->next - 1 : split_index(r->split, e);
            if ((rc = open_file(r, at, system, w->batch_rows, &w->current, err)) != 0)
                return rc;
            w->opened_at = at;
            if (opened != NULL)
                *opened = e;
        }
        rc = pm_file_reader_next(w->current, out, err);
        if (rc != PAIMON_ITEROVER)
            return rc;
        pm_file_reader_free(w->current);
        w->current = NULL;
    }
}

PM_MUST_CHECK static int run_next(void *ctx, pm_batch **out, paimon_error *err)
{
    run_ctx *rc = ctx;
    const pm_manifest_entry *opened = NULL;
    int code =
        walk_next(rc->r, &rc->walk, rc->run->files, rc->run->file_count, true, &opened, out, err);
    if (opened != NULL) {
        rc->level = opened->file.level;
        if (rc->ahead == NULL) /* else the level travels with the batch (lsm/run_ahead.h) */
            rc->source->level = rc->level;
    }
    return code;
}

static void close_section(pm_split_reader *r)
{
    pm_merge_reader_free(r->merge);
    r->merge = NULL;
    /* the read-aheads first: after them no worker touches a run's file reader */
    for (size_t i = 0; r->run_ctxs != NULL && i < r->run_count; i++)
        pm_run_ahead_stop(r->run_ctxs[i].ahead);
    for (size_t i = 0; r->run_ctxs != NULL && i < r->run_count; i++)
        pm_file_reader_free(r->run_ctxs[i].walk.current);
    pm_free(r->run_ctxs);
    pm_free(r->runs);
    r->run_ctxs = NULL;
    r->runs = NULL;
    r->run_count = 0;
}

/* Starts the merge of the next section's runs. */
PM_MUST_CHECK static int open_section(pm_split_reader *r, paimon_error *err)
{
    const pm_section *sec = &r->sections[r->next_section++];
    r->run_count = sec->run_count;
    r->run_ctxs = pm_calloc(sec->run_count + 1, sizeof(run_ctx));
    r->runs = pm_calloc(sec->run_count + 1, sizeof(pm_run_source));
    if (r->run_ctxs == NULL || r->runs == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < sec->run_count; i++) {
        r->run_ctxs[i].r = r;
        r->run_ctxs[i].run = &sec->runs[i];
        r->run_ctxs[i].source = &r->runs[i];
        r->runs[i].next = run_next;
        r->runs[i].ctx = &r->run_ctxs[i];
        r->runs[i].level = sec->runs[i].file_count > 0 ? sec->runs[i].files[0]->file.level : 0;
    }
    /* With a pool and more than one run, every run is decoded ahead on it while the merge
     * consumes (one run alone gains little: the merge of it is a copy). */
    if (r->pool != NULL && sec->run_count > 1) {
        for (size_t i = 0; i < sec->run_count; i++) {
            int rc;
            r->run_ctxs[i].walk.batch_rows =
                r->batch_rows > PM_SPLIT_READAHEAD_ROWS ? r->batch_rows : PM_SPLIT_READAHEAD_ROWS;
            if ((rc = pm_run_ahead_start(&r->run_ctxs[i].ahead, &r->runs[i], &r->run_ctxs[i].level,
                                         r->pool, PM_SPLIT_READAHEAD, err)) != 0)
                return rc;
        }
    }
    return pm_merge_reader_new(&r->merge, r->runs, sec->run_count, r->fn, &r->merge_options, err);
}

PM_MUST_CHECK static int open_file(pm_split_reader *r, size_t i, bool system, int64_t batch_rows,
                                   pm_file_reader **out, paimon_error *err)
{
    const pm_schema *fs = NULL;
    pm_file_reader_options o;
    int rc = schema_of(r, r->split->files[i]->file.schema_id, &fs, err);
    if (rc != 0)
        return rc;
    memset(&o, 0, sizeof(o));
    o.out_type = r->read_type;
    o.system_fields = system;
    o.dv = r->split->dvs[i];
    o.batch_rows = batch_rows > 0 ? batch_rows : r->batch_rows;
    o.filter = r->file_filter;
    /* A raw split's pages are decompressed ahead on the pool: its one reader is otherwise a
     * chain that keeps one core busy.  A merge's runs are already decoded ahead, one task
     * per run, which keeps the cores busy; pages ahead there measured no faster and held
     * a quarter more memory (docs/PERFORMANCE.md, "Pages decompressed ahead"). */
    o.pool = r->split->raw ? r->pool : NULL;
    return pm_file_reader_open(out, r->t->fs, r->split->paths[i], r->split->files[i], fs, &o, err);
}

/* ---- open ------------------------------------------------------------------------------------ */

PM_MUST_CHECK static int split_keys(pm_split_reader *r, paimon_error *err)
{
    const pm_schema *s = r->plan->schema;
    const pm_field *keys[64];
    size_t nk = 0;
    const char *seq = pm_schema_option(s, "sequence.field");
    int rc = pm_schema_trimmed_pk_fields(s, keys, 64, &nk, err);
    if (rc != 0)
        return rc;
    r->key_cols = pm_calloc(nk + 1, sizeof(int));
    r->seq_cols = pm_calloc(65, sizeof(int));
    if (r->key_cols == NULL || r->seq_cols == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < nk; i++) {
        size_t col;
        pm_type_field_by_id(s->row, keys[i]->id, &col);
        if ((rc = need_column(r, col, &r->key_cols[i], err)) != 0)
            return rc;
    }
    r->key_count = nk;
    /* Sequence groups tie fields to other fields: merge whole rows (Java widens the read
     * type to the groups' sequence fields; every field gives the same rows). */
    if (pm_schema_has_sequence_groups(s)) {
        int pos;
        for (size_t col = 0; col < s->row->field_count; col++)
            if ((rc = need_column(r, col, &pos, err)) != 0)
                return rc;
    }
    if (seq != NULL) {
        char *copy = pm_strdup(seq), *save = NULL;
        if (copy == NULL)
            return pm_nomem(err);
        for (char *tok = strtok_r(copy, ",", &save); tok != NULL && r->seq_count < 64;
             tok = strtok_r(NULL, ",", &save)) {
            size_t col;
            while (*tok == ' ')
                tok++;
            if (pm_type_field_by_name(s->row, tok, &col) == NULL) {
                pm_free(copy);
                return pm_err_set(err, PAIMON_EINVALID, "%s: sequence.field %s is not a column",
                                  r->t->path, tok);
            }
            if ((rc = need_column(r, col, &r->seq_cols[r->seq_count++], err)) != 0) {
                pm_free(copy);
                return rc;
            }
        }
        pm_free(copy);
    }
    return 0;
}

/* read_type's columns, then _SEQUENCE_NUMBER and _VALUE_KIND: a keep-delete merge's output. */
PM_MUST_CHECK static int keep_delete_type(pm_split_reader *r, paimon_error *err)
{
    pm_type *seq = pm_type_new(PM_TYPE_BIGINT), *kind = pm_type_new(PM_TYPE_TINYINT);
    if ((r->merged_type = pm_type_clone(r->read_type)) == NULL || seq == NULL || kind == NULL) {
        pm_type_free(seq);
        pm_type_free(kind);
        return pm_nomem(err);
    }
    seq->nullable = kind->nullable = false;
    if (pm_type_row_add(r->merged_type, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", seq) != 0) {
        pm_type_free(kind);
        return pm_nomem(err);
    }
    if (pm_type_row_add(r->merged_type, PM_VALUE_KIND_ID, "_VALUE_KIND", kind) != 0)
        return pm_nomem(err);
    return 0;
}

PM_MUST_CHECK static int reader_open(pm_split_reader **out, paimon_table *t,
                                     const pm_scan_plan *plan, const pm_split *split,
                                     const int *columns, size_t column_count,
                                     const pm_predicate *filter, int64_t batch_rows, bool changes,
                                     bool keep_delete, bool drop_delete, paimon_error *err)
{
    pm_split_reader *r = pm_calloc(1, sizeof(*r));
    const pm_schema *s = plan->schema;
    size_t nf = s->row->field_count;
    int rc = 0, pos;

    *out = NULL;
    if (r == NULL)
        return pm_nomem(err);
    r->t = t;
    pm_schema_cache_init(&r->schemas, t->fs, t->path);
    pthread_mutex_init(&r->schema_lock, NULL);
    r->plan = plan;
    r->split = split;
    r->batch_rows = batch_rows;
    pm_arena_init(&r->arena, 4096);
    r->read_type = pm_type_new(PM_TYPE_ROW);
    r->out_type = pm_type_new(PM_TYPE_ROW);
    if (r->read_type == NULL || r->out_type == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    r->read_type->nullable = r->out_type->nullable = false;
    if (changes) {
        pm_type *kind = pm_type_new(PM_TYPE_VARCHAR);
        if (kind == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        kind->length = INT32_MAX; /* STRING */
        kind->nullable = false;
        if (pm_type_row_add(r->out_type, PM_ROW_KIND_ID, PM_ROW_KIND_NAME, kind) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        r->kind_off = 1;
        /* a read that drops retractions reads raw splits as Java's raw-file read: all +I */
        r->kinds_stored = plan->primary_key && !(drop_delete && split->raw);
    }
    for (size_t i = 0; i < (columns != NULL ? column_count : nf); i++) {
        size_t col = columns != NULL ? (size_t)columns[i] : i;
        if (col >= nf) {
            rc = pm_err_set(err, PAIMON_EINVALID, "column %zu out of range", col);
            goto done;
        }
        if ((rc = need_column(r, col, &pos, err)) != 0)
            goto done;
        if (pm_type_row_add(r->out_type, s->row->fields[col].id, s->row->fields[col].name,
                            pm_type_clone(s->row->fields[col].type)) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    r->out_count = r->out_type->field_count;
    if (r->out_count != r->read_type->field_count + r->kind_off) {
        rc = pm_err_set(err, PAIMON_EINVALID, "a column is selected twice");
        goto done;
    }
    if (filter != NULL) {
        col_set cs = {r, 0, err};
        pm_predicate_columns(filter, need_filter_column, &cs);
        if ((rc = cs.rc) != 0)
            goto done;
    }
    if (!split->raw && (rc = split_keys(r, err)) != 0)
        goto done;
    if (filter != NULL &&
        ((rc = remap(r, filter, &r->filter, err)) != 0 || (rc = file_filter(r, err)) != 0))
        goto done;
    /* Partition columns in the read: constants from the split's BinaryRow. */
    {
        const pm_field *parts[64];
        size_t np = 0;
        pm_binrow row;
        if ((rc = pm_schema_partition_fields(s, parts, 64, &np, err)) != 0 ||
            (rc = pm_binrow_deserialize(&row, split->partition.ptr, split->partition.len, err)))
            goto done;
        for (size_t i = 0; i < np && i < (size_t)row.arity; i++) {
            size_t at;
            if (pm_type_field_by_id(r->read_type, parts[i]->id, &at) == NULL)
                continue;
            if ((rc = pm_binrow_get(&row, (int32_t)i, parts[i]->type, &r->part_value[r->part_count],
                                    err)) != 0)
                goto done;
            r->part_pos[r->part_count++] = (int)at;
        }
    }
    if (!split->raw) {
        pm_merge_reader_options mo;
        if ((rc = pm_merge_fn_new(&r->fn, s, r->read_type, err)) != 0)
            goto done;
        {
            const pm_field *keys[64];
            const pm_type *types[64];
            size_t nk = 0;
            if ((rc = pm_schema_trimmed_pk_fields(s, keys, 64, &nk, err)) != 0)
                goto done;
            for (size_t k = 0; k < nk; k++)
                types[k] = keys[k]->type;
            if ((rc = pm_interval_partition(split->files, split->file_count, types, nk, &r->arena,
                                            &r->sections, &r->section_count, err)) != 0)
                goto done;
        }
        memset(&mo, 0, sizeof(mo));
        mo.value_type = r->read_type;
        mo.key_cols = r->key_cols;
        mo.key_count = r->key_count;
        mo.seq_cols = r->seq_cols;
        mo.seq_count = r->seq_count;
        {
            const char *order = pm_schema_option(s, "sequence.field.sort-order");
            mo.seq_descending = order != NULL && strcasecmp(order, "descending") == 0;
        }
        mo.batch_rows = batch_rows > 0 ? batch_rows : 4096;
        if (keep_delete) {
            /* Java's forceKeepDelete: the merge function's results as a compaction reduces
             * them, retractions kept, each with its kind (ReducerMergeFunctionWrapper without
             * the DropDeleteReader). */
            if ((rc = keep_delete_type(r, err)) != 0)
                goto done;
            mo.reduce = true;
            mo.drop_delete = drop_delete;
            mo.out_type = r->merged_type;
        }
        r->merge_options = mo;
    }
done:
    if (rc != 0) {
        pm_split_reader_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

int pm_split_reader_open(pm_split_reader **out, paimon_table *t, const pm_scan_plan *plan,
                         const pm_split *split, const int *columns, size_t column_count,
                         const pm_predicate *filter, int64_t batch_rows, paimon_error *err)
{
    return reader_open(out, t, plan, split, columns, column_count, filter, batch_rows, false, false,
                       false, err);
}

int pm_split_reader_open_keep_delete(pm_split_reader **out, paimon_table *t,
                                     const pm_scan_plan *plan, const pm_split *split,
                                     const int *columns, size_t column_count, int64_t batch_rows,
                                     paimon_error *err)
{
    return reader_open(out, t, plan, split, columns, column_count, NULL, batch_rows, true, true,
                       false, err);
}

int pm_split_reader_open_kinds(pm_split_reader **out, paimon_table *t, const pm_scan_plan *plan,
                               const pm_split *split, const int *columns, size_t column_count,
                               int64_t batch_rows, paimon_error *err)
{
    return reader_open(out, t, plan, split, columns, column_count, NULL, batch_rows, true, true,
                       true, err);
}

int pm_split_reader_open_changes(pm_split_reader **out, paimon_table *t, const pm_scan_plan *plan,
                                 const pm_split *split, const int *columns, size_t column_count,
                                 int64_t batch_rows, paimon_error *err)
{
    *out = NULL;
    if (!split->raw)
        return pm_err_set(err, PAIMON_EINVALID, "a change read needs a raw split");
    return reader_open(out, t, plan, split, columns, column_count, NULL, batch_rows, true, false,
                       false, err);
}

int pm_split_reader_with_sequence(pm_split_reader *r, paimon_error *err)
{
    pm_type *t, *seq;
    if (r->kind_off != 1 || !r->kinds_stored)
        return pm_err_set(err, PAIMON_EINVALID,
                          "%s: only the kind reads of a primary-key table carry sequence numbers",
                          r->t->path);
    t = pm_type_new(PM_TYPE_ROW);
    seq = pm_type_new(PM_TYPE_BIGINT);
    if (t == NULL || seq == NULL) {
        pm_type_free(t);
        pm_type_free(seq);
        return pm_nomem(err);
    }
    t->nullable = seq->nullable = false;
    for (size_t i = 0; i < r->out_type->field_count; i++) {
        const pm_field *f = &r->out_type->fields[i];
        if (pm_type_row_add(t, f->id, f->name, pm_type_clone(f->type)) != 0)
            goto nomem;
        if (i == 0) { /* after _ROW_KIND */
            pm_type *q = seq;
            seq = NULL;
            if (pm_type_row_add(t, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", q) != 0)
                goto nomem;
        }
    }
    pm_type_free(r->out_type);
    r->out_type = t;
    r->kind_off = 2;
    r->out_count = t->field_count;
    return 0;
nomem:
    pm_type_free(seq);
    pm_type_free(t);
    return pm_nomem(err);
}

PM_MUST_CHECK static int source_next(void *ctx, pm_batch **out, paimon_error *err)
{
    return pm_split_reader_next((pm_split_reader *)ctx, out, err);
}

static void source_release(void *ctx)
{
    pm_split_reader_free((pm_split_reader *)ctx);
}

void pm_split_reader_set_threads(pm_split_reader *r, unsigned int threads)
{
    size_t n = threads > 0 ? threads : pm_pool_default_threads();
    r->pool = n >= 2 ? pm_pool_shared(n > PM_POOL_MAX_THREADS ? PM_POOL_MAX_THREADS : n) : NULL;
}

void pm_split_reader_source(pm_split_reader *r, pm_batch_source *out)
{
    memset(out, 0, sizeof(*out));
    out->next = source_next;
    out->release = source_release;
    out->ctx = r;
    out->type = r->out_type;
}

const pm_type *pm_split_reader_type(const pm_split_reader *r)
{
    return r->out_type;
}

void pm_split_reader_free(pm_split_reader *r)
{
    if (r == NULL)
        return;
    close_section(r);
    pm_arena_free(&r->arena);
    pm_merge_fn_free(r->fn);
    pm_readahead_free(r->raw_ra); /* first: after it no worker touches r->raw */
    pm_file_reader_free(r->raw.current);
    pm_schema_cache_release(&r->schemas);
    pthread_mutex_destroy(&r->schema_lock);
    pm_free(r->key_cols);
    pm_free(r->seq_cols);
    pm_predicate_free(r->filter);
    pm_predicate_free(r->file_filter);
    pm_type_free(r->read_type);
    pm_type_free(r->out_type);
    pm_type_free(r->merged_type);
    pm_free(r);
}

/* ---- next ------------------------------------------------------------------------------------ */

/* The next batch of a raw split: its files one after another. */
PM_MUST_CHECK static int raw_next(void *ctx, pm_batch **out, paimon_error *err)
{
    pm_split_reader *r = ctx;
    return walk_next(r, &r->raw, r->split->files, r->split->file_count, r->kinds_stored, NULL, out,
                     err);
}

/* A batch in read_type (the first read_type columns of `b`) from the files or the merge. */
PM_MUST_CHECK static int next_read_batch(pm_split_reader *r, pm_batch **out, paimon_error *err)
{
    int rc;
    while (!r->split->raw) {
        if (r->merge == NULL) {
            if (r->next_section >= r->section_count)
                return PAIMON_ITEROVER;
            if ((rc = open_section(r, err)) != 0)
                return rc;
        }
        rc = pm_merge_reader_next(r->merge, out, err);
        if (rc != PAIMON_ITEROVER)
            return rc;
        close_section(r); /* sections share no key: the next one follows */
    }
    /* A plain read on a pool decodes the split's files ahead while the caller works on a
     * batch (a change read names the file being read in its errors: it stays on the caller's
     * thread). */
    if (r->pool != NULL && r->raw_ra == NULL && r->kind_off == 0) {
        if ((rc = pm_readahead_new(&r->raw_ra, raw_next, NULL, r, r->pool, PM_SPLIT_READAHEAD,
                                   err)) != 0)
            return rc;
    }
    if (r->raw_ra != NULL)
        return pm_readahead_next(r->raw_ra, out, NULL, err);
    return raw_next(r, out, err);
}

/* Sets the partition columns to the split's values. */
PM_MUST_CHECK static int fill_partition(pm_split_reader *r, pm_batch *b, paimon_error *err)
{
    for (size_t i = 0; i < r->part_count; i++) {
        pm_column *c = pm_column_new(b->type->fields[r->part_pos[i]].type);
        if (c == NULL)
            return pm_nomem(err);
        for (int64_t k = 0; k < b->row_count; k++) {
            if (pm_column_append_datum(c, &r->part_value[i]) != 0) {
                pm_column_free(c);
                return pm_nomem(err);
            }
        }
        pm_column_free(b->columns[r->part_pos[i]]);
        b->columns[r->part_pos[i]] = c;
    }
    return 0;
}

/* The _ROW_KIND column of a change read: the row kinds of `in` as "+I", "-U", "+U", "-D"
 * (_VALUE_KIND 0 to 3, RowKind's byte values; behaviour.md §1.2). */
PM_MUST_CHECK static int fill_row_kinds(pm_split_reader *r, const pm_batch *in, pm_column *out,
                                        paimon_error *err)
{
    static const char *const NAMES[] = {"+I", "-U", "+U", "-D"};
    const pm_column *kinds = NULL;
    if (r->kinds_stored) {
        size_t at = r->read_type->field_count + 1; /* after _SEQUENCE_NUMBER */
        if (at >= in->column_count || in->columns[at]->width != 1)
            return pm_err_set(err, PAIMON_EINVALID, "%s: a change read lost _VALUE_KIND",
                              r->t->path);
        kinds = in->columns[at];
    }
    for (int64_t i = 0; i < in->row_count; i++) {
        int kind = kinds != NULL ? (int)(int8_t)kinds->values.data[i] : 0;
        if (kind < 0 || kind > 3 ||
            (kinds != NULL && kinds->null_count > 0 &&
             !(kinds->validity.data[i / 8] & (1u << (i % 8)))))
            return pm_corrupt(err, "%s: a row's _VALUE_KIND is %s, not a row kind (0 to 3)",
                              r->raw.next > 0 ? r->split->paths[r->raw.opened_at] : r->t->path,
                              kind >= 0 && kind <= 3 ? "null" : "out of range");
        if (pm_column_append_bytes(out, NAMES[kind], 2) != 0)
            return pm_nomem(err);
    }
    return 0;
}

/* The output columns of a read batch (moved, not copied). */
PM_MUST_CHECK static int project(pm_split_reader *r, pm_batch *in, pm_batch **out,
                                 paimon_error *err)
{
    pm_batch *b = NULL;
    int rc = pm_batch_new(&b, r->out_type, err);
    if (rc != 0)
        return rc;
    if (r->kind_off > 0 && (rc = fill_row_kinds(r, in, b->columns[0], err)) != 0) {
        pm_batch_free(b);
        return rc;
    }
    if (r->kind_off > 1) {
        /* _SEQUENCE_NUMBER: read after the read columns, as the merge returns it too */
        size_t at = r->read_type->field_count;
        pm_column *c = at < in->column_count ? in->columns[at] : NULL;
        if (c == NULL || c->width != 8) {
            pm_batch_free(b);
            return pm_err_set(err, PAIMON_EINVALID, "%s: a kind read lost _SEQUENCE_NUMBER",
                              r->t->path);
        }
        in->columns[at] = NULL;
        pm_column_free(b->columns[1]);
        b->columns[1] = c;
        pm_column_retype(c, b->type->fields[1].type);
    }
    for (size_t i = r->kind_off; i < r->out_count; i++) {
        pm_column *c = in->columns[i - r->kind_off];
        in->columns[i - r->kind_off] = NULL;
        pm_column_free(b->columns[i]);
        b->columns[i] = c;
        /* Same shape, the batch's own type tree (children too: the old tree goes with `in`). */
        pm_column_retype(c, b->type->fields[i].type);
    }
    b->row_count = in->row_count;
    *out = b;
    return 0;
}

int pm_split_reader_next(pm_split_reader *r, pm_batch **out, paimon_error *err)
{
    *out = NULL;
    for (;;) {
        pm_batch *in = NULL, *kept = NULL;
        int rc = next_read_batch(r, &in, err);
        if (rc != 0)
            return rc;
        if ((rc = fill_partition(r, in, err)) != 0)
            goto done;
        if (r->filter != NULL && in->row_count > 0) {
            uint8_t *res = pm_malloc((size_t)in->row_count);
            if (res == NULL) {
                rc = pm_nomem(err);
                goto done;
            }
            rc = pm_predicate_eval_batch(r->filter, in, res, err);
            for (int64_t i = 0; rc == 0 && i < in->row_count; i++)
                res[i] = res[i] == 1;
            if (rc == 0)
                rc = pm_batch_filter(in, res, &kept, err);
            pm_free(res);
            if (rc != 0)
                goto done;
            pm_batch_free(in);
            in = kept;
        }
        if (in->row_count == 0) {
            pm_batch_free(in);
            continue;
        }
        rc = project(r, in, out, err);
    done:
        pm_batch_free(in);
        return rc;
    }
}

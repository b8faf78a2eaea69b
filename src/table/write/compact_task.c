/* One compaction of a primary-key bucket: see compact_task.h. */
#include "table/write/compact_task.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lsm/run_ahead.h"
#include "lsm/merge_reader.h"
#include "meta/file_path.h"
#include "meta/manifest_write.h"
#include "table/file_reader.h"
#include "table/interval_partition.h"
#include "util/alloc.h"
#include "util/error.h"

/* Rows per batch of a merge: what each input run's file reader decodes at a time, and what
 * the merge gathers its output into.  With the readers' own default (65,536 rows, made for
 * a plain read of one file) the decoded batches of a 4-run compaction were 30 MB of its
 * 105 MB peak (massif), and it ran 7 % slower than with this (docs/PERFORMANCE.md,
 * "Batches of a compaction's merge"). */
#define MERGE_BATCH_ROWS 4096

/* Batches each run decodes ahead of the merge when the compaction has a pool (as a scan's
 * merged split does: table/split_read.c). */
#define MERGE_READAHEAD 2

/* The needLookup family of options (CoreOptions.lookupStrategy, lookupCompact,
 * prepareCommitWaitCompaction). */
PM_MUST_CHECK static int lookup_init(pm_compactor *k, paimon_error *err)
{
    const pm_options *o = k->c->opts;
    bool force_lookup = false, force_l0 = false;
    const char *mode = pm_options_get(o, "lookup-compact");
    int rc;
    if ((rc = pm_options_get_bool(o, "deletion-vectors.enabled", &k->dv, err)) != 0 ||
        (rc = pm_options_get_bool(o, "deletion-vectors.bitmap64", &k->bitmap64, err)) != 0 ||
        (rc = pm_options_get_bool(o, "force-lookup", &force_lookup, err)) != 0 ||
        (rc = pm_options_get_bool(o, "compaction.force-up-level-0", &force_l0, err)) != 0 ||
        /* lookup-wait, or its fallback key changelog-producer.lookup-wait */
        (rc = pm_options_get_bool(o, "lookup-wait", &k->lookup_wait, err)) != 0)
        return rc;
    k->first_row = pm_options_is(o, "merge-engine", "first-row");
    k->lookup_changelog = pm_options_is(o, "changelog-producer", "lookup");
    k->dedup_plain = (pm_options_get(o, "merge-engine") == NULL ||
                      pm_options_is(o, "merge-engine", "deduplicate")) &&
                     k->c->seq_count == 0;
    k->need_lookup =
        k->c->primary_key && (k->first_row || k->lookup_changelog || k->dv || force_lookup);
    k->force_up_level0 = k->c->primary_key && (k->need_lookup || force_l0);
    if (mode != NULL && strcasecmp(mode, "gentle") == 0) {
        int64_t interval;
        /* CoreOptions.lookupCompactMaxInterval: twice the trigger when unset */
        if ((rc = pm_options_get_i64_or(o, "lookup-compact.max-interval", 2 * k->strategy.trigger,
                                        &interval, err)) != 0)
            return rc;
        /* CoreOptions.lookupCompactMaxInterval: never below the compaction trigger */
        k->lookup_interval = interval < k->strategy.trigger ? k->strategy.trigger : interval;
    } else if (mode != NULL && strcasecmp(mode, "radical") != 0) {
        return pm_err_set(err, PAIMON_EINVALID,
                          "lookup-compact must be radical or gentle, not '%s'", mode);
    }
    if (k->need_lookup)
        return pm_lookup_options_read(&k->lookup_opts, o, err);
    return 0;
}

int pm_compactor_init(pm_compactor *k, pm_write_ctx *c, paimon_error *err)
{
    int rc;
    memset(k, 0, sizeof(*k));
    k->c = c;
    pthread_mutex_init(&k->schema_lock, NULL);
    pthread_mutex_init(&k->lookup_lock, NULL);
    pm_schema_cache_init(&k->schemas, c->fs, c->table);
    /* CoreOptions.compactionFileSize: target-file-size / 10 * 7, in long arithmetic */
    k->min_file_size = c->target_size / 10 * 7;
    int64_t levels;
    if ((rc = pm_options_get_bool(c->opts, "compaction.force-rewrite-all-files",
                                  &k->force_rewrite_all, err)) != 0 ||
        (rc = pm_universal_init(&k->strategy, c->opts, err)) != 0 ||
        /* CoreOptions.numLevels: trigger + 1 when unset */
        (rc = pm_options_get_i64_or(c->opts, "num-levels", k->strategy.trigger + 1, &levels,
                                    err)) != 0 ||
        /* unset: no full compaction by commit count (0) */
        (rc = pm_options_get_i64_or(c->opts, "full-compaction.delta-commits", 0, &k->delta_commits,
                                    err)) != 0 ||
        (rc = pm_options_get_i64(c->opts, "compaction.min.file-num", &k->min_file_num, err)) != 0)
        return rc;
    if (levels > 1000) /* the derived default; a value given is checked by the getter */
        return pm_err_set(err, PAIMON_EINVALID,
                          "num-levels %lld (num-sorted-run.compaction-trigger + 1) is out of "
                          "range: 2 to 1000; set num-levels",
                          (long long)levels);
    /* Flink's StoreSinkWrite: under changelog-producer = full-compaction a writer compacts
     * fully at every commit unless full-compaction.delta-commits says otherwise (Math.max(N,
     * 1)); changelog-producer.compaction-interval counts checkpoints, which paimon-c has not */
    if (k->delta_commits == 0 && c->changelog_full)
        k->delta_commits = 1;
    k->num_levels = (int32_t)levels;
    /* CoreOptions.numSortedRunStopTrigger: unset, compaction-trigger + 3; never below it */
    if ((rc = pm_options_get_i64_or(c->opts, "num-sorted-run.stop-trigger",
                                    (int64_t)k->strategy.trigger + 3, &k->stop_trigger, err)) != 0)
        return rc;
    if (k->stop_trigger < k->strategy.trigger)
        k->stop_trigger = k->strategy.trigger;
    return lookup_init(k, err);
}

void pm_compactor_release(pm_compactor *k)
{
    pm_schema_cache_release(&k->schemas);
    pm_lookup_shared_free(k->lookup_shared);
    pthread_mutex_destroy(&k->schema_lock);
    pthread_mutex_destroy(&k->lookup_lock);
    memset(k, 0, sizeof(*k));
}

/* The schema of id `id` from the cache every bucket's compaction shares (under its lock:
 * buckets compact on different threads; the schemas themselves are immutable). */
PM_MUST_CHECK static int schema_of(pm_compactor *k, int64_t id, const pm_schema **out,
                                   paimon_error *err)
{
    int rc;
    pthread_mutex_lock(&k->schema_lock);
    rc = pm_schema_cache_get(&k->schemas, id, out, err);
    pthread_mutex_unlock(&k->schema_lock);
    return rc;
}

PM_MUST_CHECK static int schema_cb(void *ctx, int64_t id, const pm_schema **out, paimon_error *err)
{
    return schema_of(ctx, id, out, err);
}

static const pm_dv *dv_cb(void *ctx, const char *file_name)
{
    return pm_dv_maintainer_get(ctx, file_name);
}

int pm_compactor_lookup_levels(pm_compactor *k, const char *bucket_dir, const char *prefix,
                               pm_dv_maintainer *dvs, const pm_data_file_meta *const *files,
                               size_t n, pm_lookup_levels **out, paimon_error *err)
{
    pm_lookup_config lc;
    int rc;
    if ((rc = pm_write_ctx_tmp_dir(k->c, err)) != 0)
        return rc;
    if (k->lookup_shared == NULL &&
        (rc = pm_lookup_shared_new(&k->lookup_shared, &k->lookup_opts, err)) != 0)
        return rc;
    memset(&lc, 0, sizeof(lc));
    lc.fs = k->c->fs;
    lc.bucket_dir = bucket_dir;
    lc.schema = k->c->schema;
    lc.schema_of = schema_cb;
    lc.schema_ctx = k;
    lc.dv_of = dvs != NULL ? dv_cb : NULL;
    lc.dv_ctx = dvs;
    lc.open_file = pm_file_reader_open_source;
    lc.local_dir = k->c->tmp_dir;
    lc.local_prefix = prefix;
    /* MergeTreeCompactManagerFactory.createRewriter: the persist processor */
    if (k->first_row)
        lc.mode = PM_LOOKUP_EXISTS;
    else if (k->dv)
        lc.mode =
            k->lookup_changelog || !k->dedup_plain ? PM_LOOKUP_VALUE_POSITION : PM_LOOKUP_POSITION;
    else
        lc.mode = PM_LOOKUP_VALUE;
    lc.num_levels = k->num_levels;
    lc.options = k->lookup_opts;
    lc.shared = k->lookup_shared;
    return pm_lookup_levels_new(out, &lc, files, n, err);
}

/* ---- one rewrite: sections merged into rolling files ---------------------------------- */

typedef struct task {
    pm_compactor *k;
    const pm_compact_bucket *b;
    int32_t output, max_level;
    bool drop_delete;
    bool changelog;     /* full-compaction changelog: output at the max level */
    bool lookup_path;   /* the current rewrite merges through the lookup wrapper */
    int64_t unused_seq; /* the writers' sequence counter (unused by key-value files) */
    pm_commit_messages *out;
    pm_arena arena;    /* sections, candidate lists */
    pm_type *merged;   /* value columns, _SEQUENCE_NUMBER, _VALUE_KIND */
    pm_section **cand; /* candidate sections */
    size_t cand_count, cand_cap;
} task;

typedef struct run_ctx {
    task *t;
    pm_run_source *src; /* its level follows the file being read */
    const pm_sorted_run *run;
    size_t next_file;
    pm_file_reader *current;
    pm_buf path;
    int32_t level;       /* of the file being read (written by whoever reads the run) */
    pm_run_ahead *ahead; /* decoded ahead on the pool, or NULL (lsm/run_ahead.h) */
} run_ctx;

PM_MUST_CHECK static int open_file(task *t, const pm_manifest_entry *e, pm_buf *path,
                                   pm_file_reader **out, paimon_error *err)
{
    const pm_schema *fs = NULL;
    pm_file_reader_options o;
    int rc;
    if ((rc = schema_of(t->k, e->file.schema_id, &fs, err)) != 0)
        return rc;
    path->len = 0;
    if ((rc = pm_file_path_resolve(t->k->c->table, t->k->c->opts, t->b->dir, e->file.file_name,
                                   e->file.external_path, path, err)) != 0)
        return rc;
    memset(&o, 0, sizeof(o));
    o.out_type = t->k->c->value_type;
    o.system_fields = true;
    o.batch_rows = MERGE_BATCH_ROWS;
    /* KeyValueFileReaderFactory with the maintainer's vectors: replaced rows are not read */
    o.dv_loaded = t->b->dvs != NULL ? pm_dv_maintainer_get(t->b->dvs, e->file.file_name) : NULL;
    return pm_file_reader_open(out, t->k->c->fs, pm_buf_cstr(path), e, fs, &o, err);
}

PM_MUST_CHECK static int run_next(void *ctx, pm_batch **out, paimon_error *err)
{
    run_ctx *r = ctx;
    for (;;) {
        int rc;
        if (r->current == NULL) {
            if (r->next_file >= r->run->file_count)
                return PAIMON_ITEROVER;
            const pm_manifest_entry *e = r->run->files[r->next_file++];
            if ((rc = open_file(r->t, e, &r->path, &r->current, err)) != 0)
                return rc;
            /* a run may join files of several levels (interval partition): a record's level
             * is its file's, as Java's reader tags each KeyValue */
            r->level = e->file.level;
            if (r->ahead == NULL) /* else the level travels with the batch (lsm/run_ahead.h) */
                r->src->level = r->level;
        }
        rc = pm_file_reader_next(r->current, out, err);
        if (rc != PAIMON_ITEROVER)
            return rc;
        pm_file_reader_free(r->current);
        r->current = NULL;
    }
}

/* The data-file layout over merged columns `b` (values, _SEQUENCE_NUMBER, _VALUE_KIND), as
 * the write buffer's flush lays it out, written into `dw`. */
PM_MUST_CHECK static int write_merged(const pm_write_ctx *c, pm_column **view_cols,
                                      const pm_batch *b, pm_data_writer *dw, paimon_error *err)
{
    size_t vc = c->value_type->field_count;
    pm_batch view;
    if (b->row_count == 0)
        return 0;
    for (size_t k = 0; k + 2 < c->value_start; k++)
        view_cols[k] = b->columns[c->key_idx[k]];
    view_cols[c->seq_col] = b->columns[vc];
    view_cols[c->kind_col] = b->columns[vc + 1];
    for (size_t i = 0; i < vc; i++)
        view_cols[c->value_start + i] = b->columns[i];
    memset(&view, 0, sizeof(view));
    view.type = c->file_type;
    view.columns = view_cols;
    view.column_count = c->file_type->field_count;
    view.row_count = b->row_count;
    return pm_data_writer_write(dw, &view, 0, b->row_count, err);
}

/* The lookup wrapper's search (LookupMergeTreeCompactRewriter: levels above the output):
 * a found row's position is marked in the bucket's deletion vectors. */
PM_MUST_CHECK static int lookup_cb(void *ctx, const pm_batch *b, int64_t row, pm_record *found,
                                   bool *hit, paimon_error *err)
{
    task *t = ctx;
    pm_lookup_result res;
    int rc;
    if ((rc = pm_lookup_levels_get_row(t->b->lookup, b, row, t->k->c->key_idx, t->output + 1, &res,
                                       err)) != 0)
        return rc;
    *hit = res.found;
    memset(found, 0, sizeof(*found));
    if (!res.found)
        return 0;
    if (t->b->dvs != NULL && res.position >= 0 &&
        (rc = pm_dv_maintainer_mark(t->b->dvs, res.file_name, res.position, err)) != 0)
        return rc;
    if (res.row != NULL) {
        found->batch = res.row;
        found->row = 0;
        found->seq = res.sequence_number;
        found->kind = res.value_kind;
        found->level = res.level;
    }
    return 0;
}

/* Writes the merged rows of one section into `dw` (none when NULL: an upgrade that only
 * produces its changelog) and, when the task produces a changelog, its changes into `cl`. */
PM_MUST_CHECK static int merge_section(task *t, const pm_section *sec, pm_data_writer *dw,
                                       pm_data_writer *cl, paimon_error *err)
{
    const pm_write_ctx *c = t->k->c;
    run_ctx *ctxs = pm_calloc(sec->run_count + 1, sizeof(*ctxs));
    pm_run_source *srcs = pm_calloc(sec->run_count + 1, sizeof(*srcs));
    pm_column **view_cols = pm_calloc(c->file_type->field_count + 1, sizeof(*view_cols));
    pm_merge_reader *m = NULL;
    pm_merge_reader_options mo;
    pm_batch *b = NULL, *changes = NULL;
    int rc = 0;

    if (ctxs == NULL || srcs == NULL || view_cols == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < sec->run_count; i++) {
        ctxs[i].t = t;
        ctxs[i].src = &srcs[i];
        ctxs[i].run = &sec->runs[i];
        pm_buf_init(&ctxs[i].path, 0);
        srcs[i].next = run_next;
        srcs[i].ctx = &ctxs[i];
        srcs[i].level = sec->runs[i].file_count > 0 ? sec->runs[i].files[0]->file.level : 0;
    }
    /* With a pool (a writer on more than one thread), every run is decoded ahead on it while
     * the merge and the writer work, so a compaction spreads over the cores the pool has free
     * (a commit that waits for it; `paimon compact` with more threads than buckets, whose
     * workers' writes get the threads left over: table/compact.c).  Not under deletion
     * vectors or the lookup wrapper: their files' vectors change while the merge runs. */
    if (t->k->pool != NULL && sec->run_count > 1 && t->b->dvs == NULL && !t->lookup_path)
        for (size_t i = 0; i < sec->run_count; i++) {
            PM_TRY(pm_run_ahead_start(&ctxs[i].ahead, &srcs[i], &ctxs[i].level, t->k->pool,
                                      MERGE_READAHEAD, err));
        }
    memset(&mo, 0, sizeof(mo));
    mo.value_type = c->value_type;
    mo.key_cols = c->key_idx;
    mo.key_count = c->key_count;
    mo.seq_cols = c->seq_idx;
    mo.seq_count = c->seq_count;
    mo.seq_descending = c->seq_descending;
    mo.batch_rows = MERGE_BATCH_ROWS;
    mo.reduce = true;
    mo.drop_delete = t->drop_delete;
    mo.out_type = t->merged;
    mo.changelog = cl != NULL;
    mo.max_level = t->max_level;
    mo.compare = c->changelog_compare;
    if (t->lookup_path) {
        bool ignore_delete = false;
        mo.changelog = false;
        mo.lookup = lookup_cb;
        mo.lookup_ctx = t;
        mo.lookup_changelog = cl != NULL;
        mo.first_row = t->k->first_row;
        PM_TRY(pm_options_get_bool(c->opts, "ignore-delete", &ignore_delete, err));
        mo.ignore_delete = ignore_delete;
    }
    PM_TRY(pm_merge_reader_new(&m, srcs, sec->run_count,
                               t->b->merge != NULL ? t->b->merge : c->merge, &mo, err));
    for (;;) {
        rc = pm_merge_reader_next(m, &b, err);
        if (rc == PAIMON_ITEROVER) {
            rc = 0;
            break;
        }
        if (rc != 0)
            goto done;
        if (dw != NULL)
            PM_TRY(write_merged(c, view_cols, b, dw, err));
        if (cl != NULL && (changes = pm_merge_reader_take_changelog(m)) != NULL) {
            PM_TRY(write_merged(c, view_cols, changes, cl, err));
            pm_batch_free(changes);
            changes = NULL;
        }
        pm_batch_free(b);
        b = NULL;
    }
done:
    pm_batch_free(b);
    pm_batch_free(changes);
    pm_merge_reader_free(m);
    /* the read-aheads first: after them no worker touches a run's file reader */
    for (size_t i = 0; ctxs != NULL && i < sec->run_count; i++)
        pm_run_ahead_stop(ctxs[i].ahead);
    for (size_t i = 0; ctxs != NULL && i < sec->run_count; i++) {
        pm_file_reader_free(ctxs[i].current);
        pm_buf_free(&ctxs[i].path);
    }
    pm_free(ctxs);
    pm_free(srcs);
    pm_free(view_cols);
    return rc;
}

static int entry_of(task *t, const pm_data_file_meta *f, int kind, pm_manifest_entry *e)
{
    memset(e, 0, sizeof(*e));
    e->kind = kind;
    e->partition.ptr = t->b->partition;
    e->partition.len = t->b->partition_len;
    e->bucket = t->b->bucket;
    e->total_buckets = t->b->total_buckets;
    e->file = *f;
    return 0;
}

PM_MUST_CHECK static int add_entry(task *t, const pm_data_file_meta *f, int kind, paimon_error *err)
{
    pm_manifest_entry e;
    entry_of(t, f, kind, &e);
    if (pm_commit_messages_add_compact(t->out, &e) != 0)
        return pm_nomem(err);
    return 0;
}

/* A rolling writer of changelog files at the output level (Java's
 * createRollingChangelogFileWriter(outputLevel): file source APPEND), or NULL when the task
 * produces no changelog. */
PM_MUST_CHECK static int changelog_writer(task *t, pm_data_writer **out, paimon_error *err)
{
    pm_data_writer_conf dc;
    *out = NULL;
    if (!t->changelog && !(t->lookup_path && t->k->lookup_changelog))
        return 0;
    pm_write_ctx_writer_conf(t->k->c, t->b->dir, t->b->names, true, t->output, &t->unused_seq, &dc);
    return pm_data_writer_new(out, &dc, err);
}

/* The changelog files of `cl` into the compact increment's changelog. */
PM_MUST_CHECK static int finish_changelog(task *t, pm_data_writer *cl, paimon_error *err)
{
    pm_data_file_meta *files;
    size_t count;
    int rc;
    if (cl == NULL)
        return 0;
    if ((rc = pm_data_writer_finish(cl, &files, &count, err)) != 0)
        return rc;
    for (size_t i = 0; i < count; i++) {
        pm_manifest_entry e;
        entry_of(t, &files[i], PM_FILE_KIND_ADD, &e);
        if (pm_commit_messages_add_compact_changelog(t->out, &e) != 0)
            return pm_nomem(err);
    }
    return 0;
}

/* MergeTreeCompactTask.rewriteImpl: the candidates merged into new files (and, into the
 * max level under the full-compaction producer, their changelog: rewriteOrProduceChangelog). */
/* ChangelogMergeTreeRewriter.rewriteLookupChangelog: a lookup table's rewrite into a level
 * above 0 of sections holding a level-0 file goes through the lookup wrapper. */
static bool lookup_rewrite(const task *t)
{
    if (!t->k->need_lookup || t->k->c->changelog_full || t->b->lookup == NULL || t->output == 0)
        return false;
    for (size_t i = 0; i < t->cand_count; i++)
        for (size_t r = 0; r < t->cand[i]->run_count; r++)
            for (size_t f = 0; f < t->cand[i]->runs[r].file_count; f++)
                if (t->cand[i]->runs[r].files[f]->file.level == 0)
                    return true;
    return false;
}

/* notifyRewriteCompactBefore: rewritten files leave with their deletion vectors. */
static void drop_vectors(task *t)
{
    if (t->b->dvs == NULL)
        return;
    for (size_t i = 0; i < t->cand_count; i++)
        for (size_t r = 0; r < t->cand[i]->run_count; r++)
            for (size_t f = 0; f < t->cand[i]->runs[r].file_count; f++)
                pm_dv_maintainer_remove(t->b->dvs, t->cand[i]->runs[r].files[f]->file.file_name);
}

PM_MUST_CHECK static int rewrite_impl(task *t, paimon_error *err)
{
    pm_data_writer_conf dc;
    pm_data_writer *dw = NULL, *cl = NULL;
    pm_data_file_meta *files;
    size_t count;
    int rc;
    t->lookup_path = lookup_rewrite(t);
    pm_write_ctx_writer_conf(t->k->c, t->b->dir, t->b->names, false, t->output, &t->unused_seq,
                             &dc);
    dc.compact = true;
    /* its pages compressed on the pool while the merge goes on: with the runs decoded ahead
     * (merge_section), a compaction spreads its read, merge and write over the cores the
     * pool has free */
    dc.pool = t->k->pool;
    PM_TRY(pm_data_writer_new(&dw, &dc, err));
    PM_TRY(changelog_writer(t, &cl, err));
    for (size_t i = 0; i < t->cand_count; i++)
        PM_TRY(merge_section(t, t->cand[i], dw, cl, err));
    PM_TRY(pm_data_writer_finish(dw, &files, &count, err));
    PM_TRY(finish_changelog(t, cl, err));
    for (size_t i = 0; i < t->cand_count; i++)
        for (size_t r = 0; r < t->cand[i]->run_count; r++)
            for (size_t f = 0; f < t->cand[i]->runs[r].file_count; f++)
                PM_TRY(add_entry(t, &t->cand[i]->runs[r].files[f]->file, PM_FILE_KIND_DELETE, err));
    for (size_t i = 0; i < count; i++)
        PM_TRY(add_entry(t, &files[i], PM_FILE_KIND_ADD, err));
    drop_vectors(t);
    pm_data_writer_free(dw);
    dw = NULL;
    pm_data_writer_free(cl);
    cl = NULL;
    t->cand_count = 0;
done:
    t->lookup_path = false;
    pm_data_writer_abort(dw);
    pm_data_writer_abort(cl);
    return rc;
}

PM_MUST_CHECK static int add_candidate(task *t, pm_section *s, paimon_error *err)
{
    if (t->cand_count == t->cand_cap) {
        size_t cap = t->cand_cap == 0 ? 8 : t->cand_cap * 2;
        pm_section **grown = pm_realloc(t->cand, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        t->cand = grown;
        t->cand_cap = cap;
    }
    t->cand[t->cand_count++] = s;
    return 0;
}

/* A section of one run holding one file. */
static pm_section *single(task *t, const pm_manifest_entry *const *file)
{
    pm_section *s = pm_arena_calloc(&t->arena, 1, sizeof(*s));
    pm_sorted_run *r = pm_arena_calloc(&t->arena, 1, sizeof(*r));
    if (s == NULL || r == NULL)
        return NULL;
    r->files = (const pm_manifest_entry **)file;
    r->file_count = 1;
    s->runs = r;
    s->run_count = 1;
    s->total_size = (*file)->file.file_size;
    return s;
}

/* Rewrites section `s` alone, keeping the caller's candidate list aside. */
PM_MUST_CHECK static int rewrite_alone(task *t, pm_section *s, paimon_error *err)
{
    pm_section **saved = t->cand;
    size_t saved_count = t->cand_count, saved_cap = t->cand_cap;
    int rc;
    t->cand = &s;
    t->cand_count = 1;
    t->cand_cap = 1;
    rc = rewrite_impl(t, err);
    t->cand = saved;
    t->cand_count = saved_count;
    t->cand_cap = saved_cap;
    return rc;
}

/* Reads section `s` through the merge for its changelog only (an upgrade that produces
 * changelog without rewriting: ChangelogMergeTreeRewriter's CHANGELOG_NO_REWRITE). */
PM_MUST_CHECK static int changelog_only(task *t, pm_section *s, paimon_error *err)
{
    pm_data_writer *cl = NULL;
    int rc;
    if ((rc = changelog_writer(t, &cl, err)) == 0 && (rc = merge_section(t, s, NULL, cl, err)) == 0)
        rc = finish_changelog(t, cl, err);
    if (rc != 0) {
        pm_data_writer_abort(cl);
        return rc;
    }
    pm_data_writer_free(cl);
    return 0;
}

/* An upgrade by metadata: the file leaves its level and joins the output level. */
PM_MUST_CHECK static int move_level(task *t, const pm_data_file_meta *f, paimon_error *err)
{
    pm_data_file_meta up = *f;
    int rc;
    up.level = t->output;
    if ((rc = add_entry(t, f, PM_FILE_KIND_DELETE, err)) != 0)
        return rc;
    return add_entry(t, &up, PM_FILE_KIND_ADD, err);
}

/* A lookup table's upgrade of a level-0 file (LookupMergeTreeCompactRewriter.upgradeStrategy,
 * then rewriteOrProduceChangelog over the file alone): the file is read through the lookup
 * wrapper either way (changelog, deletion vectors of the rows it replaces above); it is
 * rewritten when its format changes with the level, when deletion vectors are on and it may
 * hold retractions (they must be dropped), or when the output is below the max level and
 * the merge engine may need the rows above (anything but deduplicate without
 * sequence.field); otherwise only its level changes. */
PM_MUST_CHECK static int lookup_upgrade(task *t, const pm_manifest_entry *const *file,
                                        bool may_delete, paimon_error *err)
{
    const pm_data_file_meta *f = &(*file)->file;
    pm_data_writer_conf at0, atout;
    pm_section *s = single(t, file);
    bool rewrite, saved_drop = t->drop_delete;
    int rc;
    if (s == NULL)
        return pm_nomem(err);
    pm_write_ctx_writer_conf(t->k->c, t->b->dir, t->b->names, false, 0, &t->unused_seq, &at0);
    pm_write_ctx_writer_conf(t->k->c, t->b->dir, t->b->names, false, t->output, &t->unused_seq,
                             &atout);
    if (at0.format != atout.format)
        rewrite = true;
    else if (t->k->dv && may_delete)
        rewrite = true;
    else if (t->output == t->max_level)
        rewrite = false;
    else
        rewrite = !t->k->dedup_plain;
    /* the upgrade drops retractions exactly when deletion vectors are on (forceDropDelete) */
    t->drop_delete = t->k->dv;
    if (rewrite) {
        rc = rewrite_alone(t, s, err);
        t->drop_delete = saved_drop;
        return rc;
    }
    t->lookup_path = true;
    rc = changelog_only(t, s, err);
    t->lookup_path = false;
    t->drop_delete = saved_drop;
    return rc != 0 ? rc : move_level(t, f, err);
}

/* MergeTreeCompactTask.upgrade. */
PM_MUST_CHECK static int upgrade(task *t, const pm_manifest_entry *const *file, paimon_error *err)
{
    const pm_data_file_meta *f = &(*file)->file;
    bool may_delete = !f->has_delete_row_count || f->delete_row_count > 0;
    if ((t->output == t->max_level && may_delete) || t->k->force_rewrite_all) {
        pm_section *s = single(t, file);
        return s == NULL ? pm_nomem(err) : rewrite_alone(t, s, err);
    }
    if (f->level != t->output) {
        int rc;
        if (t->k->need_lookup && !t->k->c->changelog_full && t->b->lookup != NULL && f->level == 0)
            return lookup_upgrade(t, file, may_delete, err);
        if (t->changelog) {
            /* ChangelogMergeTreeRewriter.upgrade, CHANGELOG_NO_REWRITE: the file read alone
             * gives its changelog (every record new to the max level: +I) */
            pm_section *s = single(t, file);
            if (s == NULL)
                return pm_nomem(err);
            if ((rc = changelog_only(t, s, err)) != 0)
                return rc;
        }
        return move_level(t, f, err);
    }
    return 0;
}

/* MergeTreeCompactTask.rewrite: a lone one-run candidate is upgraded file by file. */
PM_MUST_CHECK static int rewrite(task *t, paimon_error *err)
{
    if (t->cand_count == 0)
        return 0;
    if (t->cand_count == 1 && t->cand[0]->run_count <= 1) {
        pm_section *s = t->cand[0];
        t->cand_count = 0;
        for (size_t i = 0; s->run_count == 1 && i < s->runs[0].file_count; i++) {
            int rc = upgrade(t, &s->runs[0].files[i], err);
            if (rc != 0)
                return rc;
        }
        return 0;
    }
    return rewrite_impl(t, err);
}

PM_MUST_CHECK static int merged_type(const pm_type *value, pm_type **out, paimon_error *err)
{
    pm_type *t = pm_type_new(PM_TYPE_ROW);
    pm_type *seq = pm_type_new(PM_TYPE_BIGINT), *kind = pm_type_new(PM_TYPE_TINYINT);
    int rc = 0;
    if (t == NULL || seq == NULL || kind == NULL)
        goto nomem;
    t->nullable = false;
    seq->nullable = kind->nullable = false;
    for (size_t i = 0; i < value->field_count; i++)
        if (pm_type_row_add(t, value->fields[i].id, value->fields[i].name,
                            pm_type_clone(value->fields[i].type)) != 0)
            goto nomem;
    if (pm_type_row_add(t, PM_SEQUENCE_NUMBER_ID, "_SEQUENCE_NUMBER", seq) != 0) {
        seq = NULL;
        goto nomem;
    }
    seq = NULL;
    if (pm_type_row_add(t, PM_VALUE_KIND_ID, "_VALUE_KIND", kind) != 0) {
        kind = NULL;
        goto nomem;
    }
    kind = NULL;
    *out = t;
    t = NULL;
    goto done;
nomem:
    rc = pm_nomem(err);
done:
    pm_type_free(t);
    pm_type_free(seq);
    pm_type_free(kind);
    return rc;
}

PM_MUST_CHECK static int task_begin(task *t, pm_compactor *k, const pm_compact_bucket *b,
                                    int32_t output, bool drop_delete, int32_t max_level,
                                    pm_commit_messages *out, paimon_error *err)
{
    memset(t, 0, sizeof(*t));
    t->k = k;
    t->b = b;
    t->output = output;
    t->max_level = max_level;
    t->drop_delete = drop_delete;
    /* FullChangelogMergeTreeCompactRewriter.rewriteChangelog: output at the max level, where
     * deletes are always dropped */
    t->changelog = k->c->changelog_full && output == max_level;
    t->out = out;
    pm_arena_init(&t->arena, 4096);
    if (t->changelog && !drop_delete)
        return pm_err_set(err, PAIMON_EINVALID,
                          "%s: a compaction into the max level must drop deletes", k->c->table);
    return merged_type(k->c->value_type, &t->merged, err);
}

/* Ends a task; on failure removes the files it wrote (ADD entries that are not upgrades,
 * changelog files) and takes its entries back out of `out`. */
static int task_end(task *t, size_t mark, size_t changelog_mark, int rc)
{
    pm_commit_messages *out = t->out;
    pm_compactor *k = t->k;
    if (rc != 0) {
        pm_buf p;
        pm_buf_init(&p, 0);
        for (size_t i = mark; i < out->compact_count; i++) {
            const pm_manifest_entry *e = &out->compact[i];
            bool upgraded = false;
            if (e->kind != PM_FILE_KIND_ADD)
                continue;
            for (size_t j = mark; j < out->compact_count; j++)
                upgraded |= out->compact[j].kind == PM_FILE_KIND_DELETE &&
                            strcmp(out->compact[j].file.file_name, e->file.file_name) == 0;
            p.len = 0;
            if (!upgraded && pm_buf_printf(&p, "%s/%s", t->b->dir, e->file.file_name) == 0)
                (void)k->c->fs->remove(k->c->fs, pm_buf_cstr(&p), NULL);
        }
        for (size_t i = changelog_mark; i < out->compact_changelog_count; i++) {
            p.len = 0;
            if (pm_buf_printf(&p, "%s/%s", t->b->dir, out->compact_changelog[i].file.file_name) ==
                0)
                (void)k->c->fs->remove(k->c->fs, pm_buf_cstr(&p), NULL);
        }
        pm_buf_free(&p);
        out->compact_count = mark;
        out->compact_changelog_count = changelog_mark;
    }
    pm_free(t->cand);
    pm_type_free(t->merged);
    pm_arena_free(&t->arena);
    return rc;
}

int pm_compact_unit(pm_compactor *k, const pm_compact_bucket *b,
                    const pm_manifest_entry *const *files, size_t n, int32_t output,
                    bool drop_delete, int32_t max_level, pm_commit_messages *out, paimon_error *err)
{
    task t;
    pm_section *sections = NULL;
    size_t section_count = 0;
    const pm_type *key_types[PM_WRITE_MAX_KEYS];
    size_t mark = out->compact_count, changelog_mark = out->compact_changelog_count;
    int rc;

    PM_TRY(task_begin(&t, k, b, output, drop_delete, max_level, out, err));
    for (size_t i = 0; i < k->c->key_count; i++)
        key_types[i] = k->c->value_type->fields[k->c->key_idx[i]].type;
    PM_TRY(pm_interval_partition(files, n, key_types, k->c->key_count, &t.arena, &sections,
                                 &section_count, err));
    for (size_t s = 0; s < section_count; s++) {
        pm_section *sec = &sections[s];
        if (sec->run_count > 1) {
            PM_TRY(add_candidate(&t, sec, err));
            continue;
        }
        for (size_t i = 0; sec->run_count == 1 && i < sec->runs[0].file_count; i++) {
            const pm_manifest_entry *const *f = &sec->runs[0].files[i];
            if ((*f)->file.file_size < k->min_file_size) {
                pm_section *one = single(&t, f);
                if (one == NULL) {
                    rc = pm_nomem(err);
                    goto done;
                }
                PM_TRY(add_candidate(&t, one, err));
            } else {
                PM_TRY(rewrite(&t, err));
                PM_TRY(upgrade(&t, f, err));
            }
        }
    }
    PM_TRY(rewrite(&t, err));
done:
    return task_end(&t, mark, changelog_mark, rc);
}

int pm_compact_rewrite_files(pm_compactor *k, const pm_compact_bucket *b,
                             const pm_manifest_entry *const *files, size_t n, int32_t output,
                             bool drop_delete, int32_t max_level, pm_commit_messages *out,
                             paimon_error *err)
{
    task t;
    size_t mark = out->compact_count, changelog_mark = out->compact_changelog_count;
    int rc;
    PM_TRY(task_begin(&t, k, b, output, drop_delete, max_level, out, err));
    for (size_t i = 0; i < n; i++) {
        pm_section *s = single(&t, &files[i]);
        if (s == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        PM_TRY(add_candidate(&t, s, err));
        PM_TRY(rewrite_impl(&t, err));
    }
done:
    return task_end(&t, mark, changelog_mark, rc);
}

int pm_compact_append(pm_compactor *k, const pm_compact_bucket *b,
                      const pm_manifest_entry *const *files, size_t n, pm_commit_messages *out,
                      paimon_error *err)
{
    task t;
    pm_data_writer_conf dc;
    pm_data_writer *dw = NULL;
    pm_file_reader *r = NULL;
    pm_batch *batch = NULL;
    pm_data_file_meta *written;
    size_t count;
    int64_t seq;
    pm_buf path;
    size_t mark = out->compact_count;
    int rc;

    if (n == 0)
        return 0;
    memset(&t, 0, sizeof(t));
    t.k = k;
    t.b = b;
    t.out = out;
    pm_buf_init(&path, 0);
    seq = files[0]->file.min_sequence_number;
    pm_write_ctx_writer_conf(k->c, b->dir, b->names, false, 0, &seq, &dc);
    dc.compact = true;
    PM_TRY(pm_data_writer_new(&dw, &dc, err));
    for (size_t i = 0; i < n; i++) {
        const pm_schema *fs = NULL;
        pm_file_reader_options o;
        PM_TRY(schema_of(k, files[i]->file.schema_id, &fs, err));
        path.len = 0;
        PM_TRY(pm_file_path_resolve(k->c->table, k->c->opts, b->dir, files[i]->file.file_name,
                                    files[i]->file.external_path, &path, err));
        memset(&o, 0, sizeof(o));
        o.out_type = k->c->value_type;
        PM_TRY(pm_file_reader_open(&r, k->c->fs, pm_buf_cstr(&path), files[i], fs, &o, err));
        for (;;) {
            rc = pm_file_reader_next(r, &batch, err);
            if (rc == PAIMON_ITEROVER)
                break;
            if (rc != 0)
                goto done;
            if (batch->row_count > 0)
                PM_TRY(pm_data_writer_write(dw, batch, 0, batch->row_count, err));
            pm_batch_free(batch);
            batch = NULL;
        }
        pm_file_reader_free(r);
        r = NULL;
    }
    PM_TRY(pm_data_writer_finish(dw, &written, &count, err));
    for (size_t i = 0; i < n; i++)
        PM_TRY(add_entry(&t, &files[i]->file, PM_FILE_KIND_DELETE, err));
    for (size_t i = 0; i < count; i++)
        PM_TRY(add_entry(&t, &written[i], PM_FILE_KIND_ADD, err));
    pm_data_writer_free(dw);
    dw = NULL;
done:
    if (rc != 0)
        out->compact_count = mark; /* the writer's abort removes the files */
    pm_batch_free(batch);
    pm_file_reader_free(r);
    pm_data_writer_abort(dw);
    pm_buf_free(&path);
    return rc;
}

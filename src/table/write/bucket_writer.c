/* The writers of one partition and bucket: see bucket_writer.h. */
#include "table/write/bucket_writer.h"

#include <pthread.h>
#include <string.h>

#include "lsm/levels.h"
#include "meta/file_path.h"
#include "meta/manifest_write.h"
#include "table/write/data_writer.h"
#include "table/write/kv_buffer.h"
#include "util/alloc.h"
#include "util/error.h"

#define PM_MAX_LEVELS_TRACKED 1001 /* num-levels is at most 1000 (compact_task.c) */

/* One compaction handed to the pool: the unit the writer picked, and the result the task
 * leaves for the writer to take (sync_compaction).  While it runs, the task alone uses the
 * bucket's lookup levels and deletion vectors; the writer keeps taking rows and flushing
 * them, and touches the levels again only after the wait. */
typedef struct bg_task {
    pm_bucket_writer *w;
    const pm_manifest_entry **files; /* owned array; the entries are the levels' */
    size_t n;
    int32_t output, max_level;
    bool drop_delete;
    bool rewrite; /* FileRewriteCompactTask: each file rewritten alone */
    pm_commit_messages res;
} bg_task;

struct pm_bucket_writer {
    pm_write_ctx *c;
    uint8_t *partition;
    size_t partition_len;
    int32_t bucket, total_buckets;
    pm_buf dir;
    const char *dir_path;  /* dir's text, terminated once: compactions read it on other threads */
    pm_path_factory names; /* one UUID per bucket writer, as Java's DataFilePathFactory */
    int64_t next_seq;
    pm_data_writer *append;     /* append tables: the open rolling writer */
    pm_batch *scratch;          /* append tables: rows gathered for the rolling writer */
    pm_kv_buffer *buffer;       /* primary-key tables */
    pm_commit_messages pending; /* files written since the last prepare */
    /* compaction (primary-key writers with a compactor) */
    pm_compactor *k;                             /* borrowed, or NULL */
    pm_levels levels;                            /* the bucket's live files */
    const pm_type *key_types[PM_WRITE_MAX_KEYS]; /* of the trimmed primary key (the levels') */
    pm_universal strategy;                       /* this bucket's picker (its own clock) */
    pm_arena inc_arena;                          /* the compact increment's entries */
    pm_manifest_entry **before, **after;         /* compactBefore, compactAfter (NULL: removed) */
    size_t before_count, after_count, before_cap, after_cap;
    int64_t prepares; /* prepare-commits so far (delta commits) */
    /* lookup compaction (compactor->need_lookup) */
    pm_dv_maintainer *dvs;    /* deletion-vectors.enabled: the bucket's vectors, or NULL */
    pm_lookup_levels *lookup; /* built at the first compaction that needs it */
    int64_t l0_triggers;      /* lookup-compact = gentle: triggers since the last forced pick */
    pm_buf lookup_prefix;     /* names the bucket's local lookup files (the levels borrow it) */
    pm_merge_fn *merge;       /* compaction's own merge function (primary keys) */
    /* the compaction running in the background (Java's taskFuture): at most one */
    pm_group bg;
    bool bg_running;
    bg_task task;
    /* the buffer's spill running in the background (pm_bucket_writer_spill_start): at most
     * one; its records count as the writer's memory until their run is adopted */
    pm_group spill_g;
    pm_kv_buffer *spilling[PM_SPILL_PARTS_MAX]; /* the detached records, a task each */
    size_t spilling_count, spilling_mem;
    int lost_rc; /* a spill that failed lost its records: every later flush fails (or 0) */
};

int pm_bucket_writer_new(pm_bucket_writer **out, pm_write_ctx *c, const uint8_t *partition,
                         size_t partition_len, int32_t bucket, int32_t total_buckets,
                         int64_t next_seq, pm_compactor *compactor,
                         const pm_manifest_entry *const *restore, size_t restore_count,
                         const pm_index_manifest_entry *dv_index, const char *dv_index_path,
                         paimon_error *err)
{
    pm_bucket_writer *w = pm_calloc(1, sizeof(*w));
    int rc;
    *out = NULL;
    if (w == NULL)
        return pm_nomem(err);
    w->c = c;
    w->bucket = bucket;
    w->total_buckets = total_buckets;
    w->next_seq = next_seq;
    pm_buf_init(&w->dir, 0);
    pm_buf_init(&w->lookup_prefix, 0);
    pm_commit_messages_init(&w->pending);
    pm_commit_messages_init(&w->task.res);
    pm_group_init(&w->bg, compactor != NULL ? compactor->pool : NULL);
    pm_arena_init(&w->inc_arena, 4096);
    pm_levels_init(&w->levels, compactor != NULL ? compactor->num_levels : 2);
    /* primary keys: LSM levels; fixed-bucket append tables: the queue of files to compact
     * (all at level 0), as BucketedAppendCompactManager restores it */
    if (compactor != NULL && (c->primary_key || total_buckets > 0)) {
        w->k = compactor;
        w->strategy = compactor->strategy;
        for (size_t i = 0; i < restore_count; i++)
            if ((rc = pm_levels_add(&w->levels, restore[i], err)) != 0)
                goto done;
        if (c->primary_key) {
            /* Java's Levels: the restored files of a level >= 1 must form one sorted run */
            for (size_t i = 0; i < c->key_count; i++)
                w->key_types[i] = c->value_type->fields[c->key_idx[i]].type;
            pm_levels_set_key(&w->levels, w->key_types, c->key_count);
            if ((rc = pm_levels_check(&w->levels, err)) != 0) {
                rc = pm_err_prefix(err, rc, "bucket %d: ", (int)bucket);
                goto done;
            }
        }
        if (c->primary_key &&
            (rc = pm_merge_fn_new(&w->merge, c->schema, c->schema->row, err)) != 0)
            goto done;
        if (compactor->dv && c->primary_key &&
            (rc = pm_dv_maintainer_new(&w->dvs, c->fs, compactor->bitmap64, dv_index, dv_index_path,
                                       err)) != 0)
            goto done;
    }
    if ((w->partition = pm_malloc(partition_len + 1)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    memcpy(w->partition, partition, partition_len);
    w->partition_len = partition_len;
    if ((rc = pm_path_factory_init(&w->names)) != 0) {
        rc = pm_err_set(err, PAIMON_EIO, "no random numbers for file names");
        goto done;
    }
    if ((rc = pm_write_bucket_dir(c, partition, partition_len, bucket, &w->dir, err)) != 0)
        goto done;
    w->dir_path = pm_buf_cstr(&w->dir);
    if (c->primary_key && (rc = pm_kv_buffer_new(&w->buffer, c, err)) != 0)
        goto done;
    *out = w;
    return 0;
done:
    pm_bucket_writer_free(w);
    return rc;
}

/* A rolling writer of data (or changelog) files for this bucket. */
PM_MUST_CHECK static int new_data_writer(pm_bucket_writer *w, bool changelog, pm_data_writer **out,
                                         paimon_error *err)
{
    pm_data_writer_conf dc;
    pm_write_ctx_writer_conf(w->c, w->dir_path, &w->names, changelog, 0, &w->next_seq, &dc);
    return pm_data_writer_new(out, &dc, err);
}

/* Moves the files of a finished rolling writer to the pending messages. */
PM_MUST_CHECK static int take_files(pm_bucket_writer *w, pm_data_writer *dw, bool changelog,
                                    paimon_error *err)
{
    pm_data_file_meta *files;
    size_t count;
    int rc = pm_data_writer_finish(dw, &files, &count, err);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < count; i++) {
        pm_manifest_entry e;
        memset(&e, 0, sizeof(e));
        e.kind = PM_FILE_KIND_ADD;
        e.partition.ptr = w->partition;
        e.partition.len = w->partition_len;
        e.bucket = w->bucket;
        e.total_buckets = w->total_buckets;
        e.file = files[i];
        rc = changelog ? pm_commit_messages_add_changelog(&w->pending, &e)
                       : pm_commit_messages_add_data(&w->pending, &e);
        if (rc != 0)
            return pm_nomem(err);
    }
    return 0;
}

int pm_bucket_writer_put(pm_bucket_writer *w, const pm_batch *b, const int64_t *rows,
                         const int8_t *kinds, int64_t n, paimon_error *err)
{
    int rc;
    if (n <= 0)
        return 0;
    if (w->buffer != NULL) {
        if ((rc = pm_kv_buffer_put(w->buffer, b, rows, kinds, n, w->next_seq, err)) != 0)
            return rc;
        w->next_seq += n;
        return 0;
    }
    if (w->append == NULL && (rc = new_data_writer(w, false, &w->append, err)) != 0)
        return rc;
    if (w->scratch == NULL && (rc = pm_batch_new(&w->scratch, w->c->value_type, err)) != 0)
        return rc;
    pm_batch_reset(w->scratch);
    if ((rc = pm_batch_take(w->scratch, b, rows, n, err)) != 0 ||
        (rc = pm_data_writer_write(w->append, w->scratch, 0, n, err)) != 0) {
        pm_data_writer_abort(w->append);
        w->append = NULL;
        return rc;
    }
    return 0;
}

size_t pm_bucket_writer_memory(const pm_bucket_writer *w)
{
    return w->buffer != NULL ? pm_kv_buffer_memory(w->buffer) + w->spilling_mem : 0;
}

/* ---- the spill in the background ------------------------------------------------------- */

PM_MUST_CHECK static int spill_run(void *arg, paimon_error *err)
{
    return pm_kv_buffer_spill(arg, err);
}

int pm_bucket_writer_spill_start(pm_bucket_writer *w, pm_pool *pool, size_t parts,
                                 paimon_error *err)
{
    size_t mem;
    int rc;
    if (w->buffer == NULL || !w->c->spillable || w->spilling_count > 0 || w->lost_rc != 0)
        return 0;
    if (parts > PM_SPILL_PARTS_MAX)
        parts = PM_SPILL_PARTS_MAX;
    mem = pm_kv_buffer_memory(w->buffer);
    if ((rc = pm_kv_buffer_detach(w->buffer, parts, w->spilling, &w->spilling_count, err)) != 0 ||
        w->spilling_count == 0)
        return rc;
    w->spilling_mem = mem;
    pm_group_init(&w->spill_g, pool);
    /* a piece that cannot be queued is spilled here; its failure is the group's either way */
    for (size_t i = 0; i < w->spilling_count; i++)
        pm_group_submit_or_run(&w->spill_g, spill_run, w->spilling[i]);
    return 0;
}

bool pm_bucket_writer_spilling(const pm_bucket_writer *w)
{
    return w->spilling_count > 0;
}

/* The error of every flush after a spill lost rows (0 when none did). */
PM_MUST_CHECK static int lost_rows(const pm_bucket_writer *w, paimon_error *err)
{
    if (w->lost_rc == 0)
        return 0;
    return pm_err_set(err, w->lost_rc,
                      "bucket %d: a spill of the write buffer failed earlier and lost rows",
                      (int)w->bucket);
}

int pm_bucket_writer_spill_finish(pm_bucket_writer *w, bool wait, paimon_error *err)
{
    int rc;
    if (w->spilling_count == 0)
        return lost_rows(w, err);
    if (!wait && !pm_group_finished(&w->spill_g))
        return 0;
    rc = pm_group_wait(&w->spill_g, err);
    pm_group_destroy(&w->spill_g);
    for (size_t i = 0; i < w->spilling_count; i++) {
        if (rc != 0) {
            pm_kv_buffer_free(w->spilling[i]); /* with what it wrote */
        } else if ((rc = pm_kv_buffer_adopt(w->buffer, w->spilling[i], err)) != 0) {
            /* adopt freed it */
        }
        w->spilling[i] = NULL;
    }
    w->spilling_count = 0;
    w->spilling_mem = 0;
    if (rc != 0)
        w->lost_rc = rc;
    return rc != 0 ? rc : lost_rows(w, err);
}

PM_MUST_CHECK static int trigger_compaction(pm_bucket_writer *w, bool full, paimon_error *err);
PM_MUST_CHECK static int sync_compaction(pm_bucket_writer *w, paimon_error *err);
PM_MUST_CHECK static int trigger_append(pm_bucket_writer *w, bool full, paimon_error *err);
PM_MUST_CHECK static int drain_increment(pm_bucket_writer *w, pm_commit_messages *out,
                                         paimon_error *err);
static size_t sorted_runs(const pm_bucket_writer *w);

/* Adds a file to the levels, and to the lookup levels once they exist. */
PM_MUST_CHECK static int levels_add(pm_bucket_writer *w, const pm_manifest_entry *e,
                                    paimon_error *err)
{
    const pm_data_file_meta *added;
    int rc;
    if ((rc = pm_levels_add(&w->levels, e, err)) != 0 || w->lookup == NULL)
        return rc;
    added = &w->levels.files[w->levels.file_count - 1]->file; /* the levels' copy lives on */
    pthread_mutex_lock(&w->k->lookup_lock);
    rc = pm_lookup_levels_update(w->lookup, NULL, 0, &added, 1, err);
    pthread_mutex_unlock(&w->k->lookup_lock);
    return rc;
}

/* Removes a file from the levels and the lookup levels. */
PM_MUST_CHECK static int levels_remove(pm_bucket_writer *w, const pm_data_file_meta *f,
                                       paimon_error *err)
{
    int rc;
    if (!pm_levels_remove(&w->levels, f->file_name, f->level) || w->lookup == NULL)
        return 0;
    pthread_mutex_lock(&w->k->lookup_lock);
    rc = pm_lookup_levels_update(w->lookup, &f, 1, NULL, 0, err);
    pthread_mutex_unlock(&w->k->lookup_lock);
    return rc;
}

/* The lookup levels over the bucket's live files, built on first use. */
PM_MUST_CHECK static int ensure_lookup(pm_bucket_writer *w, paimon_error *err)
{
    const pm_data_file_meta **files;
    size_t n = 0;
    int rc;
    if (w->lookup != NULL || !w->k->need_lookup)
        return 0;
    if ((files = pm_malloc((w->levels.file_count + 1) * sizeof(*files))) == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < w->levels.file_count; i++)
        if (w->levels.files[i] != NULL)
            files[n++] = &w->levels.files[i]->file;
    /* Java's localFilePrefix: partition, bucket (the partition by its bytes' hash here: the
     * prefix only keeps buckets' local files apart) */
    w->lookup_prefix.len = 0;
    if ((rc = pm_buf_printf(&w->lookup_prefix, "%p-%d-", (void *)w, (int)w->bucket)) != 0) {
        pm_free(files);
        return pm_buf_error(err, rc);
    }
    pthread_mutex_lock(&w->k->lookup_lock);
    rc = pm_compactor_lookup_levels(w->k, w->dir_path, pm_buf_cstr(&w->lookup_prefix), w->dvs,
                                    files, n, &w->lookup, err);
    pthread_mutex_unlock(&w->k->lookup_lock);
    pm_free(files);
    return rc;
}

/* MergeTreeWriter.flushWriteBuffer's trySyncLatestCompaction(shouldWaitForLatestCompaction):
 * the running compaction's result is taken, waiting for it, by a writer that takes results
 * at fixed points (or is not async), for tables whose compaction uses the bucket's lookup
 * levels or deletion vectors (the writer may not touch them while it runs), and past
 * num-sorted-run.stop-trigger sorted runs (the flushed files not counted yet, as Java counts
 * before adding them); otherwise it is taken only if finished, and left running if not. */
PM_MUST_CHECK static int flush_sync(pm_bucket_writer *w, paimon_error *err)
{
    bool wait;
    if (!w->bg_running)
        return 0;
    wait = w->k->mode != PM_COMPACT_ASYNC || w->k->need_lookup || w->dvs != NULL ||
           (int64_t)sorted_runs(w) > w->k->stop_trigger;
    if (!wait && !pm_group_finished(&w->bg))
        return 0;
    return sync_compaction(w, err);
}

/* Flushes the buffer as level-0 files (and input changelog files). */
PM_MUST_CHECK static int flush_buffer(pm_bucket_writer *w, paimon_error *err)
{
    pm_data_writer *data = NULL, *changelog = NULL;
    size_t first_new = w->pending.data_count;
    int rc;
    PM_TRY(pm_bucket_writer_spill_finish(w, true, err));
    if (pm_kv_buffer_records(w->buffer) == 0)
        return w->k != NULL ? flush_sync(w, err) : 0;
    PM_TRY(new_data_writer(w, false, &data, err));
    if (w->c->changelog_input)
        PM_TRY(new_data_writer(w, true, &changelog, err));
    PM_TRY(pm_kv_buffer_flush(w->buffer, data, changelog, err));
    if (changelog != NULL) {
        PM_TRY(take_files(w, changelog, true, err));
        pm_data_writer_free(changelog);
        changelog = NULL;
    }
    PM_TRY(take_files(w, data, false, err));
    pm_data_writer_free(data);
    data = NULL;
    /* the files were written while a compaction may have run; its result, when taken, comes
     * first, then the new files join the levels (the same levels as Java's addNewFile before
     * the result's update); a result left running replaces its inputs whenever it is taken */
    if (w->k != NULL) {
        PM_TRY(flush_sync(w, err));
        for (size_t i = first_new; i < w->pending.data_count; i++)
            PM_TRY(levels_add(w, &w->pending.data[i], err));
    }
done:
    pm_data_writer_abort(data);
    pm_data_writer_abort(changelog);
    return rc;
}

int pm_bucket_writer_free_memory(pm_bucket_writer *w, paimon_error *err)
{
    int rc;
    if (w->buffer == NULL)
        return 0;
    if ((rc = pm_bucket_writer_spill_finish(w, true, err)) != 0)
        return rc;
    if (w->c->spillable)
        return pm_kv_buffer_spill(w->buffer, err);
    if ((rc = flush_buffer(w, err)) != 0 || w->k == NULL)
        return rc;
    /* MergeTreeWriter.flushWriteBuffer: a new compaction, left running when async */
    if ((rc = trigger_compaction(w, false, err)) != 0)
        return rc;
    return w->k->mode != PM_COMPACT_SYNC ? 0 : sync_compaction(w, err);
}

/* ---- compaction ------------------------------------------------------------------------ */

PM_MUST_CHECK static int inc_push(pm_bucket_writer *w, pm_manifest_entry ***items, size_t *count,
                                  size_t *cap, const pm_manifest_entry *e, paimon_error *err)
{
    pm_manifest_entry *copy;
    if (*count == *cap) {
        size_t n = *cap == 0 ? 16 : *cap * 2;
        pm_manifest_entry **grown = pm_realloc(*items, n * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        *items = grown;
        *cap = n;
    }
    if ((copy = pm_arena_alloc(&w->inc_arena, sizeof(*copy))) == NULL ||
        pm_manifest_entry_copy(&w->inc_arena, copy, e) != 0)
        return pm_nomem(err);
    (*items)[(*count)++] = copy;
    return 0;
}

static bool same_file(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
    return a->file.level == b->file.level && strcmp(a->file.file_name, b->file.file_name) == 0;
}

/* Removes file `name` of this bucket's directory (a file this writer wrote; the name is
 * checked all the same, as every path a removal takes, meta/file_path.h).  The path is built
 * on the stack when it fits, so that cleaning up after an allocation failure needs no
 * memory. */
static void remove_file(pm_bucket_writer *w, const char *name)
{
    char stack[1024];
    pm_buf p;
    int n;
    if (pm_file_name_check(w->c->table, "data file", name, NULL) != 0)
        return;
    n = snprintf(stack, sizeof(stack), "%s/%s", w->dir_path, name);
    if (n >= 0 && (size_t)n < sizeof(stack)) {
        (void)w->c->fs->remove(w->c->fs, stack, NULL);
        return;
    }
    pm_buf_init(&p, 0);
    if (pm_file_path_resolve(w->c->table, w->c->opts, w->dir_path, name, NULL, &p, NULL) == 0)
        (void)w->c->fs->remove(w->c->fs, pm_buf_cstr(&p), NULL);
    pm_buf_free(&p);
}

/* MergeTreeWriter.updateCompactResult, and the levels' update (Levels.update). */
PM_MUST_CHECK static int apply_result(pm_bucket_writer *w, const pm_commit_messages *res,
                                      paimon_error *err)
{
    int rc;
    for (size_t i = 0; i < res->compact_count; i++) {
        const pm_manifest_entry *e = &res->compact[i];
        bool was_after = false, in_before = false, output_name = false;
        if (e->kind != PM_FILE_KIND_DELETE)
            continue;
        if ((rc = levels_remove(w, &e->file, err)) != 0)
            return rc;
        for (size_t j = 0; j < w->after_count; j++)
            if (w->after[j] != NULL && same_file(w->after[j], e)) {
                w->after[j] = NULL;
                was_after = true;
                break;
            }
        if (!was_after) {
            if ((rc = inc_push(w, &w->before, &w->before_count, &w->before_cap, e, err)) != 0)
                return rc;
            continue;
        }
        /* an intermediate file, never committed: delete it unless an upgrade keeps it */
        for (size_t j = 0; j < w->before_count; j++)
            in_before |= strcmp(w->before[j]->file.file_name, e->file.file_name) == 0;
        for (size_t j = 0; j < res->compact_count; j++)
            output_name |= res->compact[j].kind == PM_FILE_KIND_ADD &&
                           strcmp(res->compact[j].file.file_name, e->file.file_name) == 0;
        if (!in_before && !output_name)
            remove_file(w, e->file.file_name);
    }
    for (size_t i = 0; i < res->compact_count; i++) {
        const pm_manifest_entry *e = &res->compact[i];
        if (e->kind != PM_FILE_KIND_ADD)
            continue;
        if ((rc = levels_add(w, e, err)) != 0 ||
            (rc = inc_push(w, &w->after, &w->after_count, &w->after_cap, e, err)) != 0)
            return rc;
    }
    return 0;
}

static void compact_bucket(pm_bucket_writer *w, pm_compact_bucket *b)
{
    memset(b, 0, sizeof(*b));
    b->partition = w->partition;
    b->partition_len = w->partition_len;
    b->bucket = w->bucket;
    b->total_buckets = w->total_buckets;
    b->dir = w->dir_path;
    b->names = &w->names;
    b->dvs = w->dvs;
    b->lookup = w->lookup;
}

/* Removes the files a compaction wrote (its outputs, except inputs it only moved up a level,
 * and its changelog files) when taking its result failed part way: the writer is unusable
 * then and would not know them all when freed (removing one twice is harmless). */
static void discard_result(pm_bucket_writer *w, const pm_commit_messages *res)
{
    const pm_manifest_entry *lists[2] = {res->compact, res->compact_changelog};
    size_t counts[2] = {res->compact_count, res->compact_changelog_count};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < counts[l]; i++) {
            const pm_data_file_meta *f = &lists[l][i].file;
            bool upgraded = false;
            if (lists[l][i].kind != PM_FILE_KIND_ADD)
                continue;
            for (size_t j = 0; l == 0 && j < res->compact_count; j++)
                upgraded |= res->compact[j].kind == PM_FILE_KIND_DELETE &&
                            strcmp(res->compact[j].file.file_name, f->file_name) == 0;
            if (upgraded)
                continue;
            remove_file(w, f->file_name);
            for (size_t k = 0; k < f->extra_files.count; k++)
                remove_file(w, ((const char *const *)f->extra_files.items)[k]);
        }
}

/* A compaction's result into the levels and the increment; its changelog files stay with the
 * writer's messages until a commit takes them (or a failure removes them with the other
 * pending files). */
PM_MUST_CHECK static int take_result(pm_bucket_writer *w, const pm_commit_messages *res,
                                     paimon_error *err)
{
    int rc;
    if ((rc = apply_result(w, res, err)) != 0)
        goto done;
    for (size_t i = 0; i < res->compact_changelog_count; i++)
        if (pm_commit_messages_add_compact_changelog(&w->pending, &res->compact_changelog[i]) !=
            0) {
            rc = pm_nomem(err);
            goto done;
        }
done:
    if (rc != 0)
        discard_result(w, res);
    return rc;
}

/* ---- the compaction in the background ------------------------------------------------- */

/* The pool task: the picked unit compacted into t->res (a failure removes what it wrote). */
PM_MUST_CHECK static int run_task(void *arg, paimon_error *err)
{
    bg_task *t = arg;
    pm_bucket_writer *w = t->w;
    pm_compact_bucket b;
    int rc;
    compact_bucket(w, &b);
    b.merge = w->merge;
    if (w->lookup != NULL) /* lookup levels share one cache across the write's buckets */
        pthread_mutex_lock(&w->k->lookup_lock);
    if (t->rewrite)
        rc = pm_compact_rewrite_files(w->k, &b, t->files, t->n, t->output, t->drop_delete,
                                      t->max_level, &t->res, err);
    else
        rc = pm_compact_unit(w->k, &b, t->files, t->n, t->output, t->drop_delete, t->max_level,
                             &t->res, err);
    if (w->lookup != NULL)
        pthread_mutex_unlock(&w->k->lookup_lock);
    return rc;
}

/* MergeTreeCompactManager.submitCompaction: files[0..n) (taken, also on failure) compacted
 * on the pool; with no pool the task runs here, and its result waits all the same for
 * sync_compaction, so that the levels change at the same points whatever the thread count. */
PM_MUST_CHECK static int submit(pm_bucket_writer *w, const pm_manifest_entry **files, size_t n,
                                int32_t output, bool drop_delete, int32_t max_level, bool rewrite,
                                paimon_error *err)
{
    bg_task *t = &w->task;
    int rc;
    t->w = w;
    t->files = files;
    t->n = n;
    t->output = output;
    t->drop_delete = drop_delete;
    t->max_level = max_level;
    t->rewrite = rewrite;
    if ((rc = pm_group_submit(&w->bg, run_task, t, err)) != 0) {
        pm_free(t->files);
        t->files = NULL;
        return rc;
    }
    w->bg_running = true;
    return 0;
}

/* The running compaction's result, waited for, into the levels and the increment
 * (getCompactionResult(blocking) + updateCompactResult).  Where Java takes only a finished
 * result, flush_sync() decides whether to come here. */
PM_MUST_CHECK static int sync_compaction(pm_bucket_writer *w, paimon_error *err)
{
    bg_task *t = &w->task;
    int rc;
    if (!w->bg_running)
        return 0;
    rc = pm_group_wait(&w->bg, err);
    w->bg_running = false;
    if (rc == 0)
        rc = take_result(w, &t->res, err); /* removes the outputs when it fails */
    pm_commit_messages_release(&t->res);
    pm_commit_messages_init(&t->res);
    pm_free(t->files);
    t->files = NULL;
    return rc;
}

bool pm_bucket_writer_failed(pm_bucket_writer *w)
{
    return w->bg_running && pm_group_failed(&w->bg);
}

int pm_bucket_writer_sync(pm_bucket_writer *w, paimon_error *err)
{
    return sync_compaction(w, err);
}

/* The sorted runs of the levels (Levels.numberOfSortedRuns): each level-0 file, and each
 * non-empty level above. */
static size_t sorted_runs(const pm_bucket_writer *w)
{
    bool level_used[PM_MAX_LEVELS_TRACKED] = {false};
    size_t runs = 0;
    for (size_t i = 0; i < w->levels.file_count; i++) {
        const pm_manifest_entry *e = w->levels.files[i];
        if (e == NULL)
            continue;
        if (e->file.level == 0 || e->file.level >= PM_MAX_LEVELS_TRACKED)
            runs++;
        else if (!level_used[e->file.level]) {
            level_used[e->file.level] = true;
            runs++;
        }
    }
    return runs;
}

/* ForceUpLevel0Compaction: when the universal pick has nothing, every level-0 run (and the
 * runs after them that pass the size-ratio test) -- at every trigger (lookup-compact =
 * radical), or every lookup-compact.max-interval-th one (gentle). */
static bool force_pick_level0(pm_bucket_writer *w, const pm_level_run *sizes, size_t n,
                              size_t *take, int32_t *output)
{
    size_t level0 = 0;
    if (w->k->lookup_interval > 0 && ++w->l0_triggers < w->k->lookup_interval)
        return false;
    w->l0_triggers = 0;
    while (level0 < n && sizes[level0].level == 0)
        level0++;
    if (level0 == 0)
        return false;
    return pm_universal_pick_size_ratio(&w->strategy, w->levels.num_levels, sizes, n, level0, true,
                                        take, output);
}

/* pickFullCompaction of a bucket whose only run is at the max level: the files holding a
 * deletion vector (all of them under compaction.force-rewrite-all-files), each rewritten
 * alone (FileRewriteCompactTask). */
PM_MUST_CHECK static int rewrite_max_level(pm_bucket_writer *w, const pm_levels_run *run,
                                           paimon_error *err)
{
    const pm_manifest_entry **files = pm_malloc((run->file_count + 1) * sizeof(*files));
    size_t n = 0;
    if (files == NULL)
        return pm_nomem(err);
    for (size_t i = 0; i < run->file_count; i++)
        if (w->k->force_rewrite_all ||
            (w->dvs != NULL && pm_dv_maintainer_get(w->dvs, run->files[i]->file.file_name) != NULL))
            files[n++] = run->files[i];
    if (n == 0) {
        pm_free(files);
        return 0;
    }
    return submit(w, files, n, run->level, true, run->level, true, err);
}

/* MergeTreeCompactManager.triggerCompaction: the unit picked is submitted (submit()). */
PM_MUST_CHECK static int trigger_compaction(pm_bucket_writer *w, bool full, paimon_error *err)
{
    pm_levels_run *runs = NULL;
    pm_level_run *sizes = NULL;
    const pm_manifest_entry **files = NULL;
    size_t run_count = 0, take = 0, file_count = 0;
    int32_t output = 0, max_level, highest;
    bool picked;
    int rc;

    /* CompactFutureManager: one task at a time; a normal pick waits for the next trigger, a
     * full compaction takes the running one's result first */
    if (w->bg_running && !full)
        return 0;
    PM_TRY(sync_compaction(w, err));
    PM_TRY(pm_levels_runs(&w->levels, &runs, &run_count, err));
    max_level = w->levels.num_levels - 1;
    if (run_count == 0)
        goto done;
    if (full) {
        /* CompactStrategy.pickFullCompaction: a lone run at the max level rewrites, file by
         * file, the files that carry a deletion vector, or all of them under
         * compaction.force-rewrite-all-files (no record expiry here) */
        if (run_count == 1 && runs[0].level == max_level) {
            rc = rewrite_max_level(w, &runs[0], err);
            goto done;
        }
        picked = true;
        take = run_count;
        output = max_level;
    } else {
        if ((sizes = pm_calloc(run_count, sizeof(*sizes))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        for (size_t i = 0; i < run_count; i++) {
            sizes[i].level = runs[i].level;
            sizes[i].size = runs[i].size;
        }
        picked =
            pm_universal_pick(&w->strategy, w->levels.num_levels, sizes, run_count, &take, &output);
        if (!picked && w->k->force_up_level0)
            picked = force_pick_level0(w, sizes, run_count, &take, &output);
    }
    if (!picked)
        goto done;
    for (size_t i = 0; i < take; i++)
        file_count += runs[i].file_count;
    /* the manager drops units without files, and strategy picks of one file already at the
     * output level (a forced full compaction rewrites such a file when it must) */
    if (file_count == 0 || (!full && file_count == 1 && runs[0].files[0]->file.level == output))
        goto done;
    if ((files = pm_malloc(file_count * sizeof(*files))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    file_count = 0;
    for (size_t i = 0; i < take; i++)
        for (size_t f = 0; f < runs[i].file_count; f++)
            files[file_count++] = runs[i].files[f];
    highest = pm_levels_highest(&w->levels);
    {
        /* dropDelete = output != 0 && (output >= the highest non-empty level || deletion
         * vectors: a replaced row above is marked, so nothing needs the retraction) */
        bool drop_delete = output != 0 && (output >= highest || w->dvs != NULL);
        PM_TRY(ensure_lookup(w, err));
        rc = submit(w, files, file_count, output, drop_delete, max_level, false, err);
        files = NULL; /* the task's, or freed */
    }
done:
    pm_levels_runs_free(runs, run_count);
    pm_free(sizes);
    pm_free(files);
    return rc;
}

/* ---- append tables (BucketedAppendCompactManager) --------------------------------------- */

static int by_min_seq(const void *pa, const void *pb)
{
    const pm_manifest_entry *a = *(const pm_manifest_entry *const *)pa;
    const pm_manifest_entry *b = *(const pm_manifest_entry *const *)pb;
    if (a->file.min_sequence_number != b->file.min_sequence_number)
        return a->file.min_sequence_number < b->file.min_sequence_number ? -1 : 1;
    return strcmp(a->file.file_name, b->file.file_name);
}

/* Compacts files[0..n) and updates the queue: the inputs leave it, and the last output
 * joins it again while it is still small (getCompactionResult). */
PM_MUST_CHECK static int append_rewrite(pm_bucket_writer *w, const pm_manifest_entry **files,
                                        size_t n, paimon_error *err)
{
    pm_compact_bucket b;
    pm_commit_messages res;
    const pm_manifest_entry *last = NULL;
    int rc;
    compact_bucket(w, &b);
    pm_commit_messages_init(&res);
    PM_TRY(pm_compact_append(w->k, &b, files, n, &res, err));
    /* the levels hold the queue: apply_result takes the inputs out and puts every output in */
    if ((rc = apply_result(w, &res, err)) != 0) {
        discard_result(w, &res);
        goto done;
    }
    for (size_t i = 0; i < res.compact_count; i++)
        if (res.compact[i].kind == PM_FILE_KIND_ADD)
            last = &res.compact[i];
    for (size_t i = 0; i < res.compact_count; i++) {
        const pm_manifest_entry *e = &res.compact[i];
        if (e->kind == PM_FILE_KIND_ADD && (e != last || e->file.file_size >= w->k->min_file_size))
            pm_levels_remove(&w->levels, e->file.file_name, 0);
    }
done:
    pm_commit_messages_release(&res);
    return rc;
}

/* triggerCompaction: the best-effort pick (pickCompactBefore) or the full compaction
 * (FullCompactTask), run to the end. */
PM_MUST_CHECK static int trigger_append(pm_bucket_writer *w, bool full, paimon_error *err)
{
    pm_levels_run *runs = NULL;
    const pm_manifest_entry **q = NULL;
    size_t run_count = 0, n;
    int rc;

    PM_TRY(pm_levels_runs(&w->levels, &runs, &run_count, err));
    n = run_count;
    if (n == 0)
        goto done;
    if ((q = pm_malloc(n * sizeof(*q))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        q[i] = runs[i].files[0];
    qsort(q, n, sizeof(*q), by_min_seq);
    if (full) {
        size_t start = 0, big = 0, small = 0;
        if (!w->k->force_rewrite_all && n < 3) /* FULL_COMPACT_MIN_FILE */
            goto done;
        /* the task takes the whole queue: files it leaves alone leave the queue */
        for (size_t i = 0; i < n; i++)
            pm_levels_remove(&w->levels, q[i]->file.file_name, 0);
        while (!w->k->force_rewrite_all && start < n &&
               q[start]->file.file_size >= w->k->min_file_size)
            start++;
        for (size_t i = start; i < n; i++) {
            if (q[i]->file.file_size >= w->k->min_file_size)
                big++;
            else
                small++;
        }
        if (w->k->force_rewrite_all || (small > big && n - start >= 3)) {
            /* the levels no longer hold the inputs: re-add so apply_result can take them */
            for (size_t i = start; i < n; i++)
                PM_TRY(pm_levels_add(&w->levels, q[i], err));
            PM_TRY(append_rewrite(w, q + start, n - start, err));
        }
        goto done;
    }
    {
        /* pickCompactBefore: the oldest files until compaction.min.file-num of them, the
         * window sliding past files while it holds 2 x target-file-size */
        size_t first = 0, count = 0;
        int64_t total = 0;
        for (size_t i = 0; i < n; i++) {
            count++;
            total += q[i]->file.file_size;
            if ((int64_t)count >= w->k->min_file_num) {
                PM_TRY(append_rewrite(w, q + first, count, err));
                goto done;
            }
            if (total >= w->k->c->target_size * 2) {
                /* the file shifted out leaves the queue for good */
                pm_levels_remove(&w->levels, q[first]->file.file_name, 0);
                total -= q[first]->file.file_size;
                first++;
                count--;
            }
        }
    }
done:
    pm_levels_runs_free(runs, run_count);
    pm_free(q);
    return rc;
}

int pm_bucket_writer_compact_files(pm_bucket_writer *w, pm_compactor *compactor,
                                   const pm_manifest_entry **files, size_t n, paimon_error *err)
{
    int rc;
    if (w->buffer != NULL)
        return pm_err_set(err, PAIMON_EINVALID, "compact_files is for append tables");
    w->k = compactor;
    for (size_t i = 0; i < n; i++)
        if ((rc = pm_levels_add(&w->levels, files[i], err)) != 0)
            return rc;
    if ((rc = append_rewrite(w, files, n, err)) != 0)
        return rc;
    /* no queue here: the coordinator plans again on its next run */
    pm_levels_release(&w->levels);
    pm_levels_init(&w->levels, 2);
    return 0;
}

int pm_bucket_writer_compact(pm_bucket_writer *w, bool full, paimon_error *err)
{
    int rc;
    if (w->buffer != NULL && (rc = flush_buffer(w, err)) != 0)
        return rc;
    if (w->k == NULL)
        return 0;
    if (w->buffer == NULL)
        return trigger_append(w, full, err);
    /* compact(full): flushWriteBuffer(waitForLatestCompaction = true, full), run to its end */
    if ((rc = trigger_compaction(w, full, err)) != 0)
        return rc;
    return sync_compaction(w, err);
}

/* Moves the compact increment into `out`. */
PM_MUST_CHECK static int drain_increment(pm_bucket_writer *w, pm_commit_messages *out,
                                         paimon_error *err)
{
    for (size_t i = 0; i < w->before_count; i++) {
        pm_manifest_entry e = *w->before[i];
        e.kind = PM_FILE_KIND_DELETE;
        if (pm_commit_messages_add_compact(out, &e) != 0)
            return pm_nomem(err);
    }
    for (size_t i = 0; i < w->after_count; i++) {
        if (w->after[i] == NULL)
            continue;
        if (pm_commit_messages_add_compact(out, w->after[i]) != 0)
            return pm_nomem(err);
    }
    w->before_count = w->after_count = 0;
    pm_arena_free(&w->inc_arena);
    pm_arena_init(&w->inc_arena, 4096);
    return 0;
}

/* Removes index file `name` of this bucket, written by this writer and never committed. */
static void remove_index_file(pm_bucket_writer *w, const char *name)
{
    pm_buf p, dir;
    pm_buf_init(&p, 0);
    pm_buf_init(&dir, 0);
    if (pm_write_index_dir(w->c, w->partition, w->partition_len, w->bucket, &dir, NULL) == 0 &&
        pm_file_path_resolve(w->c->table, w->c->opts, pm_buf_cstr(&dir), name, NULL, &p, NULL) == 0)
        (void)w->c->fs->remove(w->c->fs, pm_buf_cstr(&p), NULL);
    pm_buf_free(&p);
    pm_buf_free(&dir);
}

/* A changed bucket's deletion vectors as a new index file of the compact increment
 * (CompactDeletionFile.generateFiles at prepare-commit). */
PM_MUST_CHECK static int write_vectors(pm_bucket_writer *w, paimon_error *err)
{
    pm_index_manifest_entry e;
    pm_arena arena;
    pm_buf dir;
    bool written = false;
    int rc;
    if (w->dvs == NULL || !pm_dv_maintainer_modified(w->dvs))
        return 0;
    pm_arena_init(&arena, 1024);
    pm_buf_init(&dir, 0);
    if ((rc = pm_write_index_dir(w->c, w->partition, w->partition_len, w->bucket, &dir, err)) ==
            0 &&
        (rc = w->c->fs->mkdirs(w->c->fs, pm_buf_cstr(&dir), err)) == 0)
        rc = pm_dv_maintainer_write(w->dvs, w->c->fs, pm_buf_cstr(&dir), &w->names, w->partition,
                                    w->partition_len, w->bucket, &arena, &e, &written, err);
    if (rc == 0 && written && pm_commit_messages_add_compact_index(&w->pending, &e) != 0)
        rc = pm_nomem(err);
    pm_arena_free(&arena);
    pm_buf_free(&dir);
    return rc;
}

void pm_bucket_writer_release_pending(pm_bucket_writer *w)
{
    pm_commit_messages_release(&w->pending);
    pm_commit_messages_init(&w->pending);
}

int pm_bucket_writer_prepare(pm_bucket_writer *w, pm_commit_messages *out, bool keep, bool wait,
                             paimon_error *err)
{
    int rc;
    if (w->buffer != NULL) {
        if ((rc = flush_buffer(w, err)) != 0)
            return rc;
        if (w->k != NULL) {
            /* full-compaction.delta-commits: every N-th commit compacts fully (Flink's
             * StoreSinkWrite at checkpoint ids divisible by N) */
            bool full = w->k->delta_commits > 0 && ++w->prepares % w->k->delta_commits == 0;
            /* the vectors of the results taken so far (flush_buffer waited for the running
             * compaction): written before a new compaction marks rows for a result this
             * commit may not take (lookup-wait = false), so that the results committed now
             * come with their vectors (Java's CompactDeletionFile of each result) */
            size_t vectors_at = w->pending.compact_index_count;
            if ((rc = write_vectors(w, err)) != 0)
                return rc;
            if ((rc = trigger_compaction(w, full, err)) != 0)
                return rc;
            /* MergeTreeWriter.prepareCommit(waitCompaction): waits when asked to (a batch
             * write, the end of the input, lookup-wait for tables that need lookups), for a
             * full compaction, and past num-sorted-run.stop-trigger + 1 runs */
            wait = wait || w->k->mode == PM_COMPACT_SYNC || full ||
                   (w->k->need_lookup && w->k->lookup_wait) ||
                   (int64_t)sorted_runs(w) > w->k->stop_trigger + 1;
            if (wait && (rc = sync_compaction(w, err)) != 0)
                return rc;
            if ((rc = drain_increment(w, &w->pending, err)) != 0)
                return rc;
            /* the vectors a running compaction marks come with its result, at a later
             * prepare (CompactDeletionFile of the result); a result waited for here changed
             * them again: its file replaces the one written above (one per bucket and commit) */
            if (!w->bg_running && w->dvs != NULL && pm_dv_maintainer_modified(w->dvs) &&
                w->pending.compact_index_count > vectors_at) {
                remove_index_file(w, w->pending.compact_index[vectors_at].file_name);
                w->pending.compact_index_count = vectors_at;
            }
            if (!w->bg_running && (rc = write_vectors(w, err)) != 0)
                return rc;
        }
    } else {
        size_t first_new = w->pending.data_count;
        if (w->append != NULL) {
            pm_data_writer *dw = w->append;
            w->append = NULL;
            rc = take_files(w, dw, false, err);
            if (rc != 0) {
                pm_data_writer_abort(dw);
                return rc;
            }
            pm_data_writer_free(dw);
        }
        if (w->k != NULL) {
            bool full = w->k->delta_commits > 0 && ++w->prepares % w->k->delta_commits == 0;
            for (size_t i = first_new; i < w->pending.data_count; i++)
                if ((rc = pm_levels_add(&w->levels, &w->pending.data[i], err)) != 0)
                    return rc;
            if ((rc = trigger_append(w, full, err)) != 0 ||
                (rc = drain_increment(w, &w->pending, err)) != 0)
                return rc;
        }
    }
    if (pm_commit_messages_append(out, &w->pending) != 0)
        return pm_nomem(err);
    if (!keep)
        pm_bucket_writer_release_pending(w);
    return 0;
}

int64_t pm_bucket_writer_next_seq(const pm_bucket_writer *w)
{
    return w->next_seq;
}

/* Removes the files of entries that were never committed. */
static void remove_pending(pm_bucket_writer *w)
{
    const pm_manifest_entry *lists[3] = {w->pending.data, w->pending.changelog,
                                         w->pending.compact_changelog};
    size_t counts[3] = {w->pending.data_count, w->pending.changelog_count,
                        w->pending.compact_changelog_count};
    pm_buf p, dir;
    pm_buf_init(&p, 0);
    pm_buf_init(&dir, 0);
    for (int l = 0; l < 3; l++)
        for (size_t i = 0; i < counts[l]; i++) {
            const pm_data_file_meta *f = &lists[l][i].file;
            remove_file(w, f->file_name);
            for (size_t k = 0; k < f->extra_files.count; k++)
                remove_file(w, ((const char *const *)f->extra_files.items)[k]);
        }
    for (size_t i = 0; i < w->pending.compact_index_count; i++) {
        p.len = 0;
        dir.len = 0;
        if (pm_write_index_dir(w->c, w->partition, w->partition_len, w->bucket, &dir, NULL) == 0 &&
            pm_file_path_resolve(w->c->table, w->c->opts, pm_buf_cstr(&dir),
                                 w->pending.compact_index[i].file_name, NULL, &p, NULL) == 0)
            (void)w->c->fs->remove(w->c->fs, pm_buf_cstr(&p), NULL);
    }
    pm_buf_free(&p);
    pm_buf_free(&dir);
    /* the compaction outputs drained into the increment (a prepare that failed after
     * draining), except upgrades: the same name DELETEd at its old level */
    for (size_t i = 0; i < w->pending.compact_count; i++) {
        const pm_manifest_entry *e = &w->pending.compact[i];
        bool upgraded = false;
        if (e->kind != PM_FILE_KIND_ADD)
            continue;
        for (size_t j = 0; j < w->pending.compact_count; j++)
            upgraded |= w->pending.compact[j].kind == PM_FILE_KIND_DELETE &&
                        strcmp(w->pending.compact[j].file.file_name, e->file.file_name) == 0;
        if (!upgraded)
            remove_file(w, e->file.file_name);
    }
}

/* Removes files compaction wrote that no commit took (not upgrades of committed files). */
static void remove_compacted(pm_bucket_writer *w)
{
    for (size_t i = 0; i < w->after_count; i++) {
        bool upgraded = false;
        if (w->after[i] == NULL)
            continue;
        for (size_t j = 0; j < w->before_count; j++)
            upgraded |= strcmp(w->before[j]->file.file_name, w->after[i]->file.file_name) == 0;
        for (size_t j = 0; j < w->pending.data_count; j++)
            upgraded |= strcmp(w->pending.data[j].file.file_name, w->after[i]->file.file_name) == 0;
        if (!upgraded)
            remove_file(w, w->after[i]->file.file_name);
    }
}

void pm_bucket_writer_free(pm_bucket_writer *w)
{
    if (w == NULL)
        return;
    if (w->bg_running) {
        /* a compaction no commit will take: wait for it and remove what it wrote */
        paimon_error ignored;
        paimon_error_clear(&ignored);
        if (pm_group_wait(&w->bg, &ignored) == 0)
            discard_result(w, &w->task.res);
        w->bg_running = false;
    }
    pm_group_destroy(&w->bg);
    if (w->spilling_count > 0) { /* their records go with the writer */
        paimon_error ignored;
        paimon_error_clear(&ignored);
        if (pm_group_wait(&w->spill_g, &ignored) != 0) {
            /* the runs written, if any, are removed with the buffers below */
        }
        pm_group_destroy(&w->spill_g);
        for (size_t i = 0; i < w->spilling_count; i++)
            pm_kv_buffer_free(w->spilling[i]);
    }
    pm_commit_messages_release(&w->task.res);
    pm_free(w->task.files);
    pm_merge_fn_free(w->merge);
    pm_data_writer_abort(w->append);
    remove_compacted(w);
    remove_pending(w);
    pm_kv_buffer_free(w->buffer);
    pm_batch_free(w->scratch);
    if (w->lookup != NULL) {
        pthread_mutex_lock(&w->k->lookup_lock);
        pm_lookup_levels_free(w->lookup);
        pthread_mutex_unlock(&w->k->lookup_lock);
    }
    pm_buf_free(&w->lookup_prefix);
    pm_dv_maintainer_free(w->dvs);
    pm_commit_messages_release(&w->pending);
    pm_levels_release(&w->levels);
    pm_arena_free(&w->inc_arena);
    pm_free(w->before);
    pm_free(w->after);
    pm_buf_free(&w->dir);
    pm_free(w->partition);
    pm_free(w);
}

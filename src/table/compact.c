/* The dedicated compaction of a table: see compact.h. */
#include "table/compact.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "data/binary_row.h"
#include "meta/partition_spec.h"
#include "meta/schema.h"
#include "table/commit.h"
#include "table/write/changelog_compact.h"
#include "table/write/table_write.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/bytes_map.h"
#include "util/pool.h"

/* Does the partition match the --partition spec (meta/partition_spec.h)?  A partition
 * row that does not decode matches nothing (the scan that listed it reports it). */
static bool matches(void *arg, const uint8_t *partition, size_t len)
{
    bool hit = false;
    return pm_partition_spec_match(arg, partition, len, &hit, NULL) == 0 && hit;
}

/* ---- the compaction job of unaware-bucket append tables ------------------------------------ */

static int64_t size_then_seq(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
    if (a->file.file_size != b->file.file_size)
        return a->file.file_size < b->file.file_size ? -1 : 1;
    if (a->file.min_sequence_number != b->file.min_sequence_number)
        return a->file.min_sequence_number < b->file.min_sequence_number ? -1 : 1;
    if (a->file.creation_time != b->file.creation_time)
        return a->file.creation_time < b->file.creation_time ? -1 : 1;
    return strcmp(a->file.file_name, b->file.file_name);
}

static int by_size(const void *pa, const void *pb)
{
    return (int)size_then_seq(*(const pm_manifest_entry *const *)pa,
                              *(const pm_manifest_entry *const *)pb);
}

static bool same_partition(const pm_manifest_entry *a, const pm_manifest_entry *b)
{
    return a->partition.len == b->partition.len &&
           memcmp(a->partition.ptr, b->partition.ptr, a->partition.len) == 0;
}

/* AppendCompactCoordinator's plan on its first run, per partition: the files smaller than
 * compactionFileSize, sorted by size, packed into bins of more than one file whose sizes
 * plus source.split.open-file-cost each reach 2 x target-file-size; what is left forms one
 * more bin when it holds compaction.min.file-num files.  Each bin is rewritten in bin order
 * (AppendCompactTask) into bucket 0.  Java sorts by size alone (ties in HashSet order);
 * ties go by sequence number, creation time and file name here. */
PM_MUST_CHECK static int compact_unaware(pm_table_write *w, const char *table,
                                         pm_partition_match match, void *arg,
                                         pm_commit_messages *out, paimon_error *err)
{
    pm_compactor *k = pm_table_write_compactor(w);
    const pm_manifest_entry *const *live = NULL;
    const pm_manifest_entry **files = NULL;
    size_t live_count = 0;
    int64_t open_cost;
    int rc;

    if (k == NULL)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: this table is not compacted by paimon-c",
                          table);
    PM_TRY(pm_table_write_live_files(w, &live, &live_count, err));
    PM_TRY(pm_options_get_memory(k->c->opts, "source.split.open-file-cost", &open_cost, err));
    if ((files = pm_malloc((live_count + 1) * sizeof(*files))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < live_count; i++) {
        const pm_manifest_entry *p = live[i];
        pm_bucket_writer *bw = NULL;
        size_t n = 0, start = 0;
        int64_t total = 0;
        bool first = true;
        if (match != NULL && !match(arg, p->partition.ptr, p->partition.len))
            continue;
        for (size_t j = 0; j < i && first; j++)
            first = !same_partition(live[j], p);
        if (!first)
            continue;
        for (size_t j = i; j < live_count; j++)
            if (same_partition(live[j], p) && live[j]->file.file_size < k->min_file_size)
                files[n++] = live[j];
        qsort(files, n, sizeof(*files), by_size);
        PM_TRY(pm_table_write_bucket(w, &p->partition, 0, &bw, err));
        for (size_t j = 0; j < n; j++) {
            total += files[j]->file.file_size + open_cost;
            if (j + 1 - start > 1 && total >= 2 * k->c->target_size) {
                PM_TRY(pm_bucket_writer_compact_files(bw, k, files + start, j + 1 - start, err));
                start = j + 1;
                total = 0;
            }
        }
        if ((int64_t)(n - start) >= k->min_file_num && n - start > 1)
            PM_TRY(pm_bucket_writer_compact_files(bw, k, files + start, n - start, err));
    }
    rc = pm_table_write_prepare(w, out, err);
done:
    pm_free(files);
    return rc;
}

/* ---- buckets in parallel ------------------------------------------------------------------ */

/* One bucket of the job: compacted by whichever worker takes it; its increment and its
 * failure stay here until the caller reads them, in bucket order, after the wait. */
typedef struct bucket_job {
    const pm_avro_bytes *partition; /* in the first write's live files */
    int32_t bucket;
    pm_commit_messages m; /* its compact increment */
    int rc;               /* 0, or its failure (err) */
    paimon_error err;
} bucket_job;

/* What the workers share: the job list, the next bucket to take, and a stop flag set by a
 * failure (the buckets after it are not started; their results would be thrown away). */
typedef struct job_queue {
    pm_fs *fs;
    const char *table;
    const pm_compact_opts *o;
    bucket_job *jobs;
    size_t count;
    atomic_size_t next;
    atomic_bool stop;
    unsigned int writer_threads; /* each worker's write: the threads the workers leave */
} job_queue;

/* A worker: one table write of its own (table_write.h: several writes of one table may run
 * in parallel on different buckets), made on its first bucket -- the first worker's is the
 * write that listed the buckets.  Its files stay pending in it until the commit. */
typedef struct compact_worker {
    job_queue *q;
    pm_table_write *w; /* owned */
} compact_worker;

PM_MUST_CHECK static int compact_one(compact_worker *k, bucket_job *j, paimon_error *err)
{
    pm_table_write_opts wo = {false, k->q->o->commit_user, true};
    pm_bucket_writer *bw = NULL;
    int rc;
    if (k->w == NULL) {
        if ((rc = pm_table_write_new(&k->w, k->q->fs, k->q->table, &wo, err)) != 0)
            return rc;
        pm_table_write_keep_pending(k->w);
        pm_table_write_set_threads(k->w, k->q->writer_threads, PM_COMPACT_SYNC);
    }
    if (pm_table_write_compactor(k->w) == NULL)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: this table is not compacted by paimon-c",
                          k->q->table);
    if ((rc = pm_table_write_bucket(k->w, j->partition, j->bucket, &bw, err)) != 0 ||
        (rc = pm_bucket_writer_compact(bw, k->q->o->full, err)) != 0)
        return rc;
    /* keep: the files stay the writer's too, so that freeing it removes them unless the
     * commit took them (pm_table_write_release_pending) */
    return pm_bucket_writer_prepare(bw, &j->m, true, true, err);
}

/* A task of the pool: takes buckets in order until none is left or one failed. */
PM_MUST_CHECK static int compact_worker_run(void *arg, paimon_error *unused)
{
    compact_worker *k = arg;
    job_queue *q = k->q;
    (void)unused; /* failures stay in their bucket's job */
    while (!atomic_load(&q->stop)) {
        size_t i = atomic_fetch_add(&q->next, 1);
        bucket_job *j;
        if (i >= q->count)
            break;
        j = &q->jobs[i];
        if ((j->rc = compact_one(k, j, &j->err)) != 0)
            atomic_store(&q->stop, true);
    }
    return 0;
}

/* The buckets of the live files in a partition `match` accepts, in the order they first
 * appear (the order one write's slots take, so the messages do not depend on threads). */
PM_MUST_CHECK static int list_buckets(pm_table_write *w, pm_partition_match match, void *arg,
                                      bucket_job **out, size_t *count, paimon_error *err)
{
    const pm_manifest_entry *const *live = NULL;
    size_t live_count = 0, n = 0;
    bucket_job *jobs = NULL;
    pm_bytes_map seen;
    pm_buf key;
    int rc;

    *out = NULL;
    *count = 0;
    pm_bytes_map_init(&seen);
    pm_buf_init(&key, 0);
    PM_TRY(pm_table_write_live_files(w, &live, &live_count, err));
    if ((jobs = pm_calloc(live_count + 1, sizeof(*jobs))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < live_count; i++) {
        const pm_manifest_entry *e = live[i];
        int64_t id;
        bool inserted;
        if (match != NULL && !match(arg, e->partition.ptr, e->partition.len))
            continue;
        key.len = 0;
        if (pm_buf_append(&key, &e->bucket, sizeof(e->bucket)) != 0 ||
            pm_buf_append(&key, e->partition.ptr, e->partition.len) != 0 ||
            pm_bytes_map_put(&seen, key.data, key.len, 0, &id, &inserted) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
        if (!inserted)
            continue;
        jobs[n].partition = &e->partition;
        jobs[n].bucket = e->bucket;
        pm_commit_messages_init(&jobs[n].m);
        n++;
    }
    *out = jobs;
    *count = n;
    jobs = NULL;
done:
    pm_free(jobs);
    pm_bytes_map_free(&seen);
    pm_buf_free(&key);
    return rc;
}

/* Compacts every bucket `match` accepts on up to o->threads workers and appends the
 * increments to `out` in bucket order.  `workers[0].w` is the write that lists the buckets;
 * the other workers' writes are made on their first bucket and returned in `workers`
 * (`*worker_count` of them) for the caller to release or free. */
PM_MUST_CHECK static int compact_buckets(job_queue *q, compact_worker *workers,
                                         size_t *worker_count, pm_partition_match match, void *arg,
                                         pm_commit_messages *out, paimon_error *err)
{
    size_t total = q->o->threads > 0 ? q->o->threads : pm_pool_default_threads(), threads = total;
    pm_group group;
    int rc;

    if (pm_table_write_compactor(workers[0].w) == NULL)
        return pm_err_set(err, PAIMON_EUNSUPPORTED, "%s: this table is not compacted by paimon-c",
                          q->table);
    PM_TRY(list_buckets(workers[0].w, match, arg, &q->jobs, &q->count, err));
    if (threads > q->count)
        threads = q->count;
    if (threads > PM_COMPACT_MAX_WORKERS)
        threads = PM_COMPACT_MAX_WORKERS;
    if (threads < 1)
        threads = 1;
    *worker_count = threads;
    /* A worker's write gets the threads the workers leave (--threads 1: none, so the job
     * runs on one thread; more threads than buckets: a bucket's compaction decodes its runs
     * ahead on the pool, table/write/compact_task.c). */
    q->writer_threads = (unsigned int)(total / threads > 0 ? total / threads : 1);
    pm_table_write_set_threads(workers[0].w, q->writer_threads, PM_COMPACT_SYNC);
    for (size_t t = 1; t < threads; t++)
        workers[t].q = q;
    /* worker 0 runs on this thread, the others beside it on the process's pool; a worker
     * that cannot be queued leaves its buckets to the others */
    pm_group_init(&group, pm_pool_shared(threads));
    for (size_t t = 1; t < threads; t++)
        if (pm_group_submit(&group, compact_worker_run, &workers[t], NULL) != 0)
            break;
    PM_IGNORE(compact_worker_run(&workers[0], NULL));
    PM_IGNORE(pm_group_wait(&group, NULL)); /* the failures stay in their jobs */
    pm_group_destroy(&group);
    /* the first failing bucket's failure, as one thread would have met it */
    for (size_t i = 0; i < q->count; i++)
        if (q->jobs[i].rc != 0) {
            if (err != NULL)
                *err = q->jobs[i].err;
            return q->jobs[i].rc;
        }
    for (size_t i = 0; i < q->count; i++)
        if (pm_commit_messages_append(out, &q->jobs[i].m) != 0)
            return pm_nomem(err);
    rc = 0;
done:
    return rc;
}

/* ---- the job --------------------------------------------------------------------------------- */

int pm_table_compact(pm_fs *fs, const char *table, const pm_compact_opts *o, int64_t *snapshot_id,
                     int64_t *files_before, int64_t *files_after, paimon_error *err)
{
    pm_schema *schema = NULL;
    pm_table_write_opts wo = {false, o->commit_user, true};
    pm_commit_messages m;
    pm_commit_opts co;
    pm_partition_spec *spec = NULL;
    job_queue q;
    compact_worker workers[PM_COMPACT_MAX_WORKERS];
    size_t worker_count = 1;
    int64_t before = 0, after = 0;
    int rc;

    *snapshot_id = 0;
    memset(&q, 0, sizeof(q));
    q.fs = fs;
    q.table = table;
    q.o = o;
    atomic_init(&q.next, 0);
    atomic_init(&q.stop, false);
    memset(workers, 0, sizeof(workers));
    workers[0].q = &q;
    pm_commit_messages_init(&m);
    PM_TRY(pm_schema_read_latest(fs, table, &schema, err));
    rc = pm_partition_spec_parse(&spec, schema, o->partition, o->partition_count, err);
    if (rc == 0)
        rc = pm_table_write_new(&workers[0].w, fs, table, &wo, err);
    if (rc != 0) {
        /* The request or the table's options: name the table.  Corrupt or unreadable files
         * are named by their paths, which start with the table's. */
        if (rc != PAIMON_ENOMEM && rc != PAIMON_ECORRUPT && rc != PAIMON_EIO)
            pm_err_prefix(err, rc, "%s: ", table);
        goto done;
    }
    pm_table_write_keep_pending(workers[0].w);
    if (pm_table_write_is_unaware(workers[0].w))
        PM_TRY(compact_unaware(workers[0].w, table, o->partition_count > 0 ? matches : NULL, spec,
                               &m, err));
    else
        PM_TRY(compact_buckets(&q, workers, &worker_count, o->partition_count > 0 ? matches : NULL,
                               spec, &m, err));
    for (size_t i = 0; i < m.compact_count; i++) {
        before += m.compact[i].kind == PM_FILE_KIND_DELETE;
        after += m.compact[i].kind == PM_FILE_KIND_ADD;
    }
    if (m.compact_count > 0) {
        pm_commit_result res;
        memset(&co, 0, sizeof(co));
        co.commit_user = o->commit_user;
        co.identifier = INT64_MAX; /* a batch job's commit */
        co.kind = PM_COMMIT_COMPACT;
        co.result = &res;
        rc = pm_changelog_compact_commit(fs, table, &m, &co, snapshot_id, err);
        /* Committed, or maybe: the files are the snapshot's.  Otherwise nothing names them
         * and freeing the writers removes them (keep_pending), which needs no memory: the
         * failure may be a lack of it. */
        if (rc == 0 || res.uncertain)
            for (size_t t = 0; t < worker_count; t++)
                if (workers[t].w != NULL)
                    pm_table_write_release_pending(workers[t].w);
        if (rc != 0)
            goto done;
    }
    if (files_before != NULL)
        *files_before = before;
    if (files_after != NULL)
        *files_after = after;
done:
    for (size_t t = 0; t < worker_count; t++)
        pm_table_write_free(workers[t].w);
    for (size_t i = 0; i < q.count; i++)
        pm_commit_messages_release(&q.jobs[i].m);
    pm_free(q.jobs);
    pm_commit_messages_release(&m);
    pm_schema_free(schema);
    pm_partition_spec_free(spec);
    return rc;
}

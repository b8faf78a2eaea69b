/* The streams of an ORC stripe decompressed at once on a thread pool (orc_stream_jobs.h). */
#include "format/orc/orc_stream_jobs.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

void pm_orc_stream_jobs_init(pm_orc_stream_jobs *j)
{
    memset(j, 0, sizeof(*j));
    pm_buf_init(&j->raw, 0);
    atomic_init(&j->next, 0);
}

void pm_orc_stream_jobs_reset(pm_orc_stream_jobs *j)
{
    j->count = 0;
    j->total = 0;
    pm_buf_reset(&j->raw);
}

int pm_orc_stream_jobs_add(pm_orc_stream_jobs *j, uint64_t off, size_t len, const char *what,
                           pm_orc_sbuf *dst, paimon_error *err)
{
    pm_orc_stream_job *job;
    if (j->count == j->cap) {
        size_t cap = j->cap > 0 ? 2 * j->cap : 16;
        pm_orc_stream_job *grown = pm_realloc(j->jobs, cap * sizeof(*grown));
        if (grown == NULL)
            return pm_nomem(err);
        j->jobs = grown;
        j->cap = cap;
    }
    job = &j->jobs[j->count++];
    memset(job, 0, sizeof(*job));
    job->raw_off = (size_t)j->total; /* meaningful once the total fits (pm_orc_stream_jobs_read) */
    job->len = len;
    job->off = off;
    snprintf(job->what, sizeof(job->what), "%s", what);
    job->dst = dst;
    if (__builtin_add_overflow(j->total, (uint64_t)len, &j->total))
        j->total = UINT64_MAX;
    return 0;
}

int pm_orc_stream_jobs_read(pm_orc_stream_jobs *j, pm_input *in, paimon_error *err)
{
    pm_buf_reset(&j->raw);
    if (j->total > SIZE_MAX || pm_buf_reserve(&j->raw, (size_t)j->total) != 0)
        return pm_nomem(err);
    for (size_t i = 0; i < j->count; i++) {
        pm_orc_stream_job *job = &j->jobs[i];
        job->rc = in->read_at(in, job->off, job->len, j->raw.data + job->raw_off, &job->err);
    }
    j->raw.len = (size_t)j->total;
    return 0;
}

typedef struct task_arg {
    pm_orc_stream_jobs *j;
    size_t slot; /* which codec state is this task's */
} task_arg;

/* A task: takes jobs in order until none is left. */
PM_MUST_CHECK static int decompress_streams(void *arg, paimon_error *unused)
{
    task_arg *t = arg;
    pm_orc_stream_jobs *j = t->j;
    pm_orc_codec codec = *j->codec;
    (void)unused; /* each job keeps its own failure */
    codec.ctx = j->ctx[t->slot];
    for (;;) {
        size_t i = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
        pm_orc_stream_job *job;
        if (i >= j->count)
            break;
        job = &j->jobs[i];
        if (job->rc != 0)
            continue; /* its bytes could not be read: the reader reports that */
        pm_buf_reset(&job->dst->buf);
        pm_buf_reset(&job->dst->map.pairs);
        job->rc = pm_orc_decompress(&codec, j->raw.data + job->raw_off, job->len, job->off, j->path,
                                    job->what, &job->dst->buf, &job->dst->map, &job->err);
    }
    return 0;
}

int pm_orc_stream_jobs_run(pm_orc_stream_jobs *j, const pm_orc_codec *codec, const char *path,
                           pm_pool *pool, paimon_error *err)
{
    task_arg args[PM_POOL_MAX_THREADS];
    size_t tasks = pool != NULL ? pm_pool_threads(pool) : 1;
    pm_group g;
    if (tasks > j->count)
        tasks = j->count;
    if (tasks > PM_POOL_MAX_THREADS)
        tasks = PM_POOL_MAX_THREADS;
    if (tasks < 1)
        tasks = 1;
    for (size_t k = 0; k < tasks; k++)
        if (j->ctx[k] == NULL && (j->ctx[k] = pm_codec_ctx_new()) == NULL)
            return pm_nomem(err);
    j->codec = codec;
    j->path = path;
    atomic_store_explicit(&j->next, 0, memory_order_relaxed);
    pm_group_init(&g, pool);
    for (size_t k = 0; k < tasks; k++) {
        args[k].j = j;
        args[k].slot = k;
        pm_group_submit_or_run(&g, decompress_streams, &args[k]);
    }
    PM_IGNORE(pm_group_wait(&g, NULL)); /* the tasks report through the jobs */
    pm_group_destroy(&g);
    j->on_pool += (int64_t)j->count;
    return 0;
}

void pm_orc_stream_jobs_free(pm_orc_stream_jobs *j)
{
    for (size_t k = 0; k < PM_POOL_MAX_THREADS; k++)
        pm_codec_ctx_free(j->ctx[k]);
    pm_free(j->jobs);
    pm_buf_free(&j->raw);
    pm_orc_stream_jobs_init(j);
}

/*
 * A source read ahead on the pool (data/readahead.h).
 *
 * One task, `fill`, reads batches into the queue until it holds `depth` or the source ends,
 * then returns.  The caller pops batches; whenever the queue has room and no task is out it
 * submits one, so the source is read while the caller works.  When the queue is empty the
 * caller waits: for a task not yet started, through the group (which runs it on the
 * caller's thread if no worker has taken it: a pool whose workers all wait on read-aheads
 * of their own still makes progress); for a started one, on `more`, which the task signals
 * after each batch, so the caller resumes as soon as one batch is there, not the whole
 * queue.
 *
 * Invariants (under `lock`): queue, busy, started, ended, rc, err and closing change only
 * under the lock; the source is touched only by the task, and at most one task is out
 * (busy), so it is read by one thread at a time.
 */
#include "data/readahead.h"

#include <pthread.h>
#include <string.h>

#include "util/alloc.h"

typedef struct ra_item {
    pm_batch *batch;
    int64_t tag;
} ra_item;

struct pm_readahead {
    pthread_mutex_t lock;
    pthread_cond_t more; /* a batch was queued, or the task ended */
    pm_group group;      /* the fill tasks */
    pm_readahead_next_fn next;
    pm_readahead_tag_fn tag;
    void *ctx;
    size_t depth;
    ra_item queue[PM_READAHEAD_MAX]; /* oldest at q_head */
    size_t q_head, q_len;
    bool busy;    /* a task is queued or running */
    bool started; /* ... and running */
    bool ended;   /* the source ended: rc PAIMON_ITEROVER or its failure */
    bool closing; /* pm_readahead_free() has begun */
    int rc;
    paimon_error err;
};

PM_MUST_CHECK static int fill(void *arg, paimon_error *unused)
{
    pm_readahead *ra = arg;
    (void)unused;
    pthread_mutex_lock(&ra->lock);
    ra->started = true;
    while (!ra->closing && ra->q_len < ra->depth) {
        pm_batch *b = NULL;
        paimon_error e = {0, {0}};
        int64_t tag;
        int rc;
        pthread_mutex_unlock(&ra->lock);
        rc = ra->next(ra->ctx, &b, &e);
        tag = rc == 0 && ra->tag != NULL ? ra->tag(ra->ctx) : 0;
        pthread_mutex_lock(&ra->lock);
        if (rc != 0) {
            ra->ended = true;
            ra->rc = rc;
            ra->err = e;
            break;
        }
        ra->queue[(ra->q_head + ra->q_len) % PM_READAHEAD_MAX] = (ra_item){b, tag};
        ra->q_len++;
        pthread_cond_signal(&ra->more);
    }
    ra->busy = ra->started = false;
    pthread_cond_signal(&ra->more);
    pthread_mutex_unlock(&ra->lock);
    return 0;
}

/* Submits a fill task if the queue has room and none is out (lock held; dropped and taken
 * again around the submission). */
static void kick(pm_readahead *ra)
{
    paimon_error e = {0, {0}};
    int rc;
    if (ra->busy || ra->ended || ra->closing || ra->q_len >= ra->depth)
        return;
    ra->busy = true;
    pthread_mutex_unlock(&ra->lock);
    rc = pm_group_submit(&ra->group, fill, ra, &e);
    pthread_mutex_lock(&ra->lock);
    if (rc != 0) { /* not queued: the stream ends with why */
        ra->busy = false;
        ra->ended = true;
        ra->rc = rc;
        ra->err = e;
    }
}

int pm_readahead_new(pm_readahead **out, pm_readahead_next_fn next, pm_readahead_tag_fn tag,
                     void *ctx, pm_pool *pool, size_t depth, paimon_error *err)
{
    pm_readahead *ra = pm_calloc(1, sizeof(*ra));
    *out = NULL;
    if (ra == NULL)
        return pm_nomem(err);
    pthread_mutex_init(&ra->lock, NULL);
    pthread_cond_init(&ra->more, NULL);
    pm_group_init(&ra->group, pool);
    ra->next = next;
    ra->tag = tag;
    ra->ctx = ctx;
    ra->depth = depth < 1 ? 1 : depth > PM_READAHEAD_MAX ? PM_READAHEAD_MAX : depth;
    pthread_mutex_lock(&ra->lock);
    kick(ra); /* start decoding at once */
    pthread_mutex_unlock(&ra->lock);
    *out = ra;
    return 0;
}

int pm_readahead_next(pm_readahead *ra, pm_batch **out, int64_t *tag, paimon_error *err)
{
    *out = NULL;
    pthread_mutex_lock(&ra->lock);
    for (;;) {
        if (ra->q_len > 0) {
            ra_item it = ra->queue[ra->q_head];
            ra->q_head = (ra->q_head + 1) % PM_READAHEAD_MAX;
            ra->q_len--;
            kick(ra);
            pthread_mutex_unlock(&ra->lock);
            *out = it.batch;
            if (tag != NULL)
                *tag = it.tag;
            return 0;
        }
        if (ra->ended && !ra->busy) {
            int rc = ra->rc;
            if (err != NULL && rc != PAIMON_ITEROVER)
                *err = ra->err;
            pthread_mutex_unlock(&ra->lock);
            return rc; /* and again on every later call */
        }
        kick(ra);
        if (ra->busy && ra->started) {
            pthread_cond_wait(&ra->more, &ra->lock);
        } else if (ra->busy) {
            /* Not started: run it here unless a worker takes it first. */
            pthread_mutex_unlock(&ra->lock);
            PM_IGNORE(pm_group_wait(&ra->group, NULL));
            pthread_mutex_lock(&ra->lock);
        }
    }
}

void pm_readahead_free(pm_readahead *ra)
{
    if (ra == NULL)
        return;
    pthread_mutex_lock(&ra->lock);
    ra->closing = true;
    pthread_mutex_unlock(&ra->lock);
    /* A queued task runs here and stops at once; a running one stops after its batch. */
    PM_IGNORE(pm_group_wait(&ra->group, NULL));
    pm_group_destroy(&ra->group);
    for (size_t k = 0; k < ra->q_len; k++)
        pm_batch_free(ra->queue[(ra->q_head + k) % PM_READAHEAD_MAX].batch);
    pthread_cond_destroy(&ra->more);
    pthread_mutex_destroy(&ra->lock);
    pm_free(ra);
}

/*
 * Sources read ahead on the thread pool, returned in order (data/parallel_source.h).
 *
 * The sources in the window [head, head + window) each own a slot (slot i % window).  A
 * slot is filled by a task, `fill`, that opens its source the first time and then reads
 * batches into the slot's queue until the queue holds PM_PARALLEL_QUEUE batches or the
 * source ends; the task then returns, so no task ever blocks on the consumer and a full
 * pool cannot deadlock.  The consumer pops batches off the head slot; when the head slot
 * has ended and is empty it releases that source and gives the slot to the source `window`
 * places later.
 *
 * Who starts tasks: schedule() picks, in source order, the slots that are neither busy nor
 * ended nor full while fewer than `threads` tasks are out.  The consumer calls it after each
 * batch it takes; a task calls it as it ends, so the workers keep going while the consumer
 * waits.  The consumer waits for the head slot through the slot's group, which runs the
 * slot's task on the consumer's thread when no worker has taken it yet.
 *
 * Invariants (under `lock`): a slot's queue, opened, busy, ended, rc and err change only
 * under the lock; its `src` is touched only by its task while busy and by the consumer while not busy;
 * `busy_count` counts the slots marked busy, including those marked but not yet submitted,
 * so release() waits for it to reach 0 before it frees anything.
 */
#include "data/parallel_source.h"

#include <pthread.h>
#include <string.h>

#include "util/alloc.h"
#include "util/assert.h"

typedef struct psource psource;

typedef struct slot {
    psource *ps;
    size_t idx;       /* the source this slot reads */
    bool opened;      /* src is open */
    bool busy;        /* a fill task is queued or running (or about to be submitted) */
    bool ended;       /* the source ended: rc PAIMON_ITEROVER, or its failure */
    int rc;           /* why it ended */
    paimon_error err; /* the failure's message */
    pm_batch_source src;
    pm_batch *queue[PM_PARALLEL_QUEUE]; /* batches read ahead, oldest at q_head */
    size_t q_head, q_len;
    pm_group group; /* its fill tasks */
} slot;

struct psource {
    pthread_mutex_t lock;
    pthread_cond_t idle; /* signalled when busy_count drops to 0 while closing */
    pm_pool *pool;
    pm_source_open_fn open;
    void *ctx;
    size_t count;      /* sources */
    size_t threads;    /* tasks out at most (the head may add one) */
    size_t window;     /* slots */
    size_t head;       /* the source whose batches come next */
    size_t busy_count; /* slots marked busy */
    bool closing;      /* release() has begun: start nothing */
    slot *slots;       /* [window] */
};

static slot *slot_of(psource *ps, size_t idx)
{
    return &ps->slots[idx % ps->window];
}

/* Marks the slots that should be read now as busy and lists them in `todo` (lock held). */
static size_t schedule(psource *ps, slot **todo)
{
    size_t n = 0, end = ps->head + ps->window < ps->count ? ps->head + ps->window : ps->count;
    if (ps->closing)
        return 0;
    for (size_t i = ps->head; i < end && ps->busy_count < ps->threads; i++) {
        slot *s = slot_of(ps, i);
        if (s->busy || s->ended || s->q_len >= PM_PARALLEL_QUEUE)
            continue;
        s->busy = true;
        ps->busy_count++;
        todo[n++] = s;
    }
    return n;
}

PM_MUST_CHECK static int fill(void *arg, paimon_error *unused);

/* Submits the fill tasks of `todo` (lock not held); a slot whose task cannot be queued ends
 * with that error. */
static void submit(psource *ps, slot **todo, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        paimon_error e = {0, {0}};
        int rc = pm_group_submit(&todo[i]->group, fill, todo[i], &e);
        if (rc == 0)
            continue;
        pthread_mutex_lock(&ps->lock);
        todo[i]->busy = false;
        todo[i]->ended = true;
        todo[i]->rc = rc;
        todo[i]->err = e;
        if (--ps->busy_count == 0)
            pthread_cond_broadcast(&ps->idle);
        pthread_mutex_unlock(&ps->lock);
    }
}

/* The task: open the slot's source if needed, read until its queue is full or it ends. */
PM_MUST_CHECK static int fill(void *arg, paimon_error *unused)
{
    slot *s = arg, *todo[PM_POOL_MAX_THREADS + 1];
    psource *ps = s->ps;
    paimon_error e = {0, {0}};
    size_t n;
    int rc = 0;
    (void)unused;
    if (!s->opened) {
        memset(&s->src, 0, sizeof(s->src));
        if ((rc = ps->open(ps->ctx, s->idx, &s->src, &e)) == 0) {
            pthread_mutex_lock(&ps->lock); /* the slot's flags share words: write them locked */
            s->opened = true;
            pthread_mutex_unlock(&ps->lock);
        }
    }
    while (rc == 0) {
        pm_batch *b = NULL;
        bool stop;
        if ((rc = s->src.next(s->src.ctx, &b, &e)) != 0)
            break;
        pthread_mutex_lock(&ps->lock);
        s->queue[(s->q_head + s->q_len++) % PM_PARALLEL_QUEUE] = b;
        stop = s->q_len >= PM_PARALLEL_QUEUE || ps->closing;
        pthread_mutex_unlock(&ps->lock);
        if (stop)
            break;
    }
    pthread_mutex_lock(&ps->lock);
    if (rc != 0) {
        s->ended = true;
        s->rc = rc;
        s->err = e;
    }
    s->busy = false;
    ps->busy_count--;
    n = schedule(ps, todo);
    if (ps->busy_count == 0)
        pthread_cond_broadcast(&ps->idle);
    pthread_mutex_unlock(&ps->lock);
    submit(ps, todo, n);
    return 0;
}

/* Gives slot `s` to source `idx` (lock held; the slot is idle and empty). */
static void assign(slot *s, size_t idx)
{
    s->idx = idx;
    s->opened = s->busy = s->ended = false;
    s->rc = 0;
    memset(&s->err, 0, sizeof(s->err));
    memset(&s->src, 0, sizeof(s->src));
    s->q_head = s->q_len = 0;
}

PM_MUST_CHECK static int ps_next(void *ctx, pm_batch **out, paimon_error *err)
{
    psource *ps = ctx;
    slot *todo[PM_POOL_MAX_THREADS + 1]; /* schedule() lists fewer than `threads` */
    pthread_mutex_lock(&ps->lock);
    for (;;) {
        slot *s;
        size_t n = 0;
        if (ps->head >= ps->count) {
            pthread_mutex_unlock(&ps->lock);
            return PAIMON_ITEROVER;
        }
        s = slot_of(ps, ps->head);
        if (s->q_len > 0) {
            *out = s->queue[s->q_head];
            s->queue[s->q_head] = NULL;
            s->q_head = (s->q_head + 1) % PM_PARALLEL_QUEUE;
            s->q_len--;
            n = schedule(ps, todo);
            pthread_mutex_unlock(&ps->lock);
            submit(ps, todo, n);
            return 0;
        }
        if (s->ended && !s->busy) {
            pm_batch_source done = s->src;
            bool opened = s->opened;
            if (s->rc != PAIMON_ITEROVER) {
                int rc = s->rc;
                if (err != NULL)
                    *err = s->err;
                pthread_mutex_unlock(&ps->lock);
                return rc; /* and again on every later call */
            }
            ps->head++;
            if (ps->head - 1 + ps->window < ps->count)
                assign(s, ps->head - 1 + ps->window);
            else
                s->opened = false;
            pthread_mutex_unlock(&ps->lock);
            if (opened && done.release != NULL)
                done.release(done.ctx);
            pthread_mutex_lock(&ps->lock);
            continue;
        }
        if (!s->busy) { /* the head is read even when `threads` tasks are out */
            s->busy = true;
            ps->busy_count++;
            todo[n++] = s;
        }
        n += schedule(ps, todo + n);
        pthread_mutex_unlock(&ps->lock);
        submit(ps, todo, n);
        /* Runs the head's task here if no worker has it yet; its result is in the slot. */
        PM_IGNORE(pm_group_wait(&s->group, NULL));
        pthread_mutex_lock(&ps->lock);
    }
}

static void ps_release(void *ctx)
{
    psource *ps = ctx;
    if (ps == NULL)
        return;
    pthread_mutex_lock(&ps->lock);
    ps->closing = true;
    while (ps->busy_count > 0)
        pthread_cond_wait(&ps->idle, &ps->lock);
    pthread_mutex_unlock(&ps->lock);
    for (size_t i = 0; i < ps->window; i++) {
        slot *s = &ps->slots[i];
        /* the last task may still be leaving the pool's bookkeeping */
        PM_IGNORE(pm_group_wait(&s->group, NULL));
        pm_group_destroy(&s->group);
        for (size_t k = 0; k < s->q_len; k++)
            pm_batch_free(s->queue[(s->q_head + k) % PM_PARALLEL_QUEUE]);
        if (s->opened && s->src.release != NULL)
            s->src.release(s->src.ctx);
    }
    pthread_cond_destroy(&ps->idle);
    pthread_mutex_destroy(&ps->lock);
    pm_free(ps->slots);
    pm_free(ps);
}

int pm_parallel_source_new(pm_batch_source *out, const pm_type *type, size_t count,
                           pm_source_open_fn open, void *ctx, pm_pool *pool, size_t threads,
                           size_t window, paimon_error *err)
{
    psource *ps = NULL;
    slot *todo[PM_POOL_MAX_THREADS + 1];
    size_t n;
    PM_ASSERT(pool != NULL && threads >= 1 && window >= 1);
    memset(out, 0, sizeof(*out));
    if (threads > PM_POOL_MAX_THREADS)
        threads = PM_POOL_MAX_THREADS;
    if (window > count)
        window = count > 0 ? count : 1;
    if ((ps = pm_calloc(1, sizeof(*ps))) == NULL ||
        (ps->slots = pm_calloc(window, sizeof(slot))) == NULL) {
        if (ps != NULL)
            pm_free(ps->slots);
        pm_free(ps);
        return pm_nomem(err);
    }
    pthread_mutex_init(&ps->lock, NULL);
    pthread_cond_init(&ps->idle, NULL);
    ps->pool = pool;
    ps->open = open;
    ps->ctx = ctx;
    ps->count = count;
    ps->threads = threads;
    ps->window = window;
    for (size_t i = 0; i < window; i++) {
        ps->slots[i].ps = ps;
        pm_group_init(&ps->slots[i].group, pool);
        assign(&ps->slots[i], i);
    }
    /* Start reading ahead at once. */
    pthread_mutex_lock(&ps->lock);
    n = schedule(ps, todo);
    pthread_mutex_unlock(&ps->lock);
    submit(ps, todo, n);
    out->next = ps_next;
    out->release = ps_release;
    out->ctx = ps;
    out->type = type;
    return 0;
}

/* The rule of both openers; `spread`: the window is threads / 2 (at least 1), else 2 x
 * threads. */
PM_MUST_CHECK static int open_rule(pm_batch_source *out, const pm_type *type, size_t count,
                                   pm_source_open_fn open, void *ctx, unsigned int threads,
                                   bool spread, paimon_error *err)
{
    size_t n = threads > 0 ? threads : pm_pool_default_threads();
    pm_pool *pool;
    memset(out, 0, sizeof(*out));
    if (n > PM_POOL_MAX_THREADS)
        n = PM_POOL_MAX_THREADS;
    if (count < 2 || n < 2 || (pool = pm_pool_shared(n)) == NULL)
        return 0;
    return pm_parallel_source_new(out, type, count, open, ctx, pool, n,
                                  spread ? (n / 2 > 0 ? n / 2 : 1) : 2 * n, err);
}

int pm_parallel_source_open(pm_batch_source *out, const pm_type *type, size_t count,
                            pm_source_open_fn open, void *ctx, unsigned int threads,
                            paimon_error *err)
{
    return open_rule(out, type, count, open, ctx, threads, false, err);
}

int pm_parallel_source_open_spread(pm_batch_source *out, const pm_type *type, size_t count,
                                   pm_source_open_fn open, void *ctx, unsigned int threads,
                                   paimon_error *err)
{
    return open_rule(out, type, count, open, ctx, threads, true, err);
}

/*
 * The thread pool of util/pool.h: one FIFO queue of tasks under one mutex, workers that take
 * from its head, and groups that count their unfinished tasks.
 *
 * Invariants (all under pool->lock):
 *  1. A task is in exactly one place: the queue, or being run by one thread (a worker, or a
 *     waiter of its group that took it off the queue).
 *  2. group->pending is the number of its tasks in the queue or running; it drops to 0 only
 *     after every one of them has recorded its result, and `done` is broadcast then.
 *  3. group->rc is the result of the failing task with the smallest sequence number so far,
 *     so the error a wait reports does not depend on scheduling.
 * A thread running a task remembers the task's group in a thread-local chain of frames,
 * which is how pm_group_wait() recognises a task waiting for its own group.
 *
 * Workers block every signal: a command's SIGINT handler must interrupt the thread that
 * waits in it (tail --follow), never a worker.
 */
#include "util/pool.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/assert.h"

struct pm_pool_task {
    pm_task_fn fn;
    void *arg;
    pm_group *group;
    size_t seq;         /* its group's submission number */
    pm_pool_task *next; /* in the queue */
};

struct pm_pool {
    pthread_mutex_t lock;
    pthread_cond_t work;       /* signalled when a task is queued or the pool stops */
    pm_pool_task *head, *tail; /* the queue, oldest first */
    pthread_t *threads;        /* [PM_POOL_MAX_THREADS] */
    size_t count;              /* workers started */
    bool stop;                 /* pm_pool_free(): run what is queued, then exit */
};

/* The groups of the tasks this thread is running, innermost first. */
typedef struct frame {
    const pm_group *group;
    const struct frame *prev;
} frame;
static _Thread_local const frame *running;

size_t pm_pool_default_threads(void)
{
    const char *env = getenv("PAIMON_THREADS");
    long n;
    if (env != NULL && env[0] != '\0') {
        char *end;
        errno = 0;
        n = strtol(env, &end, 10);
        if (errno == 0 && *end == '\0' && n >= 1 && n <= PM_POOL_MAX_THREADS)
            return (size_t)n;
    }
    n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > PM_POOL_MAX_THREADS ? PM_POOL_MAX_THREADS : (size_t)n;
}

/* Records a finished task's result in its group (pool->lock held, or no pool). */
static void record(pm_group *g, size_t seq, int rc, const paimon_error *e)
{
    if (rc == 0 || (g->rc != 0 && g->failed_seq < seq))
        return;
    g->rc = rc;
    g->failed_seq = seq;
    g->err = *e;
}

/* Runs `t` on this thread (pool->lock not held) and releases it. */
static void run(pm_pool *pool, pm_pool_task *t)
{
    paimon_error e = {0, {0}};
    frame f = {t->group, running};
    pm_group *g = t->group;
    int rc;
    running = &f;
    rc = t->fn(t->arg, &e);
    running = f.prev;
    if (rc != 0 && e.code == 0)
        e.code = rc;
    pthread_mutex_lock(&pool->lock);
    record(g, t->seq, rc, &e);
    PM_ASSERT(g->pending > 0);
    if (--g->pending == 0)
        pthread_cond_broadcast(&g->done);
    /* `g` may be gone once the lock is released. */
    pthread_mutex_unlock(&pool->lock);
    pm_free(t);
}

static void *worker(void *arg)
{
    pm_pool *pool = arg;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        pm_pool_task *t = pool->head;
        if (t == NULL) {
            if (pool->stop)
                break;
            pthread_cond_wait(&pool->work, &pool->lock);
            continue;
        }
        pool->head = t->next;
        if (pool->head == NULL)
            pool->tail = NULL;
        pthread_mutex_unlock(&pool->lock);
        run(pool, t);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

int pm_pool_grow(pm_pool *pool, size_t threads, paimon_error *err)
{
    sigset_t all, old;
    int rc = 0;
    if (threads > PM_POOL_MAX_THREADS)
        threads = PM_POOL_MAX_THREADS;
    sigfillset(&all);
    pthread_mutex_lock(&pool->lock);
    /* The workers inherit a mask that blocks every signal. */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (pool->count < threads) {
        int e = pthread_create(&pool->threads[pool->count], NULL, worker, pool);
        if (e != 0) {
            rc = e == EAGAIN || e == ENOMEM
                     ? pm_nomem(err)
                     : pm_err_set(err, PAIMON_EIO, "thread pool: cannot start a thread: %s",
                                  strerror(e));
            break;
        }
        pool->count++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_mutex_unlock(&pool->lock);
    return rc;
}

int pm_pool_new(pm_pool **out, size_t threads, paimon_error *err)
{
    pm_pool *pool = NULL;
    int rc = 0;
    *out = NULL;
    if (threads < 1 || threads > PM_POOL_MAX_THREADS)
        return pm_err_set(err, PAIMON_EINVALID, "thread pool: %zu threads; give 1 to %d", threads,
                          PM_POOL_MAX_THREADS);
    if ((pool = pm_calloc(1, sizeof(*pool))) == NULL ||
        (pool->threads = pm_calloc(PM_POOL_MAX_THREADS, sizeof(pthread_t))) == NULL) {
        if (pool != NULL)
            pm_free(pool);
        return pm_nomem(err);
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work, NULL);
    rc = pm_pool_grow(pool, threads, err);
    if (rc != 0 && pool->count == 0)
        goto done;
    rc = 0; /* fewer workers than asked still make a pool */
    *out = pool;
    pool = NULL;
done:
    pm_pool_free(pool);
    return rc;
}

size_t pm_pool_threads(pm_pool *pool)
{
    size_t n;
    pthread_mutex_lock(&pool->lock);
    n = pool->count;
    pthread_mutex_unlock(&pool->lock);
    return n;
}

void pm_pool_free(pm_pool *pool)
{
    if (pool == NULL)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->stop = true;
    pthread_cond_broadcast(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    for (size_t i = 0; i < pool->count; i++)
        pthread_join(pool->threads[i], NULL);
    PM_ASSERT(pool->head == NULL);
    pthread_cond_destroy(&pool->work);
    pthread_mutex_destroy(&pool->lock);
    pm_free(pool->threads);
    pm_free(pool);
}

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static pm_pool *shared;
static pm_pool *forsaken; /* a child's copy of its parent's pool: never used, kept reachable */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* fork(2) copies the calling thread only: in the child the shared pool has no workers, and
 * its mutex and condition variables may hold the state of threads that do not exist there
 * (signalling one can block for ever).  So the parent holds shared_lock across the fork,
 * and the child forgets the pool and makes its own on first use. */
static void atfork_prepare(void)
{
    pthread_mutex_lock(&shared_lock);
}

static void atfork_parent(void)
{
    pthread_mutex_unlock(&shared_lock);
}

static void atfork_child(void)
{
    pthread_mutex_init(&shared_lock, NULL);
    if (shared != NULL)
        forsaken = shared;
    shared = NULL;
}

static void register_atfork(void)
{
    PM_IGNORE(pthread_atfork(atfork_prepare, atfork_parent, atfork_child));
}

pm_pool *pm_pool_shared(size_t threads)
{
    pm_pool *pool;
    if (threads == 0)
        threads = pm_pool_default_threads();
    if (threads <= 1)
        return NULL;
    pthread_once(&atfork_once, register_atfork);
    pthread_mutex_lock(&shared_lock);
    if (shared == NULL)
        PM_IGNORE(pm_pool_new(&shared, threads, NULL)); /* NULL: tasks run at submission */
    else
        PM_IGNORE(pm_pool_grow(shared, threads, NULL)); /* fewer workers still work */
    pool = shared;
    pthread_mutex_unlock(&shared_lock);
    return pool;
}

/* ---- groups -------------------------------------------------------------------------------- */

void pm_group_init(pm_group *g, pm_pool *pool)
{
    memset(g, 0, sizeof(*g));
    g->pool = pool;
    g->failed_seq = SIZE_MAX;
    pthread_cond_init(&g->done, NULL);
}

/* Runs fn(arg) on the caller's thread as a task of `g`: its sequence number taken and its
 * result recorded as a queued task's would be (under the pool's lock when there is one). */
static void run_here(pm_group *g, pm_task_fn fn, void *arg)
{
    paimon_error e = {0, {0}};
    frame f = {g, running};
    size_t seq;
    int rc;
    if (g->pool != NULL)
        pthread_mutex_lock(&g->pool->lock);
    seq = g->submitted++;
    if (g->pool != NULL)
        pthread_mutex_unlock(&g->pool->lock);
    running = &f;
    rc = fn(arg, &e);
    running = f.prev;
    if (rc != 0 && e.code == 0)
        e.code = rc;
    if (g->pool != NULL)
        pthread_mutex_lock(&g->pool->lock);
    record(g, seq, rc, &e);
    if (g->pool != NULL)
        pthread_mutex_unlock(&g->pool->lock);
}

int pm_group_submit(pm_group *g, pm_task_fn fn, void *arg, paimon_error *err)
{
    pm_pool *pool = g->pool;
    pm_pool_task *t;
    if (pool == NULL) {
        run_here(g, fn, arg);
        return 0;
    }
    if ((t = pm_malloc(sizeof(*t))) == NULL)
        return pm_nomem(err);
    t->fn = fn;
    t->arg = arg;
    t->group = g;
    t->next = NULL;
    pthread_mutex_lock(&pool->lock);
    t->seq = g->submitted++;
    g->pending++;
    if (pool->tail != NULL)
        pool->tail->next = t;
    else
        pool->head = t;
    pool->tail = t;
    pthread_cond_signal(&pool->work);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

void pm_group_submit_or_run(pm_group *g, pm_task_fn fn, void *arg)
{
    if (pm_group_submit(g, fn, arg, NULL) != 0)
        run_here(g, fn, arg);
}

bool pm_group_failed(pm_group *g)
{
    bool failed;
    if (g->pool == NULL)
        return g->rc != 0;
    pthread_mutex_lock(&g->pool->lock);
    failed = g->rc != 0;
    pthread_mutex_unlock(&g->pool->lock);
    return failed;
}

bool pm_group_finished(pm_group *g)
{
    bool finished;
    if (g->pool == NULL)
        return true;
    pthread_mutex_lock(&g->pool->lock);
    finished = g->pending == 0;
    pthread_mutex_unlock(&g->pool->lock);
    return finished;
}

/* Takes the oldest queued task of `g` off the queue, or NULL (pool->lock held). */
static pm_pool_task *take_queued(pm_pool *pool, const pm_group *g)
{
    pm_pool_task *prev = NULL;
    for (pm_pool_task *t = pool->head; t != NULL; prev = t, t = t->next) {
        if (t->group != g)
            continue;
        if (prev != NULL)
            prev->next = t->next;
        else
            pool->head = t->next;
        if (pool->tail == t)
            pool->tail = prev;
        return t;
    }
    return NULL;
}

int pm_group_wait(pm_group *g, paimon_error *err)
{
    pm_pool *pool = g->pool;
    int rc;
    for (const frame *f = running; f != NULL; f = f->prev)
        if (f->group == g)
            return pm_err_set(err, PAIMON_EINVALID,
                              "thread pool: a task waits for its own group (it would never end)");
    if (pool != NULL) {
        pthread_mutex_lock(&pool->lock);
        while (g->pending > 0) {
            pm_pool_task *t = take_queued(pool, g);
            if (t == NULL) {
                pthread_cond_wait(&g->done, &pool->lock);
                continue;
            }
            pthread_mutex_unlock(&pool->lock);
            run(pool, t);
            pthread_mutex_lock(&pool->lock);
        }
    }
    rc = g->rc;
    if (rc != 0 && err != NULL)
        *err = g->err;
    g->rc = 0;
    g->failed_seq = SIZE_MAX;
    if (pool != NULL)
        pthread_mutex_unlock(&pool->lock);
    return rc;
}

void pm_group_destroy(pm_group *g)
{
    PM_ASSERT(g->pending == 0);
    pthread_cond_destroy(&g->done);
}

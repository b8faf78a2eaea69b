/*
 * The thread pool: POSIX threads that run tasks handed to them in groups (DESIGN.md,
 * "Threads").  One pool serves the whole process (pm_pool_shared()); tests make their own.
 *
 *   pm_group g;
 *   pm_group_init(&g, pm_pool_shared(threads));   // NULL pool: tasks run at submission
 *   for (i = 0; i < n; i++)
 *       rc = pm_group_submit(&g, task_fn, &work[i], err);   // work[i] owned by the task
 *   rc = pm_group_wait(&g, err);  // every task done; the first failure in submission order
 *   pm_group_destroy(&g);
 *
 * A task is a function over data that it alone touches while it runs (its "unit": one split's
 * read, one bucket's flush, one column chunk); its results stay in that data, and the caller
 * reads them after the wait in a fixed order, so nothing depends on which thread ran what.
 *
 * Errors: a task returns 0 or a PAIMON_E* code with its own paimon_error.  pm_group_wait()
 * returns the failure of the task submitted first among those that failed, whatever the
 * order they finished in; later tasks still run (pm_group_failed() lets them stop early).
 *
 * Waiting, the rule that keeps nested waits from deadlocking: a waiter never just sleeps
 * while a task of its group is still queued -- it takes that task off the queue and runs it
 * itself.  A task may therefore submit work to a group of its own and wait for it, whatever
 * the pool's size and however busy its workers are: every task the waiter depends on is
 * either running on some thread or run by the waiter.  What would deadlock is a task
 * waiting for a group it belongs to (its own completion is among what it waits for);
 * pm_group_wait() refuses that with PAIMON_EINVALID instead of hanging.
 *
 * Thread safety: a pool is shared by every thread.  Any thread may submit to a group and
 * ask pm_group_failed(); one thread at a time waits for it, and destroys it after a wait
 * (when no submission can still come).
 */
#ifndef PM_UTIL_POOL_H
#define PM_UTIL_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

typedef struct pm_pool pm_pool;
typedef struct pm_pool_task pm_pool_task;

/* A task: 0, or a PAIMON_E* code with `err` filled (err is the task's own, never NULL). */
typedef int (*pm_task_fn)(void *arg, paimon_error *err);

/* The most workers a pool has; --threads above it is an error of the caller. */
#define PM_POOL_MAX_THREADS 256

/* The default thread count, where every `threads` of 0 (the options' and --threads'
 * default) is decided: the environment variable PAIMON_THREADS when it is a whole number
 * from 1 to PM_POOL_MAX_THREADS (the test suite re-runs the table tests with 1 and 4; any
 * other value is ignored), else the processors online (sysconf), at least 1. */
size_t pm_pool_default_threads(void);

/* A pool of `threads` workers (1 to PM_POOL_MAX_THREADS).  Caller owns `*out`; release with
 * pm_pool_free(). */
PM_MUST_CHECK int pm_pool_new(pm_pool **out, size_t threads, paimon_error *err);

/* Adds workers until the pool has `threads` (capped at PM_POOL_MAX_THREADS); never removes
 * any.  0, or PAIMON_ENOMEM / PAIMON_EIO when a thread cannot be made (the pool keeps the
 * workers it has, at least one). */
PM_MUST_CHECK int pm_pool_grow(pm_pool *pool, size_t threads, paimon_error *err);

/* The workers the pool has. */
size_t pm_pool_threads(pm_pool *pool);

/* Shuts the pool down: the tasks still queued are run, the workers joined, the pool freed.
 * Groups with tasks in it must outlive this call.  NULL is allowed. */
void pm_pool_free(pm_pool *pool);

/* The process's pool with at least `threads` workers (0: pm_pool_default_threads()), made on
 * first use and grown as callers ask; NULL when `threads` is 1 (the caller's thread does
 * the work: the one-thread path runs no pool at all) or when no worker could be started (a
 * NULL pool runs tasks at submission, so callers need no second path).  Lives until the
 * process exits.  Borrowed.  A child process made by fork(2) starts a pool of its own on
 * first use (its copy of the parent's has no workers, and is never touched). */
pm_pool *pm_pool_shared(size_t threads);

/* A set of tasks to wait for.  Caller-allocated; its fields are private. */
typedef struct pm_group {
    pm_pool *pool;       /* NULL: tasks run in pm_group_submit() */
    size_t pending;      /* submitted and not finished (under pool->lock) */
    size_t submitted;    /* tasks submitted so far: the next one's sequence number */
    size_t failed_seq;   /* the sequence number of `rc`'s task, or SIZE_MAX */
    int rc;              /* the failure of the earliest-submitted failing task, or 0 */
    paimon_error err;    /* its message */
    pthread_cond_t done; /* signalled when `pending` drops to 0 (with pool->lock) */
} pm_group;              /* with a pool, every field is guarded by the pool's lock */

/* Starts an empty group on `pool` (may be NULL). */
void pm_group_init(pm_group *g, pm_pool *pool);

/* Queues fn(arg) in the group (with a NULL pool: runs it now).  `arg` must stay valid until
 * the task has run, that is until pm_group_wait() returns.  0, or PAIMON_ENOMEM when the
 * task cannot be queued (then it did not run and is not part of the group). */
PM_MUST_CHECK int pm_group_submit(pm_group *g, pm_task_fn fn, void *arg, paimon_error *err);

/* Queues fn(arg) in the group, or, when it cannot be queued (no memory for the task), runs
 * it now on the caller's thread, as a NULL pool does; either way its result is part of the
 * group's, as a queued task's is.  Never fails: for work that must happen once it is handed
 * over (a spill of records already detached from their buffer). */
void pm_group_submit_or_run(pm_group *g, pm_task_fn fn, void *arg);

/* Whether a task of the group has failed so far (for tasks that want to stop early). */
bool pm_group_failed(pm_group *g);

/* Whether every task submitted so far has finished (true for a NULL pool), without waiting:
 * a caller that only takes results that are ready asks this, then pm_group_wait() returns
 * at once. */
bool pm_group_finished(pm_group *g);

/* Waits until every task submitted so far has finished, running queued ones itself (see
 * above).  The earliest-submitted failure's code and message, or 0.  PAIMON_EINVALID when
 * called from a task of `g` itself.  The group may be used again afterwards. */
PM_MUST_CHECK int pm_group_wait(pm_group *g, paimon_error *err);

/* Releases the group; it must have been waited for (or had no tasks). */
void pm_group_destroy(pm_group *g);

#endif /* PM_UTIL_POOL_H */

/* util/pool: the thread pool of DESIGN.md "Threads".  Results land where the caller put
 * their slots whatever thread ran them; the error a wait reports is the earliest-submitted
 * failure even when later tasks fail first; nested waits finish on a one-worker pool (the
 * waiter runs its own queued tasks); a task waiting for its own group is refused instead of
 * hanging; shutdown runs what is queued; a NULL pool runs tasks at submission, as a pool
 * does a task that cannot be queued when asked to (pm_group_submit_or_run). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#include "util/alloc.h"
#include "util/pool.h"

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

typedef struct square_work {
    size_t in;
    size_t out;
    atomic_int *ran;
} square_work;

static int square(void *arg, paimon_error *err)
{
    square_work *w = arg;
    (void)err;
    if (w->in % 7 == 0)
        nap_us(50); /* finish out of order */
    w->out = w->in * w->in;
    atomic_fetch_add(w->ran, 1);
    return 0;
}

static void check_squares(pm_pool *pool)
{
    enum { N = 500 };
    square_work *w = pm_calloc(N, sizeof(*w));
    atomic_int ran = 0;
    pm_group g;
    paimon_error err = {0, {0}};
    assert_non_null(w);
    pm_group_init(&g, pool);
    for (size_t i = 0; i < N; i++) {
        w[i].in = i;
        w[i].ran = &ran;
        assert_int_equal(pm_group_submit(&g, square, &w[i], &err), 0);
    }
    assert_int_equal(pm_group_wait(&g, &err), 0);
    assert_int_equal(atomic_load(&ran), N);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(w[i].out, i * i);
    /* the group is reusable after a wait */
    w[0].in = 9;
    assert_int_equal(pm_group_submit(&g, square, &w[0], &err), 0);
    assert_int_equal(pm_group_wait(&g, &err), 0);
    assert_int_equal(w[0].out, 81);
    pm_group_destroy(&g);
    pm_free(w);
}

static void test_results_in_place(void **state)
{
    (void)state;
    for (size_t threads = 1; threads <= 4; threads *= 2) {
        pm_pool *pool = NULL;
        assert_int_equal(pm_pool_new(&pool, threads, NULL), 0);
        assert_int_equal(pm_pool_threads(pool), threads);
        check_squares(pool);
        pm_pool_free(pool);
    }
    check_squares(NULL); /* the one-thread path: tasks run at submission */
}

typedef struct fail_work {
    int idx;
    int delay_us;
} fail_work;

static int maybe_fail(void *arg, paimon_error *err)
{
    fail_work *w = arg;
    nap_us(w->delay_us);
    if (w->idx == 3 || w->idx == 11 || w->idx == 40)
        return pm_err_set(err, PAIMON_ECORRUPT, "task %d failed", w->idx);
    return 0;
}

static void test_first_failure_in_submission_order(void **state)
{
    (void)state;
    for (int threads = 0; threads <= 4; threads += 2) {
        pm_pool *pool = NULL;
        if (threads > 0)
            assert_int_equal(pm_pool_new(&pool, (size_t)threads, NULL), 0);
        for (int round = 0; round < 5; round++) {
            fail_work w[48];
            pm_group g;
            paimon_error err = {0, {0}};
            pm_group_init(&g, pool);
            for (int i = 0; i < 48; i++) {
                w[i].idx = i;
                /* task 3 ends last: the later failures are recorded first */
                w[i].delay_us = i == 3 ? 3000 : (i % 5) * 20;
                assert_int_equal(pm_group_submit(&g, maybe_fail, &w[i], &err), 0);
            }
            assert_int_equal(pm_group_wait(&g, &err), PAIMON_ECORRUPT);
            assert_string_equal(err.message, "task 3 failed");
            assert_false(pm_group_failed(&g)); /* the wait consumed the failure */
            assert_int_equal(pm_group_wait(&g, &err), 0);
            pm_group_destroy(&g);
        }
        pm_pool_free(pool);
    }
}

/* An outer task that fans out into a group of its own and waits for it. */
typedef struct nest_work {
    pm_pool *pool;
    int depth;
    atomic_int *leaves;
    int rc;
} nest_work;

static int nest(void *arg, paimon_error *err)
{
    nest_work *w = arg, kids[4];
    pm_group g;
    int rc = 0;
    if (w->depth == 0) {
        atomic_fetch_add(w->leaves, 1);
        return 0;
    }
    pm_group_init(&g, w->pool);
    for (int i = 0; i < 4 && rc == 0; i++) {
        kids[i] = (nest_work){w->pool, w->depth - 1, w->leaves, 0};
        rc = pm_group_submit(&g, nest, &kids[i], err);
    }
    if (pm_group_wait(&g, err) != 0 && rc == 0)
        rc = err->code;
    pm_group_destroy(&g);
    return rc;
}

static void test_nested_waits_finish(void **state)
{
    (void)state;
    for (size_t threads = 1; threads <= 3; threads++) {
        pm_pool *pool = NULL;
        atomic_int leaves = 0;
        nest_work top[3];
        pm_group g;
        paimon_error err = {0, {0}};
        assert_int_equal(pm_pool_new(&pool, threads, NULL), 0);
        pm_group_init(&g, pool);
        for (int i = 0; i < 3; i++) {
            top[i] = (nest_work){pool, 3, &leaves, 0};
            assert_int_equal(pm_group_submit(&g, nest, &top[i], &err), 0);
        }
        assert_int_equal(pm_group_wait(&g, &err), 0);
        assert_int_equal(atomic_load(&leaves), 3 * 4 * 4 * 4);
        pm_group_destroy(&g);
        pm_pool_free(pool);
    }
}

typedef struct self_wait {
    pm_group *g;
    int rc;
    char message[512];
} self_wait;

static int wait_for_own_group(void *arg, paimon_error *err)
{
    self_wait *w = arg;
    paimon_error e = {0, {0}};
    (void)err;
    w->rc = pm_group_wait(w->g, &e);
    memcpy(w->message, e.message, sizeof(w->message));
    return 0;
}

static void test_waiting_for_own_group_is_refused(void **state)
{
    (void)state;
    for (int threads = 0; threads <= 2; threads += 2) {
        pm_pool *pool = NULL;
        pm_group g;
        self_wait w = {&g, 0, {0}};
        paimon_error err = {0, {0}};
        if (threads > 0)
            assert_int_equal(pm_pool_new(&pool, (size_t)threads, NULL), 0);
        pm_group_init(&g, pool);
        assert_int_equal(pm_group_submit(&g, wait_for_own_group, &w, &err), 0);
        assert_int_equal(pm_group_wait(&g, &err), 0);
        assert_int_equal(w.rc, PAIMON_EINVALID);
        assert_non_null(strstr(w.message, "its own group"));
        pm_group_destroy(&g);
        pm_pool_free(pool);
    }
}

static int slow_count(void *arg, paimon_error *err)
{
    (void)err;
    nap_us(100);
    atomic_fetch_add((atomic_int *)arg, 1);
    return 0;
}

static void test_shutdown_runs_queued_tasks(void **state)
{
    pm_pool *pool = NULL;
    atomic_int count = 0;
    pm_group g;
    paimon_error err = {0, {0}};
    (void)state;
    assert_int_equal(pm_pool_new(&pool, 2, NULL), 0);
    pm_group_init(&g, pool);
    for (int i = 0; i < 200; i++)
        assert_int_equal(pm_group_submit(&g, slow_count, &count, &err), 0);
    pm_pool_free(pool); /* joins the workers after they emptied the queue */
    assert_int_equal(atomic_load(&count), 200);
    assert_int_equal(g.pending, 0);
    pm_group_destroy(&g);
}

static void test_sizes_and_shared_pool(void **state)
{
    pm_pool *pool = NULL;
    paimon_error err = {0, {0}};
    (void)state;
    assert_true(pm_pool_default_threads() >= 1);
    assert_int_equal(pm_pool_new(&pool, 0, &err), PAIMON_EINVALID);
    assert_null(pool);
    assert_int_equal(pm_pool_new(&pool, PM_POOL_MAX_THREADS + 1, &err), PAIMON_EINVALID);
    assert_int_equal(pm_pool_new(&pool, 1, &err), 0);
    assert_int_equal(pm_pool_grow(pool, 3, &err), 0);
    assert_int_equal(pm_pool_threads(pool), 3);
    assert_int_equal(pm_pool_grow(pool, 2, &err), 0); /* never shrinks */
    assert_int_equal(pm_pool_threads(pool), 3);
    check_squares(pool);
    pm_pool_free(pool);

    assert_null(pm_pool_shared(1)); /* one thread: the caller's */
    pool = pm_pool_shared(2);
    assert_non_null(pool);
    assert_true(pm_pool_threads(pool) >= 2);
    assert_ptr_equal(pm_pool_shared(5), pool); /* one per process, grown on demand */
    assert_true(pm_pool_threads(pool) >= 5);
    check_squares(pool);
}

/* PAIMON_THREADS decides the default count (the suite re-runs with 1 and 4); a value that
 * is not a count from 1 to PM_POOL_MAX_THREADS is ignored. */
static void test_default_threads_from_environment(void **state)
{
    const char *saved = getenv("PAIMON_THREADS");
    char *copy = saved != NULL ? strdup(saved) : NULL;
    size_t online;
    (void)state;
    unsetenv("PAIMON_THREADS");
    online = pm_pool_default_threads();
    assert_true(online >= 1);
    setenv("PAIMON_THREADS", "3", 1);
    assert_int_equal(pm_pool_default_threads(), 3);
    setenv("PAIMON_THREADS", "1", 1);
    assert_int_equal(pm_pool_default_threads(), 1);
    assert_null(pm_pool_shared(0)); /* 1: no pool, the caller's thread */
    setenv("PAIMON_THREADS", "256", 1);
    assert_int_equal(pm_pool_default_threads(), 256);
    const char *ignored[] = {"0", "257", "-2", "4x", "x", ""};
    for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
        setenv("PAIMON_THREADS", ignored[i], 1);
        assert_int_equal(pm_pool_default_threads(), online);
    }
    if (copy != NULL)
        setenv("PAIMON_THREADS", copy, 1);
    else
        unsetenv("PAIMON_THREADS");
    free(copy);
}

/* A child made by fork(2) after the shared pool ran tasks uses a pool of its own: its copy
 * of the parent's has no workers, and signalling its condition variables could block for
 * ever (a compaction fault loop hung there).  The child gives up after 20 s (alarm). */
static void test_fork_child_gets_own_pool(void **state)
{
    pm_pool *pool = pm_pool_shared(4);
    pid_t pid;
    int status = 0;
    (void)state;
    assert_non_null(pool);
    check_squares(pool); /* workers have waited on the pool's condition variables */
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        enum { N = 64 };
        square_work w[N];
        atomic_int ran = 0;
        pm_group g;
        pm_pool *mine;
        alarm(20);
        mine = pm_pool_shared(4);
        if (mine == NULL || mine == pool)
            _exit(2);
        pm_group_init(&g, mine);
        for (size_t i = 0; i < N; i++) {
            w[i].in = i;
            w[i].ran = &ran;
            if (pm_group_submit(&g, square, &w[i], NULL) != 0)
                _exit(3);
        }
        if (pm_group_wait(&g, NULL) != 0 || atomic_load(&ran) != N)
            _exit(4);
        pm_group_destroy(&g);
        for (size_t i = 0; i < N; i++)
            if (w[i].out != i * i)
                _exit(5);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status))
        fail_msg("the child was killed by signal %d (it hung)", WTERMSIG(status));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    check_squares(pool); /* the parent's pool still works */
}

static void test_submit_out_of_memory(void **state)
{
    pm_pool *pool = NULL;
    atomic_int ran = 0;
    square_work w = {4, 0, &ran};
    pm_group g;
    paimon_error err = {0, {0}};
    int rc;
    (void)state;
    assert_int_equal(pm_pool_new(&pool, 2, NULL), 0);
    pm_group_init(&g, pool);
    pm_alloc_fail_after(1);
    rc = pm_group_submit(&g, square, &w, &err);
    pm_alloc_fail_after(0);
    assert_int_equal(rc, PAIMON_ENOMEM);
    assert_int_equal(pm_group_wait(&g, &err), 0); /* the task is not part of the group */
    assert_int_equal(atomic_load(&ran), 0);
    pm_group_destroy(&g);
    pm_pool_free(pool);
}

typedef struct here_work {
    pthread_t thread; /* the thread that ran it */
    int rc;           /* what it returns */
    atomic_int ran;
} here_work;

static int note_thread(void *arg, paimon_error *err)
{
    here_work *w = arg;
    w->thread = pthread_self();
    atomic_fetch_add(&w->ran, 1);
    return w->rc == 0 ? 0 : pm_err_set(err, w->rc, "task failed on purpose");
}

/* pm_group_submit_or_run: a task that cannot be queued (its allocation fails) runs at once
 * on the caller's thread, and its result -- success or failure -- is the group's, beside
 * the tasks that were queued: the earliest-submitted failure is reported. */
static void test_submit_or_run_out_of_memory(void **state)
{
    pm_pool *pool = NULL;
    here_work queued = {0}, here = {0}, failing = {0};
    pm_group g;
    paimon_error err = {0, {0}};
    (void)state;
    assert_int_equal(pm_pool_new(&pool, 2, NULL), 0);
    pm_group_init(&g, pool);
    pm_group_submit_or_run(&g, note_thread, &queued);
    pm_alloc_fail_after(1);
    pm_group_submit_or_run(&g, note_thread, &here);
    pm_alloc_fail_after(0);
    assert_int_equal(atomic_load(&here.ran), 1); /* ran before the call returned */
    assert_true(pthread_equal(here.thread, pthread_self()));
    assert_int_equal(pm_group_wait(&g, &err), 0);
    assert_int_equal(atomic_load(&queued.ran), 1); /* on a worker, or by the wait */
    /* a failure of a task run here is the group's */
    failing.rc = PAIMON_EIO;
    pm_alloc_fail_after(1);
    pm_group_submit_or_run(&g, note_thread, &failing);
    pm_alloc_fail_after(0);
    assert_int_equal(atomic_load(&failing.ran), 1);
    assert_true(pm_group_failed(&g));
    assert_int_equal(pm_group_wait(&g, &err), PAIMON_EIO);
    assert_string_equal(err.message, "task failed on purpose");
    pm_group_destroy(&g);
    pm_pool_free(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results_in_place),
        cmocka_unit_test(test_first_failure_in_submission_order),
        cmocka_unit_test(test_nested_waits_finish),
        cmocka_unit_test(test_waiting_for_own_group_is_refused),
        cmocka_unit_test(test_shutdown_runs_queued_tasks),
        cmocka_unit_test(test_sizes_and_shared_pool),
        cmocka_unit_test(test_submit_out_of_memory),
        cmocka_unit_test(test_submit_or_run_out_of_memory),
        cmocka_unit_test(test_default_threads_from_environment),
        cmocka_unit_test(test_fork_child_gets_own_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

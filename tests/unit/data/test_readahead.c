/* data/readahead: one source read ahead on the pool gives its batches in order, each with
 * the tag the source had when it yielded it, for pools of 1 to 4 workers and depths 1 up;
 * never more than `depth` batches are read ahead of the caller; a failure mid-read reaches
 * the caller with its own code and message after the batches before it, and stays; freeing
 * early (or before any read) waits for the task in flight, frees what was read ahead (ASan
 * checks) and leaves the source untouched afterwards; a pool whose only worker is held by
 * another task still delivers every batch (the caller runs the reads itself). */
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

#include "data/readahead.h"
#include "data/types.h"
#include "util/alloc.h"

typedef struct fake {
    pm_type *row;
    int batches;       /* batches the source has */
    int fail_at;       /* the batch whose read fails, or -1 */
    int next;          /* the next batch (touched by one thread at a time) */
    int64_t tag;       /* set with each batch: the value run_tag reports */
    atomic_int taken;  /* batches the caller has taken */
    atomic_int most;   /* the most batches ever read ahead of the caller */
    atomic_bool freed; /* the read-ahead was freed: the source must not be read any more */
    atomic_int late;   /* reads after that */
    size_t depth;
} fake;

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static int fake_next(void *ctx, pm_batch **out, paimon_error *err)
{
    fake *f = ctx;
    pm_batch *b = NULL;
    int rc, ahead;
    if (atomic_load(&f->freed))
        atomic_fetch_add(&f->late, 1);
    if (f->next == f->fail_at)
        return pm_err_set(err, PAIMON_ECORRUPT, "fake file: batch %d is bad", f->next);
    if (f->next >= f->batches)
        return PAIMON_ITEROVER;
    if (f->next % 3 == 1)
        nap_us(100); /* some reads are slow: the caller catches up and waits */
    if ((rc = pm_batch_new(&b, f->row, err)) != 0)
        return rc;
    for (int r = 0; r < 2; r++)
        assert_int_equal(pm_column_append_i64(b->columns[0], f->next * 10 + r), 0);
    b->row_count = 2;
    f->tag = f->next / 4; /* like a run's level: changes every few batches */
    f->next++;
    /* the caller has taken `taken`; this one and those queued are ahead of it (the one it
     * is taking right now may not be counted yet) */
    ahead = f->next - atomic_load(&f->taken);
    if (ahead > atomic_load(&f->most))
        atomic_store(&f->most, ahead);
    *out = b;
    return 0;
}

static int64_t fake_tag(void *ctx)
{
    return ((fake *)ctx)->tag;
}

static void fake_init(fake *f, int batches, int fail_at, size_t depth)
{
    memset(f, 0, sizeof(*f));
    f->row = pm_type_new(PM_TYPE_ROW);
    assert_non_null(f->row);
    assert_int_equal(pm_type_row_add(f->row, 0, "v", pm_type_new(PM_TYPE_BIGINT)), 0);
    f->batches = batches;
    f->fail_at = fail_at;
    f->depth = depth;
}

/* Reads everything; checks each batch's rows and tag; the final code. */
static int read_all(pm_readahead *ra, fake *f, int *got, paimon_error *err)
{
    for (*got = 0;; (*got)++) {
        pm_batch *b = NULL;
        pm_datum d;
        int64_t tag = -1;
        int rc = pm_readahead_next(ra, &b, &tag, err);
        if (rc != 0)
            return rc;
        atomic_fetch_add(&f->taken, 1);
        assert_int_equal(b->row_count, 2);
        pm_column_get_datum(b->columns[0], 0, &d);
        assert_int_equal(d.v.i, *got * 10);
        pm_column_get_datum(b->columns[0], 1, &d);
        assert_int_equal(d.v.i, *got * 10 + 1);
        assert_int_equal(tag, *got / 4);
        pm_batch_free(b);
    }
}

static void run_case(size_t threads, size_t depth, int batches, int fail_at)
{
    fake f;
    pm_pool *pool = NULL;
    pm_readahead *ra = NULL;
    paimon_error err = {0, {0}};
    pm_batch *b = NULL;
    int got, rc;
    fake_init(&f, batches, fail_at, depth);
    assert_int_equal(pm_pool_new(&pool, threads, NULL), 0);
    assert_int_equal(pm_readahead_new(&ra, fake_next, fake_tag, &f, pool, depth, &err), 0);
    rc = read_all(ra, &f, &got, &err);
    if (fail_at >= 0 && fail_at < batches) {
        assert_int_equal(rc, PAIMON_ECORRUPT);
        char want[64];
        snprintf(want, sizeof(want), "fake file: batch %d is bad", fail_at);
        assert_string_equal(err.message, want); /* unchanged */
        assert_int_equal(got, fail_at);
    } else {
        assert_int_equal(rc, PAIMON_ITEROVER);
        assert_int_equal(got, batches);
    }
    assert_int_equal(pm_readahead_next(ra, &b, NULL, &err), rc); /* the end stays */
    assert_null(b);
    assert_true(atomic_load(&f.most) <= (int)depth + 1);
    pm_readahead_free(ra);
    pm_pool_free(pool);
    pm_type_free(f.row);
}

static void test_order_and_tags(void **state)
{
    (void)state;
    for (size_t threads = 1; threads <= 4; threads++)
        for (size_t depth = 1; depth <= 5; depth += 2) {
            run_case(threads, depth, 37, -1);
            run_case(threads, depth, 1, -1);
            run_case(threads, depth, 0, -1);
            run_case(threads, depth, 9, 0); /* the very first read fails */
        }
}

static void test_error_reaches_the_caller(void **state)
{
    (void)state;
    for (size_t threads = 1; threads <= 3; threads += 2)
        for (size_t depth = 1; depth <= 4; depth += 3) {
            fake f;
            pm_pool *pool = NULL;
            pm_readahead *ra = NULL;
            paimon_error err = {0, {0}};
            pm_batch *b = NULL;
            int got;
            fake_init(&f, 30, 13, depth);
            assert_int_equal(pm_pool_new(&pool, threads, NULL), 0);
            assert_int_equal(pm_readahead_new(&ra, fake_next, fake_tag, &f, pool, depth, &err), 0);
            assert_int_equal(read_all(ra, &f, &got, &err), PAIMON_ECORRUPT);
            assert_int_equal(got, 13); /* every batch before the failure */
            assert_string_equal(err.message, "fake file: batch 13 is bad");
            memset(&err, 0, sizeof(err));
            assert_int_equal(pm_readahead_next(ra, &b, NULL, &err), PAIMON_ECORRUPT);
            assert_string_equal(err.message, "fake file: batch 13 is bad");
            pm_readahead_free(ra);
            pm_pool_free(pool);
            pm_type_free(f.row);
        }
}

static void test_early_free(void **state)
{
    (void)state;
    for (int reads = 0; reads <= 6; reads += 3)
        for (size_t threads = 1; threads <= 3; threads += 2) {
            fake f;
            pm_pool *pool = NULL;
            pm_readahead *ra = NULL;
            paimon_error err = {0, {0}};
            fake_init(&f, 1000, -1, 4);
            assert_int_equal(pm_pool_new(&pool, threads, NULL), 0);
            assert_int_equal(pm_readahead_new(&ra, fake_next, fake_tag, &f, pool, 4, &err), 0);
            for (int i = 0; i < reads; i++) {
                pm_batch *b = NULL;
                assert_int_equal(pm_readahead_next(ra, &b, NULL, &err), 0);
                atomic_fetch_add(&f.taken, 1);
                pm_batch_free(b);
            }
            pm_readahead_free(ra); /* the task in flight is waited for; its batches freed */
            atomic_store(&f.freed, true);
            pm_pool_free(pool); /* runs anything still queued: nothing may read the source */
            assert_int_equal(atomic_load(&f.late), 0);
            assert_true(f.next <= reads + 4 + 1); /* bounded by the depth */
            pm_type_free(f.row);
        }
}

/* A task that holds the pool's only worker until told to go. */
static int hold(void *arg, paimon_error *err)
{
    atomic_bool *go = arg;
    (void)err;
    while (!atomic_load(go))
        nap_us(100);
    return 0;
}

static void test_busy_pool_still_reads(void **state)
{
    fake f;
    pm_pool *pool = NULL;
    pm_group g;
    pm_readahead *ra = NULL;
    paimon_error err = {0, {0}};
    atomic_bool go = false;
    int got;
    (void)state;
    fake_init(&f, 20, -1, 2);
    assert_int_equal(pm_pool_new(&pool, 1, NULL), 0);
    pm_group_init(&g, pool);
    assert_int_equal(pm_group_submit(&g, hold, &go, &err), 0);
    nap_us(2000); /* let the worker take it */
    assert_int_equal(pm_readahead_new(&ra, fake_next, fake_tag, &f, pool, 2, &err), 0);
    assert_int_equal(read_all(ra, &f, &got, &err), PAIMON_ITEROVER);
    assert_int_equal(got, 20);
    atomic_store(&go, true);
    assert_int_equal(pm_group_wait(&g, &err), 0);
    pm_group_destroy(&g);
    pm_readahead_free(ra);
    pm_pool_free(pool);
    pm_type_free(f.row);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_tags),
        cmocka_unit_test(test_error_reaches_the_caller),
        cmocka_unit_test(test_early_free),
        cmocka_unit_test(test_busy_pool_still_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

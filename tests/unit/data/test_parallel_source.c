/* data/parallel_source: sources read ahead on the thread pool come out in source order,
 * batch for batch as one thread reads them, for pools of 1 to 4 workers and windows from
 * 1 up; the first failing source (at open or mid-read) ends the stream with its own error
 * after every batch before it, and a later source's failure is never the one reported;
 * releasing the stream early (or before any read) releases every source opened and every
 * batch read ahead (ASan checks the leaks). */
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "testlib.h"

#include "data/parallel_source.h"
#include "data/types.h"
#include "util/alloc.h"

/* Source i: i % 7 + 1 batches (0 for i % 11 == 5: empty), batch j holding rows
 * i * 1000 + j * 10 + r for r < 3. */
typedef struct fake_world {
    pm_type *row;
    int fail_open;     /* index of the source whose open fails, or -1 */
    int fail_read;     /* index of the source that fails on its second batch, or -1 */
    atomic_int opened; /* sources opened */
    atomic_int freed;  /* sources released */
} fake_world;

typedef struct fake_source {
    fake_world *w;
    int idx, next, batches;
} fake_source;

static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static int fake_next(void *ctx, pm_batch **out, paimon_error *err)
{
    fake_source *s = ctx;
    pm_batch *b = NULL;
    int rc;
    if (s->idx == s->w->fail_read && s->next == 1)
        return pm_err_set(err, PAIMON_ECORRUPT, "source %d: bad batch", s->idx);
    if (s->next >= s->batches)
        return PAIMON_ITEROVER;
    if ((s->idx * 13 + s->next) % 5 == 0)
        nap_us(200); /* some reads are slow: later sources finish first */
    if ((rc = pm_batch_new(&b, s->w->row, err)) != 0)
        return rc;
    for (int r = 0; r < 3; r++)
        assert_int_equal(pm_column_append_i64(b->columns[0], s->idx * 1000 + s->next * 10 + r), 0);
    b->row_count = 3;
    s->next++;
    *out = b;
    return 0;
}

static void fake_release(void *ctx)
{
    fake_source *s = ctx;
    atomic_fetch_add(&s->w->freed, 1);
    pm_free(s);
}

static int fake_open(void *ctx, size_t idx, pm_batch_source *out, paimon_error *err)
{
    fake_world *w = ctx;
    fake_source *s;
    if ((int)idx == w->fail_open)
        return pm_err_set(err, PAIMON_ENOTFOUND, "source %zu: no such file", idx);
    if ((s = pm_calloc(1, sizeof(*s))) == NULL)
        return pm_nomem(err);
    s->w = w;
    s->idx = (int)idx;
    s->batches = idx % 11 == 5 ? 0 : (int)(idx % 7) + 1;
    atomic_fetch_add(&w->opened, 1);
    out->next = fake_next;
    out->release = fake_release;
    out->ctx = s;
    out->type = w->row;
    return 0;
}

static void world_init(fake_world *w)
{
    memset(w, 0, sizeof(*w));
    w->row = pm_type_new(PM_TYPE_ROW);
    assert_non_null(w->row);
    assert_int_equal(pm_type_row_add(w->row, 0, "v", pm_type_new(PM_TYPE_BIGINT)), 0);
    w->fail_open = w->fail_read = -1;
}

/* Reads the whole stream; the rows as one string, the final code in *rc. */
static void read_all(pm_batch_source *src, pm_buf *rows, int *rc, paimon_error *err)
{
    for (;;) {
        pm_batch *b = NULL;
        pm_datum d;
        if ((*rc = src->next(src->ctx, &b, err)) != 0)
            return;
        for (int64_t r = 0; r < b->row_count; r++) {
            char text[32];
            pm_column_get_datum(b->columns[0], r, &d);
            snprintf(text, sizeof(text), "%lld,", (long long)d.v.i);
            assert_int_equal(pm_buf_append(rows, text, strlen(text)), 0);
        }
        pm_batch_free(b);
    }
}

/* What one thread reads: sources 0..count-1 one after another, up to `stop` (exclusive). */
static void expected(size_t count, int stop, pm_buf *rows)
{
    for (size_t i = 0; i < count && (stop < 0 || (int)i < stop); i++) {
        int batches = i % 11 == 5 ? 0 : (int)(i % 7) + 1;
        for (int j = 0; j < batches; j++)
            for (int r = 0; r < 3; r++) {
                char text[32];
                snprintf(text, sizeof(text), "%lld,", (long long)(i * 1000 + j * 10 + r));
                assert_int_equal(pm_buf_append(rows, text, strlen(text)), 0);
            }
    }
}

static void run_case(size_t threads, size_t window, size_t count, int fail_open, int fail_read)
{
    fake_world w;
    pm_pool *pool = NULL;
    pm_batch_source src;
    pm_buf got, want;
    paimon_error err = {0, {0}};
    int rc, stop = -1;
    world_init(&w);
    w.fail_open = fail_open;
    w.fail_read = fail_read;
    pm_buf_init(&got, 0);
    pm_buf_init(&want, 0);
    assert_int_equal(pm_pool_new(&pool, threads, NULL), 0);
    assert_int_equal(
        pm_parallel_source_new(&src, w.row, count, fake_open, &w, pool, threads, window, &err), 0);
    read_all(&src, &got, &rc, &err);
    if (fail_open >= 0 && (fail_read < 0 || fail_open < fail_read)) {
        assert_int_equal(rc, PAIMON_ENOTFOUND);
        assert_non_null(strstr(err.message, "no such file"));
        stop = fail_open;
    } else if (fail_read >= 0) {
        assert_int_equal(rc, PAIMON_ECORRUPT);
        assert_non_null(strstr(err.message, "bad batch"));
        stop = fail_read;
    } else {
        assert_int_equal(rc, PAIMON_ITEROVER);
    }
    expected(count, stop, &want);
    if (fail_read >= 0 && stop == fail_read) {
        /* the failing source gave its first batch before failing */
        for (int r = 0; r < 3; r++) {
            char text[32];
            snprintf(text, sizeof(text), "%d,", fail_read * 1000 + r);
            assert_int_equal(pm_buf_append(&want, text, strlen(text)), 0);
        }
    }
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);
    assert_int_equal(src.next(src.ctx, &(pm_batch *){NULL}, &err), rc); /* the end stays */
    src.release(src.ctx);
    assert_int_equal(atomic_load(&w.opened), atomic_load(&w.freed));
    pm_pool_free(pool);
    pm_buf_free(&got);
    pm_buf_free(&want);
    pm_type_free(w.row);
}

static void test_order_of_one_thread(void **state)
{
    (void)state;
    for (size_t threads = 1; threads <= 4; threads++)
        for (size_t window = 1; window <= 9; window += 4) {
            run_case(threads, window, 40, -1, -1);
            run_case(threads, window, 1, -1, -1);
        }
}

static void test_first_failure_ends_the_stream(void **state)
{
    (void)state;
    for (size_t threads = 1; threads <= 4; threads += 3) {
        run_case(threads, 2 * threads, 30, 9, -1);  /* open fails */
        run_case(threads, 2 * threads, 30, -1, 8);  /* read fails after a batch */
        run_case(threads, 2 * threads, 30, 20, 13); /* the earlier one is reported */
        run_case(threads, 2 * threads, 30, 13, 20);
        run_case(threads, 8, 30, 0, -1); /* the very first source */
    }
}

static void test_early_release(void **state)
{
    (void)state;
    for (int reads = 0; reads <= 5; reads += 5) {
        fake_world w;
        pm_pool *pool = NULL;
        pm_batch_source src;
        paimon_error err = {0, {0}};
        world_init(&w);
        assert_int_equal(pm_pool_new(&pool, 3, NULL), 0);
        assert_int_equal(pm_parallel_source_new(&src, w.row, 50, fake_open, &w, pool, 3, 6, &err),
                         0);
        for (int i = 0; i < reads; i++) {
            pm_batch *b = NULL;
            assert_int_equal(src.next(src.ctx, &b, &err), 0);
            pm_batch_free(b);
        }
        src.release(src.ctx); /* tasks in flight are waited for; read-ahead freed */
        assert_int_equal(atomic_load(&w.opened), atomic_load(&w.freed));
        /* never more than the window, moved on past the sources read through (0 and 1) */
        assert_true(atomic_load(&w.opened) <= 6 + (reads > 0 ? 2 : 0));
        pm_pool_free(pool);
        pm_type_free(w.row);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_of_one_thread),
        cmocka_unit_test(test_first_failure_ends_the_stream),
        cmocka_unit_test(test_early_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

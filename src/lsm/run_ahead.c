/* A sorted run of a merge decoded ahead on the thread pool (lsm/run_ahead.h). */
#include "lsm/run_ahead.h"

#include "data/readahead.h"
#include "util/alloc.h"

struct pm_run_ahead {
    pm_run_source *src;
    pm_run_source inner; /* the run as read on one thread */
    const int32_t *level;
    pm_readahead *ra;
};

/* On the decoding thread, one call at a time (data/readahead.h). */
PM_MUST_CHECK static int inner_next(void *ctx, pm_batch **out, paimon_error *err)
{
    pm_run_ahead *a = ctx;
    return a->inner.next(a->inner.ctx, out, err);
}

/* The level of the file the batch just decoded came from. */
static int64_t inner_level(void *ctx)
{
    return *((pm_run_ahead *)ctx)->level;
}

/* On the merge's thread. */
PM_MUST_CHECK static int ahead_next(void *ctx, pm_batch **out, paimon_error *err)
{
    pm_run_ahead *a = ctx;
    int64_t level = 0;
    int rc = pm_readahead_next(a->ra, out, &level, err);
    if (rc == 0)
        a->src->level = (int32_t)level;
    return rc;
}

int pm_run_ahead_start(pm_run_ahead **out, pm_run_source *src, const int32_t *level, pm_pool *pool,
                       size_t depth, paimon_error *err)
{
    pm_run_ahead *a = pm_calloc(1, sizeof(*a));
    int rc;
    *out = NULL;
    if (a == NULL)
        return pm_nomem(err);
    a->src = src;
    a->inner = *src;
    a->level = level;
    /* before the first batch is decoded (pm_readahead_new starts at once): the run's reader
     * tests *out on the decoding thread to leave src->level alone */
    *out = a;
    if ((rc = pm_readahead_new(&a->ra, inner_next, inner_level, a, pool, depth, err)) != 0) {
        *out = NULL;
        pm_free(a);
        return rc;
    }
    src->next = ahead_next;
    src->ctx = a;
    return 0;
}

void pm_run_ahead_stop(pm_run_ahead *a)
{
    if (a == NULL)
        return;
    pm_readahead_free(a->ra);
    pm_free(a);
}

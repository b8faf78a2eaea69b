/*
 * Data pages compressed on a pool while the writer encodes the next ones (writer_int.h).
 *
 * Compression is most of a Parquet write's time (zstd over every page: 36 % of a
 * compaction's, docs/PERFORMANCE.md "Pages compressed on the pool"), and a page's
 * compression needs nothing but its bytes, so it can run beside the encoding of what
 * follows.  The jobs are a ring of `slots`: [head, head + out) are out, in the order given.
 * A job owns its buffers and codec state, which stay with the slot for the next page.
 *
 * What holds: a job's `raw`, `comp`, `crc`, `rc` and `err` are written by its task only,
 * and read by the writer's thread only after pm_group_wait() of the job's group has
 * returned; the writer's thread alone moves head and out.
 */
#include <string.h>

#include "format/parquet/writer_int.h"
#include "util/alloc.h"
#include "util/hash.h"

typedef struct page_job {
    pq_colw *c;        /* whose page */
    size_t rec;        /* which of its chunk's pages */
    pq_page_header h;  /* its header, sizes and CRC to fill */
    pm_buf raw, comp;  /* the page before and after compression (owned) */
    pm_codec_ctx *ctx; /* the job's own codec state */
    pm_codec codec;
    int level;
    uint32_t crc; /* of comp */
    int rc;       /* of the compression */
    paimon_error err;
    pm_group group; /* the one task */
} page_job;

struct pq_page_jobs {
    page_job *slots;
    size_t count;     /* slots */
    size_t head, out; /* the oldest job out; how many are out */
};

size_t pm_pq_page_jobs_bound(size_t raw_len)
{
    /* zstd: ZSTD_COMPRESSBOUND is len + len / 256 + 64 at most; snappy 32 + len + len / 6;
     * LZ4 len + len / 255 + 16; deflate's stored blocks 5 bytes per 16 KiB plus the gzip
     * frame.  Then a v1 data page header (under 64 bytes without statistics). */
    return raw_len + raw_len / 6 + 1024 + 64;
}

int pm_pq_page_jobs_new(pq_page_jobs **out, pm_pool *pool, int codec, int level, size_t slots,
                        paimon_error *err)
{
    pq_page_jobs *j = pm_calloc(1, sizeof(*j));
    *out = NULL;
    if (j == NULL || (j->slots = pm_calloc(slots, sizeof(page_job))) == NULL) {
        pm_free(j);
        return pm_nomem(err);
    }
    j->count = slots;
    for (size_t i = 0; i < slots; i++) {
        page_job *pj = &j->slots[i];
        pm_buf_init(&pj->raw, 0);
        pm_buf_init(&pj->comp, 0);
        pm_group_init(&pj->group, pool);
        pj->codec = pm_pq_codec_of(codec);
        pj->level = level;
        if ((pj->ctx = pm_codec_ctx_new()) == NULL) {
            j->count = i + 1;
            pm_pq_page_jobs_free(j);
            return pm_nomem(err);
        }
    }
    *out = j;
    return 0;
}

void pm_pq_page_jobs_free(pq_page_jobs *j)
{
    if (j == NULL)
        return;
    for (size_t k = 0; k < j->out; k++)
        PM_IGNORE(pm_group_wait(&j->slots[(j->head + k) % j->count].group, NULL));
    for (size_t i = 0; i < j->count; i++) {
        pm_group_destroy(&j->slots[i].group);
        pm_codec_ctx_free(j->slots[i].ctx);
        pm_buf_free(&j->slots[i].raw);
        pm_buf_free(&j->slots[i].comp);
    }
    pm_free(j->slots);
    pm_free(j);
}

bool pm_pq_page_jobs_pending(const pq_page_jobs *j)
{
    return j != NULL && j->out > 0;
}

/* The task: the page's bytes compressed, and their CRC. */
PM_MUST_CHECK static int compress_page(void *arg, paimon_error *unused)
{
    page_job *pj = arg;
    (void)unused;
    pj->comp.len = 0;
    pj->rc =
        pm_compress(pj->ctx, pj->codec, pj->level, pj->raw.data, pj->raw.len, &pj->comp, &pj->err);
    if (pj->rc == 0)
        pj->crc = pm_crc32(pj->comp.data, pj->comp.len);
    return 0;
}

/* Takes back the oldest job out: waits for it, then puts its page into its chunk. */
PM_MUST_CHECK static int take_oldest(pq_wctx *x, paimon_error *err)
{
    pq_page_jobs *j = x->jobs;
    page_job *pj = &j->slots[j->head];
    int rc;
    PM_IGNORE(pm_group_wait(&pj->group, NULL)); /* the task reports through the job */
    j->head = (j->head + 1) % j->count;
    j->out--;
    if (pj->rc != 0) {
        if (err != NULL)
            *err = pj->err;
        return pj->rc;
    }
    rc = pm_pq_colw_page_done(pj->c, x, pj->rec, &pj->h, &pj->comp, pj->raw.len, pj->crc, err);
    return rc;
}

int pm_pq_page_jobs_submit(pq_wctx *x, pq_colw *c, size_t rec, const pq_page_header *h,
                           paimon_error *err)
{
    pq_page_jobs *j = x->jobs;
    page_job *pj;
    pm_buf swap;
    int rc;
    if (j->out == j->count && (rc = take_oldest(x, err)) != 0)
        return rc;
    pj = &j->slots[(j->head + j->out) % j->count];
    pj->c = c;
    pj->rec = rec;
    pj->h = *h;
    pj->rc = 0;
    memset(&pj->err, 0, sizeof(pj->err));
    /* the page's bytes move to the job; the writer goes on with the job's old buffer */
    swap = pj->raw;
    pj->raw = x->raw;
    x->raw = swap;
    x->raw.len = 0;
    j->out++;
    pm_group_submit_or_run(&pj->group, compress_page, pj);
    return 0;
}

int pm_pq_page_jobs_drain(pq_wctx *x, paimon_error *err)
{
    int rc = 0;
    while (x->jobs != NULL && x->jobs->out > 0 && rc == 0)
        rc = take_oldest(x, err);
    return rc;
}

/*
 * Data pages decompressed on a pool while the reader decodes the page before them
 * (column.h, "pages decompressed ahead").
 *
 * Decompression is most of a plain Parquet read's time (zstd 59 % of a scan of a compacted
 * table, docs/PERFORMANCE.md "Pages decompressed ahead"), and a page's decompression needs
 * nothing but its bytes, which a chunk read whole holds from the start.  So once a data
 * page is open, the headers of the next pages are read (pm_pq_col_header_at(), into a
 * scratch error) and each compressed data page is handed to a job: the jobs are
 * a ring of PQ_PAGES_AHEAD slots, [head, head + out) out, in chunk order.  A job owns its
 * output buffer and codec state, which stay with the slot for the next page; the buffer a
 * page is taken in is swapped with the reader's page buffer, so neither is copied.
 *
 * What a job decides: nothing.  It runs pm_pq_decompress() into its buffer, capped as
 * decompress() caps the reader's, and keeps the code and message; the reader takes that
 * result where it would have decompressed in place (same arguments, checked by pointer and
 * sizes) and goes on exactly as after an in-place decompression -- the size check, the
 * padding, the message naming file, column and page.  Headers, CRCs, levels and every
 * check stay with the reader, in page order, so a corrupt chunk fails at the same page with
 * the same message either way; a job whose page the reader never asks for (a page skipped,
 * a failure before it, a new chunk) is dropped: cancelled if not started, else waited for.
 *
 * What holds: a job's `buf`, `rc` and `err` are written by its task only, and read by the
 * reader's thread only after pm_group_wait() of the job's group has returned; the reader's
 * thread alone moves head, out and next_pos.  The chunk's bytes do not change while a job
 * is out: every place that reuses or frees them drops the jobs first (pm_pq_col_start(),
 * pm_pq_col_drop_ahead()).
 */
#include <string.h>

#include "format/parquet/column.h"
#include "util/alloc.h"

typedef struct page_ahead {
    const uint8_t *src; /* the compressed bytes (in the chunk) */
    size_t len;         /* their length */
    size_t expected;    /* the decompressed size the header gives */
    int codec;          /* PQ_* */
    pm_codec_ctx *ctx;  /* the slot's own codec state, made by its first job */
    pm_buf buf;         /* the page decompressed (owned by the slot) */
    int rc;             /* of the decompression */
    paimon_error err;
    int cancelled;  /* set before the task starts: it does nothing */
    pm_group group; /* the one task */
} page_ahead;

struct pq_pages_ahead {
    page_ahead slots[PQ_PAGES_AHEAD];
    size_t head, out; /* the oldest job out; how many are out */
    size_t next_pos;  /* the chunk offset of the next header to look at */
    bool stop;        /* a header could not be read ahead: the reader meets it in place */
};

/* The task. */
PM_MUST_CHECK static int decompress_page(void *arg, paimon_error *unused)
{
    page_ahead *pa = arg;
    (void)unused;
    if (__atomic_load_n(&pa->cancelled, __ATOMIC_ACQUIRE))
        return 0;
    pa->buf.len = 0;
    pa->buf.max = pa->expected + PM_PQ_PADDING + 1; /* as decompress() caps the page buffer */
    if (pa->ctx == NULL && (pa->ctx = pm_codec_ctx_new()) == NULL) {
        pa->rc = pm_nomem(&pa->err);
        return 0;
    }
    pa->rc =
        pm_pq_decompress(pa->ctx, pa->codec, pa->src, pa->len, pa->expected, &pa->buf, &pa->err);
    return 0;
}

/* Drops the oldest job out: its result is not wanted. */
static void drop_oldest(pq_pages_ahead *a)
{
    page_ahead *pa = &a->slots[a->head];
    __atomic_store_n(&pa->cancelled, 1, __ATOMIC_RELEASE);
    PM_IGNORE(pm_group_wait(&pa->group, NULL)); /* runs it here, at once, if not started */
    a->head = (a->head + 1) % PQ_PAGES_AHEAD;
    a->out--;
}

void pm_pq_col_drop_ahead(pq_col_reader *r)
{
    pq_pages_ahead *a = r->ahead;
    if (a == NULL)
        return;
    while (a->out > 0)
        drop_oldest(a);
    a->next_pos = 0;
    a->stop = false;
}

void pm_pq_col_free_ahead(pq_col_reader *r)
{
    pq_pages_ahead *a = r->ahead;
    if (a == NULL)
        return;
    pm_pq_col_drop_ahead(r);
    for (size_t i = 0; i < PQ_PAGES_AHEAD; i++) {
        pm_group_destroy(&a->slots[i].group);
        pm_codec_ctx_free(a->slots[i].ctx);
        pm_buf_free(&a->slots[i].buf);
    }
    pm_free(a);
    r->ahead = NULL;
}

/* The bytes open_data_page() would decompress for the page whose header is `h` and body
 * starts at chunk offset `body`: false when it would decompress nothing or refuse the page
 * first (the reader then meets the page in place). */
static bool compressed_part(const pq_col_reader *r, const pq_page_header *h, size_t body,
                            const uint8_t **src, size_t *len, size_t *expected)
{
    size_t lv = 0; /* the header's sizes are not negative (pm_pq_read_page_header) */
    if (h->type == PQ_DATA_PAGE_V2) {
        if (!h->has_v2 || !h->is_compressed || h->def_len < 0 || h->rep_len < 0)
            return false;
        lv = (size_t)h->def_len + (size_t)h->rep_len;
        if (lv > (size_t)h->compressed_size || lv > (size_t)h->uncompressed_size)
            return false;
    } else if (h->type != PQ_DATA_PAGE || !h->has_data) {
        return false;
    }
    *src = r->chunk + body + lv;
    *len = (size_t)h->compressed_size - lv;
    *expected = (size_t)h->uncompressed_size - lv;
    return *expected <= PQ_MAX_PAGE_BYTES;
}

int pm_pq_col_fill_ahead(pq_col_reader *r, paimon_error *err)
{
    pq_pages_ahead *a = r->ahead;
    if (r->pool == NULL || r->chunk == NULL || r->codec == PQ_UNCOMPRESSED)
        return 0; /* streamed chunks move their window: their pages are read in place */
    if (a == NULL) {
        if ((a = pm_calloc(1, sizeof(*a))) == NULL)
            return pm_nomem(err);
        for (size_t i = 0; i < PQ_PAGES_AHEAD; i++) {
            pm_buf_init(&a->slots[i].buf, PQ_MAX_PAGE_BYTES + PM_PQ_PADDING);
            pm_group_init(&a->slots[i].group, r->pool);
        }
        r->ahead = a;
    }
    if (a->out == 0 || a->next_pos < r->pos) {
        pm_pq_col_drop_ahead(r);
        a->next_pos = r->pos;
    }
    while (!a->stop && a->out < PQ_PAGES_AHEAD && a->next_pos < r->chunk_len) {
        paimon_error scratch = {0, {0}};
        pq_page_header h;
        size_t body;
        page_ahead *pa;
        const uint8_t *src;
        size_t len, expected;
        if (pm_pq_col_header_at(r, a->next_pos, &h, &body, &scratch) != 0) {
            a->stop = true; /* the reader meets it in place and reports it there */
            break;
        }
        a->next_pos = body + (size_t)h.compressed_size;
        if (!compressed_part(r, &h, body, &src, &len, &expected))
            continue; /* dictionary, index and uncompressed pages are read in place */
        pa = &a->slots[(a->head + a->out) % PQ_PAGES_AHEAD];
        pa->src = src;
        pa->len = len;
        pa->expected = expected;
        pa->codec = r->codec;
        pa->rc = 0;
        memset(&pa->err, 0, sizeof(pa->err));
        pa->cancelled = 0;
        a->out++;
        pm_group_submit_or_run(&pa->group, decompress_page, pa);
    }
    return 0;
}

bool pm_pq_col_take_ahead(pq_col_reader *r, const uint8_t *src, size_t len, size_t expected,
                          int *rc, paimon_error *err)
{
    pq_pages_ahead *a = r->ahead;
    page_ahead *pa;
    pm_buf swap;
    if (a == NULL)
        return false;
    /* pages skipped since they were handed out come first */
    while (a->out > 0 && a->slots[a->head].src < src)
        drop_oldest(a);
    if (a->out == 0)
        return false;
    pa = &a->slots[a->head];
    if (pa->src != src || pa->len != len || pa->expected != expected) {
        pm_pq_col_drop_ahead(r);
        return false;
    }
    PM_IGNORE(pm_group_wait(&pa->group, NULL)); /* the task reports through the job */
    a->head = (a->head + 1) % PQ_PAGES_AHEAD;
    a->out--;
    *rc = pa->rc;
    if (pa->rc != 0 && err != NULL)
        *err = pa->err;
    /* the page moves to the reader; the job keeps the reader's old buffer for its next page */
    r->pages_ahead++;
    swap = r->page_buf;
    r->page_buf = pa->buf;
    pa->buf = swap;
    return true;
}

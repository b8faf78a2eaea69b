/*
 * Reading an S3 object as a pm_input: few requests, and parallel ones where the bytes are
 * many.
 *
 *  - open: one ranged GET of the first window (bytes 0..W-1, W = max(s3.readahead.range,
 *    64 KiB)).  An answer shorter than W is the whole object: its size is known and every
 *    later read is served from memory, so a small file (snapshot, schema, manifest, hint)
 *    costs one request in all.  A full window means a larger object: the 206's Content-Range
 *    ("bytes 0-W/SIZE") gives its size; only a store that sends none costs a HEAD.
 *    (Chosen by request count: HEAD-then-GET would cost two requests for every small file.)
 *  - read_at: served from the first window (kept: readers check a magic at 0 after reading
 *    the tail), the current window or a prefetched range when one covers the read; a miss
 *    GETs [off, off + max(len, readahead)) clipped to the size, which becomes the window.  A read larger than 2 chunks (chunk = max(readahead, 4 MiB); pm_fs_read_all of a
 *    large file) is fetched straight into the caller's buffer in chunk-sized ranges, all at
 *    once through pm_s3_perform_many (at most s3.connection.maximum in flight).
 *  - prefetch(ranges): the ranges a reader is about to read (the projected column chunks of a
 *    row group, the streams of a stripe), clipped to the size, sorted, and merged when closer
 *    than s3.coalesce.gap; then fetched all at once, each merged range split into chunks as
 *    above.  A new prefetch drops the ranges of the previous one; a range is dropped once a
 *    read reaches its end.  Bound: at most PREFETCH_MAX bytes (64 MiB) are held; ranges past
 *    the bound are left to read_at.
 *  - read-ahead of streams: a reader that walks a large range forward a window at a time
 *    (a Parquet column chunk read page by page, ORC streams) would wait for one GET per
 *    window.  A miss that starts inside or at the end of one of the last RECENT reads is
 *    such a stream: it is served from blocks of s3.prefetch.block.size bytes (aligned in the
 *    object), and the next s3.prefetch.block.count blocks after it are fetched in the
 *    background (s3_async.h) while the caller decodes.  Blocks are shared by every stream of
 *    the input (interleaved columns read each other's neighbours); the least recently used
 *    finished block makes room, a read-ahead never waits for a slot.  A read-ahead that
 *    failed (after its retries) is no error by itself: the read that needs its bytes fetches
 *    them again, and that fetch's failure is the read's.
 *  - Bound: an input holds at most the first window, one window of max(len, readahead),
 *    PREFETCH_MAX and 4 x count + 8 blocks (defaults: 24 x 2 MiB = 48 MiB).
 *
 * Thread safety: one thread at a time per input (io/fs.h); the client underneath is shared.
 */
#include <stdlib.h>
#include <string.h>

#include "io/s3/s3_async.h"
#include "io/s3/s3_fs_int.h"
#include "util/alloc.h"
#include "util/error.h"

#define PROBE_MIN    ((size_t)64 << 10)   /* the open's first window, at least */
#define CHUNK_MIN    ((size_t)4 << 20)    /* one request of a parallel read, at least */
#define PREFETCH_MAX ((uint64_t)64 << 20) /* bytes a prefetch may hold */
#define RECENT       16                   /* reads remembered to recognise a stream */

typedef struct cached {
    uint64_t off;  /* where the bytes start in the object */
    uint64_t len;  /* bytes held */
    uint8_t *data; /* owned; NULL when nothing is held */
} cached;

typedef struct s3_input {
    pm_input base; /* must stay first: the pm_input handed out */
    pm_s3_fs *fs;  /* borrowed: outlives its inputs */
    pm_s3_path p;  /* owned: bucket and key */
    char *path;    /* owned: the path as given, for messages */
    size_t window; /* bytes a small read fetches (max(readahead, 1)) */
    size_t chunk;  /* bytes of one request of a parallel read */
    cached head;   /* the first window (the open's GET): kept, readers come back to it */
    cached win;    /* the last window fetched by a miss */
    cached *pre;   /* owned: prefetched ranges, sorted by offset */
    size_t pre_count;
    /* read-ahead of streams */
    struct block *blocks; /* owned, [block_cap] */
    size_t block_cap;
    uint64_t block_size;        /* s3.prefetch.block.size */
    uint64_t depth;             /* s3.prefetch.block.count */
    uint64_t clock;             /* stamps of use */
    uint64_t recent[RECENT][2]; /* [off, end) of the last reads that missed the caches */
    size_t recent_next;
} s3_input;

/* One block: bytes [index * block_size, + len) of the object. */
typedef struct block {
    bool used;    /* the slot holds a block */
    bool pending; /* its GET may still run: settle() before touching data */
    bool ahead;   /* fetched by read-ahead, not yet read */
    uint64_t index;
    uint64_t len;
    uint8_t *data; /* owned */
    uint64_t stamp;
    int rc;           /* a finished fetch's failure ... */
    paimon_error err; /* ... and its message */
    pm_s3_request req;
    pm_s3_async async;
} block;

static void drop_prefetched(s3_input *in)
{
    for (size_t i = 0; i < in->pre_count; i++)
        pm_free(in->pre[i].data);
    pm_free(in->pre);
    in->pre = NULL;
    in->pre_count = 0;
}

/* A ranged GET request of [off, off + len) into dst. */
static pm_s3_request range_get(const s3_input *in, uint64_t off, uint64_t len, uint8_t *dst)
{
    pm_s3_request r = {.method = "GET",
                       .bucket = in->p.bucket,
                       .key = in->p.key,
                       .has_range = true,
                       .range_off = off,
                       .range_len = len,
                       .dst = dst,
                       .dst_len = (size_t)len};
    return r;
}

/* Fetches the byte ranges (offs[i], lens[i]) into dsts[i], each split into chunks, all at
 * once. */
PM_MUST_CHECK static int fetch_many(s3_input *in, const uint64_t *offs, const uint64_t *lens,
                                    uint8_t *const *dsts, size_t count, paimon_error *err)
{
    pm_s3_request *reqs = NULL;
    pm_s3_response *resps = NULL;
    size_t n = 0, made = 0;
    int rc = 0;

    for (size_t i = 0; i < count; i++)
        n += (size_t)((lens[i] + in->chunk - 1) / in->chunk);
    if (n == 0)
        return 0;
    reqs = pm_calloc(n, sizeof(*reqs));
    resps = pm_calloc(n, sizeof(*resps));
    if (reqs == NULL || resps == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0, k = 0; i < count; i++)
        for (uint64_t at = 0; at < lens[i]; at += in->chunk, k++) {
            uint64_t piece = lens[i] - at < in->chunk ? lens[i] - at : in->chunk;
            reqs[k] = range_get(in, offs[i] + at, piece, dsts[i] + at);
        }
    for (made = 0; made < n; made++)
        pm_s3_response_init(&resps[made]);
    PM_TRY(pm_s3_perform_many(in->fs->client, reqs, resps, n, err));
    for (size_t k = 0; k < n; k++)
        if (resps[k].status / 100 != 2) {
            rc = pm_s3_status_error(&reqs[k], &resps[k], err);
            goto done;
        }
done:
    for (size_t k = 0; k < made; k++)
        pm_s3_response_free(&resps[k]);
    pm_free(reqs);
    pm_free(resps);
    return rc;
}

/* Copies [off, off + len) from `c` when it holds all of it. */
static bool serve(const cached *c, uint64_t off, size_t len, uint8_t *dst)
{
    if (c->data == NULL || off < c->off || off + len > c->off + c->len)
        return false;
    memcpy(dst, c->data + (off - c->off), len);
    return true;
}

/* ---- blocks of streams ------------------------------------------------------------------ */

/* Waits for a block's GET and records its outcome. */
static void settle(block *b)
{
    pm_s3_response resp;
    if (!b->pending)
        return;
    b->pending = false;
    b->rc = pm_s3_async_wait(&b->async, &resp, &b->err);
    if (b->rc == 0 && resp.status / 100 != 2)
        b->rc = pm_s3_status_error(&b->req, &resp, &b->err);
    pm_s3_response_free(&resp);
}

static void drop_block(block *b)
{
    settle(b);
    pm_free(b->data);
    memset(b, 0, sizeof(*b));
}

static void drop_blocks(s3_input *in)
{
    for (size_t i = 0; i < in->block_cap; i++)
        if (in->blocks[i].used)
            drop_block(&in->blocks[i]);
}

static block *find_block(s3_input *in, uint64_t index)
{
    for (size_t i = 0; i < in->block_cap; i++)
        if (in->blocks[i].used && in->blocks[i].index == index)
            return &in->blocks[i];
    return NULL;
}

/* A free slot, emptying the least recently used block outside [lo, hi] when none is free;
 * a pending block is emptied (after its GET ends) only when `must`.  NULL: no room. */
static block *free_slot(s3_input *in, uint64_t lo, uint64_t hi, bool must)
{
    block *victim = NULL, *pending = NULL;
    for (size_t i = 0; i < in->block_cap; i++) {
        block *b = &in->blocks[i];
        if (!b->used)
            return b;
        if (b->index >= lo && b->index <= hi)
            continue;
        if (b->pending) {
            if (pending == NULL || b->stamp < pending->stamp)
                pending = b;
        } else if (victim == NULL || b->stamp < victim->stamp) {
            victim = b;
        }
    }
    if (victim == NULL && must)
        victim = pending;
    if (victim != NULL)
        drop_block(victim);
    return victim;
}

/* Starts the GET of block `index` unless it is held already.  A read-ahead (!must) that
 * finds no room or no thread is skipped: the read that needs the bytes fetches them. */
PM_MUST_CHECK static int start_block(s3_input *in, uint64_t index, uint64_t lo, uint64_t hi,
                                     bool must, paimon_error *err)
{
    uint64_t off = index * in->block_size;
    block *b;
    int rc = 0;

    if (off >= in->base.size || find_block(in, index) != NULL)
        return 0;
    if ((b = free_slot(in, lo, hi, must)) == NULL)
        return must ? pm_err_set(err, PAIMON_EIO, "%s: no room for a read block", in->path) : 0;
    b->index = index;
    b->len = in->base.size - off < in->block_size ? in->base.size - off : in->block_size;
    b->stamp = ++in->clock;
    if ((b->data = pm_malloc((size_t)b->len)) == NULL)
        return must ? pm_nomem(err) : 0;
    b->req = range_get(in, off, b->len, b->data);
    if ((rc = pm_s3_async_start(&b->async, in->fs->client, &b->req, err)) != 0) {
        pm_free(b->data);
        memset(b, 0, sizeof(*b));
        return must ? rc : 0;
    }
    b->used = true;
    b->pending = true;
    b->ahead = !must;
    return 0;
}

/* Is [off, ...) the continuation of a recent read (inside it or at its end)? */
static bool continues(const s3_input *in, uint64_t off)
{
    for (size_t i = 0; i < RECENT; i++)
        if (in->recent[i][1] > 0 && off >= in->recent[i][0] && off <= in->recent[i][1])
            return true;
    return false;
}

static void remember(s3_input *in, uint64_t off, uint64_t end)
{
    in->recent[in->recent_next][0] = off;
    in->recent[in->recent_next][1] = end;
    in->recent_next = (in->recent_next + 1) % RECENT;
}

/* Are all blocks of [off, end) held or on their way? */
static bool blocks_hold(s3_input *in, uint64_t off, uint64_t end)
{
    for (uint64_t i = off / in->block_size; i <= (end - 1) / in->block_size; i++)
        if (find_block(in, i) == NULL)
            return false;
    return true;
}

/* Serves [off, off + len) from blocks, fetching the missing ones now and the next `depth`
 * in the background. */
PM_MUST_CHECK static int read_blocks(s3_input *in, uint64_t off, size_t len, uint8_t *dst,
                                     paimon_error *err)
{
    uint64_t end = off + len, lo = off / in->block_size, hi = (end - 1) / in->block_size;
    int rc = 0;

    for (uint64_t i = lo; i <= hi; i++)
        PM_TRY(start_block(in, i, lo, hi, true, err));
    for (uint64_t i = hi + 1; i <= hi + in->depth; i++)
        PM_TRY(start_block(in, i, lo, hi, false, err));
    for (uint64_t i = lo; i <= hi; i++) {
        block *b = find_block(in, i);
        uint64_t boff = i * in->block_size, a = off > boff ? off : boff, e;
        if (b == NULL) /* cannot be: [lo, hi] is never emptied while it is read */
            return pm_err_set(err, PAIMON_EIO, "%s: read block %llu lost", in->path,
                              (unsigned long long)i);
        e = end < boff + b->len ? end : boff + b->len;
        settle(b);
        if (b->rc != 0 && b->ahead) {
            /* a read-ahead failed in the background: the read that needs it tries itself */
            drop_block(b);
            PM_TRY(start_block(in, i, lo, hi, true, err));
            b = find_block(in, i);
            if (b == NULL)
                return pm_err_set(err, PAIMON_EIO, "%s: read block %llu lost", in->path,
                                  (unsigned long long)i);
            settle(b);
        }
        b->ahead = false;
        if (b->rc != 0) {
            rc = b->rc;
            if (err != NULL)
                *err = b->err;
            /* every failed block of this read goes: a later read fetches them again */
            for (uint64_t j = lo; j <= hi; j++) {
                block *f = find_block(in, j);
                if (f != NULL) {
                    settle(f);
                    if (f->rc != 0)
                        drop_block(f);
                }
            }
            goto done;
        }
        b->stamp = ++in->clock;
        memcpy(dst + (a - off), b->data + (a - boff), (size_t)(e - a));
    }
done:
    return rc;
}

PM_MUST_CHECK static int s3_read_at(pm_input *base, uint64_t off, size_t len, uint8_t *dst,
                                    paimon_error *err)
{
    s3_input *in = (s3_input *)base;
    uint64_t end, want;
    uint8_t *buf = NULL;
    int rc = 0;

    if (__builtin_add_overflow(off, (uint64_t)len, &end) || end > base->size)
        return pm_corrupt(err,
                          "%s: read of %zu bytes at offset %llu runs past its end (%llu bytes)",
                          in->path, len, (unsigned long long)off, (unsigned long long)base->size);
    if (len == 0 || serve(&in->head, off, len, dst) || serve(&in->win, off, len, dst))
        return 0;
    for (size_t i = 0; i < in->pre_count; i++)
        if (serve(&in->pre[i], off, len, dst)) {
            if (end == in->pre[i].off + in->pre[i].len) { /* read to its end: done with it */
                pm_free(in->pre[i].data);
                in->pre[i].data = NULL;
            }
            return 0;
        }
    if (in->block_cap > 0 && len <= 2 * in->chunk &&
        (end - 1) / in->block_size - off / in->block_size < in->block_cap / 2 &&
        (blocks_hold(in, off, end) || continues(in, off))) {
        remember(in, off, end);
        return read_blocks(in, off, len, dst, err);
    }
    remember(in, off, end);
    if (len > 2 * in->chunk) {
        /* what the first window holds is not fetched again (a whole-file read) */
        uint64_t o = off, l = len, held = off < in->head.len ? in->head.len - off : 0;
        uint8_t *d = dst + held;
        if (held > 0)
            memcpy(dst, in->head.data + off, (size_t)held);
        o += held;
        l -= held;
        return fetch_many(in, &o, &l, &d, 1, err);
    }
    want = len > in->window ? len : in->window;
    if (want > base->size - off)
        want = base->size - off;
    if ((buf = pm_malloc((size_t)want)) == NULL)
        return pm_nomem(err);
    PM_TRY(fetch_many(in, &off, &want, &buf, 1, err));
    pm_free(in->win.data);
    in->win.off = off;
    in->win.len = want;
    in->win.data = buf;
    buf = NULL;
    memcpy(dst, in->win.data, len);
done:
    pm_free(buf);
    return rc;
}

static int cmp_range(const void *a, const void *b)
{
    const pm_range *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off ? 1 : 0;
}

PM_MUST_CHECK static int s3_prefetch(pm_input *base, const pm_range *ranges, size_t count,
                                     paimon_error *err)
{
    s3_input *in = (s3_input *)base;
    pm_range *r = NULL;
    uint64_t *offs = NULL, *lens = NULL, held = 0;
    uint8_t **dsts = NULL;
    size_t n = 0, merged = 0, gap = in->fs->cfg->coalesce_gap;
    int rc = 0;

    drop_prefetched(in);
    if ((r = pm_calloc(count, sizeof(*r))) == NULL)
        return pm_nomem(err);
    /* Clip to the object, skip what the window already holds. */
    for (size_t i = 0; i < count; i++) {
        uint64_t o = ranges[i].off, l = ranges[i].len;
        if (o >= base->size || l == 0)
            continue;
        if (l > base->size - o)
            l = base->size - o;
        if ((in->head.data != NULL && o + l <= in->head.len) ||
            (in->win.data != NULL && o >= in->win.off && o + l <= in->win.off + in->win.len))
            continue;
        r[n].off = o;
        r[n++].len = l;
    }
    qsort(r, n, sizeof(*r), cmp_range);
    /* Merge overlapping and near ranges, in place. */
    for (size_t i = 0; i < n; i++) {
        pm_range *last = merged > 0 ? &r[merged - 1] : NULL;
        if (last != NULL && r[i].off <= last->off + last->len + gap) {
            uint64_t e = r[i].off + r[i].len;
            if (e > last->off + last->len)
                last->len = e - last->off;
        } else {
            r[merged++] = r[i];
        }
    }
    /* Hold at most PREFETCH_MAX bytes: the first ranges in file order. */
    for (n = 0; n < merged && held + r[n].len <= PREFETCH_MAX; n++)
        held += r[n].len;
    if (n == 0)
        goto done;
    in->pre = pm_calloc(n, sizeof(*in->pre));
    offs = pm_calloc(n, sizeof(*offs));
    lens = pm_calloc(n, sizeof(*lens));
    dsts = pm_calloc(n, sizeof(*dsts));
    if (in->pre == NULL || offs == NULL || lens == NULL || dsts == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        in->pre_count = i + 1;
        if ((in->pre[i].data = pm_malloc((size_t)r[i].len)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        in->pre[i].off = offs[i] = r[i].off;
        in->pre[i].len = lens[i] = r[i].len;
        dsts[i] = in->pre[i].data;
    }
    PM_TRY(fetch_many(in, offs, lens, dsts, n, err));
done:
    if (rc != 0)
        drop_prefetched(in);
    pm_free(r);
    pm_free(offs);
    pm_free(lens);
    pm_free(dsts);
    return rc;
}

static void s3_input_close(pm_input *base)
{
    s3_input *in = (s3_input *)base;
    if (in == NULL)
        return;
    drop_prefetched(in);
    if (in->blocks != NULL)
        drop_blocks(in);
    pm_free(in->blocks);
    pm_free(in->head.data);
    pm_free(in->win.data);
    pm_s3_path_free(&in->p);
    pm_free(in->path);
    pm_free(in);
}

/* The first window: the whole object when it is small, and then its size. */
PM_MUST_CHECK static int probe(s3_input *in, paimon_error *err)
{
    size_t w = in->window > PROBE_MIN ? in->window : PROBE_MIN;
    pm_s3_request req = {.method = "GET",
                         .bucket = in->p.bucket,
                         .key = in->p.key,
                         .has_range = true,
                         .range_off = 0,
                         .range_len = w};
    pm_s3_response resp;
    bool whole;
    int rc = 0;

    pm_s3_response_init(&resp);
    PM_TRY(pm_s3_perform(in->fs->client, &req, &resp, err));
    if (resp.status == 416) {
        /* An empty object has no byte 0 to give; a missing one is 404. */
        in->base.size = 0;
        goto done;
    }
    if (resp.status / 100 != 2) {
        rc = pm_s3_status_error(&req, &resp, err);
        goto done;
    }
    /* 200 is a store that ignored the range: the body is the whole object. */
    whole = resp.status == 200 || resp.body.len < w;
    if (resp.body.len > 0) {
        size_t got = 0;
        in->head.off = 0;
        in->head.data = pm_buf_detach(&resp.body, &got);
        in->head.len = got;
    }
    if (whole) {
        in->base.size = in->head.len;
    } else if (resp.object_size >= 0) {
        /* the 206's Content-Range names the object's size: no HEAD needed (issue 14) */
        in->base.size = (uint64_t)resp.object_size;
        if (in->base.size < in->head.len)
            rc = pm_corrupt(err, "%s: Content-Range names %llu bytes but %zu came", in->path,
                            (unsigned long long)in->base.size, in->head.len);
    } else {
        pm_s3_response_free(&resp);
        pm_s3_response_init(&resp);
        req.method = "HEAD";
        req.has_range = false;
        PM_TRY(pm_s3_perform(in->fs->client, &req, &resp, err));
        if (resp.status / 100 != 2) {
            rc = pm_s3_status_error(&req, &resp, err);
            goto done;
        }
        in->base.size = resp.content_length;
        if (in->base.size < in->head.len) /* replaced in between: trust neither */
            rc =
                pm_err_set(err, PAIMON_EIO, "%s: the object changed while it was opened", in->path);
    }
done:
    pm_s3_response_free(&resp);
    return rc;
}

int pm_s3_fs_open(pm_fs *base, const char *path, pm_input **out, paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    s3_input *in = NULL;
    int rc = 0;

    *out = NULL;
    if ((in = pm_calloc(1, sizeof(*in))) == NULL)
        return pm_nomem(err);
    in->fs = fs;
    PM_TRY(pm_s3_path_split(&in->p, path, err));
    if ((in->path = pm_strdup(path)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    in->window = fs->cfg->readahead > 0 ? fs->cfg->readahead : 1;
    in->chunk = fs->cfg->readahead > CHUNK_MIN ? fs->cfg->readahead : CHUNK_MIN;
    in->block_size = fs->cfg->prefetch_block > 0 ? fs->cfg->prefetch_block : (size_t)2 << 20;
    in->depth = fs->cfg->prefetch_blocks > 0 ? (uint64_t)fs->cfg->prefetch_blocks : 0;
    in->base.read_at = s3_read_at;
    in->base.prefetch = s3_prefetch;
    in->base.close = s3_input_close;
    in->base.path = in->path;
    PM_TRY(probe(in, err));
    /* blocks only for an object larger than its first window: a small one is all in memory */
    if (in->base.size > in->head.len) {
        in->block_cap = (size_t)(4 * in->depth + 8);
        if ((in->blocks = pm_calloc(in->block_cap, sizeof(*in->blocks))) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    }
    *out = &in->base;
    in = NULL;
done:
    s3_input_close(in ? &in->base : NULL);
    return rc;
}

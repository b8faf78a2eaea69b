/*
 * Writing an S3 object as a pm_output: one PUT for a small file, a multipart upload for a
 * large one, and nothing visible under the name before close() succeeds.
 *
 * States of an output:
 *
 *     buffering --(more than s3.multipart.threshold bytes)--> multipart --close--> complete
 *         |                                                      |
 *         +--close: one conditional PUT                          +--abort or any failure:
 *                                                                   AbortMultipartUpload
 *
 *  - buffering: bytes gather in memory up to max(threshold, part size); close() sends one
 *    PUT with the commit mode's create-if-absent header (If-None-Match: * or OSS's
 *    x-oss-forbid-overwrite), so a taken name is PAIMON_EEXISTS without a HEAD first.
 *  - multipart: CreateMultipartUpload, then parts of s3.multipart.size bytes, each uploaded
 *    in the background (s3_async.h) while the writer fills the next.  Bound: at most
 *    s3.fast.upload.active.blocks (A) parts are in flight, plus the one being filled: A + 1
 *    parts in memory (defaults 4 x 16 MiB + 16 MiB = 80 MiB).  Each part is its own request
 *    with its own retries; when A are in flight, the writer waits for the oldest only, so a
 *    new part starts as soon as any slot frees in order (never a batch that waits for its
 *    slowest member).  close() sends the last part, waits for all and sends
 *    CompleteMultipartUpload with the create-if-absent header (AWS honours it there).  Any
 *    failure (a part, Complete, a write after a failed part) waits for the parts in flight
 *    and aborts the upload, so no part lingers in the bucket.
 *  - segments (fs.h: segments_begin/segment_write/segments_end, which the Parquet writer uses
 *    for a row group's column chunks): each segment reserves a range of part numbers.  It
 *    holds its first HEAD bytes (S3's 5 MiB minimum part, or s3.multipart.size when smaller),
 *    then uploads parts of HEAD bytes from its range as they fill, while the other segments
 *    grow.  Parts this small because what is still held when the segments end (a head and
 *    a partial part per segment) is the upload left after the encoding: with 16 MiB parts a
 *    4-column row group left ~50 MB to send after its last page, with 5 MiB ~30 MB (its
 *    cost: a 128 MiB row group takes ~26 part requests instead of ~8).  segments_end joins
 *    what is held between two runs of uploaded parts (a segment's tail, small segments, the
 *    next one's head) into one part numbered at the start of the next range: every part but
 *    the last is at least HEAD bytes, the object's bytes are those written in order, and
 *    CompleteMultipartUpload lists the numbers in order, gaps allowed.  A segment
 *    whose range is used up holds the rest (bounded by what the caller would hold anyway: a
 *    Parquet row group).  A range is what the caller's bound on the
 *    segments' bytes needs in parts (the row group's: 2 x parquet.block.size), at most
 *    SEG_RANGE_MAX and half the numbers left (10,000 in all), so later row groups still find
 *    some; the numbers a range did not use are gaps, except the last range's.  Nothing is
 *    uploaded before the file passes s3.multipart.threshold: a small file is one PUT.
 *  - A 412/409 answer to a request that may have landed before (maybe_landed): a single PUT
 *    compares the object's bytes with ours; a multipart one compares its size (its name is
 *    fresh, a data file's UUID, so a same-sized object is our own Complete landing).
 *
 * Thread safety: the output is used by one writer thread; the part requests run on their own
 * threads and touch only their slot, which the writer reads after joining them.
 */
#include <stdio.h>
#include <string.h>

#include "io/s3/s3_async.h"
#include "io/s3/s3_fs_int.h"
#include "io/s3/s3_xml.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"

#define ACTIVE_MAX      64         /* s3.fast.upload.active.blocks is clipped to this */
#define PART_NUMBER_MAX 10000      /* S3's last PartNumber */
#define MIN_PART        (5u << 20) /* S3's smallest part but the last */
#define SEG_RANGE_MAX   256        /* part numbers one segment reserves, at most */

/* A segment open between segments_begin and segments_end. */
typedef struct segment {
    pm_buf head;   /* its first bytes, up to o->head: held, joined to what comes before */
    pm_buf cur;    /* then the part being filled; after the last upload, the held tail */
    int base;      /* its range's first number: for the held bytes that end with head */
    int next;      /* the next number for an uploaded part */
    int limit;     /* one past its range */
    bool uploaded; /* a part of it went out (then head is full) */
} segment;

/* One part in flight: its bytes and its request, alive until the request is joined. */
typedef struct slot {
    uint8_t *data; /* owned */
    size_t len;
    int number; /* 1-based PartNumber */
    char number_text[16];
    const char *query[4]; /* partNumber, uploadId */
    pm_s3_request req;
    pm_s3_async async;
} slot;

typedef struct s3_output {
    pm_output base; /* must stay first: the pm_output handed out */
    pm_s3_fs *fs;   /* borrowed: outlives its outputs */
    pm_s3_path p;   /* owned: bucket and key */
    char *path;     /* owned: the path as given, for messages */
    pm_buf buf;     /* the file (buffering) or the part being filled (multipart) */
    size_t part_size;
    size_t threshold;
    size_t head;        /* a segment's held head: min(part size, MIN_PART) */
    segment *segs;      /* owned, [seg_count] while segments are open; NULL otherwise */
    uint64_t seg_bytes; /* bytes written to the open segments */
    size_t seg_count;
    /* multipart */
    char *upload_id;      /* owned; NULL while buffering */
    int next_number;      /* the next PartNumber in order (1 when none went out) */
    int etag_count;       /* numbers etags covers: every number started so far is below */
    char **etags;         /* owned, [etag_count]: ETag of part i+1 once uploaded (NULL: gap) */
    slot *slots;          /* owned, [active]: a ring of the parts in flight */
    size_t active;        /* slots */
    size_t first;         /* the oldest part in flight */
    size_t in_flight;     /* parts in flight */
    int failed;           /* first upload failure (0: none) ... */
    paimon_error failure; /* ... and its message */
} s3_output;

/* ---- parts in flight ---------------------------------------------------------------------- */

/* Joins the oldest part in flight: records its ETag, or the first failure. */
static void join_oldest(s3_output *o)
{
    slot *s = &o->slots[o->first];
    pm_s3_response resp;
    paimon_error err = {0};
    int rc = pm_s3_async_wait(&s->async, &resp, &err);

    if (rc == 0) {
        if (resp.status / 100 != 2)
            rc = pm_s3_status_error(&s->req, &resp, &err);
        else if (resp.etag[0] == '\0')
            rc = pm_err_set(&err, PAIMON_EIO, "%s: part %d: the store returned no ETag", o->path,
                            s->number);
        else if ((o->etags[s->number - 1] = pm_strdup(resp.etag)) == NULL)
            rc = pm_nomem(&err);
    }
    pm_s3_response_free(&resp);
    if (rc != 0 && o->failed == 0) {
        o->failed = rc;
        o->failure = err;
    }
    pm_free(s->data);
    s->data = NULL;
    o->first = (o->first + 1) % o->active;
    o->in_flight--;
}

/* Waits for every part in flight. */
static void join_all(s3_output *o)
{
    while (o->in_flight > 0)
        join_oldest(o);
}

/* ---- the writer side ---------------------------------------------------------------------- */

/* A request on the upload (`?uploadId=`), for Complete and Abort. */
static pm_s3_request upload_request(const s3_output *o, const char *method,
                                    const char *const *query)
{
    pm_s3_request r = {
        .method = method, .bucket = o->p.bucket, .key = o->p.key, .query = query, .query_count = 1};
    return r;
}

/* AbortMultipartUpload: best effort, the parts are garbage either way (a bucket lifecycle
 * rule for incomplete uploads collects what a crash leaves). */
static void abort_upload(s3_output *o)
{
    const char *query[] = {"uploadId", o->upload_id};
    pm_s3_request req;
    pm_s3_response resp;
    paimon_error ignored;

    if (o->upload_id == NULL)
        return;
    /* Parts in flight finish first: an Abort before them could let one land after it. */
    join_all(o);
    req = upload_request(o, "DELETE", query);
    pm_s3_response_init(&resp);
    PM_IGNORE(pm_s3_perform(o->fs->client, &req, &resp, &ignored));
    pm_s3_response_free(&resp);
    pm_free(o->upload_id);
    o->upload_id = NULL;
}

static void segments_free(s3_output *o)
{
    for (size_t k = 0; k < o->seg_count; k++) {
        pm_buf_free(&o->segs[k].head);
        pm_buf_free(&o->segs[k].cur);
    }
    pm_free(o->segs);
    o->segs = NULL;
    o->seg_count = 0;
}

static void release(s3_output *o)
{
    if (o == NULL)
        return;
    abort_upload(o);
    if (o->etags != NULL)
        for (int i = 0; i < o->etag_count; i++)
            pm_free(o->etags[i]);
    pm_free(o->etags);
    segments_free(o);
    pm_free(o->slots);
    pm_buf_free(&o->buf);
    pm_s3_path_free(&o->p);
    pm_free(o->path);
    pm_free(o);
}

/* The failure the uploader recorded, if any. */
PM_MUST_CHECK static int upload_failure(s3_output *o, paimon_error *err)
{
    int rc = o->failed;
    if (rc != 0 && err != NULL)
        *err = o->failure;
    return rc;
}

/* CreateMultipartUpload. */
PM_MUST_CHECK static int start_multipart(s3_output *o, paimon_error *err)
{
    static const char *const query[] = {"uploads", ""};
    pm_s3_request req = {
        .method = "POST", .bucket = o->p.bucket, .key = o->p.key, .query = query, .query_count = 1};
    pm_s3_response resp;
    int rc = 0;

    pm_s3_response_init(&resp);
    PM_TRY(pm_s3_perform(o->fs->client, &req, &resp, err));
    if (resp.status / 100 != 2) {
        rc = pm_s3_status_error(&req, &resp, err);
        goto done;
    }
    rc = pm_s3_xml_text(resp.body.data != NULL ? (const char *)resp.body.data : "", resp.body.len,
                        "UploadId", &o->upload_id);
    if (rc == PAIMON_ENOMEM) {
        rc = pm_nomem(err);
        goto done;
    }
    rc = 0; /* absent or malformed: no UploadId, below */
    if (o->upload_id == NULL || o->upload_id[0] == '\0') {
        rc = pm_err_set(err, PAIMON_EIO, "%s: CreateMultipartUpload answered no UploadId", o->path);
        goto done;
    }
done:
    pm_s3_response_free(&resp);
    return rc;
}

/* Starts `data` (owned: freed here on failure too) as part `number`, after waiting for the
 * oldest part when s3.fast.upload.active.blocks are in flight. */
PM_MUST_CHECK static int start_part(s3_output *o, uint8_t *data, size_t len, int number,
                                    paimon_error *err)
{
    slot *s;
    int rc = 0;

    if (o->in_flight == o->active)
        join_oldest(o);
    if ((rc = upload_failure(o, err)) != 0)
        goto done;
    if (number > PART_NUMBER_MAX) {
        rc = pm_err_set(err, PAIMON_ELIMIT,
                        "%s: more than %d parts (raise s3.multipart.size for files this large)",
                        o->path, PART_NUMBER_MAX);
        goto done;
    }
    if (number > o->etag_count) {
        char **grown = pm_realloc(o->etags, (size_t)number * sizeof(*o->etags));
        if (grown == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        memset(grown + o->etag_count, 0, (size_t)(number - o->etag_count) * sizeof(*grown));
        o->etags = grown;
        o->etag_count = number;
    }
    s = &o->slots[(o->first + o->in_flight) % o->active];
    memset(s, 0, sizeof(*s));
    s->data = data;
    s->len = len;
    s->number = number;
    snprintf(s->number_text, sizeof(s->number_text), "%d", s->number);
    s->query[0] = "partNumber";
    s->query[1] = s->number_text;
    s->query[2] = "uploadId";
    s->query[3] = o->upload_id;
    s->req.method = "PUT";
    s->req.bucket = o->p.bucket;
    s->req.key = o->p.key;
    s->req.query = s->query;
    s->req.query_count = 2;
    s->req.body = s->data;
    s->req.body_len = s->len;
    if ((rc = pm_s3_async_start(&s->async, o->fs->client, &s->req, err)) != 0) {
        s->data = NULL;
        o->failed = rc;
        o->failure = *err;
        goto done;
    }
    o->in_flight++;
    return 0;
done: /* failures only: the part's bytes are ours to free */
    pm_free(data);
    return rc;
}

/* Starts bytes [0, len) of the buffer as the next part in order; the rest of the buffer
 * stays. */
PM_MUST_CHECK static int queue_part(s3_output *o, size_t len, paimon_error *err)
{
    uint8_t *data = pm_malloc(len > 0 ? len : 1);

    if (data == NULL)
        return pm_nomem(err);
    memcpy(data, o->buf.data, len);
    memmove(o->buf.data, o->buf.data + len, o->buf.len - len);
    o->buf.len -= len;
    return start_part(o, data, len, o->next_number++, err);
}

PM_MUST_CHECK static int s3_write(pm_output *base, const void *data, size_t len, paimon_error *err)
{
    s3_output *o = (s3_output *)base;
    const uint8_t *src = data;
    int rc = 0;

    if (o->segs != NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: a write while segments are open", o->path);
    while (len > 0) {
        /* Fill the buffer up to the threshold (buffering) or the part size (multipart). */
        size_t cap = o->upload_id == NULL ? o->threshold : o->part_size;
        size_t n = o->buf.len < cap ? cap - o->buf.len : 0;
        if (n > len)
            n = len;
        if (n > 0 && pm_buf_append(&o->buf, src, n) != 0)
            return pm_nomem(err);
        src += n;
        len -= n;
        base->pos += n;
        if (len == 0)
            break;
        /* Full with more to come: go multipart, and send whole parts. */
        if (o->upload_id == NULL)
            PM_TRY(start_multipart(o, err));
        while (o->buf.len >= o->part_size)
            PM_TRY(queue_part(o, o->part_size, err));
    }
done:
    return rc;
}

/* ---- segments ------------------------------------------------------------------------------ */

PM_MUST_CHECK static int s3_segments_begin(pm_output *base, size_t count, uint64_t max_bytes,
                                           paimon_error *err)
{
    s3_output *o = (s3_output *)base;
    long long per = (long long)(PART_NUMBER_MAX + 1 - o->next_number) / 2;
    long long need = max_bytes > 0 ? (long long)(max_bytes / o->head) + 2 : SEG_RANGE_MAX;

    if (o->segs != NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: segments are open already", o->path);
    if ((o->segs = pm_calloc(count > 0 ? count : 1, sizeof(*o->segs))) == NULL)
        return pm_nomem(err);
    o->seg_count = count;
    o->seg_bytes = 0;
    /* a range a segment: as many numbers as all the bytes could need in parts of `head`,
     * within SEG_RANGE_MAX and half of the numbers left */
    per = count > 0 ? per / (long long)count : 0;
    if (per > need)
        per = need;
    if (per > SEG_RANGE_MAX)
        per = SEG_RANGE_MAX;
    if (per < 2)
        per = 0; /* no numbers to spare: every segment is held whole */
    for (size_t k = 0; k < count; k++) {
        segment *g = &o->segs[k];
        pm_buf_init(&g->head, 0);
        pm_buf_init(&g->cur, 0);
        g->base = o->next_number + (int)((long long)k * per);
        g->next = g->base + 1;
        g->limit = g->base + (int)per;
    }
    return 0;
}

PM_MUST_CHECK static int s3_segment_write(pm_output *base, size_t k, const void *data, size_t len,
                                          paimon_error *err)
{
    s3_output *o = (s3_output *)base;
    const uint8_t *src = data;
    segment *g;
    int rc = 0;

    if (o->segs == NULL || k >= o->seg_count)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no segment %zu open", o->path, k);
    g = &o->segs[k];
    o->seg_bytes += len;
    if (g->head.len < o->head) {
        size_t n = o->head - g->head.len < len ? o->head - g->head.len : len;
        if (pm_buf_append(&g->head, src, n) != 0)
            return pm_nomem(err);
        src += n;
        len -= n;
    }
    /* Past the head, whole parts go out under the segment's next numbers as they fill: the
     * bytes are added up to the part's end, so a full part is handed over as it is (no copy);
     * before the file passes s3.multipart.threshold (a smaller one is still one PUT) they
     * gather, and go out, copied part by part, once it has. */
    while (len > 0) {
        size_t n = g->cur.len < o->head && o->head - g->cur.len < len ? o->head - g->cur.len : len;
        if (pm_buf_append(&g->cur, src, n) != 0)
            return pm_nomem(err);
        src += n;
        len -= n;
        while (g->next < g->limit && g->cur.len >= o->head) {
            uint8_t *part;
            size_t part_len = o->head;
            if (o->upload_id == NULL) {
                if (o->buf.len + o->seg_bytes <= o->threshold)
                    break;
                PM_TRY(start_multipart(o, err));
            }
            if (g->cur.len == o->head) {
                part = pm_buf_detach(&g->cur, &part_len);
            } else {
                if ((part = pm_malloc(o->head)) == NULL)
                    return pm_nomem(err);
                memcpy(part, g->cur.data, o->head);
                memmove(g->cur.data, g->cur.data + o->head, g->cur.len - o->head);
                g->cur.len -= o->head;
            }
            PM_TRY(start_part(o, part, part_len, g->next++, err));
            g->uploaded = true;
        }
    }
done:
    return rc;
}

PM_MUST_CHECK static int s3_segments_end(pm_output *base, paimon_error *err)
{
    s3_output *o = (s3_output *)base;
    int top = 0; /* the highest number a segment's part took */
    int rc = 0;

    if (o->segs == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no segments open", o->path);
    for (size_t k = 0; k < o->seg_count; k++) {
        segment *g = &o->segs[k];
        uint8_t *part;
        size_t part_len;

        base->pos += g->head.len + g->cur.len;
        if (g->uploaded)
            base->pos += (uint64_t)(g->next - g->base - 1) * o->head;
        if (pm_buf_append(&o->buf, g->head.data, g->head.len) != 0)
            return pm_nomem(err);
        if (!g->uploaded) {
            if (pm_buf_append(&o->buf, g->cur.data, g->cur.len) != 0)
                return pm_nomem(err);
            continue;
        }
        /* what was held up to here, ending with this segment's (full) head, goes out under
         * the first number of its range; its tail is held in turn */
        part = pm_buf_detach(&o->buf, &part_len);
        o->buf = g->cur;
        pm_buf_init(&g->cur, 0);
        PM_TRY(start_part(o, part, part_len, g->base, err));
        top = g->next - 1;
    }
    if (top >= o->next_number)
        o->next_number = top + 1;
    segments_free(o);
    /* What stays held goes out in whole parts now, as write() would send it, so that row
     * groups of small chunks do not pile up in memory until close(). */
    if (o->upload_id == NULL && o->buf.len > o->threshold)
        PM_TRY(start_multipart(o, err));
    while (o->upload_id != NULL && o->buf.len >= o->part_size)
        PM_TRY(queue_part(o, o->part_size, err));
done:
    return rc;
}

/* The one PUT of a small file. */
PM_MUST_CHECK static int put_whole(s3_output *o, paimon_error *err)
{
    long taken = 0;
    const char *const *hdr = pm_s3_create_header(o->fs, &taken);
    pm_s3_request req = {.method = "PUT",
                         .bucket = o->p.bucket,
                         .key = o->p.key,
                         .headers = hdr,
                         .header_count = hdr != NULL ? 1 : 0,
                         .body = o->buf.data,
                         .body_len = o->buf.len};
    pm_s3_response resp;
    bool ours = false;
    int rc = 0;

    pm_s3_response_init(&resp);
    PM_TRY(pm_s3_perform(o->fs->client, &req, &resp, err));
    if (resp.status / 100 == 2)
        goto done;
    if (taken != 0 && resp.status == taken) {
        if (resp.maybe_landed)
            PM_TRY(pm_s3_landed_ours(o->fs, &o->p, o->buf.data, o->buf.len, &ours, err));
        if (!ours)
            rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", o->path);
        goto done;
    }
    rc = pm_s3_status_error(&req, &resp, err);
done:
    pm_s3_response_free(&resp);
    return rc;
}

/* CompleteMultipartUpload with every part's ETag, conditional as a single PUT is. */
PM_MUST_CHECK static int complete(s3_output *o, paimon_error *err)
{
    const char *query[] = {"uploadId", o->upload_id};
    long taken = 0;
    const char *const *hdr = pm_s3_create_header(o->fs, &taken);
    pm_s3_request req = upload_request(o, "POST", query);
    pm_s3_response resp;
    pm_buf body;
    char *code = NULL;
    int rc = 0;

    pm_buf_init(&body, 0);
    pm_s3_response_init(&resp);
    if (pm_buf_puts(&body, "<CompleteMultipartUpload>") != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    for (int i = 0; i < o->etag_count; i++)
        if (o->etags[i] != NULL &&
            pm_buf_printf(&body, "<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>", i + 1,
                          o->etags[i]) != 0) {
            rc = pm_nomem(err);
            goto done;
        }
    if (pm_buf_puts(&body, "</CompleteMultipartUpload>") != 0) {
        rc = pm_nomem(err);
        goto done;
    }
    req.headers = hdr;
    req.header_count = hdr != NULL ? 1 : 0;
    req.body = body.data;
    req.body_len = body.len;
    PM_TRY(pm_s3_perform(o->fs->client, &req, &resp, err));
    if (resp.maybe_landed && (resp.status == 404 || resp.status == taken)) {
        /* The first Complete may have landed (NoSuchUpload or "taken" now): ours when the
         * object has our size, the name being fresh. */
        int kind = 0;
        uint64_t size = 0;
        PM_TRY(pm_s3_head(o->fs, &o->p, &kind, &size, NULL, err));
        if (kind == 1 && size == o->base.pos)
            goto done;
    }
    if (taken != 0 && resp.status == taken) {
        rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", o->path);
        goto done;
    }
    if (resp.status / 100 != 2) {
        rc = pm_s3_status_error(&req, &resp, err);
        goto done;
    }
    /* S3 may answer 200 and put the failure in the body. */
    rc = pm_s3_xml_text(resp.body.data != NULL ? (const char *)resp.body.data : "", resp.body.len,
                        "Code", &code);
    if (rc == PAIMON_ENOMEM) {
        rc = pm_nomem(err);
        goto done;
    }
    rc = 0;
    if (code != NULL)
        rc = pm_err_set(err, PAIMON_EIO, "s3://%s/%s: CompleteMultipartUpload failed: %s",
                        o->p.bucket, o->p.key, code);
done:
    pm_free(code);
    pm_s3_response_free(&resp);
    pm_buf_free(&body);
    return rc;
}

PM_MUST_CHECK static int s3_close(pm_output *base, paimon_error *err)
{
    s3_output *o = (s3_output *)base;
    int rc = 0;

    if (o->segs != NULL) {
        rc = pm_err_set(err, PAIMON_EINVALID, "%s: closed while segments are open", o->path);
        goto done;
    }
    if (o->upload_id == NULL) {
        rc = put_whole(o, err);
        goto done;
    }
    if (o->buf.len > 0)
        PM_TRY(queue_part(o, o->buf.len, err));
    join_all(o);
    PM_TRY(upload_failure(o, err));
    PM_TRY(complete(o, err));
    pm_free(o->upload_id); /* completed: nothing to abort */
    o->upload_id = NULL;
done:
    release(o); /* aborts the upload when it is still open */
    return rc;
}

static void s3_abort(pm_output *base)
{
    release((s3_output *)base);
}

int pm_s3_fs_create(pm_fs *base, const char *path, pm_output **out, paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    s3_output *o = NULL;
    long taken = 0;
    int kind = 0, rc = 0;

    *out = NULL;
    if ((o = pm_calloc(1, sizeof(*o))) == NULL)
        return pm_nomem(err);
    pm_buf_init(&o->buf, 0);
    o->fs = fs;
    o->active = fs->cfg->upload_active < 1            ? 1
                : fs->cfg->upload_active > ACTIVE_MAX ? ACTIVE_MAX
                                                      : (size_t)fs->cfg->upload_active;
    if ((o->slots = pm_calloc(o->active, sizeof(*o->slots))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    o->part_size = fs->cfg->part_size > 0 ? fs->cfg->part_size : (size_t)8 << 20;
    o->threshold =
        fs->cfg->multipart_threshold > o->part_size ? fs->cfg->multipart_threshold : o->part_size;
    o->head = o->part_size < MIN_PART ? o->part_size : MIN_PART;
    o->next_number = 1;
    PM_TRY(pm_s3_path_split(&o->p, path, err));
    if ((o->path = pm_strdup(path)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    /* Without a conditional header, only a look first can refuse a taken name. */
    if (pm_s3_create_header(fs, &taken) == NULL) {
        PM_TRY(pm_s3_head(fs, &o->p, &kind, NULL, NULL, err));
        if (kind != 0) {
            rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", path);
            goto done;
        }
    }
    o->base.write = s3_write;
    o->base.close = s3_close;
    o->base.abort = s3_abort;
    o->base.segments_begin = s3_segments_begin;
    o->base.segment_write = s3_segment_write;
    o->base.segments_end = s3_segments_end;
    o->base.path = o->path;
    *out = &o->base;
    o = NULL;
done:
    release(o);
    return rc;
}

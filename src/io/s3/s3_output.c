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

#define ACTIVE_MAX 64 /* s3.fast.upload.active.blocks is clipped to this */

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
    /* multipart */
    char *upload_id;      /* owned; NULL while buffering */
    int parts_queued;     /* parts started so far */
    char **etags;         /* owned, [parts_queued]: ETag of part i+1 once uploaded */
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

static void release(s3_output *o)
{
    if (o == NULL)
        return;
    abort_upload(o);
    if (o->etags != NULL)
        for (int i = 0; i < o->parts_queued; i++)
            pm_free(o->etags[i]);
    pm_free(o->etags);
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

/* Starts bytes [0, len) of the buffer as the next part (after waiting for the oldest part
 * when s3.fast.upload.active.blocks are in flight); the rest of the buffer stays. */
PM_MUST_CHECK static int queue_part(s3_output *o, size_t len, paimon_error *err)
{
    slot *s;
    char **grown;
    int rc = 0;

    if (o->in_flight == o->active)
        join_oldest(o);
    PM_TRY(upload_failure(o, err));
    grown = pm_realloc(o->etags, (size_t)(o->parts_queued + 1) * sizeof(*o->etags));
    if (grown == NULL)
        return pm_nomem(err);
    o->etags = grown;
    o->etags[o->parts_queued] = NULL;
    s = &o->slots[(o->first + o->in_flight) % o->active];
    memset(s, 0, sizeof(*s));
    if ((s->data = pm_malloc(len > 0 ? len : 1)) == NULL)
        return pm_nomem(err);
    memcpy(s->data, o->buf.data, len);
    memmove(o->buf.data, o->buf.data + len, o->buf.len - len);
    o->buf.len -= len;
    s->len = len;
    s->number = ++o->parts_queued;
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
        pm_free(s->data);
        s->data = NULL;
        o->failed = rc;
        o->failure = *err;
        return rc;
    }
    o->in_flight++;
done:
    return rc;
}

PM_MUST_CHECK static int s3_write(pm_output *base, const void *data, size_t len, paimon_error *err)
{
    s3_output *o = (s3_output *)base;
    const uint8_t *src = data;
    int rc = 0;

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
    for (int i = 0; i < o->parts_queued; i++)
        if (pm_buf_printf(&body, "<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>", i + 1,
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
    o->base.path = o->path;
    *out = &o->base;
    o = NULL;
done:
    release(o);
    return rc;
}

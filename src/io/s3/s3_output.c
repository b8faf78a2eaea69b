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
 *  - multipart: CreateMultipartUpload, then parts of s3.multipart.size bytes are handed to
 *    one uploader thread per output while the writer fills the next part.  Bound: at most
 *    QUEUED_MAX parts wait or are in flight (the uploader sends all waiting parts at once
 *    through pm_s3_perform_many), plus the one being filled: 3 parts in memory.  The writer
 *    blocks when the queue is full.  close() queues the last part, waits for the uploads and
 *    sends CompleteMultipartUpload with the create-if-absent header (AWS honours it there).
 *    Any failure (a part, Complete, a write after a failed part) aborts the upload, so no
 *    part lingers in the bucket.
 *  - A 412/409 answer to a request that may have landed before (maybe_landed): a single PUT
 *    compares the object's bytes with ours; a multipart one compares its size (its name is
 *    fresh, a data file's UUID, so a same-sized object is our own Complete landing).
 *
 * Thread safety: the output is used by one writer thread; `lock` guards the queue, the ETags
 * and the failure between it and its uploader thread.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "io/s3/s3_fs_int.h"
#include "io/s3/s3_xml.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/error.h"

#define QUEUED_MAX 2 /* parts waiting or in flight; one more is being filled */

typedef struct part {
    uint8_t *data; /* owned */
    size_t len;
    int number; /* 1-based PartNumber */
} part;

typedef struct s3_output {
    pm_output base; /* must stay first: the pm_output handed out */
    pm_s3_fs *fs;   /* borrowed: outlives its outputs */
    pm_s3_path p;   /* owned: bucket and key */
    char *path;     /* owned: the path as given, for messages */
    pm_buf buf;     /* the file (buffering) or the part being filled (multipart) */
    size_t part_size;
    size_t threshold;
    /* multipart */
    char *upload_id;  /* owned; NULL while buffering */
    int parts_queued; /* parts handed to the uploader so far */
    char **etags;     /* owned, [parts_queued]: ETag of part i+1 once uploaded */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    part queue[QUEUED_MAX]; /* waiting parts, FIFO */
    size_t waiting;         /* parts in `queue` */
    size_t in_flight;       /* parts the uploader is sending */
    bool closing;           /* no more parts come: the uploader ends when idle */
    int failed;             /* first upload failure (0: none) ... */
    paimon_error failure;   /* ... and its message */
} s3_output;

/* ---- the uploader thread ------------------------------------------------------------------ */

/* Sends parts[0..n) at once; records ETags or the first failure. */
static void upload_parts(s3_output *o, part *parts, size_t n)
{
    pm_s3_request reqs[QUEUED_MAX] = {{0}};
    pm_s3_response resps[QUEUED_MAX];
    char numbers[QUEUED_MAX][16];
    const char *query[QUEUED_MAX][4] = {{0}};
    paimon_error err = {0};
    int rc;

    for (size_t i = 0; i < n; i++) {
        snprintf(numbers[i], sizeof(numbers[i]), "%d", parts[i].number);
        query[i][0] = "partNumber";
        query[i][1] = numbers[i];
        query[i][2] = "uploadId";
        query[i][3] = o->upload_id;
        reqs[i].method = "PUT";
        reqs[i].bucket = o->p.bucket;
        reqs[i].key = o->p.key;
        reqs[i].query = query[i];
        reqs[i].query_count = 2;
        reqs[i].body = parts[i].data;
        reqs[i].body_len = parts[i].len;
        pm_s3_response_init(&resps[i]);
    }
    rc = pm_s3_perform_many(o->fs->client, reqs, resps, n, &err);
    pthread_mutex_lock(&o->lock);
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (resps[i].status / 100 != 2)
            rc = pm_s3_status_error(&reqs[i], &resps[i], &err);
        else if (resps[i].etag[0] == '\0')
            rc = pm_err_set(&err, PAIMON_EIO, "%s: part %d: the store returned no ETag", o->path,
                            parts[i].number);
        else if ((o->etags[parts[i].number - 1] = pm_strdup(resps[i].etag)) == NULL)
            rc = pm_nomem(&err);
    }
    if (rc != 0 && o->failed == 0) {
        o->failed = rc;
        o->failure = err;
    }
    pthread_mutex_unlock(&o->lock);
    for (size_t i = 0; i < n; i++)
        pm_s3_response_free(&resps[i]);
}

static void *uploader(void *arg)
{
    s3_output *o = arg;
    part batch[QUEUED_MAX];
    size_t n;
    bool skip;

    pthread_mutex_lock(&o->lock);
    for (;;) {
        while (o->waiting == 0 && !o->closing)
            pthread_cond_wait(&o->cond, &o->lock);
        if (o->waiting == 0)
            break;
        n = o->waiting;
        memcpy(batch, o->queue, n * sizeof(part));
        o->waiting = 0;
        o->in_flight = n;
        skip = o->failed != 0; /* after a failure, parts are only dropped */
        pthread_mutex_unlock(&o->lock);
        if (!skip)
            upload_parts(o, batch, n);
        for (size_t i = 0; i < n; i++)
            pm_free(batch[i].data);
        pthread_mutex_lock(&o->lock);
        o->in_flight = 0;
        pthread_cond_broadcast(&o->cond);
    }
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

/* ---- the writer side ---------------------------------------------------------------------- */

/* Ends the uploader (after the parts queued so far). */
static void stop_uploader(s3_output *o)
{
    if (!o->thread_started)
        return;
    pthread_mutex_lock(&o->lock);
    o->closing = true;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->lock);
    pthread_join(o->thread, NULL);
    o->thread_started = false;
}

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
    /* Parts still waiting are dropped, not sent: mark the upload failed first. */
    pthread_mutex_lock(&o->lock);
    if (o->failed == 0) {
        o->failed = PAIMON_EIO;
        pm_err_set(&o->failure, PAIMON_EIO, "%s: upload aborted", o->path);
    }
    pthread_mutex_unlock(&o->lock);
    stop_uploader(o);
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
    pthread_mutex_destroy(&o->lock);
    pthread_cond_destroy(&o->cond);
    pm_buf_free(&o->buf);
    pm_s3_path_free(&o->p);
    pm_free(o->path);
    pm_free(o);
}

/* The failure the uploader recorded, if any. */
PM_MUST_CHECK static int upload_failure(s3_output *o, paimon_error *err)
{
    int rc;
    pthread_mutex_lock(&o->lock);
    rc = o->failed;
    if (rc != 0 && err != NULL)
        *err = o->failure;
    pthread_mutex_unlock(&o->lock);
    return rc;
}

/* CreateMultipartUpload and the uploader thread. */
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
    if (pthread_create(&o->thread, NULL, uploader, o) != 0) {
        rc = pm_err_set(err, PAIMON_EIO, "%s: cannot start the upload thread", o->path);
        goto done;
    }
    o->thread_started = true;
done:
    pm_s3_response_free(&resp);
    return rc;
}

/* Hands bytes [0, len) of the buffer to the uploader as the next part (waits while
 * QUEUED_MAX parts are pending); the rest of the buffer stays. */
PM_MUST_CHECK static int queue_part(s3_output *o, size_t len, paimon_error *err)
{
    uint8_t *data = NULL;
    char **grown;
    int rc = 0;

    PM_TRY(upload_failure(o, err));
    if ((data = pm_malloc(len > 0 ? len : 1)) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    memcpy(data, o->buf.data, len);
    memmove(o->buf.data, o->buf.data + len, o->buf.len - len);
    o->buf.len -= len;
    pthread_mutex_lock(&o->lock);
    grown = pm_realloc(o->etags, (size_t)(o->parts_queued + 1) * sizeof(*o->etags));
    if (grown == NULL) {
        pthread_mutex_unlock(&o->lock);
        rc = pm_nomem(err);
        goto done;
    }
    o->etags = grown;
    o->etags[o->parts_queued] = NULL;
    while (o->waiting + o->in_flight >= QUEUED_MAX && o->failed == 0)
        pthread_cond_wait(&o->cond, &o->lock);
    if (o->failed == 0) {
        o->queue[o->waiting].data = data;
        o->queue[o->waiting].len = len;
        o->queue[o->waiting].number = o->parts_queued + 1;
        o->waiting++;
        data = NULL;
        pthread_cond_broadcast(&o->cond);
    }
    o->parts_queued++;
    pthread_mutex_unlock(&o->lock);
    PM_TRY(upload_failure(o, err));
done:
    pm_free(data);
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
    stop_uploader(o);
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
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->cond, NULL);
    pm_buf_init(&o->buf, 0);
    o->fs = fs;
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

/*
 * The S3 file system: the pm_fs contract (io/fs.h) kept on an object store, over the
 * transport of s3_client.h.  Reads are in s3_input.c, uploads in s3_output.c, listings and
 * batch deletes in s3_list.c; this file holds the ops that are one or two requests each and
 * the commit primitive.
 *
 * How each clause of the contract holds on S3:
 *  - paths: `s3://bucket/key` or `s3a://bucket/key`; no key, or an empty bucket, is
 *    PAIMON_EINVALID.  A "directory" is a key prefix ending in '/'; mkdirs has nothing to
 *    make (0), parents exist as soon as a key below them does.
 *  - create(): nothing is visible under the name until close() succeeds (S3 publishes an
 *    object only when its PUT or CompleteMultipartUpload returns).  A taken name is
 *    PAIMON_EEXISTS at close(), from the conditional header of the PUT or Complete (no HEAD
 *    at create: a request saved per data file); in single-writer mode create() HEADs first.
 *  - write_atomic(overwrite=false), the commit primitive, by s3.commit-mode:
 *      if-none-match  PUT with `If-None-Match: *`; 412 is PAIMON_EEXISTS;
 *      oss            PUT with `x-oss-forbid-overwrite: true`; 409 is PAIMON_EEXISTS;
 *      single-writer  HEAD (present: EEXISTS), PUT, GET back and compare: other bytes mean
 *                     another writer, a loud PAIMON_EIO (the mode allows one writer).
 *    A 412/409 answer to a request whose earlier attempt may have landed (maybe_landed) is
 *    checked by reading the object back: our own bytes (a snapshot carries commit user,
 *    identifier and time, so another writer's never match) are our commit, 0; anything else
 *    is PAIMON_EEXISTS.  overwrite=true is a plain PUT (hints: LATEST, EARLIEST).
 *  - missing objects are PAIMON_ENOTFOUND (404); a listing of a prefix with no keys is
 *    PAIMON_ENOTFOUND, as a missing local directory.
 *  - stat: HEAD; on 404 a one-key listing tells a directory (kind 2) from nothing (0).
 *  - remove: HEAD then DELETE for an object (S3's DELETE succeeds on a missing key, the
 *    contract wants PAIMON_ENOTFOUND); a "directory" with keys below it is PAIMON_EIO (never
 *    recursive), one with none is absent.  remove_many is S3's batch delete (s3_list.c).
 *  - mtime: HEAD's Last-Modified (S3 keeps it to the second).
 * Every failure names the object: pm_s3_status_error gives "s3://b/k: 403 AccessDenied: ...".
 *
 * Thread safety: the pm_fs may be shared by threads (the client is thread-safe and this
 * file keeps no other state); inputs and outputs are used by one thread at a time.
 */
#include <string.h>

#include "io/s3/s3_fs_int.h"
#include "util/alloc.h"
#include "util/error.h"

int pm_s3_path_split(pm_s3_path *p, const char *path, paimon_error *err)
{
    const char *rest, *slash;
    size_t blen, klen;

    memset(p, 0, sizeof(*p));
    if (strncmp(path, "s3://", 5) == 0)
        rest = path + 5;
    else if (strncmp(path, "s3a://", 6) == 0)
        rest = path + 6;
    else
        return pm_err_set(err, PAIMON_EINVALID, "%s: not an s3:// path", path);
    slash = strchr(rest, '/');
    blen = slash != NULL ? (size_t)(slash - rest) : strlen(rest);
    if (blen == 0)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no bucket in the path", path);
    if (slash == NULL)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no key in the path (a bucket is not a file)",
                          path);
    while (*slash == '/')
        slash++;
    klen = strlen(slash);
    while (klen > 0 && slash[klen - 1] == '/')
        klen--;
    if (klen == 0)
        return pm_err_set(err, PAIMON_EINVALID, "%s: no key in the path (a bucket is not a file)",
                          path);
    if ((p->buf = pm_malloc(blen + 1 + klen + 1)) == NULL)
        return pm_nomem(err);
    memcpy(p->buf, rest, blen);
    p->buf[blen] = '\0';
    memcpy(p->buf + blen + 1, slash, klen);
    p->buf[blen + 1 + klen] = '\0';
    p->bucket = p->buf;
    p->key = p->buf + blen + 1;
    return 0;
}

void pm_s3_path_free(pm_s3_path *p)
{
    pm_free(p->buf);
    memset(p, 0, sizeof(*p));
}

/* One request without body into a fresh response; status errors are left to the caller. */
PM_MUST_CHECK static int simple(pm_s3_fs *fs, const char *method, const pm_s3_path *p,
                                pm_s3_request *req, pm_s3_response *resp, paimon_error *err)
{
    memset(req, 0, sizeof(*req));
    req->method = method;
    req->bucket = p->bucket;
    req->key = p->key;
    return pm_s3_perform(fs->client, req, resp, err);
}

int pm_s3_get_object(pm_s3_fs *fs, const char *bucket, const char *key, uint8_t **out, size_t *len,
                     paimon_error *err)
{
    pm_s3_request req = {.method = "GET", .bucket = bucket, .key = key};
    pm_s3_response resp;
    int rc = 0;

    *out = NULL;
    *len = 0;
    pm_s3_response_init(&resp);
    PM_TRY(pm_s3_perform(fs->client, &req, &resp, err));
    if (resp.status / 100 != 2) {
        rc = pm_s3_status_error(&req, &resp, err);
        goto done;
    }
    if (resp.body.data == NULL) {
        if ((*out = pm_malloc(1)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
    } else {
        *len = resp.body.len;
        *out = pm_buf_detach(&resp.body, len);
    }
done:
    pm_s3_response_free(&resp);
    return rc;
}

int pm_s3_head(pm_s3_fs *fs, const pm_s3_path *p, int *kind, uint64_t *size, int64_t *mtime_ms,
               paimon_error *err)
{
    pm_s3_request req;
    pm_s3_response resp;
    int rc = 0;

    *kind = 0;
    pm_s3_response_init(&resp);
    PM_TRY(simple(fs, "HEAD", p, &req, &resp, err));
    if (resp.status == 404)
        goto done;
    if (resp.status / 100 != 2) {
        rc = pm_s3_status_error(&req, &resp, err);
        goto done;
    }
    *kind = 1;
    if (size != NULL)
        *size = resp.content_length;
    if (mtime_ms != NULL)
        *mtime_ms = resp.last_modified_ms;
done:
    pm_s3_response_free(&resp);
    return rc;
}

/* The '/'-terminated prefix of the "directory" `key`. */
static char *dir_prefix(const char *key)
{
    size_t n = strlen(key);
    char *s = pm_malloc(n + 2);
    if (s == NULL)
        return NULL;
    memcpy(s, key, n);
    s[n] = '/';
    s[n + 1] = '\0';
    return s;
}

/* Whether any key lies under the directory `p`. */
PM_MUST_CHECK static int dir_exists(pm_s3_fs *fs, const pm_s3_path *p, bool *any, paimon_error *err)
{
    char *prefix = dir_prefix(p->key);
    int rc;
    if (prefix == NULL)
        return pm_nomem(err);
    rc = pm_s3_list_prefix(fs, p->bucket, prefix, 1, NULL, any, err);
    pm_free(prefix);
    return rc;
}

PM_MUST_CHECK static int s3_stat(pm_fs *base, const char *path, int *kind, uint64_t *size,
                                 paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    pm_s3_path p;
    bool any = false;
    int rc = 0;

    *kind = 0;
    *size = 0;
    PM_TRY(pm_s3_path_split(&p, path, err));
    PM_TRY(pm_s3_head(fs, &p, kind, size, NULL, err));
    if (*kind == 0) {
        PM_TRY(dir_exists(fs, &p, &any, err));
        *kind = any ? 2 : 0;
    }
done:
    pm_s3_path_free(&p);
    return rc;
}

/* One HEAD: a missing key is absent, without stat()'s LIST for a "directory" of that name. */
PM_MUST_CHECK static int s3_file_exists(pm_fs *base, const char *path, bool *exists,
                                        paimon_error *err)
{
    pm_s3_path p;
    int kind = 0, rc = 0;

    *exists = false;
    PM_TRY(pm_s3_path_split(&p, path, err));
    PM_TRY(pm_s3_head((pm_s3_fs *)base, &p, &kind, NULL, NULL, err));
    *exists = kind == 1;
done:
    pm_s3_path_free(&p);
    return rc;
}

PM_MUST_CHECK static int s3_mtime(pm_fs *base, const char *path, int64_t *ms, paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    pm_s3_path p;
    int kind = 0, rc = 0;

    PM_TRY(pm_s3_path_split(&p, path, err));
    PM_TRY(pm_s3_head(fs, &p, &kind, NULL, ms, err));
    if (kind == 0)
        rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file", path);
    else if (*ms < 0)
        rc = pm_err_set(err, PAIMON_EIO, "%s: the store gave no Last-Modified time", path);
done:
    pm_s3_path_free(&p);
    return rc;
}

PM_MUST_CHECK static int s3_mkdirs(pm_fs *base, const char *path, paimon_error *err)
{
    pm_s3_path p;
    int rc = pm_s3_path_split(&p, path, err); /* a bad path is still refused */
    pm_s3_path_free(&p);
    return rc;
}

PM_MUST_CHECK static int s3_remove(pm_fs *base, const char *path, paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    pm_s3_path p;
    pm_s3_request req;
    pm_s3_response resp;
    pm_strlist names;
    char *prefix = NULL;
    bool any = false;
    int kind = 0, rc = 0;

    pm_s3_response_init(&resp);
    pm_strlist_init(&names);
    PM_TRY(pm_s3_path_split(&p, path, err));
    PM_TRY(pm_s3_head(fs, &p, &kind, NULL, NULL, err));
    if (kind == 0) {
        /* A "directory": fine when nothing but its marker object is under it. */
        if ((prefix = dir_prefix(p.key)) == NULL) {
            rc = pm_nomem(err);
            goto done;
        }
        PM_TRY(pm_s3_list_prefix(fs, p.bucket, prefix, 2, &names, &any, err));
        if (names.count > 0) {
            rc = pm_err_set(err, PAIMON_EIO, "%s: directory not empty", path);
            goto done;
        }
        if (!any) {
            rc = pm_err_set(err, PAIMON_ENOTFOUND, "%s: no such file or directory", path);
            goto done;
        }
        /* Only the marker object `key/` (written by other tools): remove it. */
        memset(&req, 0, sizeof(req));
        req.method = "DELETE";
        req.bucket = p.bucket;
        req.key = prefix;
        PM_TRY(pm_s3_perform(fs->client, &req, &resp, err));
    } else {
        PM_TRY(simple(fs, "DELETE", &p, &req, &resp, err));
    }
    if (resp.status / 100 != 2 && resp.status != 404)
        rc = pm_s3_status_error(&req, &resp, err);
done:
    pm_strlist_free(&names);
    pm_free(prefix);
    pm_s3_response_free(&resp);
    pm_s3_path_free(&p);
    return rc;
}

/* One PUT of `data` with the extra headers; the response is the caller's. */
PM_MUST_CHECK static int put(pm_s3_fs *fs, const pm_s3_path *p, const void *data, size_t len,
                             const char *const *headers, size_t header_count, pm_s3_request *req,
                             pm_s3_response *resp, paimon_error *err)
{
    memset(req, 0, sizeof(*req));
    req->method = "PUT";
    req->bucket = p->bucket;
    req->key = p->key;
    req->headers = headers;
    req->header_count = header_count;
    req->body = data;
    req->body_len = len;
    return pm_s3_perform(fs->client, req, resp, err);
}

int pm_s3_landed_ours(pm_s3_fs *fs, const pm_s3_path *p, const void *data, size_t len, bool *ours,
                      paimon_error *err)
{
    uint8_t *got = NULL;
    size_t got_len = 0;
    int rc = pm_s3_get_object(fs, p->bucket, p->key, &got, &got_len, err);
    *ours = rc == 0 && got_len == len && (len == 0 || memcmp(got, data, len) == 0);
    pm_free(got);
    if (rc == PAIMON_ENOTFOUND)
        rc = 0; /* refused, then removed by someone: not ours either */
    return rc;
}

/* The single-writer commit: check, PUT, read back.  It cannot stop a second writer; it can
 * only notice one afterwards, and says so loudly. */
PM_MUST_CHECK static int commit_single_writer(pm_s3_fs *fs, const pm_s3_path *p, const char *path,
                                              const void *data, size_t len, paimon_error *err)
{
    pm_s3_request req;
    pm_s3_response resp;
    bool ours = false;
    int kind = 0, rc = 0;

    pm_s3_response_init(&resp);
    PM_TRY(pm_s3_head(fs, p, &kind, NULL, NULL, err));
    if (kind != 0) {
        rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", path);
        goto done;
    }
    PM_TRY(put(fs, p, data, len, NULL, 0, &req, &resp, err));
    if (resp.status / 100 != 2) {
        rc = pm_s3_status_error(&req, &resp, err);
        goto done;
    }
    PM_TRY(pm_s3_landed_ours(fs, p, data, len, &ours, err));
    if (!ours)
        rc = pm_err_set(err, PAIMON_EIO,
                        "%s: concurrent writer detected: the object read back is not the one "
                        "written; s3.commit-mode=single-writer allows one writer",
                        path);
done:
    pm_s3_response_free(&resp);
    return rc;
}

const char *const *pm_s3_create_header(const pm_s3_fs *fs, long *taken)
{
    static const char *const if_none_match[] = {"If-None-Match", "*"};
    static const char *const oss_forbid[] = {"x-oss-forbid-overwrite", "true"};
    switch (fs->cfg->commit_mode) {
    case PM_S3_COMMIT_IF_NONE_MATCH: *taken = 412; return if_none_match;
    case PM_S3_COMMIT_OSS_FORBID: *taken = 409; return oss_forbid;
    case PM_S3_COMMIT_SINGLE_WRITER: break;
    }
    *taken = 0;
    return NULL;
}

PM_MUST_CHECK static int s3_write_atomic(pm_fs *base, const char *path, const void *data,
                                         size_t len, bool overwrite, paimon_error *err)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    pm_s3_path p;
    pm_s3_request req;
    pm_s3_response resp;
    const char *const *hdr = NULL;
    long taken = 0; /* the status that means "the name is taken" */
    bool ours = false, maybe_landed = false;
    int rc = 0;

    pm_s3_response_init(&resp);
    PM_TRY(pm_s3_path_split(&p, path, err));
    if (!overwrite) {
        hdr = pm_s3_create_header(fs, &taken);
        if (hdr == NULL) {
            rc = commit_single_writer(fs, &p, path, data, len, err);
            goto done;
        }
    }
    /* AWS answers 409 ConditionalRequestConflict while another conditional write of the
     * name is in flight: try again (a few times), the next answer is 200 or 412. */
    for (int attempt = 0;; attempt++) {
        PM_TRY(put(fs, &p, data, len, hdr, hdr != NULL ? 1 : 0, &req, &resp, err));
        maybe_landed = maybe_landed || resp.maybe_landed;
        if (taken != 412 || resp.status != 409 || attempt == 3)
            break;
        pm_s3_response_free(&resp);
        pm_s3_response_init(&resp);
    }
    if (resp.status / 100 == 2)
        goto done;
    if (taken == 0 || resp.status != taken) {
        rc = pm_s3_status_error(&req, &resp, err);
        goto done;
    }
    if (maybe_landed) {
        PM_TRY(pm_s3_landed_ours(fs, &p, data, len, &ours, err));
        if (ours)
            goto done;
    }
    rc = pm_err_set(err, PAIMON_EEXISTS, "%s: already exists", path);
done:
    pm_s3_response_free(&resp);
    pm_s3_path_free(&p);
    return rc;
}

static void s3_destroy(pm_fs *base)
{
    pm_s3_fs *fs = (pm_s3_fs *)base;
    pm_s3_client_free(fs->client);
    pm_free(fs);
}

int pm_fs_s3_new(pm_fs **out, const pm_options *settings, paimon_error *err)
{
    pm_s3_config cfg;
    pm_s3_fs *fs = NULL;
    int rc = 0;

    *out = NULL;
    memset(&cfg, 0, sizeof(cfg));
    PM_TRY(pm_s3_config_load(&cfg, settings, err));
    if ((fs = pm_calloc(1, sizeof(*fs))) == NULL) {
        rc = pm_nomem(err);
        goto done;
    }
    PM_TRY(pm_s3_client_new(&fs->client, &cfg, err));
    fs->cfg = pm_s3_client_config(fs->client);
    fs->base.name = "s3";
    fs->base.open = pm_s3_fs_open;
    fs->base.create = pm_s3_fs_create;
    fs->base.write_atomic = s3_write_atomic;
    fs->base.list = pm_s3_fs_list;
    fs->base.remove = s3_remove;
    fs->base.remove_many = pm_s3_fs_remove_many;
    fs->base.stat = s3_stat;
    fs->base.file_exists = s3_file_exists;
    fs->base.mkdirs = s3_mkdirs;
    fs->base.destroy = s3_destroy;
    fs->base.mtime = s3_mtime;
    *out = &fs->base;
    fs = NULL;
done:
    pm_free(fs);
    pm_s3_config_free(&cfg);
    return rc;
}

/*
 * One S3 request, signed, sent and retried: the transport under the S3 file system.
 *
 * A pm_s3_client owns a pool of libcurl handles (connections are reused between requests
 * and kept per host) and the resolved configuration.  It may be used from several threads at
 * once: each request takes a handle from the pool.  pm_s3_perform_many() runs several
 * requests at once (curl multi) for parallel range reads and part uploads.
 *
 * Retries: a request is retried, with exponential backoff and full jitter bounded by the
 * configuration, on a 5xx status (503 SlowDown included), a timeout, or a dropped or reset
 * connection; never on another 4xx.  Every status the server finally answers is returned in
 * the response with rc 0: the caller decides what 404 or 412 means.  rc != 0 only when no
 * answer came after the last attempt (PAIMON_EIO naming s3://bucket/key and the cause).
 *
 * `maybe_landed` in the response says that an earlier attempt of this request failed in a way
 * that leaves open whether the server applied it (a timeout or dropped connection after the
 * body was sent).  A conditional PUT that then answers 412 may have been refused because its
 * own first attempt landed: the file system reads the object back (s3_fs.c).
 */
#ifndef PM_IO_S3_CLIENT_H
#define PM_IO_S3_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/s3/s3_config.h"
#include "paimon/error.h"
#include "util/buf.h"

typedef struct pm_s3_client pm_s3_client;

typedef struct pm_s3_request {
    const char *method; /* "GET", "HEAD", "PUT", "POST", "DELETE" */
    const char *bucket;
    const char *key; /* not encoded; "" for a bucket-level request (listing) */
    /* Query parameters, not encoded: query[2*i] is a name, query[2*i+1] its value ("" for a
     * bare `?uploads`).  The signer encodes and sorts them. */
    const char *const *query;
    size_t query_count; /* pairs */
    /* Extra headers as "name", "value" pairs (If-None-Match, Content-Type, Content-MD5,
     * x-oss-forbid-overwrite, ...); all are signed. */
    const char *const *headers;
    size_t header_count; /* pairs */
    const void *body;    /* PUT / POST payload, hashed into x-amz-content-sha256 */
    size_t body_len;
    bool has_range; /* GET bytes=range_off..range_off+range_len-1 */
    uint64_t range_off;
    uint64_t range_len;
    uint8_t *dst; /* non-NULL: a 2xx GET body goes here (exactly dst_len bytes,
                                 fewer is PAIMON_ECORRUPT), not into response.body */
    size_t dst_len;
} pm_s3_request;

typedef struct pm_s3_response {
    long status;              /* HTTP status of the last attempt */
    pm_buf body;              /* body (error XML, listing XML, small GETs) */
    uint64_t content_length;  /* Content-Length (HEAD: the object's size) */
    int64_t object_size;      /* a ranged GET's Content-Range "bytes A-B/SIZE": the whole
                                 object's size, -1 when absent or unknown (a star) */
    int64_t last_modified_ms; /* Last-Modified in epoch ms, -1 when absent */
    char etag[80];            /* ETag as sent (quotes kept), "" when absent */
    int attempts;             /* tries made */
    bool maybe_landed;        /* see the header comment */
} pm_s3_response;

PM_MUST_CHECK int pm_s3_client_new(pm_s3_client **out, const pm_s3_config *config,
                                   paimon_error *err);
void pm_s3_client_free(pm_s3_client *c);
const pm_s3_config *pm_s3_client_config(const pm_s3_client *c);

/* The object's size a Content-Range header value names ("bytes 0-1023/5000": 5000), -1 when
 * the value is malformed, inconsistent, unknown (SIZE a star) or 10^18 bytes or more. */
int64_t pm_s3_content_range_size(const char *value);
void pm_s3_response_init(pm_s3_response *r);
void pm_s3_response_free(pm_s3_response *r);

/* Performs one request with retries (see above). */
PM_MUST_CHECK int pm_s3_perform(pm_s3_client *c, const pm_s3_request *req, pm_s3_response *resp,
                                paimon_error *err);

/* Performs `n` requests concurrently (at most max_connections in flight), each with its own
 * retries; responses[i] answers requests[i].  rc is the first transport failure, if any. */
PM_MUST_CHECK int pm_s3_perform_many(pm_s3_client *c, const pm_s3_request *requests,
                                     pm_s3_response *responses, size_t n, paimon_error *err);

/* Turns a final non-2xx response into the one error the user sees:
 *   "s3://bucket/key: 403 AccessDenied: Access Denied"
 * (code and message from the S3 error XML when there is one).  Returns 404 as
 * PAIMON_ENOTFOUND, 412 and OSS's 409 FileAlreadyExists as PAIMON_EEXISTS, 400 as
 * PAIMON_EINVALID, others as PAIMON_EIO. */
PM_MUST_CHECK int pm_s3_status_error(const pm_s3_request *req, const pm_s3_response *resp,
                                     paimon_error *err);

/* Counters of this client since it was made, for benchmarks and tests. */
typedef struct pm_s3_stats {
    uint64_t requests; /* attempts sent, retries included */
    uint64_t retries;
    uint64_t bytes_in;
    uint64_t bytes_out;
} pm_s3_stats;
void pm_s3_client_stats(const pm_s3_client *c, pm_s3_stats *out);

#endif /* PM_IO_S3_CLIENT_H */

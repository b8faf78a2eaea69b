/*
 * One S3 request performed in the background: the overlap of network waits with the work of
 * the caller (read-ahead blocks of s3_input.c, parts in flight of s3_output.c).
 *
 * A pm_s3_async runs pm_s3_perform() (with its retries) on a thread of its own and is joined
 * by pm_s3_async_wait().  A thread per request, not a pool: the requests are megabytes each,
 * so creating a thread costs nothing next to the transfer, and a request never waits for a
 * pool thread that is itself busy decoding or waiting (no deadlock with the library's pool).
 * The callers bound how many run at once.
 *
 * Ownership: the request is copied shallowly; everything it points to (bucket, key, query,
 * headers, body, dst) stays owned by the caller and must outlive the wait.  The response is
 * owned by the pm_s3_async until pm_s3_async_wait() hands it over (and the caller frees it).
 */
#ifndef PM_IO_S3_ASYNC_H
#define PM_IO_S3_ASYNC_H

#include <pthread.h>
#include <stdbool.h>

#include "io/s3/s3_client.h"

typedef struct pm_s3_async {
    pm_s3_client *client; /* borrowed */
    pm_s3_request req;    /* shallow copy */
    pm_s3_response resp;  /* filled by the thread */
    int rc;               /* pm_s3_perform's result ... */
    paimon_error err;     /* ... and its error */
    pthread_t thread;
    bool running; /* started and not yet joined */
} pm_s3_async;

/* Starts `req` in the background.  On failure (no thread) nothing runs and `a` holds
 * nothing. */
PM_MUST_CHECK int pm_s3_async_start(pm_s3_async *a, pm_s3_client *c, const pm_s3_request *req,
                                    paimon_error *err);

/* Waits for the request; returns what pm_s3_perform returned (err filled on failure) and
 * moves the response into `*resp` (the caller frees it; NULL: dropped). */
PM_MUST_CHECK int pm_s3_async_wait(pm_s3_async *a, pm_s3_response *resp, paimon_error *err);

/* Waits for the request and drops its outcome (a read-ahead nobody needs any more). */
void pm_s3_async_discard(pm_s3_async *a);

#endif /* PM_IO_S3_ASYNC_H */

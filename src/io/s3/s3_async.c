/*
 * pm_s3_async: one S3 request on a thread of its own (s3_async.h).
 */
#include <string.h>

#include "io/s3/s3_async.h"
#include "util/error.h"

static void *run(void *arg)
{
    pm_s3_async *a = arg;
    a->rc = pm_s3_perform(a->client, &a->req, &a->resp, &a->err);
    return NULL;
}

int pm_s3_async_start(pm_s3_async *a, pm_s3_client *c, const pm_s3_request *req, paimon_error *err)
{
    memset(a, 0, sizeof(*a));
    a->client = c;
    a->req = *req;
    pm_s3_response_init(&a->resp);
    if (pthread_create(&a->thread, NULL, run, a) != 0) {
        pm_s3_response_free(&a->resp);
        return pm_err_set(err, PAIMON_EIO, "s3://%s/%s: cannot start a request thread", req->bucket,
                          req->key);
    }
    a->running = true;
    return 0;
}

int pm_s3_async_wait(pm_s3_async *a, pm_s3_response *resp, paimon_error *err)
{
    if (!a->running)
        return pm_err_set(err, PAIMON_EINVALID, "s3: wait for a request that is not running");
    pthread_join(a->thread, NULL);
    a->running = false;
    if (a->rc != 0 && err != NULL)
        *err = a->err;
    if (resp != NULL) {
        *resp = a->resp;
    } else {
        pm_s3_response_free(&a->resp);
    }
    pm_s3_response_init(&a->resp);
    return a->rc;
}

void pm_s3_async_discard(pm_s3_async *a)
{
    paimon_error ignored;
    if (a->running)
        PM_IGNORE(pm_s3_async_wait(a, NULL, &ignored));
}

/*
 * pm_s3_perform_many: several requests at once over curl multi, for parallel range reads and
 * part uploads (s3_client.h).  Each request keeps its own attempts and backoff; at most
 * s3.connection.maximum are in flight; a request waiting for its retry does not hold a
 * connection.  The multi handle (and with it the connections it opened) is kept by the
 * client between calls, so a scan that reads many files reuses its connections.
 *
 * Schedule, as a loop:
 *   start every request that is neither running nor finished and whose retry is due, up to
 *   the connection limit -> curl_multi_perform -> judge each finished transfer (done, retry
 *   at now + backoff, fail) -> wait for sockets or the next due retry.
 */
#include <string.h>

#include "io/s3/s3_client_impl.h"
#include "util/alloc.h"
#include "util/error.h"

static CURLM *multi_take(pm_s3_client *c)
{
    CURLM *m;
    pthread_mutex_lock(&c->lock);
    m = c->multi_idle;
    c->multi_idle = NULL;
    pthread_mutex_unlock(&c->lock);
    return m != NULL ? m : curl_multi_init();
}

static void multi_give(pm_s3_client *c, CURLM *m)
{
    pthread_mutex_lock(&c->lock);
    if (c->multi_idle == NULL) {
        c->multi_idle = m;
        m = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    if (m != NULL)
        curl_multi_cleanup(m);
}

/* Records the first failure of the batch in `err`. */
static void note_failure(int *rc, paimon_error *err, const paimon_error *one, int code)
{
    if (*rc != 0)
        return;
    *rc = code != 0 ? code : PAIMON_EIO;
    if (err != NULL)
        *err = *one;
}

int pm_s3_perform_many(pm_s3_client *c, const pm_s3_request *requests, pm_s3_response *responses,
                       size_t n, paimon_error *err)
{
    int rc = 0;
    pm_s3_attempt *at = NULL;
    CURLM *multi = NULL;
    size_t finished = 0, running = 0;
    size_t limit = c->cfg.max_connections > 0 ? (size_t)c->cfg.max_connections : 1;

    if (n == 0)
        return 0;
    if (n == 1)
        return pm_s3_perform(c, requests, responses, err);
    if ((at = pm_calloc(n, sizeof(*at))) == NULL)
        return pm_nomem(err);
    if ((multi = multi_take(c)) == NULL) {
        pm_free(at);
        return pm_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        at[i].client = c;
        at[i].req = &requests[i];
        at[i].resp = &responses[i];
        responses[i].attempts = 0;
        responses[i].maybe_landed = false;
        responses[i].status = 0;
    }

    while (finished < n) {
        int64_t now = pm_s3_monotonic_ms(), next_due = -1;
        /* start what is due */
        for (size_t i = 0; i < n && running < limit; i++) {
            pm_s3_attempt *a = &at[i];
            paimon_error one;
            if (a->finished || a->in_flight)
                continue;
            if (a->not_before_ms > now) {
                if (next_due < 0 || a->not_before_ms < next_due)
                    next_due = a->not_before_ms;
                continue;
            }
            if (a->curl == NULL && (a->curl = pm_s3_handle_take(c)) == NULL) {
                note_failure(&rc, err, &one, pm_nomem(&one));
                a->finished = true;
                finished++;
                continue;
            }
            int prc = pm_s3_attempt_prepare(a, &one);
            if (prc == 0) {
                curl_easy_setopt(a->curl, CURLOPT_PRIVATE, (char *)a);
                if (curl_multi_add_handle(multi, a->curl) != CURLM_OK) {
                    pm_s3_attempt_release(a);
                    prc = pm_err_set(&one, PAIMON_EIO, "s3://%s/%s: curl_multi_add_handle failed",
                                     a->req->bucket, a->req->key);
                }
            }
            if (prc != 0) {
                note_failure(&rc, err, &one, prc);
                pm_s3_handle_give(c, a->curl);
                a->curl = NULL;
                a->finished = true;
                finished++;
                continue;
            }
            a->in_flight = true;
            running++;
        }
        if (finished == n)
            break;

        int still = 0;
        if (curl_multi_perform(multi, &still) != CURLM_OK) {
            pm_err_set(err, PAIMON_EIO, "s3: curl_multi_perform failed");
            rc = rc != 0 ? rc : PAIMON_EIO;
            break;
        }
        CURLMsg *msg;
        int left = 0;
        while ((msg = curl_multi_info_read(multi, &left)) != NULL) {
            pm_s3_attempt *a = NULL;
            paimon_error one;
            if (msg->msg != CURLMSG_DONE)
                continue;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&a);
            CURLcode cc = msg->data.result;
            curl_multi_remove_handle(multi, a->curl);
            a->in_flight = false;
            running--;
            pm_s3_verdict v = pm_s3_attempt_finish(a, cc, &one);
            pm_s3_attempt_release(a);
            if (v == PM_S3_RETRY && a->resp->attempts < c->cfg.max_attempts) {
                __atomic_add_fetch(&c->stats.retries, 1, __ATOMIC_RELAXED);
                a->not_before_ms = pm_s3_monotonic_ms() + pm_s3_backoff_ms(c, a->resp->attempts);
                continue;
            }
            if (v == PM_S3_FAIL)
                note_failure(&rc, err, &one, a->fail_rc);
            else if (v == PM_S3_RETRY) {
                int grc = pm_s3_attempt_give_up(a, &one);
                if (grc != 0)
                    note_failure(&rc, err, &one, grc);
            }
            pm_s3_handle_give(c, a->curl);
            a->curl = NULL;
            a->finished = true;
            finished++;
        }
        if (finished == n)
            break;
        /* wait for a socket, or until the next retry is due (at most 100 ms) */
        int timeout = 100;
        if (running == 0 && next_due >= 0) {
            int64_t wait = next_due - pm_s3_monotonic_ms();
            timeout = wait < 0 ? 0 : wait > 100 ? 100 : (int)wait;
        }
        if (running > 0 || timeout > 0)
            curl_multi_poll(multi, NULL, 0, timeout, NULL);
    }

    for (size_t i = 0; i < n; i++) {
        if (at[i].in_flight) {
            curl_multi_remove_handle(multi, at[i].curl);
            pm_s3_attempt_release(&at[i]);
        }
        if (at[i].curl != NULL)
            pm_s3_handle_give(c, at[i].curl);
    }
    multi_give(c, multi);
    pm_free(at);
    return rc;
}

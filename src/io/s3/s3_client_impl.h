/*
 * Inside the S3 transport: the client's state and one attempt of a request, shared by
 * s3_client.c (one request at a time) and s3_client_many.c (several over curl multi).
 * Nothing outside those two files includes this header.
 */
#ifndef PM_IO_S3_CLIENT_IMPL_H
#define PM_IO_S3_CLIENT_IMPL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <curl/curl.h>

#include "io/s3/s3_client.h"

#define PM_S3_BODY_MAX       ((size_t)512 << 20) /* a response body read into memory */
#define PM_S3_ERROR_BODY_MAX ((size_t)64 << 10)  /* the part of an error body kept */

struct pm_s3_client {
    pm_s3_config cfg;     /* owned copy */
    pthread_mutex_t lock; /* guards pool */
    CURL **pool;          /* idle easy handles (each keeps its connections alive) */
    size_t pool_count;
    size_t pool_cap;
    char scheme[8];      /* "http" or "https" */
    char authority[512]; /* "host[:port]" of the endpoint */
    char noproxy[1024];  /* CURLOPT_NOPROXY: loopback plus NO_PROXY */
    uint64_t rng;        /* backoff jitter state */
    CURLM *multi_idle;   /* a multi handle kept between pm_s3_perform_many calls (lock) */
    pm_s3_stats stats;   /* atomics */
};

/* One attempt of one request: what it sends, where the answer goes. */
typedef struct pm_s3_attempt {
    pm_s3_client *client;
    const pm_s3_request *req;   /* borrowed */
    pm_s3_response *resp;       /* borrowed; filled */
    CURL *curl;                 /* from the pool while the request runs */
    struct curl_slist *headers; /* owned by the attempt */
    pm_buf url;                 /* owned */
    pm_buf path;                /* canonical URI, owned */
    pm_buf scratch;             /* header lines, owned */
    size_t body_off;            /* bytes of req->body sent */
    size_t dst_off;             /* bytes written to req->dst */
    bool overflow;              /* the body outgrew dst_len or PM_S3_BODY_MAX */
    bool out_of_memory;         /* ... or memory ran out while it grew */
    int fail_rc;                /* the code of a PM_S3_FAIL verdict */
    char payload_hash[65];      /* hex SHA-256 of req->body, "" until the first attempt */
    char errbuf[CURL_ERROR_SIZE];
    char last_error[CURL_ERROR_SIZE]; /* the transport failure of the last retried attempt */
    /* s3_client_many.c: scheduling */
    int64_t not_before_ms; /* retry due time */
    bool in_flight;
    bool finished;
} pm_s3_attempt;

typedef enum pm_s3_verdict { PM_S3_DONE, PM_S3_RETRY, PM_S3_FAIL } pm_s3_verdict;

CURL *pm_s3_handle_take(pm_s3_client *c);
void pm_s3_handle_give(pm_s3_client *c, CURL *h);

/* Sets up a->curl for the next attempt (URL, signed headers, callbacks).  On failure the
 * attempt holds nothing. */
PM_MUST_CHECK int pm_s3_attempt_prepare(pm_s3_attempt *a, paimon_error *err);
/* Judges a finished attempt; PM_S3_FAIL has filled err and set a->fail_rc. */
pm_s3_verdict pm_s3_attempt_finish(pm_s3_attempt *a, CURLcode cc, paimon_error *err);
/* Frees what prepare made (the handle stays with the attempt). */
void pm_s3_attempt_release(pm_s3_attempt *a);
/* After the last attempt was a retryable failure: 0 when an answer came, else PAIMON_EIO. */
PM_MUST_CHECK int pm_s3_attempt_give_up(pm_s3_attempt *a, paimon_error *err);
/* The backoff before attempt `attempts_done + 1`: full jitter under a doubling ceiling. */
int64_t pm_s3_backoff_ms(pm_s3_client *c, int attempts_done);

/* The clock of x-amz-date, in epoch seconds. */
int64_t pm_s3_clock_seconds(void);
/* Monotonic milliseconds, for retry scheduling. */
int64_t pm_s3_monotonic_ms(void);

#endif /* PM_IO_S3_CLIENT_IMPL_H */

/*
 * The S3 transport: one request signed (sigv4.h), sent over a pooled libcurl easy handle,
 * retried with backoff (s3_client.h has the contract; s3_client_many.c runs several at once).
 *
 * One attempt, as data:
 *   pm_s3_request -> URL + Host (path style: http://host/bucket/key; virtual-hosted:
 *   http://bucket.host/key) with the key encoded once and the canonical query, the same
 *   bytes that are signed -> headers (host, x-amz-date, x-amz-content-sha256, range, the
 *   request's own; all signed) -> curl -> status, headers, body -> done, retry or fail.
 *
 * Why these curl settings:
 *  - "Expect:" is sent empty: 100-continue costs a round trip per PUT and s3rver does not
 *    need it;
 *  - CURLOPT_NOSIGNAL: the library runs in threads of its callers;
 *  - proxies from the environment (https_proxy ...) are honoured, except for loopback
 *    endpoints (NOPROXY always holds localhost, 127.0.0.1 and ::1, plus NO_PROXY);
 *  - the "no byte moved" timeout is curl's low-speed limit (1 byte/s for
 *    s3.connection.timeout, rounded up to whole seconds as curl counts them).
 *
 * Thread safety: the pool is behind a mutex; counters are atomics; an attempt owns its
 * handle until it returns it.
 */
#include "io/s3/s3_client_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/s3/s3_xml.h"
#include "io/s3/sigv4.h"
#include "util/alloc.h"
#include "util/error.h"

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc = CURLE_OK;

static void curl_init(void)
{
    curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int64_t pm_s3_clock_seconds(void)
{
    return (int64_t)time(NULL);
}

int64_t pm_s3_monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the client and its pool --------------------------------------------------------------- */

int pm_s3_client_new(pm_s3_client **out, const pm_s3_config *config, paimon_error *err)
{
    pm_s3_client *c = NULL;
    *out = NULL;
    pthread_once(&curl_once, curl_init);
    if (curl_init_rc != CURLE_OK)
        return pm_err_set(err, PAIMON_EIO, "s3: libcurl failed to initialise: %s",
                          curl_easy_strerror(curl_init_rc));
    if ((c = pm_calloc(1, sizeof(*c))) == NULL)
        return pm_nomem(err);
    if (pm_s3_config_copy(&c->cfg, config) != 0) {
        pm_free(c);
        return pm_nomem(err);
    }
    pthread_mutex_init(&c->lock, NULL);
    {
        const char *np = getenv("NO_PROXY");
        if (np == NULL)
            np = getenv("no_proxy");
        snprintf(c->noproxy, sizeof(c->noproxy), "localhost,127.0.0.1,::1%s%s",
                 np != NULL && *np != '\0' ? "," : "", np != NULL ? np : "");
    }
    /* the authority of the endpoint: "host[:port]" */
    const char *h = strstr(c->cfg.endpoint, "://");
    snprintf(c->scheme, sizeof(c->scheme), "%.*s", (int)(h - c->cfg.endpoint), c->cfg.endpoint);
    snprintf(c->authority, sizeof(c->authority), "%s", h + 3);
    c->rng = (uint64_t)time(NULL) ^ ((uint64_t)(uintptr_t)c << 16) ^ 0x9E3779B97F4A7C15ull;
    *out = c;
    return 0;
}

void pm_s3_client_free(pm_s3_client *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->pool_count; i++)
        curl_easy_cleanup(c->pool[i]);
    pm_free(c->pool);
    if (c->multi_idle != NULL)
        curl_multi_cleanup(c->multi_idle);
    pthread_mutex_destroy(&c->lock);
    pm_s3_config_free(&c->cfg);
    pm_free(c);
}

const pm_s3_config *pm_s3_client_config(const pm_s3_client *c)
{
    return &c->cfg;
}

void pm_s3_client_stats(const pm_s3_client *c, pm_s3_stats *out)
{
    out->requests = __atomic_load_n(&c->stats.requests, __ATOMIC_RELAXED);
    out->retries = __atomic_load_n(&c->stats.retries, __ATOMIC_RELAXED);
    out->bytes_in = __atomic_load_n(&c->stats.bytes_in, __ATOMIC_RELAXED);
    out->bytes_out = __atomic_load_n(&c->stats.bytes_out, __ATOMIC_RELAXED);
}

CURL *pm_s3_handle_take(pm_s3_client *c)
{
    CURL *h = NULL;
    pthread_mutex_lock(&c->lock);
    if (c->pool_count > 0)
        h = c->pool[--c->pool_count];
    pthread_mutex_unlock(&c->lock);
    return h != NULL ? h : curl_easy_init();
}

void pm_s3_handle_give(pm_s3_client *c, CURL *h)
{
    if (h == NULL)
        return;
    pthread_mutex_lock(&c->lock);
    /* Keep as many idle handles (and so connections) as may be in flight at once. */
    if (c->pool_count < (size_t)c->cfg.max_connections) {
        if (c->pool_count == c->pool_cap) {
            size_t cap = c->pool_cap == 0 ? 4 : c->pool_cap * 2;
            CURL **p = pm_realloc(c->pool, cap * sizeof(*p));
            if (p != NULL) {
                c->pool = p;
                c->pool_cap = cap;
            }
        }
        if (c->pool_count < c->pool_cap) {
            c->pool[c->pool_count++] = h;
            h = NULL;
        }
    }
    pthread_mutex_unlock(&c->lock);
    if (h != NULL)
        curl_easy_cleanup(h);
}

void pm_s3_response_init(pm_s3_response *r)
{
    memset(r, 0, sizeof(*r));
    pm_buf_init(&r->body, PM_S3_BODY_MAX);
    r->last_modified_ms = -1;
    r->object_size = -1;
}

void pm_s3_response_free(pm_s3_response *r)
{
    if (r == NULL)
        return;
    pm_buf_free(&r->body);
}

/* A decimal of at most 18 digits (below 10^18 < INT64_MAX) at *p, no sign or space; -1 when
 * there is none.  *p moves past it. */
static int64_t decimal(const char **p)
{
    int64_t v = 0;
    int n = 0;
    while (**p >= '0' && **p <= '9') {
        if (++n > 18)
            return -1;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    return n > 0 ? v : -1;
}

int64_t pm_s3_content_range_size(const char *value)
{
    /* "bytes FIRST-LAST/SIZE" (RFC 9110 14.4) with FIRST <= LAST < SIZE, or "bytes STAR/SIZE"
     * of a 416.  strtoull took "-18446744073709551615" for 1 and a range past the size. */
    const char *p = value;
    int64_t first = 0, last = -1, size;
    if (strncmp(p, "bytes ", 6) != 0)
        return -1;
    p += 6;
    if (*p == '*') {
        p++;
    } else {
        if ((first = decimal(&p)) < 0 || *p++ != '-' || (last = decimal(&p)) < first)
            return -1;
    }
    if (*p++ != '/' || (size = decimal(&p)) < 0 || *p != '\0' || last >= size)
        return -1;
    return size;
}

/* ---- one attempt ---------------------------------------------------------------------------- */

static size_t on_header(char *line, size_t size, size_t nitems, void *userdata)
{
    pm_s3_attempt *a = userdata;
    size_t n = size * nitems, name_len;
    const char *colon = memchr(line, ':', n);
    if (n >= 5 && memcmp(line, "HTTP/", 5) == 0) {
        /* a new response (after a redirect or a 100): forget the previous headers */
        a->resp->content_length = 0;
        a->resp->object_size = -1;
        a->resp->last_modified_ms = -1;
        a->resp->etag[0] = '\0';
        return n;
    }
    if (colon == NULL)
        return n;
    name_len = (size_t)(colon - line);
    const char *v = colon + 1, *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
        end--;
    size_t vlen = (size_t)(end - v);
    char value[128];
    if (vlen >= sizeof(value))
        return n; /* none of the headers read here is that long */
    memcpy(value, v, vlen);
    value[vlen] = '\0';
    if (name_len == 14 && strncasecmp(line, "content-length", 14) == 0) {
        char *e = NULL;
        unsigned long long cl = strtoull(value, &e, 10);
        if (e != value && *e == '\0')
            a->resp->content_length = cl;
    } else if (name_len == 13 && strncasecmp(line, "content-range", 13) == 0) {
        a->resp->object_size = pm_s3_content_range_size(value);
    } else if (name_len == 4 && strncasecmp(line, "etag", 4) == 0) {
        if (vlen < sizeof(a->resp->etag))
            memcpy(a->resp->etag, value, vlen + 1);
    } else if (name_len == 13 && strncasecmp(line, "last-modified", 13) == 0) {
        time_t t = curl_getdate(value, NULL);
        if (t != (time_t)-1)
            a->resp->last_modified_ms = (int64_t)t * 1000;
    }
    return n;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *userdata)
{
    pm_s3_attempt *a = userdata;
    size_t n = size * nmemb;
    long status = 0;
    curl_easy_getinfo(a->curl, CURLINFO_RESPONSE_CODE, &status);
    __atomic_add_fetch(&a->client->stats.bytes_in, n, __ATOMIC_RELAXED);
    if (a->req->dst != NULL && status >= 200 && status < 300) {
        if (n > a->req->dst_len - a->dst_off) {
            a->overflow = true; /* more than asked for: refuse rather than truncate */
            return 0;
        }
        memcpy(a->req->dst + a->dst_off, data, n);
        a->dst_off += n;
        return n;
    }
    if (status >= 300 && a->resp->body.len + n > PM_S3_ERROR_BODY_MAX)
        return n; /* an error body is only read for its <Code>; drop the rest */
    int rc = pm_buf_append(&a->resp->body, data, n);
    if (rc != 0) {
        a->overflow = true;
        a->out_of_memory = rc == PAIMON_ENOMEM;
        return 0;
    }
    return n;
}

static size_t on_read(char *buf, size_t size, size_t nitems, void *userdata)
{
    pm_s3_attempt *a = userdata;
    size_t n = size * nitems, left = a->req->body_len - a->body_off;
    if (n > left)
        n = left;
    if (n > 0)
        memcpy(buf, (const uint8_t *)a->req->body + a->body_off, n);
    a->body_off += n;
    __atomic_add_fetch(&a->client->stats.bytes_out, n, __ATOMIC_RELAXED);
    return n;
}

/* libcurl silently resends a request whose reused connection died before any answer,
 * rewinding the body through this callback.  Refusing the rewind turns that into
 * CURLE_SEND_FAIL_REWIND, so the retry is ours: counted, backed off, and `maybe_landed` set,
 * since the server may have applied the first send (a conditional PUT would then meet its
 * own object).  Our own retries never need a rewind: each attempt starts the body afresh. */
static int on_seek(void *userdata, curl_off_t offset, int origin)
{
    (void)userdata;
    (void)offset;
    (void)origin;
    return CURL_SEEKFUNC_FAIL;
}

void pm_s3_attempt_release(pm_s3_attempt *a)
{
    curl_slist_free_all(a->headers);
    a->headers = NULL;
    pm_buf_free(&a->url);
    pm_buf_free(&a->path);
    if (a->scratch.data != NULL)
        memset(a->scratch.data, 0, a->scratch.cap);
    pm_buf_free(&a->scratch);
}

static int add_header(pm_s3_attempt *a, const char *name, const char *value)
{
    struct curl_slist *l;
    pm_buf_reset(&a->scratch);
    if (pm_buf_printf(&a->scratch, "%s: %s", name, value) != 0)
        return PAIMON_ENOMEM;
    if ((l = curl_slist_append(a->headers, pm_buf_cstr(&a->scratch))) == NULL)
        return PAIMON_ENOMEM;
    a->headers = l;
    return 0;
}

/* Builds the URL, the signed headers and the curl options of one attempt on a->curl. */
int pm_s3_attempt_prepare(pm_s3_attempt *a, paimon_error *err)
{
    pm_s3_client *c = a->client;
    const pm_s3_request *r = a->req;
    const pm_s3_config *cfg = &c->cfg;
    int rc = 0;
    pm_buf host, query, auth;
    char amz_date[17], range[64];
    const char **hdrs = NULL;
    size_t nh = 0;
    CURL *h = a->curl;

    pm_buf_init(&host, 0);
    pm_buf_init(&query, 0);
    pm_buf_init(&auth, 0);
    pm_buf_init(&a->url, 0);
    pm_buf_init(&a->path, 0);
    pm_buf_init(&a->scratch, 0);
    a->headers = NULL;
    a->body_off = 0;
    a->dst_off = 0;
    a->overflow = false;
    a->out_of_memory = false;
    a->fail_rc = 0;

    /* where: host and canonical URI */
    /* A bucket name with a dot cannot be a virtual host under TLS (the certificate's
     * wildcard covers one label): such buckets go path style, as the AWS SDKs do. */
    if (cfg->path_style || strchr(r->bucket, '.') != NULL) {
        PM_TRY(pm_buf_puts(&host, c->authority));
        PM_TRY(pm_buf_putc(&a->path, '/'));
        PM_TRY(pm_s3_uri_encode(&a->path, r->bucket, strlen(r->bucket), true));
        if (r->key[0] != '\0')
            PM_TRY(pm_buf_putc(&a->path, '/'));
    } else {
        PM_TRY(pm_buf_printf(&host, "%s.%s", r->bucket, c->authority));
        PM_TRY(pm_buf_putc(&a->path, '/'));
    }
    PM_TRY(pm_s3_uri_encode(&a->path, r->key, strlen(r->key), false));
    PM_TRY(pm_s3_canonical_query(&query, r->query, r->query_count));
    PM_TRY(pm_buf_printf(&a->url, "%s://%s%s%s%s", c->scheme, pm_buf_cstr(&host),
                         pm_buf_cstr(&a->path), query.len > 0 ? "?" : "", pm_buf_cstr(&query)));

    /* what: the headers, every one signed */
    pm_s3_amz_date(pm_s3_clock_seconds(), amz_date);
    /* hashed once per request, not per attempt: a part is megabytes */
    if (a->payload_hash[0] == '\0') {
        if (r->body_len > 0)
            pm_s3_sha256_hex(r->body, r->body_len, a->payload_hash);
        else
            memcpy(a->payload_hash, PM_S3_EMPTY_SHA256, 65);
    }
    const char *payload_hash = a->payload_hash;
    if ((hdrs = pm_calloc(2 * (r->header_count + 5), sizeof(*hdrs))) == NULL) {
        rc = PAIMON_ENOMEM;
        goto done;
    }
    hdrs[2 * nh] = "host";
    hdrs[2 * nh++ + 1] = pm_buf_cstr(&host);
    hdrs[2 * nh] = "x-amz-date";
    hdrs[2 * nh++ + 1] = amz_date;
    hdrs[2 * nh] = "x-amz-content-sha256";
    hdrs[2 * nh++ + 1] = payload_hash;
    if (cfg->session_token != NULL) {
        hdrs[2 * nh] = "x-amz-security-token";
        hdrs[2 * nh++ + 1] = cfg->session_token;
    }
    if (r->has_range) {
        if (r->range_len == 0) {
            rc = pm_err_set(err, PAIMON_EINVALID, "s3://%s/%s: empty range", r->bucket, r->key);
            goto done;
        }
        snprintf(range, sizeof(range), "bytes=%llu-%llu", (unsigned long long)r->range_off,
                 (unsigned long long)(r->range_off + r->range_len - 1));
        hdrs[2 * nh] = "range";
        hdrs[2 * nh++ + 1] = range;
    }
    for (size_t i = 0; i < r->header_count; i++) {
        hdrs[2 * nh] = r->headers[2 * i];
        hdrs[2 * nh++ + 1] = r->headers[2 * i + 1];
    }
    for (size_t i = 0; i < nh; i++)
        PM_TRY(add_header(a, hdrs[2 * i], hdrs[2 * i + 1]));
    if (cfg->access_key != NULL && cfg->secret_key != NULL) {
        pm_s3_sign_input in = {r->method,
                               pm_buf_cstr(&a->path),
                               pm_buf_cstr(&query),
                               hdrs,
                               nh,
                               payload_hash,
                               amz_date,
                               cfg->region,
                               "s3",
                               cfg->access_key,
                               cfg->secret_key};
        rc = pm_s3_sign(&auth, NULL, &in);
        if (rc == PAIMON_EINVALID) {
            rc = pm_err_set(err, rc, "s3://%s/%s: a request header name is not a token", r->bucket,
                            r->key);
            goto done;
        }
        PM_TRY(rc);
        PM_TRY(add_header(a, "Authorization", pm_buf_cstr(&auth)));
    }
    /* no 100-continue round trip before each upload */
    struct curl_slist *l = curl_slist_append(a->headers, "Expect:");
    if (l == NULL) {
        rc = PAIMON_ENOMEM;
        goto done;
    }
    a->headers = l;

    /* how: curl */
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, pm_buf_cstr(&a->url));
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, a->headers);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_NOPROXY, c->noproxy);
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)cfg->connect_timeout_ms);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
                     (long)((cfg->request_timeout_ms + 999) / 1000 > 0
                                ? (cfg->request_timeout_ms + 999) / 1000
                                : 1));
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, a);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, a);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, a->errbuf);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    /* larger socket reads and writes than curl's 16 KiB / 64 KiB: data files move in MiBs */
    curl_easy_setopt(h, CURLOPT_BUFFERSIZE, 256L << 10);
    curl_easy_setopt(h, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
    a->errbuf[0] = '\0';
    if (strcmp(r->method, "HEAD") == 0) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(r->method, "PUT") == 0 || strcmp(r->method, "POST") == 0) {
        curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)r->body_len);
        curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(h, CURLOPT_READDATA, a);
        curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, on_seek);
        curl_easy_setopt(h, CURLOPT_SEEKDATA, a);
        if (strcmp(r->method, "POST") == 0)
            curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "POST");
    } else if (strcmp(r->method, "GET") == 0) {
        curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, r->method);
    }
    pm_buf_reset(&a->resp->body);
    a->resp->status = 0;
    a->resp->content_length = 0;
    a->resp->object_size = -1;
    a->resp->last_modified_ms = -1;
    a->resp->etag[0] = '\0';
    __atomic_add_fetch(&c->stats.requests, 1, __ATOMIC_RELAXED);
done:
    if (rc == PAIMON_ENOMEM || rc == PAIMON_ELIMIT)
        rc = pm_nomem(err);
    if (auth.data != NULL)
        memset(auth.data, 0, auth.cap);
    pm_buf_free(&auth);
    pm_buf_free(&host);
    pm_buf_free(&query);
    pm_free(hdrs);
    if (rc != 0)
        pm_s3_attempt_release(a);
    return rc;
}

/* Transport failures worth another attempt: the connection, not the request, went wrong. */
static bool retryable_curl(CURLcode cc)
{
    switch (cc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_READ_ERROR:
    case CURLE_SEND_FAIL_REWIND: /* a reused connection died under a PUT: see on_seek */
        return true;
    default: return false;
    }
}

/* Whether an error answer's XML says <Code>CODE</Code>. */
static bool body_has_code(const pm_s3_response *resp, const char *code)
{
    char *text = NULL;
    bool same;
    if (resp->body.data == NULL ||
        pm_s3_xml_text((const char *)resp->body.data, resp->body.len, "Code", &text) != 0)
        return false;
    same = text != NULL && strcmp(text, code) == 0;
    pm_free(text);
    return same;
}

pm_s3_verdict pm_s3_attempt_finish(pm_s3_attempt *a, CURLcode cc, paimon_error *err)
{
    const pm_s3_request *r = a->req;
    pm_s3_response *resp = a->resp;
    long status = 0;
    resp->attempts++;
    curl_easy_getinfo(a->curl, CURLINFO_RESPONSE_CODE, &status);
    if (cc == CURLE_OK) {
        resp->status = status;
        if (status >= 500 && status <= 599) {
            /* A 500 may follow an applied write; a 503 is a refusal before it. */
            if (status != 503)
                resp->maybe_landed = true;
            return PM_S3_RETRY;
        }
        /* Throttling (429 TooManyRequests, SlowDown from stores that send it as 429) and a
         * request the store gave up waiting for (400 RequestTimeout: the body came too
         * slowly) are refusals before anything was applied: the same backoff as a 503. */
        if (status == 429 || (status == 400 && body_has_code(resp, "RequestTimeout")))
            return PM_S3_RETRY;
        if (status >= 200 && status < 300 && r->dst != NULL && strcmp(r->method, "GET") == 0 &&
            a->dst_off != r->dst_len) {
            a->fail_rc = pm_corrupt(err, "s3://%s/%s: %zu bytes answered where %zu were asked for",
                                    r->bucket, r->key, a->dst_off, r->dst_len);
            return PM_S3_FAIL;
        }
        return PM_S3_DONE;
    }
    if (a->overflow) {
        if (a->out_of_memory)
            a->fail_rc = pm_nomem(err);
        else if (r->dst != NULL && status >= 200 && status < 300)
            a->fail_rc = pm_corrupt(err, "s3://%s/%s: more bytes answered than the %zu asked for",
                                    r->bucket, r->key, r->dst_len);
        else
            a->fail_rc =
                pm_err_set(err, PAIMON_ELIMIT, "s3://%s/%s: response body larger than %zu bytes",
                           r->bucket, r->key, (size_t)PM_S3_BODY_MAX);
        return PM_S3_FAIL;
    }
    if (!retryable_curl(cc)) {
        a->fail_rc = pm_err_set(err, PAIMON_EIO, "s3://%s/%s: %s", r->bucket, r->key,
                                a->errbuf[0] != '\0' ? a->errbuf : curl_easy_strerror(cc));
        return PM_S3_FAIL;
    }
    /* Sent anything? Then the server may have acted on it. */
    long sent = 0;
    curl_easy_getinfo(a->curl, CURLINFO_REQUEST_SIZE, &sent);
    if (sent > 0 && cc != CURLE_COULDNT_CONNECT && cc != CURLE_COULDNT_RESOLVE_HOST)
        resp->maybe_landed = true;
    resp->status = 0;
    snprintf(a->last_error, sizeof(a->last_error), "%s",
             a->errbuf[0] != '\0' ? a->errbuf : curl_easy_strerror(cc));
    return PM_S3_RETRY;
}

/* After the last attempt: a status is an answer (rc 0), no status is PAIMON_EIO. */
int pm_s3_attempt_give_up(pm_s3_attempt *a, paimon_error *err)
{
    if (a->resp->status != 0)
        return 0;
    return pm_err_set(err, PAIMON_EIO, "s3://%s/%s: no answer after %d attempts: %s",
                      a->req->bucket, a->req->key, a->resp->attempts, a->last_error);
}

int64_t pm_s3_backoff_ms(pm_s3_client *c, int attempts_done)
{
    int64_t cap = c->cfg.retry_base_ms;
    for (int i = 1; i < attempts_done && cap < c->cfg.retry_max_ms; i++)
        cap *= 2;
    if (cap > c->cfg.retry_max_ms)
        cap = c->cfg.retry_max_ms;
    if (cap <= 0)
        return 0;
    /* full jitter: uniform in [0, cap]; xorshift shared racily, which is fine for jitter */
    uint64_t x = __atomic_load_n(&c->rng, __ATOMIC_RELAXED);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    __atomic_store_n(&c->rng, x, __ATOMIC_RELAXED);
    return (int64_t)(x % (uint64_t)(cap + 1));
}

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

int pm_s3_perform(pm_s3_client *c, const pm_s3_request *req, pm_s3_response *resp,
                  paimon_error *err)
{
    int rc = 0;
    pm_s3_attempt a;
    memset(&a, 0, sizeof(a));
    a.client = c;
    a.req = req;
    a.resp = resp;
    resp->attempts = 0;
    resp->maybe_landed = false;
    if ((a.curl = pm_s3_handle_take(c)) == NULL)
        return pm_nomem(err);
    for (;;) {
        PM_TRY(pm_s3_attempt_prepare(&a, err));
        CURLcode cc = curl_easy_perform(a.curl);
        pm_s3_verdict v = pm_s3_attempt_finish(&a, cc, err);
        pm_s3_attempt_release(&a);
        if (v == PM_S3_DONE)
            break;
        if (v == PM_S3_FAIL) {
            rc = a.fail_rc;
            goto done;
        }
        if (resp->attempts >= c->cfg.max_attempts) {
            rc = pm_s3_attempt_give_up(&a, err);
            break;
        }
        __atomic_add_fetch(&c->stats.retries, 1, __ATOMIC_RELAXED);
        sleep_ms(pm_s3_backoff_ms(c, resp->attempts));
    }
done:
    pm_s3_handle_give(c, a.curl);
    return rc;
}

/* ---- errors ---------------------------------------------------------------------------------- */

int pm_s3_status_error(const pm_s3_request *req, const pm_s3_response *resp, paimon_error *err)
{
    char *code = NULL, *message = NULL;
    int pc;
    long s = resp->status;
    const char *doc = (const char *)resp->body.data;
    size_t len = resp->body.len;

    if (s == 404)
        pc = PAIMON_ENOTFOUND;
    else if (s == 412)
        pc = PAIMON_EEXISTS;
    else if (s == 400)
        pc = PAIMON_EINVALID;
    else
        pc = PAIMON_EIO;
    if (doc != NULL) {
        PM_IGNORE(pm_s3_xml_text(doc, len, "Code", &code));
        PM_IGNORE(pm_s3_xml_text(doc, len, "Message", &message));
    }
    /* OSS's answer to x-oss-forbid-overwrite on an existing object */
    if (s == 409 && code != NULL && strcmp(code, "FileAlreadyExists") == 0)
        pc = PAIMON_EEXISTS;
    if (code == NULL) {
        /* HEAD has no body: name the status as S3 would */
        const char *name = s == 404   ? "NotFound"
                           : s == 403 ? "Forbidden"
                           : s == 412 ? "PreconditionFailed"
                           : s == 400 ? "BadRequest"
                           : s == 503 ? "SlowDown"
                                      : "Error";
        code = pm_strdup(name);
    }
    pm_err_set(err, pc, "s3://%s/%s: %ld %s%s%s", req->bucket, req->key, s,
               code != NULL ? code : "Error", message != NULL && *message != '\0' ? ": " : "",
               message != NULL ? message : "");
    pm_free(code);
    pm_free(message);
    return pc;
}

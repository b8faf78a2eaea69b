/* AWS Signature Version 4 over libcrypto: see sigv4.h for the canonical request. */
#include "io/s3/sigv4.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/md5.h>
#include <openssl/sha.h>

#include "util/alloc.h"
#include "util/error.h"
#include "util/time.h"

static const char HEX_UPPER[] = "0123456789ABCDEF";
static const char HEX_LOWER[] = "0123456789abcdef";

static void hex_lower(const unsigned char *bytes, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = HEX_LOWER[bytes[i] >> 4];
        out[2 * i + 1] = HEX_LOWER[bytes[i] & 15];
    }
    out[2 * len] = '\0';
}

void pm_s3_sha256_hex(const void *data, size_t len, char out[65])
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(len == 0 ? (const unsigned char *)"" : data, len, digest);
    hex_lower(digest, sizeof(digest), out);
}

void pm_s3_md5_base64(const void *data, size_t len, char out[25])
{
    unsigned char digest[16];
    unsigned int digest_len = 0;
    /* EVP rather than MD5(), which OpenSSL 3.0 deprecates. */
    EVP_Digest(len == 0 ? (const void *)"" : data, len, digest, &digest_len, EVP_md5(), NULL);
    EVP_EncodeBlock((unsigned char *)out, digest, 16);
    out[24] = '\0';
}

static bool is_unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

int pm_s3_uri_encode(pm_buf *out, const char *s, size_t len, bool encode_slash)
{
    int rc = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_unreserved(c) || (c == '/' && !encode_slash)) {
            PM_TRY(pm_buf_putc(out, c));
        } else {
            char esc[3] = {'%', HEX_UPPER[c >> 4], HEX_UPPER[c & 15]};
            PM_TRY(pm_buf_append(out, esc, 3));
        }
    }
done:
    return rc;
}

/* One query pair, encoded, for sorting. */
typedef struct encoded_pair {
    char *name;
    char *value;
} encoded_pair;

static int pair_cmp(const void *a, const void *b)
{
    const encoded_pair *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c != 0 ? c : strcmp(x->value, y->value);
}

static char *encode_dup(const char *s, int *rc)
{
    pm_buf b;
    pm_buf_init(&b, 0);
    if (s == NULL)
        s = "";
    *rc = pm_s3_uri_encode(&b, s, strlen(s), true);
    if (*rc == 0)
        *rc = pm_buf_putc(&b, '\0');
    if (*rc != 0) {
        pm_buf_free(&b);
        return NULL;
    }
    size_t len;
    return (char *)pm_buf_detach(&b, &len);
}

int pm_s3_canonical_query(pm_buf *out, const char *const *query, size_t query_count)
{
    int rc = 0;
    encoded_pair *pairs = NULL;
    if (query_count == 0)
        return 0;
    if ((pairs = pm_calloc(query_count, sizeof(*pairs))) == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; i < query_count; i++) {
        if ((pairs[i].name = encode_dup(query[2 * i], &rc)) == NULL)
            goto done;
        if ((pairs[i].value = encode_dup(query[2 * i + 1], &rc)) == NULL)
            goto done;
    }
    qsort(pairs, query_count, sizeof(*pairs), pair_cmp);
    for (size_t i = 0; i < query_count; i++)
        PM_TRY(pm_buf_printf(out, "%s%s=%s", i == 0 ? "" : "&", pairs[i].name, pairs[i].value));
done:
    for (size_t i = 0; i < query_count; i++) {
        pm_free(pairs[i].name);
        pm_free(pairs[i].value);
    }
    pm_free(pairs);
    return rc;
}

void pm_s3_amz_date(int64_t epoch_seconds, char out[17])
{
    int64_t days = epoch_seconds / 86400, secs = epoch_seconds % 86400;
    if (secs < 0) {
        secs += 86400;
        days--;
    }
    int64_t y;
    unsigned m, d;
    pm_civil_from_days(days, &y, &m, &d);
    char text[64]; /* wider than needed: the compiler cannot bound the fields */
    snprintf(text, sizeof(text), "%04d%02u%02uT%02d%02d%02dZ", (int)(y % 10000), m, d,
             (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
    memcpy(out, text, 16);
    out[16] = '\0';
}

/* A header of the request, canonicalised. */
typedef struct canon_header {
    char *name;        /* lower-cased */
    const char *value; /* as sent (trimmed when written) */
    size_t idx;        /* position in the input: equal names keep their order */
} canon_header;

static int header_cmp(const void *a, const void *b)
{
    const canon_header *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c != 0)
        return c;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Header field names are RFC 7230 tokens. */
static bool is_token_char(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Appends a header value trimmed, with each inner run of spaces and tabs as one space. */
static int put_trimmed(pm_buf *b, const char *v)
{
    int rc = 0;
    bool pending_space = false, started = false;
    for (; *v != '\0'; v++) {
        if (*v == ' ' || *v == '\t') {
            pending_space = started;
            continue;
        }
        if (pending_space)
            PM_TRY(pm_buf_putc(b, ' '));
        pending_space = false;
        started = true;
        PM_TRY(pm_buf_putc(b, (uint8_t)*v));
    }
done:
    return rc;
}

static int hmac(const void *key, size_t key_len, const void *msg, size_t msg_len,
                unsigned char out[32])
{
    unsigned int out_len = 0;
    if (HMAC(EVP_sha256(), key, (int)key_len, msg, msg_len, out, &out_len) == NULL || out_len != 32)
        return PAIMON_EIO;
    return 0;
}

static bool valid_date(const char *d)
{
    if (strlen(d) != 16 || d[8] != 'T' || d[15] != 'Z')
        return false;
    for (int i = 0; i < 15; i++)
        if (i != 8 && (d[i] < '0' || d[i] > '9'))
            return false;
    return true;
}

int pm_s3_sign(pm_buf *authorization, pm_buf *canonical, const pm_s3_sign_input *in)
{
    int rc = 0;
    canon_header *hs = NULL;
    pm_buf creq, signed_names, sts, key;
    char creq_hash[65], date[9], sig[65];
    unsigned char k[32], mac[32];

    pm_buf_init(&creq, 0);
    pm_buf_init(&signed_names, 0);
    pm_buf_init(&sts, 0);
    pm_buf_init(&key, 0);
    if (!valid_date(in->amz_date))
        return PAIMON_EINVALID;
    memcpy(date, in->amz_date, 8);
    date[8] = '\0';

    if (in->header_count > 0 && (hs = pm_calloc(in->header_count, sizeof(*hs))) == NULL)
        return PAIMON_ENOMEM;
    for (size_t i = 0; i < in->header_count; i++) {
        const char *name = in->headers[2 * i];
        size_t n = strlen(name);
        if (n == 0) {
            rc = PAIMON_EINVALID;
            goto done;
        }
        if ((hs[i].name = pm_malloc(n + 1)) == NULL) {
            rc = PAIMON_ENOMEM;
            goto done;
        }
        for (size_t j = 0; j <= n; j++) {
            unsigned char c = (unsigned char)name[j];
            if (j < n && !is_token_char(c)) {
                rc = PAIMON_EINVALID;
                goto done;
            }
            hs[i].name[j] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
        hs[i].value = in->headers[2 * i + 1] != NULL ? in->headers[2 * i + 1] : "";
        hs[i].idx = i;
    }
    if (in->header_count > 1)
        qsort(hs, in->header_count, sizeof(*hs), header_cmp);

    PM_TRY(pm_buf_printf(&creq, "%s\n%s\n%s\n", in->method, in->canonical_uri,
                         in->canonical_query != NULL ? in->canonical_query : ""));
    for (size_t i = 0; i < in->header_count; i++) {
        bool repeat = i > 0 && strcmp(hs[i].name, hs[i - 1].name) == 0;
        if (repeat) {
            /* A repeated header is one line, its values joined by ',' (AWS's rule). */
            creq.len--; /* the '\n' of the previous line */
            PM_TRY(pm_buf_putc(&creq, ','));
        } else {
            PM_TRY(pm_buf_printf(&creq, "%s:", hs[i].name));
            PM_TRY(
                pm_buf_printf(&signed_names, "%s%s", signed_names.len == 0 ? "" : ";", hs[i].name));
        }
        PM_TRY(put_trimmed(&creq, hs[i].value));
        PM_TRY(pm_buf_putc(&creq, '\n'));
    }
    PM_TRY(pm_buf_printf(&creq, "\n%s\n%s", pm_buf_cstr(&signed_names), in->payload_hash));
    if (canonical != NULL)
        PM_TRY(pm_buf_append(canonical, creq.data, creq.len));

    pm_s3_sha256_hex(creq.data, creq.len, creq_hash);
    PM_TRY(pm_buf_printf(&sts, "AWS4-HMAC-SHA256\n%s\n%s/%s/%s/aws4_request\n%s", in->amz_date,
                         date, in->region, in->service, creq_hash));

    /* kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request") */
    PM_TRY(pm_buf_printf(&key, "AWS4%s", in->secret_key));
    PM_TRY(hmac(key.data, key.len, date, strlen(date), k));
    PM_TRY(hmac(k, 32, in->region, strlen(in->region), k));
    PM_TRY(hmac(k, 32, in->service, strlen(in->service), k));
    PM_TRY(hmac(k, 32, "aws4_request", 12, k));
    PM_TRY(hmac(k, 32, sts.data, sts.len, mac));
    hex_lower(mac, 32, sig);

    PM_TRY(pm_buf_printf(authorization,
                         "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request, "
                         "SignedHeaders=%s, Signature=%s",
                         in->access_key, date, in->region, in->service, pm_buf_cstr(&signed_names),
                         sig));
done:
    if (hs != NULL)
        for (size_t i = 0; i < in->header_count; i++)
            pm_free(hs[i].name);
    pm_free(hs);
    /* The derived key and the secret it came from are wiped, not just freed. */
    if (key.data != NULL)
        OPENSSL_cleanse(key.data, key.cap);
    OPENSSL_cleanse(k, sizeof(k));
    pm_buf_free(&key);
    pm_buf_free(&creq);
    pm_buf_free(&signed_names);
    pm_buf_free(&sts);
    return rc;
}

/*
 * AWS Signature Version 4 for S3, over OpenSSL libcrypto, and the encoders it rests on.
 *
 * Why not libcurl's CURLOPT_AWS_SIGV4: curl 7.88 neither sorts nor re-encodes the query
 * string and signs the path as given (../shared/spec/dependencies.md §7), so listings with
 * a prefix, `?delete` and keys with spaces would all be refused by a verifying server.
 * Here the client builds the canonical URI and the canonical query once, sends exactly
 * those bytes, and signs exactly those bytes.
 *
 * The canonical request (S3 API reference, "Signature Calculations for the Authorization
 * Header: Transferring Payload in a Single Chunk"):
 *
 *   METHOD \n
 *   canonical URI    the path, each byte but unreserved (A-Z a-z 0-9 - . _ ~) and '/' as
 *                    %XX (upper-case hex); S3 keys are encoded once, never twice
 *   canonical query  name=value pairs, both encoded ('/' too, as %2F), sorted by name then
 *                    value (byte order); a bare `?delete` is `delete=`
 *   headers          "name:value\n" each, names lower-cased, values trimmed with inner runs
 *                    of spaces collapsed, sorted by name
 *   \n signed headers the names joined by ';'
 *   payload hash     hex SHA-256 of the body (of "" for a bodiless request)
 *
 * Thread safety: every function is pure; call from any thread.
 */
#ifndef PM_IO_S3_SIGV4_H
#define PM_IO_S3_SIGV4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* Hex SHA-256 of the empty string: the payload hash of a bodiless request. */
#define PM_S3_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/* Lower-case hex SHA-256 of `len` bytes into out (64 characters and a NUL). */
void pm_s3_sha256_hex(const void *data, size_t len, char out[65]);

/* Base64 of the MD5 of `len` bytes into out (24 characters and a NUL): the Content-MD5
 * header that S3 requires on a batch delete (POST ?delete). */
void pm_s3_md5_base64(const void *data, size_t len, char out[25]);

/* Appends `len` bytes of `s` percent-encoded as RFC 3986 says: unreserved bytes as they
 * are, '/' as it is unless `encode_slash`, everything else %XX.  0, PAIMON_ENOMEM or
 * PAIMON_ELIMIT (the buffer's own). */
int pm_s3_uri_encode(pm_buf *out, const char *s, size_t len, bool encode_slash);

/* Appends the canonical query string of `query_count` name/value pairs (query[2*i] is a
 * name, query[2*i+1] its value, NULL taken as ""): encoded, sorted, joined by '&'.  The
 * same string is sent in the URL, so what is signed is what is sent. */
int pm_s3_canonical_query(pm_buf *out, const char *const *query, size_t query_count);

/* "YYYYMMDDTHHMMSSZ" of a UTC instant in seconds (x-amz-date). */
void pm_s3_amz_date(int64_t epoch_seconds, char out[17]);

/* What one signature covers.  Every header in `headers` is signed; the caller includes
 * host, x-amz-content-sha256 and x-amz-date (and x-amz-security-token with a session
 * token), as S3 requires, with values exactly as sent. */
typedef struct pm_s3_sign_input {
    const char *method;          /* "GET", "PUT", ... */
    const char *canonical_uri;   /* already encoded (pm_s3_uri_encode), starts with '/' */
    const char *canonical_query; /* already canonical (pm_s3_canonical_query), or "" */
    const char *const *headers;  /* name, value pairs as sent */
    size_t header_count;         /* pairs */
    const char *payload_hash;    /* hex SHA-256 of the body, or "UNSIGNED-PAYLOAD" */
    const char *amz_date;        /* the x-amz-date value, "YYYYMMDDTHHMMSSZ" */
    const char *region;          /* "us-east-1" */
    const char *service;         /* "s3" */
    const char *access_key;
    const char *secret_key;
} pm_s3_sign_input;

/* Appends the Authorization header's value to `authorization`
 * ("AWS4-HMAC-SHA256 Credential=AK/20130524/us-east-1/s3/aws4_request,
 * SignedHeaders=..., Signature=..."); when `canonical` is not NULL the canonical request
 * is appended to it too (for tests and for debugging a SignatureDoesNotMatch).
 * 0, PAIMON_ENOMEM, PAIMON_ELIMIT, or PAIMON_EINVALID for a malformed input (a header
 * name with a character outside a token, a date of the wrong shape). */
int pm_s3_sign(pm_buf *authorization, pm_buf *canonical, const pm_s3_sign_input *in);

#endif /* PM_IO_S3_SIGV4_H */

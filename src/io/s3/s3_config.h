/*
 * How to reach an S3-compatible store: endpoint, region, credentials and the tuning knobs of
 * the S3 file system, resolved once when the file system is made.
 *
 * Precedence (issue 14, as Java Paimon's S3 FileIO and the AWS SDKs do it):
 *   1. the settings given for this run (`--option s3.*=...`, paimon_storage_set()), under
 *      Java Paimon's names: `s3.endpoint`, `s3.access-key`, `s3.secret-key`, `s3.region`,
 *      `s3.path.style.access`, and the other `s3.*` keys listed in s3_config.c (Java maps
 *      `s3.x` to Hadoop S3A's `fs.s3a.x`, so the tuning names follow S3A's);
 *   2. the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
 *      AWS_REGION / AWS_DEFAULT_REGION, AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL;
 *   3. AWS_PROFILE (default "default") in ~/.aws/credentials and ~/.aws/config
 *      (AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE move them).
 * An endpoint whose host is an IP address or `localhost` implies path-style addressing.
 * An endpoint on aliyuncs.com is Alibaba OSS: commits use `x-oss-forbid-overwrite: true`.
 *
 * Credentials never appear in an error message, a log line or pm_s3_config_describe().
 */
#ifndef PM_IO_S3_CONFIG_H
#define PM_IO_S3_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "util/buf.h"
#include "util/error.h" /* PM_MUST_CHECK */
#include "util/options.h"

/* How a commit creates `snapshot-N` so that two writers never both win one id. */
typedef enum pm_s3_commit_mode {
    PM_S3_COMMIT_IF_NONE_MATCH, /* PUT with `If-None-Match: *`; 412 = taken (AWS, MinIO) */
    PM_S3_COMMIT_OSS_FORBID,    /* PUT with `x-oss-forbid-overwrite: true`; 409 = taken */
    PM_S3_COMMIT_SINGLE_WRITER  /* store without conditional writes: check, PUT, read back;
                                     safe for one writer only (docs/OBJECT-STORAGE.md) */
} pm_s3_commit_mode;

typedef struct pm_s3_config {
    char *endpoint;   /* "http[s]://host[:port]" without a trailing '/'; never NULL after
                            load (AWS: https://s3.<region>.amazonaws.com) */
    char *region;     /* never NULL after load ("us-east-1" when nothing says) */
    char *access_key; /* NULL with secret_key NULL: anonymous, requests go unsigned */
    char *secret_key;
    char *session_token; /* NULL or sent as x-amz-security-token */
    bool path_style;     /* http://host/bucket/key rather than http://bucket.host/key */
    pm_s3_commit_mode commit_mode;
    size_t part_size;           /* s3.multipart.size: multipart part bytes (>= 5 MiB) */
    size_t multipart_threshold; /* s3.multipart.threshold: files above go multipart */
    int max_attempts;           /* s3.attempts.maximum: tries per request, >= 1 */
    int64_t retry_base_ms;      /* s3.retry.interval: first backoff, doubled with jitter */
    int64_t retry_max_ms;       /* s3.retry.max-interval: backoff ceiling */
    int64_t connect_timeout_ms; /* s3.connection.establish.timeout */
    int64_t request_timeout_ms; /* s3.connection.timeout: no byte moved for this long */
    int max_connections;        /* s3.connection.maximum: parallel requests of one fs */
    size_t readahead;           /* s3.readahead.range: bytes fetched beyond a small read */
    size_t coalesce_gap;        /* s3.coalesce.gap: ranges closer than this are fetched as one */
    size_t prefetch_block;      /* s3.prefetch.block.size: bytes of one read-ahead GET */
    int prefetch_blocks;        /* s3.prefetch.block.count: blocks read ahead of a stream */
    int upload_active;          /* s3.fast.upload.active.blocks: parts uploading at once */
} pm_s3_config;

/* Resolves the configuration from `settings` (may be NULL), the environment and ~/.aws.
 * An unknown `s3.*` key or a malformed value is PAIMON_EINVALID naming the key (never the
 * value of a credential).  On failure *c is left freed. */
PM_MUST_CHECK int pm_s3_config_load(pm_s3_config *c, const pm_options *settings, paimon_error *err);
PM_MUST_CHECK int pm_s3_config_copy(pm_s3_config *dst, const pm_s3_config *src);
void pm_s3_config_free(pm_s3_config *c);

/* Runs a profile's `credential_process` `command` and reads its Version 1 JSON
 * (s3_credential_process.c): fresh strings (caller frees; *session_token NULL when the
 * output has none).  PAIMON_EINVALID "AWS profile credential_process: ..." when it fails or
 * prints something else; the output is never quoted. */
PM_MUST_CHECK int pm_s3_credential_process(const char *command, char **access_key,
                                           char **secret_key, char **session_token,
                                           paimon_error *err);

/* True for the settings keys this layer reads (`s3.` prefix); what the CLI routes here. */
bool pm_s3_config_is_key(const char *key);
/* True when `key` names a credential whose value must never be printed. */
bool pm_s3_config_is_secret(const char *key);

/* Appends the resolved configuration as one line of `key=value` pairs under the settings'
 * names, for logs and error context: credentials appear as "set" or "anonymous", never
 * their values.  0 or PAIMON_ENOMEM / PAIMON_ELIMIT (the buffer's). */
PM_MUST_CHECK int pm_s3_config_describe(const pm_s3_config *c, pm_buf *out);

#endif /* PM_IO_S3_CONFIG_H */

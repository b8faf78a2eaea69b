/*
 * paimon-c: where tables live, and the settings that reach them.
 *
 * Every function that takes a table or file path (paimon_table_open, paimon_table_create,
 * paimon_table_alter, paimon_file_open, paimon_path_exists, ...) accepts:
 *   - a local path (`/data/wh/db.db/t`, `wh/t`) or a `file:` URI (`file:///data/t`);
 *   - `s3://BUCKET/PATH` (or `s3a://`) on AWS S3 or any S3-compatible store (MinIO, Alibaba
 *     OSS through its S3 endpoint, ...), configured as below;
 * and refuses any other scheme (`gs://`, `oss://`, `hdfs://`, `S3://`, a typo such as
 * `s3:/bucket`) with PAIMON_EUNSUPPORTED or PAIMON_EINVALID naming it, never creating a
 * local folder of that name.
 *
 * Storage settings are process-wide `key=value` pairs under Java Paimon's names
 * (`s3.endpoint`, `s3.access-key`, `s3.secret-key`, `s3.session.token`, `s3.region`,
 * `s3.path.style.access`, and the tuning keys of docs/OBJECT-STORAGE.md).  They take
 * precedence over the standard AWS environment (AWS_ACCESS_KEY_ID, AWS_REGION,
 * AWS_ENDPOINT_URL, ...) and ~/.aws, which apply where no setting says otherwise.  A table's
 * own options cannot configure the store it lives on (they are read from that store), which
 * is why these settings exist: the `paimon` command's `--option s3.KEY=VALUE` sets them for
 * one run.
 *
 *   paimon_storage_set("s3.endpoint", "http://127.0.0.1:9000", &err);
 *   paimon_storage_set("s3.access-key", key, &err);
 *   paimon_storage_set("s3.secret-key", secret, &err);
 *   paimon_table_open(&t, "s3://warehouse/db.db/orders", &err);
 *
 * The settings are read when a function makes its file system: a table handle keeps the
 * settings it was opened with; settings changed later apply to handles opened later.
 * Credential values (s3.access-key, s3.secret-key, s3.session.token) never appear in an
 * error message, and `paimon inspect options` and `$options` print such table options as
 * `******`.
 *
 * Thread safety: every function here may be called from any thread at any time; the
 * settings are guarded by one process-wide mutex, and each file system is made from a
 * consistent copy of them.
 */
#ifndef PAIMON_STORAGE_H
#define PAIMON_STORAGE_H

#include <stdbool.h>

#include "paimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets storage setting `key` to `value` (copied), or removes it when `value` is NULL.  A key
 * paimon-c does not know (`s3.bogus`, anything outside `s3.*`) is PAIMON_EINVALID naming
 * it; nothing is changed then.  A value is checked when a file system is made from it (a
 * malformed one is then PAIMON_EINVALID naming the key, never a credential's value). */
PAIMON_API int paimon_storage_set(const char *key, const char *value, paimon_error *err);

/* Removes every storage setting. */
PAIMON_API void paimon_storage_reset(void);

/* Whether a setting key is a credential, whose value is never printed: `s3.access-key`,
 * `s3.secret-key`, `s3.session.token`.  What a program that shows options should mask. */
PAIMON_API bool paimon_storage_is_secret(const char *key);

/* Whether anything (a file or a directory: a local directory, or an S3 prefix holding
 * objects) exists at `path`, through the file system its scheme names.  What decides that
 * `TABLE$files` names a system table rather than a file of that name. */
PAIMON_API int paimon_path_exists(const char *path, bool *exists, paimon_error *err);

#ifdef __cplusplus
}
#endif

#endif /* PAIMON_STORAGE_H */

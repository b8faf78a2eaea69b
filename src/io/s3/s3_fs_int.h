/*
 * What the files of the S3 file system share (s3_fs.c: the pm_fs ops and the commit
 * primitive; s3_input.c: reads; s3_output.c: uploads; s3_list.c: listing and batch delete).
 * Not a public interface: everything above io/ sees only pm_fs (io/fs.h).
 *
 * Paths are `s3://bucket/key` or `s3a://bucket/key`.  A path is split once into bucket and
 * key (pm_s3_path_split); keys are never percent-encoded here (the signer does it).
 * "Directories" are key prefixes: `dir` names the keys under `dir/`.
 */
#ifndef PM_IO_S3_FS_INT_H
#define PM_IO_S3_FS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/fs.h"
#include "io/s3/s3_client.h"
#include "util/strlist.h"

typedef struct pm_s3_fs {
    pm_fs base;              /* must stay first: the pm_fs handed out */
    pm_s3_client *client;    /* owned; thread-safe, shared by every input and output */
    const pm_s3_config *cfg; /* borrowed from the client */
} pm_s3_fs;

/* A path split into its parts: `bucket` and `key` point into `buf` (owned). */
typedef struct pm_s3_path {
    char *buf;          /* owned: "bucket\0key" */
    const char *bucket; /* never empty */
    const char *key;    /* never empty, no leading '/', trailing '/' removed */
} pm_s3_path;

/* Splits `path` (s3:// or s3a://).  PAIMON_EINVALID for another scheme, an empty bucket or
 * an empty key; PAIMON_ENOMEM.  Caller owns `*p`; release with pm_s3_path_free(). */
PM_MUST_CHECK int pm_s3_path_split(pm_s3_path *p, const char *path, paimon_error *err);
void pm_s3_path_free(pm_s3_path *p);

/* GET of a whole object into `*out` (pm_malloc, caller frees), `*len` its size.  404 is
 * PAIMON_ENOTFOUND (*out NULL); other failures are the status error. */
PM_MUST_CHECK int pm_s3_get_object(pm_s3_fs *fs, const char *bucket, const char *key, uint8_t **out,
                                   size_t *len, paimon_error *err);

/* HEAD of an object: *kind 1 with its size and Last-Modified (NULL: not wanted) when it
 * exists, 0 on 404; other statuses are the status error. */
PM_MUST_CHECK int pm_s3_head(pm_s3_fs *fs, const pm_s3_path *p, int *kind, uint64_t *size,
                             int64_t *mtime_ms, paimon_error *err);

/* After a refused conditional write whose first attempt may have landed (maybe_landed):
 * *ours is true when the object holds exactly `data`; our own write landing, not another
 * writer's (a missing object is not ours either). */
PM_MUST_CHECK int pm_s3_landed_ours(pm_s3_fs *fs, const pm_s3_path *p, const void *data, size_t len,
                                    bool *ours, paimon_error *err);

/* The conditional header of a create-if-absent write in this file system's commit mode
 * ("If-None-Match: *" or OSS's "x-oss-forbid-overwrite: true") as a name/value pair, and the
 * status that then means "the name is taken" (412, 409); NULL and 0 in single-writer mode,
 * where no header helps. */
const char *const *pm_s3_create_header(const pm_s3_fs *fs, long *taken);

/* The pm_fs ops implemented outside s3_fs.c. */
PM_MUST_CHECK int pm_s3_fs_open(pm_fs *fs, const char *path, pm_input **out, paimon_error *err);
PM_MUST_CHECK int pm_s3_fs_create(pm_fs *fs, const char *path, pm_output **out, paimon_error *err);
PM_MUST_CHECK int pm_s3_fs_list(pm_fs *fs, const char *dir, pm_strlist *names, paimon_error *err);
PM_MUST_CHECK int pm_s3_fs_remove_many(pm_fs *fs, const char *const *paths, size_t count,
                                       paimon_error *err);

/* ListObjectsV2 of `prefix` (complete key prefix, '/'-terminated for a directory) with
 * delimiter '/': appends to `names` what follows the prefix (objects, and common prefixes
 * without their trailing '/'); an object named exactly `prefix` (a directory marker) is
 * not a name.  At most `limit` keys (0: all, following continuation tokens).  `*any` is
 * set when at least one key (marker included) lies under the prefix.  `names` may be NULL
 * to test for presence only. */
PM_MUST_CHECK int pm_s3_list_prefix(pm_s3_fs *fs, const char *bucket, const char *prefix,
                                    size_t limit, pm_strlist *names, bool *any, paimon_error *err);

#endif /* PM_IO_S3_FS_INT_H */

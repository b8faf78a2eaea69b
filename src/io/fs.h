/*
 * The file-system interface: one struct of function pointers (Redis' rio), so that tables
 * can live on a local disk, in memory (tests), behind a fault injector (crash tests) and,
 * later, on object storage.
 *
 * Paths are full paths or URIs as the table root gives them; directories are separated by
 * '/'.  A backend needs to provide exactly these primitives; whole-file and ranged reads,
 * path joins and "write a small file" are helpers on top (pm_fs_read_all, …).
 *
 * Contracts every backend keeps:
 *  - create() makes a new file and fails with PAIMON_EEXISTS if one exists (S3: close()
 *    does, from the conditional upload, saving a request per file); the data is
 *    visible under its final name only after the output's close() succeeded (local: written
 *    in place, removed on abort; a reader never relies on a data file before the snapshot
 *    naming it is committed, DESIGN.md invariant 1).
 *  - write_atomic(…, overwrite=false) is the commit primitive: the file appears complete or
 *    not at all, and PAIMON_EEXISTS is returned if the name was taken, even by a concurrent
 *    process (local: temporary file + link(2)).  overwrite=true replaces atomically (hints).
 *  - missing files and directories are PAIMON_ENOTFOUND; every message names the path.
 *  - parent directories are created as needed by create() and write_atomic().
 *
 * Thread safety: a pm_fs may be shared by threads; a pm_input or pm_output by one at a time.
 */
#ifndef PM_IO_FS_H
#define PM_IO_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "paimon/error.h"
#include "util/options.h"
#include "util/strlist.h"
#include "util/error.h"

typedef struct pm_fs pm_fs;
typedef struct pm_input pm_input;
typedef struct pm_output pm_output;

/* A byte range of a file. */
typedef struct pm_range {
    uint64_t off;
    uint64_t len;
} pm_range;

/* A file open for reading. */
struct pm_input {
    /* Reads exactly `len` bytes at `off` into `dst`; a short file is PAIMON_ECORRUPT. */
    int (*read_at)(pm_input *in, uint64_t off, size_t len, uint8_t *dst, paimon_error *err);
    /* Optional (NULL: nothing to gain, as on a local disk): the caller is about to read these
     * ranges (the column chunks a Parquet or ORC reader needs).  A remote backend fetches them
     * now, near ranges coalesced and all in parallel, so that the read_at() calls that follow
     * are served from memory.  Call it through pm_input_prefetch(). */
    int (*prefetch)(pm_input *in, const pm_range *ranges, size_t count, paimon_error *err);
    void (*close)(pm_input *in); /* releases the input */
    uint64_t size;               /* file size in bytes, known at open */
    const char *path;            /* borrowed from the input itself, for messages */
};

/* A new file being written. */
struct pm_output {
    int (*write)(pm_output *out, const void *data, size_t len, paimon_error *err);
    /* Flushes and finishes the file; releases the output whether or not it succeeds (on
     * failure the partial file is removed). */
    int (*close)(pm_output *out, paimon_error *err);
    /* Removes the partial file and releases the output. */
    void (*abort)(pm_output *out);
    /* Optional (NULL: write in order), for bytes whose order in the file is known before
     * their offsets are (a Parquet row group's column chunks, each growing page by page while
     * the others do).  segments_begin(out, n, max_bytes) opens n segments that follow the
     * bytes written so far, which will hold at most about max_bytes in all (0: unknown; a
     * hint to plan with, not a limit); segment_write(out, k, ...) appends to segment k, in
     * any interleaving of the k; segments_end(out) places them one after the other, exactly as if their bytes had been
     * written in segment order, and pos moves past them.  No write() between begin and end.
     * A backend offers them when it can send a segment's bytes before the segments before it
     * are complete (S3: multipart parts numbered within a range reserved for each segment),
     * so that a file's upload overlaps its encoding.  On failure, abort() the output. */
    int (*segments_begin)(pm_output *out, size_t count, uint64_t max_bytes, paimon_error *err);
    int (*segment_write)(pm_output *out, size_t seg, const void *data, size_t len,
                         paimon_error *err);
    int (*segments_end)(pm_output *out, paimon_error *err);
    uint64_t pos;     /* bytes written so far: the exact size once closed */
    const char *path; /* borrowed from the output itself, for messages */
};

struct pm_fs {
    const char *name; /* "local", "memory", "fault", "s3" */
    int (*open)(pm_fs *fs, const char *path, pm_input **out, paimon_error *err);
    int (*create)(pm_fs *fs, const char *path, pm_output **out, paimon_error *err);
    int (*write_atomic)(pm_fs *fs, const char *path, const void *data, size_t len, bool overwrite,
                        paimon_error *err);
    /* Names (not paths) of the entries of `dir`, unsorted; files and directories alike. */
    int (*list)(pm_fs *fs, const char *dir, pm_strlist *names, paimon_error *err);
    /* A file, or a directory only when it has no entries (never recursive: a directory
     * with entries fails, PAIMON_EIO on local and memory). */
    int (*remove)(pm_fs *fs, const char *path, paimon_error *err);
    /* *kind: 0 absent, 1 file, 2 directory. */
    int (*stat)(pm_fs *fs, const char *path, int *kind, uint64_t *size, paimon_error *err);
    int (*mkdirs)(pm_fs *fs, const char *path, paimon_error *err);
    void (*destroy)(pm_fs *fs);
    /* The last modification time of a file in epoch milliseconds (Java's
     * FileStatus.getModificationTime, what consumer expiration and orphan removal compare);
     * PAIMON_ENOTFOUND when it is absent. */
    int (*mtime)(pm_fs *fs, const char *path, int64_t *ms, paimon_error *err);
    /* Optional (NULL: one remove() per path): removes these files in as few requests as
     * the backend can (S3: batch delete, up to 1000 keys per request).  Files only; a file
     * already absent is not an error.  Call it through pm_fs_remove_many(). */
    int (*remove_many)(pm_fs *fs, const char *const *paths, size_t count, paimon_error *err);
    /* Optional (NULL: stat()): whether `path` is a file, asking nothing about directories
     * (S3: one HEAD, where stat() of a missing key also lists to look for a "directory").
     * Call it through pm_fs_exists_file(). */
    int (*file_exists)(pm_fs *fs, const char *path, bool *exists, paimon_error *err);
    /* What the layers above remember of what they read through this file system, so that
     * one command reads a table's metadata once (meta/schema.c: the latest schema of each
     * table root; issue 14's request budget).  NULL until used; owned by the file system:
     * pm_fs_free releases it with memo_free.  Only meta/ sets it, under its own lock. */
    void *memo;
    void (*memo_free)(void *memo);
};

/* ---- backends -------------------------------------------------------------------------- */

/* The local file system.  `sync` makes outputs and atomic writes fsync before they finish. */
pm_fs *pm_fs_local_new(bool sync);

/* An in-memory file system for tests. */
pm_fs *pm_fs_memory_new(void);

/* Fault injection around `inner` (takes ownership of it).  Every primitive, and every
 * pm_output write and close, is one operation.  When operation number `fail_at` (1-based)
 * comes, it fails with PAIMON_EIO (mode FAIL) or ends the process with exit code
 * PM_FS_HALT_EXIT after writing half of a write's bytes (mode HALT); 0 never fails. */
typedef enum pm_fault_mode { PM_FAULT_FAIL, PM_FAULT_HALT } pm_fault_mode;
#define PM_FS_HALT_EXIT 77
pm_fs *pm_fs_fault_new(pm_fs *inner, long fail_at, pm_fault_mode mode);
/* Operations counted so far. */
long pm_fs_fault_count(const pm_fs *fs);
/* Makes every change (create, atomic write, remove, mkdirs) of a path starting with
 * `prefix` fail with PAIMON_EIO "PATH: OP: Permission denied", as a read-only directory
 * refuses it (reads and listings go through); NULL lifts it.  PAIMON_ENOMEM only. */
int pm_fs_fault_deny(pm_fs *fs, const char *prefix);
/* Changes refused by the denial so far. */
long pm_fs_fault_denied(const pm_fs *fs);

/* S3 and S3-compatible stores (src/io/s3/): paths are `s3://bucket/key` (or `s3a://`).
 * `settings` (may be NULL) are the run's `s3.*` settings; see io/s3/s3_config.h for how they,
 * the environment and ~/.aws resolve.  PAIMON_EINVALID on a bad setting. */
PM_MUST_CHECK int pm_fs_s3_new(pm_fs **out, const pm_options *settings, paimon_error *err);

/* The file system for a table root or file path: a path without a scheme (or `file:`) is
 * local, `s3://` and `s3a://` are S3; any other scheme is PAIMON_EUNSUPPORTED naming it
 * ("hdfs://nn/t: unsupported file system scheme 'hdfs' (paimon-c supports local paths and
 * s3://)"), never a local folder named after it.  `sync` as in pm_fs_local_new(). */
PM_MUST_CHECK int pm_fs_for_path(pm_fs **out, const char *path, const pm_options *settings,
                                 bool sync, paimon_error *err);

/* The local path a `file:` URI names (`file:///a/b` and `file:/a/b` are `/a/b`); any other
 * path is returned as it is.  Borrowed: a pointer into `path`. */
const char *pm_fs_local_path(const char *path);

/* ---- helpers --------------------------------------------------------------------------- */

/* in->prefetch when the backend has one; 0 otherwise. */
PM_MUST_CHECK int pm_input_prefetch(pm_input *in, const pm_range *ranges, size_t count,
                                    paimon_error *err);

void pm_fs_free(pm_fs *fs);

/* Removes the files `paths[0..count)`: fs->remove_many when the backend has one, otherwise
 * fs->remove one by one.  A file already absent is not an error; the first other failure
 * stops it (files before it are gone). */
PM_MUST_CHECK int pm_fs_remove_many(pm_fs *fs, const char *const *paths, size_t count,
                                    paimon_error *err);

/* Reads a whole file into a fresh pm_malloc buffer (NUL-terminated for convenience; `*len`
 * excludes the NUL).  Files larger than `max` bytes fail with PAIMON_ELIMIT (0: no limit). */
PM_MUST_CHECK int pm_fs_read_all(pm_fs *fs, const char *path, size_t max, uint8_t **out,
                                 size_t *len, paimon_error *err);

/* Reads `len` bytes at `off`. */
PM_MUST_CHECK int pm_fs_read_range(pm_fs *fs, const char *path, uint64_t off, size_t len,
                                   uint8_t *dst, paimon_error *err);

/* Writes a complete new file with create() (PAIMON_EEXISTS when present). */
PM_MUST_CHECK int pm_fs_write_file(pm_fs *fs, const char *path, const void *data, size_t len,
                                   paimon_error *err);

PM_MUST_CHECK int pm_fs_exists(pm_fs *fs, const char *path, bool *exists, paimon_error *err);
/* Whether `path` is a file (a directory of that name counts as absent): fs->file_exists
 * when the backend has one (one request on S3 instead of stat's two for a missing key),
 * else stat(). */
PM_MUST_CHECK int pm_fs_exists_file(pm_fs *fs, const char *path, bool *exists, paimon_error *err);
PM_MUST_CHECK int pm_fs_size(pm_fs *fs, const char *path, uint64_t *size, paimon_error *err);

/* A view of bytes [off, off + len) of `inner` as a file of its own: reads at 0 read `inner`
 * at `off`, size is `len`, and messages name `path` (copied).  The range must lie within
 * `inner` (PAIMON_ECORRUPT naming `path` and inner's path otherwise).  Takes ownership of
 * `inner`, also on failure; caller owns `*out` (release with its close()). */
PM_MUST_CHECK int pm_input_slice(pm_input **out, pm_input *inner, uint64_t off, uint64_t len,
                                 const char *path, paimon_error *err);

/* "a" + "/" + "b" without doubling slashes; NULL on allocation failure.  Release with
 * pm_free. */
char *pm_path_join(const char *dir, const char *name);

#endif /* PM_IO_FS_H */

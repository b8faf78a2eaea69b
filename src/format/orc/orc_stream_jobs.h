/*
 * The streams of an ORC stripe decompressed at once on a thread pool (orc_reader.h,
 * pm_orc_read_options.pool): what "column chunks decompressed in parallel within one file"
 * is for ORC, where a stripe's streams are each decompressed whole before its rows decode.
 *
 * The reader lists the streams it is about to decompress, in the order it would decompress
 * them in place (column by column, PRESENT, DATA, LENGTH, SECONDARY, DICTIONARY_DATA),
 * has their `total` compressed bytes (held at once; never more than the stripe, whose
 * streams lie back to back inside it), reads them into `raw` with
 * pm_orc_stream_jobs_read() -- on its own thread, since an input is used by one thread at
 * a time; a read that fails stays with its job -- and pm_orc_stream_jobs_run() then has up
 * to one task per pool thread take streams in that order and decompress each into its
 * column reader's buffer with pm_orc_decompress() -- the same call, arguments and message
 * as in place, with a codec state of the task's own -- and returns once all are done.
 *
 * What a task decides: nothing.  Each stream keeps its own code and message; the reader
 * looks at them in its own order as it sets the columns up, so a stripe with a corrupt
 * stream fails with the message, and at the column, that reading in place gives.
 *
 * What holds: a job's `dst`, `rc` and `err` are written by the one task that took it, and
 * read by the reader's thread only after pm_orc_stream_jobs_run() has returned (it waits
 * for every task); the jobs, `raw` and the destinations do not change while it runs.
 */
#ifndef PM_FORMAT_ORC_STREAM_JOBS_H
#define PM_FORMAT_ORC_STREAM_JOBS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "format/orc/orc_column.h"
#include "format/orc/orc_stream.h"
#include "io/fs.h"
#include "util/buf.h"
#include "util/compress.h"
#include "util/error.h"
#include "util/pool.h"

typedef struct pm_orc_stream_job {
    size_t raw_off;   /* its compressed bytes: raw[raw_off, + len) */
    size_t len;       /* compressed length */
    uint64_t off;     /* their offset in the file (for messages and the chunk map) */
    char what[64];    /* "DATA stream of column 3", as in place */
    pm_orc_sbuf *dst; /* where it is decompressed (buf and map, emptied first) */
    int rc;           /* of its decompression; set before the run: its read failed, skipped */
    paimon_error err;
} pm_orc_stream_job;

typedef struct pm_orc_stream_jobs {
    pm_orc_stream_job *jobs;
    size_t count, cap;
    uint64_t total;                         /* the compressed bytes of every job (saturates) */
    pm_buf raw;                             /* ... read, one after another */
    pm_codec_ctx *ctx[PM_POOL_MAX_THREADS]; /* one per task, kept from stripe to stripe */
    int64_t on_pool; /* streams decompressed by pm_orc_stream_jobs_run, in all */
    /* while running */
    const pm_orc_codec *codec;
    const char *path;
    atomic_size_t next; /* the next job to take */
} pm_orc_stream_jobs;

void pm_orc_stream_jobs_init(pm_orc_stream_jobs *j);

/* Empties the list for the next stripe (keeps the memory and the codec states). */
void pm_orc_stream_jobs_reset(pm_orc_stream_jobs *j);

/* Adds a job for the `len` bytes at file offset `off`, to be decompressed into `dst`;
 * `what` names the stream in messages.  0 or PAIMON_ENOMEM. */
PM_MUST_CHECK int pm_orc_stream_jobs_add(pm_orc_stream_jobs *j, uint64_t off, size_t len,
                                         const char *what, pm_orc_sbuf *dst, paimon_error *err);

/* Reads every job's compressed bytes from `in` into `raw` (one allocation of `total`);
 * a job whose read fails keeps that failure as its rc and is not decompressed.  0, or
 * PAIMON_ENOMEM when `total` bytes cannot be held. */
PM_MUST_CHECK int pm_orc_stream_jobs_read(pm_orc_stream_jobs *j, pm_input *in, paimon_error *err);

/* Decompresses every job with `codec`'s kind and block size on up to
 * pm_pool_threads(pool) tasks (the caller's thread runs any no worker took).  0, or
 * PAIMON_ENOMEM when no codec state could be made; each job's own failure is in its rc. */
PM_MUST_CHECK int pm_orc_stream_jobs_run(pm_orc_stream_jobs *j, const pm_orc_codec *codec,
                                         const char *path, pm_pool *pool, paimon_error *err);

void pm_orc_stream_jobs_free(pm_orc_stream_jobs *j);

#endif /* PM_FORMAT_ORC_STREAM_JOBS_H */

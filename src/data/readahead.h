/*
 * One source of batches read ahead on the thread pool (util/pool.h): while the caller works
 * on a batch, a task decodes the next ones.  This is how a merged split spreads its work
 * over cores (DESIGN.md "Threads"): each sorted run's file reader (Parquet decompression and
 * decoding) is read ahead while the merge consumes the run's current batch, so one split
 * keeps more than one core busy without holding more than a few batches per run.
 *
 * The batches come out exactly as reading the source on the caller's thread gives them, in
 * order, each with the `tag` the source had just after yielding it (a sorted run's level
 * follows the file being read: the tag keeps it with its batch).
 *
 * Memory: at most `depth` batches read ahead (1 to PM_READAHEAD_MAX).  One task at a time
 * reads the source, on a worker or, when none has taken it yet, on the caller's thread (the
 * pool's waiting rule), so a busy pool cannot deadlock and the source is read by one thread
 * at a time.  A task never blocks on the caller: it stops when the queue is full.
 *
 * Errors: a failure of the source ends the stream with its code and message, unchanged,
 * after the batches read before it; every later call returns it again.
 *
 * Thread safety: `next` and `tag` are called on pool threads, one call at a time; the
 * read-ahead itself is used by one thread at a time.
 */
#ifndef PM_DATA_READAHEAD_H
#define PM_DATA_READAHEAD_H

#include <stdint.h>

#include "data/batch.h"
#include "util/error.h"
#include "util/pool.h"

#define PM_READAHEAD_MAX 16

typedef struct pm_readahead pm_readahead;

/* The next batch of the source (caller owns it); PAIMON_ITEROVER at the end. */
typedef int (*pm_readahead_next_fn)(void *ctx, pm_batch **out, paimon_error *err);
/* The source's tag right after it yielded a batch (NULL: tags are 0). */
typedef int64_t (*pm_readahead_tag_fn)(void *ctx);

/* Starts reading `ctx` ahead on `pool` (not NULL), `depth` batches at most (clamped to 1 ..
 * PM_READAHEAD_MAX).  `ctx` is borrowed: the caller releases it after pm_readahead_free(). */
PM_MUST_CHECK int pm_readahead_new(pm_readahead **out, pm_readahead_next_fn next,
                                   pm_readahead_tag_fn tag, void *ctx, pm_pool *pool, size_t depth,
                                   paimon_error *err);

/* The next batch (caller owns it) and its tag (`tag` may be NULL); PAIMON_ITEROVER at the
 * end; the source's failure as it gave it. */
PM_MUST_CHECK int pm_readahead_next(pm_readahead *ra, pm_batch **out, int64_t *tag,
                                    paimon_error *err);

/* Stops the reads, waits for the task in flight and frees every batch read ahead.  NULL is
 * allowed.  After it returns no thread touches the source any more. */
void pm_readahead_free(pm_readahead *ra);

#endif /* PM_DATA_READAHEAD_H */

/*
 * Several batch sources read at once on the thread pool (util/pool.h), their batches
 * returned in source order: every batch of source 0, then of source 1, and so on -- exactly
 * the batches, and in exactly the order, that reading the sources one after another on one
 * thread gives.  This is how a scan reads its splits in parallel (DESIGN.md "Threads").
 *
 * Memory stays bounded: at most `window` sources are open at once (the one being returned
 * and those after it), each with at most PM_PARALLEL_QUEUE batches read ahead; a source is
 * opened, on a worker, only when it enters the window.  At most `threads` tasks read at once
 * (the source being returned may add one, so the caller never waits on a full pool).
 *
 * Errors: a source that fails to open or to read ends the stream there, with its error, once
 * the batches of the sources before it have been returned; what later sources met is never
 * reported, so the error is the one a sequential read would give.
 *
 * Thread safety: `open` is called on pool threads, several at once (for different indexes),
 * and each opened source is read by one thread at a time; the stream itself is read by one
 * thread at a time.
 */
#ifndef PM_DATA_PARALLEL_SOURCE_H
#define PM_DATA_PARALLEL_SOURCE_H

#include <stddef.h>

#include "data/arrow_stream.h"
#include "util/error.h"
#include "util/pool.h"

/* Batches read ahead per source. */
#define PM_PARALLEL_QUEUE 4

/* Opens source `idx` into `*out` (the caller of the stream releases it through
 * out->release); 0 or a PAIMON_E* code. */
typedef int (*pm_source_open_fn)(void *ctx, size_t idx, pm_batch_source *out, paimon_error *err);

/* Makes `out` a source over sources 0..count-1 opened by open(ctx, i), of row type `type`
 * (borrowed; must outlive `out`), read on `pool` (not NULL) by up to `threads` tasks with
 * up to `window` sources open.  `ctx` is borrowed until out->release.  Releasing `out` early
 * stops the reads, waits for the tasks in flight and releases everything read ahead. */
PM_MUST_CHECK int pm_parallel_source_new(pm_batch_source *out, const pm_type *type, size_t count,
                                         pm_source_open_fn open, void *ctx, pm_pool *pool,
                                         size_t threads, size_t window, paimon_error *err);

/* The one rule of the readers that take a thread count (paimon_scan_options.threads and its
 * peers): `threads` 0 means the processors online; with more than one source and more than
 * one thread, `out` becomes a parallel source on the process's pool (pm_pool_shared()) with
 * a window of 2 x threads sources; otherwise out->ctx stays NULL and the caller reads the
 * sources one after another itself, on its own thread, as before threads existed. */
PM_MUST_CHECK int pm_parallel_source_open(pm_batch_source *out, const pm_type *type, size_t count,
                                          pm_source_open_fn open, void *ctx, unsigned int threads,
                                          paimon_error *err);

/* pm_parallel_source_open for sources that spread their own work over the pool (a scan's
 * split reads, which decode their files ahead: data/readahead.h): the same rule, with a
 * window of threads / 2 sources (at least 1).  Each open source then keeps about two
 * threads busy by itself, and every source open ahead holds its file readers' buffers:
 * measured on a 4-bucket primary-key scan at 2 threads (docs/PERFORMANCE.md, "Decoding
 * ahead of the merge"), a window of 4 faulted in twice the memory of a window of 1 and
 * cost a third more CPU for no gain. */
PM_MUST_CHECK int pm_parallel_source_open_spread(pm_batch_source *out, const pm_type *type,
                                                 size_t count, pm_source_open_fn open, void *ctx,
                                                 unsigned int threads, paimon_error *err);

#endif /* PM_DATA_PARALLEL_SOURCE_H */

/*
 * An ArrowArrayStream (Arrow C Stream Interface) over any source of batches: the way scans
 * and files hand their rows to engines.  The stream owns the source and releases it with
 * the stream; errors become errno values with the message from get_last_error().
 */
#ifndef PM_DATA_ARROW_STREAM_H
#define PM_DATA_ARROW_STREAM_H

#include "data/batch.h"
#include "paimon/arrow.h"
#include "util/error.h"

typedef struct pm_batch_source {
    /* The next batch (caller owns it), PAIMON_ITEROVER at the end. */
    int (*next)(void *ctx, pm_batch **out, paimon_error *err);
    /* Releases ctx (called once, by the stream's release). */
    void (*release)(void *ctx);
    void *ctx;
    const pm_type *type; /* the ROW type of the batches; must live as long as ctx */
} pm_batch_source;

/* Makes `out` a stream over `src`, taking ownership of src->ctx, also on failure. */
PM_MUST_CHECK int pm_arrow_stream_new(const pm_batch_source *src, struct ArrowArrayStream *out,
                                      paimon_error *err);

#endif /* PM_DATA_ARROW_STREAM_H */

/*
 * Batches through the Arrow C Data Interface (include/paimon/arrow.h).
 *
 * Export moves a pm_batch into a tree of ArrowArray nodes without copying: each node's
 * private data is the pm_column whose buffers it points at, so every node (a column, a
 * child, a map's synthesized "entries" struct) can be released on its own, as the
 * specification allows consumers to move children out.  The Arrow formats per Paimon type
 * are listed in data/batch.h.
 *
 * Import copies an ArrowArray (any offset, as produced by other libraries) into a new batch
 * of a given ROW type, checking that the array's format matches the type.
 */
#ifndef PM_DATA_ARROW_H
#define PM_DATA_ARROW_H

#include "data/batch.h"
#include "paimon/arrow.h"
#include "util/error.h"

/* The Arrow format string of a type ("l", "d:18,2", "tsu:UTC", "+l", ...) into `buf`. */
int pm_arrow_format(const pm_type *t, char *buf, size_t cap);

/* The schema of a batch of `row` (a "+s" struct with one child per field).  On success the
 * caller owns `*out` and must call out->release(). */
PM_MUST_CHECK int pm_arrow_export_schema(const pm_type *row, struct ArrowSchema *out,
                                         paimon_error *err);

/* Moves `b` into `*out` (a "+s" array of b->row_count rows).  Takes ownership of `b`, also
 * on failure.  On success the caller must call out->release(). */
PM_MUST_CHECK int pm_arrow_export_batch(pm_batch *b, struct ArrowArray *out, paimon_error *err);

/* Copies `array` (described by `schema`) into a new batch of `row`.  The array is borrowed
 * and not released.  PAIMON_EINVALID when the formats do not match the type.  Caller owns
 * `*out`; release with pm_batch_free(). */
PM_MUST_CHECK int pm_arrow_import_batch(const pm_type *row, const struct ArrowSchema *schema,
                                        const struct ArrowArray *array, pm_batch **out,
                                        paimon_error *err);

#endif /* PM_DATA_ARROW_H */

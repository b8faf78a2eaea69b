/*
 * Compiled skipping of Avro values.  A filtered manifest read (planning a scan of one
 * partition) skips most entries' file metadata; walking the schema tree for each skipped
 * value costs more than the decode it avoids.  A skip program flattens the types once: nested
 * records inline, nullable scalars and arrays of scalars as single ops, anything else through
 * pm_avro_skip_value.
 *
 * Thread safety: a compiled program is immutable and may be shared.
 */
#ifndef PM_FORMAT_AVRO_SKIP_H
#define PM_FORMAT_AVRO_SKIP_H

#include <stdbool.h>
#include <stddef.h>

#include "format/avro/avro_io.h"
#include "format/avro/avro_schema.h"
#include "util/arena.h"

typedef struct pm_avro_skipper pm_avro_skipper;

/* A program skipping one value of each of `types[0..count)`, in order.  Allocated in
 * `arena`; NULL on allocation failure. */
pm_avro_skipper *pm_avro_skipper_compile(const pm_avro_schema *const *types, size_t count,
                                         pm_arena *arena);

/* Skips the values at the cursor; false when the bytes end early or are malformed. */
bool pm_avro_skipper_run(const pm_avro_skipper *s, pm_avro_cursor *c);

#endif /* PM_FORMAT_AVRO_SKIP_H */

/*
 * Ordering of single values as Java's InternalRow comparators order them: numbers by
 * value, strings and binaries by unsigned bytes (UTF-8 byte order), booleans false < true,
 * floating point with NaN greatest and -0.0 < 0.0 (Float.compare), nulls first.
 */
#ifndef PM_DATA_DATUM_COMPARE_H
#define PM_DATA_DATUM_COMPARE_H

#include "data/datum.h"
#include "data/types.h"

/* < 0, 0 or > 0.  Nested types compare by their binary bytes (a stable, not semantic,
 * order). */
int pm_datum_compare(const pm_type *t, const pm_datum *a, const pm_datum *b);

#endif /* PM_DATA_DATUM_COMPARE_H */

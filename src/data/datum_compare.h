/*
 * Ordering of single values as Java's InternalRow comparators order them: numbers by
 * value, strings and binaries by unsigned bytes (UTF-8 byte order), booleans false < true,
 * floating point with NaN greatest and -0.0 < 0.0 (Float.compare), nulls first.
 */
#ifndef PM_DATA_DATUM_COMPARE_H
#define PM_DATA_DATUM_COMPARE_H

#include "data/batch.h"
#include "data/datum.h"
#include "data/types.h"

/* < 0, 0 or > 0.  Nested types compare by their binary bytes (a stable, not semantic,
 * order). */
int pm_datum_compare(const pm_type *t, const pm_datum *a, const pm_datum *b);

/* Compares two keys of `count` values of `types`, value by value in this order. */
int pm_datum_compare_key(const pm_type *const *types, const pm_datum *a, const pm_datum *b,
                         size_t count);

/* Compares slot `i` of `a` with slot `j` of `b` (columns of the same type) in the same
 * order, nulls first. */
int pm_column_compare(const pm_column *a, int64_t i, const pm_column *b, int64_t j);

#endif /* PM_DATA_DATUM_COMPARE_H */

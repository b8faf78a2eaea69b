/*
 * Parquet statistics as pm_col_stats (data/predicate.h) for pruning: see stats.c.
 */
#ifndef PM_FORMAT_PARQUET_STATS_H
#define PM_FORMAT_PARQUET_STATS_H

#include "data/predicate.h"
#include "format/parquet/meta.h"
#include "format/parquet/schema.h"

/* One PLAIN-encoded bound (statistics or column index) as a datum of the plan's type.
 * False when the bound cannot be used. */
bool pm_pq_bound_to_datum(const pq_plan *p, const pq_leaf *leaf, const uint8_t *b, uint32_t len,
                          pm_datum *d);

/* Column chunk statistics (NULL: none) of a LEAF plan. */
void pm_pq_stats_convert(const pq_plan *p, const pq_leaf *leaf, const pq_stats *st,
                         pm_col_stats *out);

/* The bounds of page `page` (holding `rows` rows) from a column index. */
void pm_pq_page_stats(const pq_plan *p, const pq_leaf *leaf, const pq_column_index *ci,
                      uint32_t page, int64_t rows, pm_col_stats *out);

#endif /* PM_FORMAT_PARQUET_STATS_H */

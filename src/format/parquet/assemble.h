/*
 * Record assembly of nested Parquet columns into batch columns: see assemble.c.
 */
#ifndef PM_FORMAT_PARQUET_ASSEMBLE_H
#define PM_FORMAT_PARQUET_ASSEMBLE_H

#include "data/batch.h"
#include "format/parquet/schema.h"
#include "util/error.h"

/* The levels of one leaf for the rows of a batch (one byte per entry). */
typedef struct pq_levels {
    pm_buf def;
    pm_buf rep;
} pq_levels;

/* Builds `col` (fresh, its leaves holding their dense values) from the plan and the levels
 * of every leaf (indexed by leaf).  `parent_slots` is the number of slots the column must
 * have (the batch's rows at the top).  `scratch` is working memory. */
PM_MUST_CHECK int pm_pq_assemble(const pq_plan *p, pm_column *col, const pq_levels *levels,
                                 pm_buf *scratch, int64_t parent_slots, paimon_error *err);

#endif /* PM_FORMAT_PARQUET_ASSEMBLE_H */

/* The rows of the write benchmarks (bench_write, bench_write_threads): k BIGINT, v1 BIGINT,
 * v2 DOUBLE, v3 INT, v4 STRING (8-14 characters), v5 TIMESTAMP(3), made before a run's
 * clock starts in a pool of batches that the run cycles through with shifted keys and
 * numbers, so the generator costs nothing and every batch differs. */
#ifndef PM_BENCH_WRITE_ROWS_H
#define PM_BENCH_WRITE_ROWS_H

#include <stdint.h>

#include "data/batch.h"

#define BENCH_WRITE_BATCH 4096 /* rows a batch */
#define BENCH_WRITE_POOL  64   /* batches in the pool */

/* BENCH_WRITE_POOL batches of `row` (the columns above), keys uniform over [0, keys), from
 * one fixed seed.  Exits on failure; never NULL. */
pm_batch **bench_write_pool(const pm_type *row, int64_t keys);

/* Shifts a pool batch's keys by `shift` (mod `keys`) and its numbers, so that the next
 * cycle through the pool writes other keys and other values. */
void bench_write_shift(pm_batch *b, int64_t shift, int64_t keys);

#endif

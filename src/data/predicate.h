/*
 * Predicates over the columns of a ROW type: comparisons (=, !=, <, <=, >, >=), IN, IS
 * [NOT] NULL, AND, OR, NOT, with typed literals (pm_datum in the column's type: DECIMAL
 * unscaled at the column's scale, TIMESTAMP as millis + nanos, TIME as milliseconds,
 * strings and binaries as bytes).
 *
 * Semantics are SQL's three-valued logic, as Paimon's own predicates: a comparison with a
 * null value is unknown, AND/OR/NOT follow Kleene logic, and a row is selected only when
 * the predicate is true.  Values compare as Paimon compares them (Java's compareTo):
 * strings and binaries as unsigned bytes, booleans false < true, floating point in total
 * order (-0.0 < +0.0, NaN above everything and equal to itself).
 *
 * NOT is pushed down when a predicate is built (NOT (a < 1) becomes a >= 1, NOT IN is kept
 * as its own operator, De Morgan for AND/OR), so every tree is NOT-free.  That keeps
 * evaluation on statistics simple and exact.
 *
 * Two evaluations:
 *  - pm_predicate_eval_batch(): per row, 0 false, 1 true, 2 unknown;
 *  - pm_predicate_eval_stats(): whether any row of a row group, page or file whose column
 *    statistics are given may satisfy the predicate (false means: skip it safely).
 *    Statistics min/max exclude NaN (Parquet's rule), so for FLOAT and DOUBLE a predicate
 *    that NaN satisfies (>, >=, !=, NOT IN) prunes only when the NaN count is known to be 0.
 *
 * Ownership: a predicate owns its literals (bytes copied) and children.  The combinators
 * take ownership of their arguments, also on failure.
 */
#ifndef PM_DATA_PREDICATE_H
#define PM_DATA_PREDICATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/batch.h"
#include "data/datum.h"
#include "data/datum_compare.h"
#include "data/types.h"
#include "util/error.h"

typedef enum pm_pred_op {
    PM_PRED_EQ,
    PM_PRED_NE,
    PM_PRED_LT,
    PM_PRED_LE,
    PM_PRED_GT,
    PM_PRED_GE,
    PM_PRED_IN,
    PM_PRED_NOT_IN,
    PM_PRED_IS_NULL,
    PM_PRED_IS_NOT_NULL,
    PM_PRED_AND,
    PM_PRED_OR,
    PM_PRED_TRUE,
    PM_PRED_FALSE
} pm_pred_op;

typedef struct pm_predicate pm_predicate;

struct pm_predicate {
    pm_pred_op op;
    int column;         /* leaf ops: field index in the row type */
    pm_type *type;      /* leaf ops: the column's type (owned copy) */
    pm_datum *literals; /* comparison: 1; IN / NOT IN: literal_count (owned) */
    size_t literal_count;
    uint8_t *literal_bytes;  /* storage of string/binary literals (owned) */
    pm_predicate **children; /* AND / OR (owned) */
    size_t child_count;
};

/* Statistics of one column over some rows (a row group, a page, a file). */
typedef struct pm_col_stats {
    bool has_min_max;  /* min and max are bounds of the non-null, non-NaN values */
    pm_datum min, max; /* in the column's type (bytes borrowed) */
    bool has_null_count;
    int64_t null_count;
    bool has_nan_count; /* FLOAT/DOUBLE */
    int64_t nan_count;
} pm_col_stats;

/* ---- building (out parameter first; caller owns *out, release with pm_predicate_free) -- */

/* column <op> literal, op one of EQ..GE.  A null literal makes the comparison unknown for
 * every row.  PAIMON_EINVALID for a bad column index or a nested column. */
PM_MUST_CHECK int pm_predicate_compare(pm_predicate **out, pm_pred_op op, const pm_type *row,
                                       int column, const pm_datum *literal, paimon_error *err);
/* column IN (literals...) */
PM_MUST_CHECK int pm_predicate_in(pm_predicate **out, const pm_type *row, int column,
                                  const pm_datum *literals, size_t count, paimon_error *err);
/* column IS NULL / IS NOT NULL */
PM_MUST_CHECK int pm_predicate_is_null(pm_predicate **out, const pm_type *row, int column,
                                       bool negated, paimon_error *err);
/* AND / OR of `count` children (takes ownership of them and of the array's entries). */
PM_MUST_CHECK int pm_predicate_and(pm_predicate **out, pm_predicate **children, size_t count,
                                   paimon_error *err);
PM_MUST_CHECK int pm_predicate_or(pm_predicate **out, pm_predicate **children, size_t count,
                                  paimon_error *err);
/* NOT child (takes ownership): returns the pushed-down negation. */
PM_MUST_CHECK int pm_predicate_not(pm_predicate **out, pm_predicate *child, paimon_error *err);
/* A constant. */
PM_MUST_CHECK int pm_predicate_const(pm_predicate **out, bool value, paimon_error *err);

void pm_predicate_free(pm_predicate *p);

/* The predicate over another row type: column i becomes map[i] of `row` (whose field there
 * must have the same type); a leaf on a column mapped to -1 becomes TRUE.  Predicates have
 * no NOT node (it is pushed into the leaves), so the result holds wherever `p` holds: a
 * weaker filter, fit to prune with, never to decide.  Caller owns `*out`. */
PM_MUST_CHECK int pm_predicate_map_columns(const pm_predicate *p, const pm_type *row,
                                           const int *map, pm_predicate **out, paimon_error *err);

/* Calls `fn` for every column index the predicate reads. */
void pm_predicate_columns(const pm_predicate *p, void (*fn)(int column, void *ctx), void *ctx);

/* ---- evaluation ------------------------------------------------------------------------ */

/* Fills out[i] for every row of `b` (whose type must be the predicate's row type): 0 false,
 * 1 true, 2 unknown. */
PM_MUST_CHECK int pm_predicate_eval_batch(const pm_predicate *p, const pm_batch *b, uint8_t *out,
                                          paimon_error *err);

/* Whether rows described by `stats` (one entry per column of the row type; NULL entries
 * mean "nothing known") may satisfy the predicate; `row_count` rows in total. */
bool pm_predicate_eval_stats(const pm_predicate *p, const pm_col_stats *const *stats,
                             int64_t row_count);

#endif /* PM_DATA_PREDICATE_H */

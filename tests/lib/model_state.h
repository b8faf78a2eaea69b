/*
 * The reference map of the randomized model test: what a primary-key table
 * `k INT NOT NULL, a BIGINT, b STRING` must read as after a sequence of written records,
 * for each merge engine of model_combo.h, and the same map rebuilt from a change stream.
 *
 * Values are kept small: `a` any BIGINT or null, `b` the string "s<N>" (N >= 0) or null.
 * The engines as the model applies them (behaviour.md §2):
 *   deduplicate     +I/+U set the row; -U/-D remove it.
 *   partial-update  +I/+U overwrite the non-null fields (from an all-null row); -D removes the
 *                   row (remove-record-on-delete).  -U is never written (its values would seed
 *                   the row when it opens a merge, which depends on how merges were cut).
 *   aggregation     a is summed and b is the last non-null value; -D removes the row
 *                   (remove-record-on-delete); -U retracts: a - x (or -x from null), a non-null
 *                   b makes b null.
 *   first-row       the first +I/+U of a key stays; -U/-D are dropped (ignore-delete).
 * A change stream is applied the way a consumer upserts it: +I/+U set the row, -U/-D remove it.
 */
#ifndef PM_TEST_MODEL_STATE_H
#define PM_TEST_MODEL_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model_combo.h"

#define PM_MODEL_KEYS 1200

typedef struct pm_model_row {
    bool present;
    bool has_a; /* false: a is null */
    int64_t a;
    int b; /* -1: null; else the string "s<b>" */
} pm_model_row;

typedef struct pm_model_state {
    pm_model_row rows[PM_MODEL_KEYS];
} pm_model_state;

/* One record written, or one change read back. */
typedef struct pm_model_record {
    int k;    /* 0 <= k < PM_MODEL_KEYS */
    int kind; /* PAIMON_ROW_* */
    bool has_a;
    int64_t a;
    int b; /* -1: null */
} pm_model_record;

/* Clears every row. */
void pm_model_state_init(pm_model_state *s);

/* Merges one written record into the state as engine `e` does. */
void pm_model_state_write(pm_model_state *s, pm_model_engine e, const pm_model_record *r);

/* Applies one change as a consumer does: +I/+U set the row, -U/-D remove it. */
void pm_model_state_apply_change(pm_model_state *s, const pm_model_record *c);

/* True when both hold the same rows.  Else false, with the first key that differs and both
 * of its rows in msg. */
bool pm_model_state_equal(const pm_model_state *want, const pm_model_state *got, const char *what,
                          char *msg, size_t cap);

/* Whether key k differs between the states. */
bool pm_model_state_differs(const pm_model_state *x, const pm_model_state *y, int k);

/* "{k, a, b}" or "absent" for messages. */
const char *pm_model_row_text(const pm_model_row *r, char *buf, size_t cap);
/* "+U{k, a, b}" for messages. */
const char *pm_model_record_text(const pm_model_record *r, char *buf, size_t cap);

/* Whether two records carry the same kind, key and values. */
bool pm_model_record_equal(const pm_model_record *x, const pm_model_record *y);

#endif

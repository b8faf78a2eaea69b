/*
 * Internals shared by the field aggregators' files: field_agg.c (set-up, scalar functions,
 * dispatch) and field_agg_collections.c (the functions over arrays, maps and bitmaps).
 */
#ifndef PM_LSM_FIELD_AGG_INT_H
#define PM_LSM_FIELD_AGG_INT_H

#include "lsm/field_agg.h"
#include "util/error.h"

/* An element gathered by a collection function: a value (element, map key or nested row)
 * with, for maps, its value; nested_update keys are BinaryRows in `work`. */
typedef struct agg_item {
    pm_vref v;      /* element, key or row */
    pm_vref value;  /* merge_map: the entry's value */
    size_t key_off; /* nested_update(_partial): the key BinaryRow in a->work */
    size_t key_len;
    int32_t hash; /* hashCode() of the key */
} agg_item;

/* The scratch column that holds neither operand, emptied for a result. */
pm_column *pm_field_agg_scratch(pm_field_agg *a, pm_vref x, pm_vref y);

/* Stores a computed scalar in a scratch column and points *out at it. */
PM_MUST_CHECK int pm_fa_put_datum(pm_field_agg *a, pm_vref x, pm_vref y, const pm_datum *d,
                                  pm_vref *out, paimon_error *err);

/* Key equality of gathered items (the HashMap replay's callback). */
bool pm_field_agg_item_equal(void *ctx, int64_t x, int64_t y);

PM_MUST_CHECK int pm_fa_collect_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                    paimon_error *err);
PM_MUST_CHECK int pm_fa_collect_retract(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                        paimon_error *err);
PM_MUST_CHECK int pm_fa_merge_map_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                      paimon_error *err);
PM_MUST_CHECK int pm_fa_merge_map_retract(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                          paimon_error *err);
PM_MUST_CHECK int pm_fa_keytime_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                    paimon_error *err);
PM_MUST_CHECK int pm_fa_nested_update_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                          paimon_error *err);
PM_MUST_CHECK int pm_fa_nested_update_retract(pm_field_agg *a, pm_vref acc, pm_vref in,
                                              pm_vref *out, paimon_error *err);
PM_MUST_CHECK int pm_fa_nested_partial_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                           paimon_error *err);
PM_MUST_CHECK int pm_fa_rbm32_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                  paimon_error *err);

#endif /* PM_LSM_FIELD_AGG_INT_H */

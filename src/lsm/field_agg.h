/*
 * Field aggregators (behaviour.md §2.3): what the aggregation merge engine, and the
 * partial-update engine's aggregated fields, do to one field of the records of one key.
 *
 * Values are references (pm_vref) to a slot of a column: a record's column, or a scratch
 * column of the aggregator where computed values live.  Each aggregator owns two scratch
 * columns and writes a computed result into the one that holds neither operand, so the
 * result stays valid while the other operand is replaced, and the memory of one key's merge
 * is bounded by two values per field however many records the key has.
 *
 * Operations, as Java's FieldAggregator:
 *   agg(acc, in)            the new accumulator after an add record
 *   agg_reversed(acc, in)   agg with the operands swapped (partial-update sequence groups
 *                           fold an older record into a newer accumulator); collect keeps
 *                           agg's order
 *   retract(acc, in)        after a retract record; PAIMON_EINVALID for functions that
 *                           cannot retract unless `fields.<f>.ignore-retract` (then acc)
 * reset() starts a key: first_value and first_non_null_value forget what they have seen.
 *
 * Functions: primary-key (keeps the input), sum, product, max, min, last_value,
 * last_non_null_value, first_value, first_non_null_value (first_not_null_value), listagg,
 * bool_and, bool_or, collect, merge_map, merge_map_with_keytime, nested_update,
 * nested_partial_update, rbm32.  Results that Java builds in a HashMap or HashSet keep
 * Java's iteration order (util/java_hashmap.h).  rbm64, hll_sketch and theta_sketch:
 * PAIMON_EUNSUPPORTED.
 */
#ifndef PM_LSM_FIELD_AGG_H
#define PM_LSM_FIELD_AGG_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "meta/schema.h"
#include "util/java_hashmap.h"
#include "util/error.h"

/* A value: slot `row` of `col`, or null when `col` is NULL. */
typedef struct pm_vref {
    const pm_column *col; /* borrowed; NULL for null */
    int64_t row;
} pm_vref;

static inline pm_vref pm_vref_null(void)
{
    pm_vref v = {NULL, 0};
    return v;
}

static inline pm_vref pm_vref_of(const pm_column *col, int64_t row)
{
    pm_vref v = {col, row};
    return v;
}

static inline bool pm_vref_is_null(pm_vref v)
{
    return v.col == NULL || !pm_column_is_valid(v.col, v.row);
}

typedef enum pm_agg_kind {
    PM_AGG_PRIMARY_KEY,
    PM_AGG_LAST_VALUE,
    PM_AGG_LAST_NON_NULL,
    PM_AGG_FIRST_VALUE,
    PM_AGG_FIRST_NON_NULL,
    PM_AGG_SUM,
    PM_AGG_PRODUCT,
    PM_AGG_MAX,
    PM_AGG_MIN,
    PM_AGG_BOOL_AND,
    PM_AGG_BOOL_OR,
    PM_AGG_LISTAGG,
    PM_AGG_COLLECT,
    PM_AGG_MERGE_MAP,
    PM_AGG_MERGE_MAP_KEYTIME,
    PM_AGG_NESTED_UPDATE,
    PM_AGG_NESTED_PARTIAL_UPDATE,
    PM_AGG_RBM32
} pm_agg_kind;

typedef struct pm_field_agg {
    pm_agg_kind kind;
    const char *name;    /* the function's name (static) */
    const pm_type *type; /* the field's type (borrowed) */
    char *field;         /* the field's name, for messages */
    bool ignore_retract; /* fields.<f>.ignore-retract */
    bool distinct;       /* fields.<f>.distinct (listagg, collect) */
    char *delimiter;     /* listagg: fields.<f>.list-agg-delimiter */
    int32_t count_limit; /* nested_update: fields.<f>.count-limit */
    int *nested_key;     /* nested_update(_partial): key fields of the ROW element */
    size_t nested_key_count;
    int ts_field;           /* merge_map_with_keytime: the timestamp field of the ROW value */
    bool initialized;       /* first_value, first_non_null_value: decided for this key */
    pm_column *scratch[2];  /* computed values; see the comment above */
    pm_buf work;            /* listagg text, BinaryRow keys, bitmaps */
    pm_jhm map;             /* HashMap/HashSet replay */
    struct agg_item *items; /* element references gathered by collection functions */
    size_t item_count, item_cap;
} pm_field_agg;

/* Sets up the aggregator `fn` (a function name as in the options) for `field` of a table
 * with options `schema`.  Unknown names and wrong field types fail as Java's factories do
 * (PAIMON_EINVALID), sketches with PAIMON_EUNSUPPORTED.  Release with pm_field_agg_free(). */
PM_MUST_CHECK int pm_field_agg_init(pm_field_agg *a, const pm_schema *schema, const pm_field *field,
                                    const char *fn, paimon_error *err);
void pm_field_agg_free(pm_field_agg *a);

/* A new key. */
void pm_field_agg_reset(pm_field_agg *a);

PM_MUST_CHECK int pm_field_agg_agg(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                   paimon_error *err);
PM_MUST_CHECK int pm_field_agg_agg_reversed(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                            paimon_error *err);
PM_MUST_CHECK int pm_field_agg_retract(pm_field_agg *a, pm_vref acc, pm_vref in, pm_vref *out,
                                       paimon_error *err);

/* Looks up the function name: its kind, or -1 when Java has no such function. */
int pm_agg_kind_of(const char *fn);

#endif /* PM_LSM_FIELD_AGG_H */

/*
 * Merge engines (behaviour.md §2): what the records of one primary key merge into.
 *
 * The merge reader hands a merge function every record of one key, oldest first (by user
 * sequence fields, then sequence number).  The function appends the merged row to an output
 * batch, or nothing when the key ends deleted; batch reads drop retractions ("drop delete").
 *
 *   deduplicate      the last record; deleted when it is -U/-D (ignore-delete skips retracts)
 *   first-row        the first record; retracts are an error unless ignore-delete
 *   partial-update   lsm/partial_update.h: field by field, sequence groups, aggregated
 *                    fields, remove-record-on-delete / on-sequence-group, ignore-delete
 *   aggregation      lsm/field_agg.h per field: `fields.<f>.aggregate-function`, else
 *                    `fields.default-aggregate-function`, else last_non_null_value;
 *                    primary keys keep the input, sequence fields the last value;
 *                    aggregation.remove-record-on-delete.
 *
 * A single record for a key bypasses the function (it is passed through as is), as Java's
 * reducer wrapper does, except under the lookup wrapper (`lookup`), which also keeps only
 * the record of the smallest level >= 1 besides all level-0 records (behaviour.md §2.0).
 */
#ifndef PM_LSM_MERGE_FUNCTION_H
#define PM_LSM_MERGE_FUNCTION_H

#include <stdbool.h>
#include <stdint.h>

#include "data/batch.h"
#include "meta/schema.h"
#include "util/error.h"

/* Row kinds (RowKind byte values). */
#define PM_KIND_INSERT        0
#define PM_KIND_UPDATE_BEFORE 1
#define PM_KIND_UPDATE_AFTER  2
#define PM_KIND_DELETE        3

static inline bool pm_kind_is_add(int kind)
{
    return kind == PM_KIND_INSERT || kind == PM_KIND_UPDATE_AFTER;
}

/* One record of a key: a row of a batch whose first `value_count` columns are the values. */
typedef struct pm_record {
    const pm_batch *batch;
    int64_t row;
    int64_t seq;
    int8_t kind;
    int32_t level;
} pm_record;

typedef struct pm_merge_fn pm_merge_fn;

/* A merge function for `schema`'s merge engine over rows of `value_type` (the read's value
 * columns; key and sequence fields included).  PAIMON_EUNSUPPORTED names what is missing. */
PM_MUST_CHECK int pm_merge_fn_new(pm_merge_fn **out, const pm_schema *schema,
                                  const pm_type *value_type, paimon_error *err);
void pm_merge_fn_free(pm_merge_fn *f);

/* Whether the table reads through the lookup wrapper (changelog-producer=lookup, deletion
 * vectors or force-lookup; never first-row). */
bool pm_merge_fn_lookup(const pm_merge_fn *f);

/* What the merge of `n` >= 1 records (oldest first) is without computing a row: the index of
 * the record that is the result as it stands (deduplicate, first-row, a single record),
 * PM_MERGE_DELETED when the key ends deleted, or PM_MERGE_COMPUTE when the result must be
 * built by pm_merge_fn_apply (partial-update, aggregation, or an error to report).  The
 * merge reader copies picked records column by column in bulk. */
#define PM_MERGE_DELETED (-1)
#define PM_MERGE_COMPUTE (-2)
long pm_merge_fn_pick(const pm_merge_fn *f, const pm_record *recs, size_t n);

/* Merges `n` >= 1 records (oldest first) and appends the result's value columns to `out`
 * (whose first columns have value_type) when it is an add. */
PM_MUST_CHECK int pm_merge_fn_apply(pm_merge_fn *f, const pm_record *recs, size_t n, pm_batch *out,
                                    paimon_error *err);

/* The record a writer's buffer flush makes of `n` >= 1 records of one key (oldest first):
 * Java's ReducerMergeFunctionWrapper over the merge function, retractions kept (a lone
 * record passes through; deduplicate keeps the last record, -U/-D included; partial-update
 * and aggregation yield their accumulated row as INSERT or DELETE).  Appends the value
 * columns to `out` and sets *kind and *seq, or sets *emitted false when the merge has no
 * result (deduplicate under ignore-delete with retractions only). */
PM_MUST_CHECK int pm_merge_fn_reduce(pm_merge_fn *f, const pm_record *recs, size_t n, pm_batch *out,
                                     int8_t *kind, int64_t *seq, bool *emitted, paimon_error *err);

/* Which record a flush's merge of `n` >= 1 records yields unchanged: its index, -1 when the
 * result is computed (call pm_merge_fn_reduce), or -2 when there is no result.  Lets a
 * writer copy the chosen records in bulk (a lone record, deduplicate's last record). */
int pm_merge_fn_reduce_pick(const pm_merge_fn *f, const pm_record *recs, size_t n);

#endif /* PM_LSM_MERGE_FUNCTION_H */

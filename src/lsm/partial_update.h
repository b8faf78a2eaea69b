/*
 * The partial-update merge engine (behaviour.md §2.2), as Java 1.4.2's
 * PartialUpdateMergeFunction.
 *
 * Without sequence groups: every add record overwrites the fields it has non-null; a
 * retract record is an error unless `ignore-delete` (dropped) or
 * `partial-update.remove-record-on-delete` (a -D removes the row).
 *
 * With sequence groups (`fields.<s1>,<s2>.sequence-group = <f1>,<f2>`): each group's fields
 * change only when a record's sequence fields (compared in order, nulls first) are at least
 * the row's; a record whose sequence fields are all null leaves the group alone; fields in a
 * group may have aggregate functions (`fields.<f>.aggregate-function`, or
 * `fields.default-aggregate-function`), folded in reverse for older records; retract records
 * retract the group's fields (set them null, or retract the aggregate), and a -D newer than a
 * group named in `partial-update.remove-record-on-sequence-group` removes the row.
 *
 * The fields are processed in schema order and the row's sequence fields update as soon as
 * the first of them is reached, so later fields of the group compare against the new values,
 * exactly as Java's loop does.
 */
#ifndef PM_LSM_PARTIAL_UPDATE_H
#define PM_LSM_PARTIAL_UPDATE_H

#include "lsm/merge_function.h"
#include "util/error.h"

typedef struct pm_partial_update pm_partial_update;

/* Over rows of `value_type` (all value columns the groups name must be in it).  The option
 * checks Java's factory makes fail with PAIMON_EINVALID.  Caller owns `*out`. */
PM_MUST_CHECK int pm_partial_update_new(pm_partial_update **out, const pm_schema *schema,
                                        const pm_type *value_type, paimon_error *err);
void pm_partial_update_free(pm_partial_update *p);

/* Whether the table has sequence groups (the read must then include every field). */
bool pm_partial_update_has_groups(const pm_partial_update *p);

/* Merges `n` >= 1 records of one key (oldest first) and appends the row to `out` unless the
 * result is a delete. */
PM_MUST_CHECK int pm_partial_update_apply(pm_partial_update *p, const pm_record *recs, size_t n,
                                          pm_batch *out, paimon_error *err);

/* Merges as Java's PartialUpdateMergeFunction.getResult() reports it: always appends the
 * row; *kind is DELETE when the row was removed or no add record came, else INSERT; *seq
 * the sequence number of the last record taken into account. */
PM_MUST_CHECK int pm_partial_update_merge(pm_partial_update *p, const pm_record *recs, size_t n,
                                          pm_batch *out, int8_t *kind, int64_t *seq,
                                          paimon_error *err);

/* Whether `schema`'s options define sequence groups. */
bool pm_schema_has_sequence_groups(const pm_schema *schema);

#endif /* PM_LSM_PARTIAL_UPDATE_H */

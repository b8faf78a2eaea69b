/*
 * The k-way merge of sorted runs (behaviour.md §3.8): records ordered by (key, user sequence
 * fields, sequence number, retract before add), the records of one key handed oldest first
 * to a merge function (lsm/merge_function.h), the results gathered into batches.
 *
 * A run yields batches sorted by key and sequence number whose last two columns are
 * _SEQUENCE_NUMBER (BIGINT) and _VALUE_KIND (TINYINT), after `value_count` value columns
 * (table/file_reader.h produces them).  A loser tree over the runs' cursors picks the next
 * record, as Java's default sort engine (loser-tree) does: the winner is kept at the root,
 * and a cursor that moves replays only the games on its path to the root (log2 of the run
 * count comparisons per record).  Ties on the whole order fall to the lower run index.
 * Batches a cursor has moved past stay alive until the key they hold is merged.
 *
 * Under the lookup wrapper (changelog-producer=lookup, deletion vectors, force-lookup) only
 * the record of the smallest level >= 1 takes part, with every level-0 record.
 */
#ifndef PM_LSM_MERGE_READER_H
#define PM_LSM_MERGE_READER_H

#include "data/batch.h"
#include "lsm/merge_function.h"
#include "util/error.h"

typedef struct pm_run_source {
    /* The next batch of the run (caller owns it); PAIMON_ITEROVER at the end. */
    int (*next)(void *ctx, pm_batch **out, paimon_error *err);
    void *ctx;
    int32_t level; /* LSM level of the run's files */
} pm_run_source;

typedef struct pm_merge_reader_options {
    const pm_type *value_type; /* the value columns of the runs' batches (merge output) */
    const int *key_cols;       /* key columns (indexes into value_type), in key order */
    size_t key_count;
    const int *seq_cols; /* user sequence fields (sequence.field), or none */
    size_t seq_count;
    bool seq_descending; /* sequence.field.sort-order = descending */
    int64_t batch_rows;  /* output rows per batch */
    /* Compaction (Java's ReducerMergeFunctionWrapper, MergeTreeCompactRewriter): records of
     * a key reduce as a writer's flush reduces them (pm_merge_fn_reduce: a lone record
     * passes, retractions are kept), and the output batches carry _SEQUENCE_NUMBER and
     * _VALUE_KIND after the values (`out_type`: value_type's columns, then those two).
     * `drop_delete` then drops results that are retractions (DropDeleteReader). */
    bool reduce;
    bool drop_delete;
    const pm_type *out_type;
    /* Full-compaction changelog (Java FullChangelogMergeFunctionWrapper; reduce only): when
     * `changelog` is set, each key's change between its record at level `max_level` (the
     * state the last full compaction left) and its reduced result goes into a second batch
     * of out_type: +I for a new key, -D for a key whose result is a retraction, -U (the old
     * record) and +U (the result) for a changed one, nothing for a key whose only record is
     * the max-level one.  `compare` (per value column, NULL: no comparison) makes a result
     * equal to the old record in the compared columns yield nothing
     * (changelog-producer.row-deduplicate).  A record's level is its run's `level` at the
     * time the run yielded the record's batch. */
    bool changelog;
    int32_t max_level;
    const bool *compare;
    /* Lookup compaction (Java LookupChangelogMergeFunctionWrapper; reduce only): when
     * `lookup` is set, a key none of whose records comes from a level >= 1 is looked up in
     * the levels above the output (the callback, given a row holding the key; it marks the
     * replaced row in a deletion vector when the table has them).  A found record with a
     * value (`found->batch` not NULL, its value columns first, borrowed until the next call)
     * joins the key's records in sequence order and is merged with them.  With
     * `lookup_changelog` (changelog-producer = lookup), a key with a level-0 record gets its
     * change between that older record (from a level >= 1 or the lookup) and the result:
     * +I for a new key, -D when the result is a retraction, -U/+U for a changed one unless
     * `compare` finds them equal (row-deduplicate).
     * `first_row` (FirstRowMergeFunctionWrapper, merge-engine = first-row): the result is the
     * key's first add (a retraction is an error unless `ignore_delete`); a key with no
     * record from a level >= 1 that the lookup finds is dropped (the stored row wins); any
     * other key without such a record is new, and with `lookup_changelog` its result is also
     * its change, with its stored kind. */
    int (*lookup)(void *ctx, const pm_batch *b, int64_t row, pm_record *found, bool *hit,
                  paimon_error *err);
    void *lookup_ctx;
    bool lookup_changelog;
    bool first_row;
    bool ignore_delete;
} pm_merge_reader_options;

typedef struct pm_merge_reader pm_merge_reader;

/* Borrows `runs`, `fn` and the options' arrays until freed.  Caller owns `*out`. */
PM_MUST_CHECK int pm_merge_reader_new(pm_merge_reader **out, pm_run_source *runs, size_t run_count,
                                      pm_merge_fn *fn, const pm_merge_reader_options *o,
                                      paimon_error *err);

/* The next batch of merged rows (value_type); PAIMON_ITEROVER when every run is done.
 * Caller owns `*out`. */
PM_MUST_CHECK int pm_merge_reader_next(pm_merge_reader *r, pm_batch **out, paimon_error *err);

/* The changelog rows of the keys the last pm_merge_reader_next merged (out_type), or NULL
 * when there are none.  Caller owns the returned batch. */
pm_batch *pm_merge_reader_take_changelog(pm_merge_reader *r);

void pm_merge_reader_free(pm_merge_reader *r);

#endif /* PM_LSM_MERGE_READER_H */

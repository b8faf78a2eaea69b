/*
 * The randomized model test (issue 7 "Checks"; DESIGN.md "randomized model tests for the
 * LSM"), run for one combination of model_combo.h at a time, through the public API only.
 *
 * A run writes thousands of random upserts and deletes (the row kinds each engine accepts,
 * model_state.h) into a fresh table `k INT NOT NULL, a BIGINT, b STRING` with 2 buckets, a
 * tiny write buffer (flushes inside commits), small target files (several files per level)
 * and a compaction trigger of 3 (max level 3), with writers kept across commits or reopened
 * (levels restored), writer-side compaction, commits by write-only writers (level-0 files
 * pile up), and dedicated `compact` and `compact --full` jobs in turn.  After every commit or
 * job:
 *   - the batch read equals the reference map exactly (for first-row and deletion-vector
 *     tables, whose batch reads skip level 0, the map as of the last step that left no
 *     level-0 file);
 *   - the LSM shape holds (lsm_check.h), and tables that need lookups (first-row, deletion
 *     vectors, the lookup producer) have no level-0 file left after a job or a commit by a
 *     writer that is not write-only (writers compact it away at every commit, as Java's do
 *     with lookup-wait);
 *   - the change stream of exactly the new snapshots (what `paimon tail` prints) is checked
 *     as behaviour.md §4 allows (model_run.c check_changes says what each producer gives).
 */
#ifndef PM_TEST_MODEL_RUN_H
#define PM_TEST_MODEL_RUN_H

#include <stdint.h>

#include "model_combo.h"

typedef struct pm_model_params {
    uint64_t seed;
    int steps;         /* commits and dedicated compactions */
    int delta_commits; /* full-compaction.delta-commits; 0: unset */
} pm_model_params;

/* Runs the model on a fresh table of `c` (a combination paimon-c writes); fails the current
 * cmocka test at the first mismatch, naming the step. */
void pm_model_run(const pm_model_combo *c, const pm_model_params *p);

/* Runs every combination of engine `e` as one cmocka group, a test per combination:
 * combinations Java rejects must fail at create with Java's reason; those paimon-c's writer
 * refuses today must be refused (pm_model_combo_writable); the rest run the model with a
 * fixed seed, and also with $PAIMON_MODEL_SEED when set ($PAIMON_MODEL_STEPS steps, for
 * longer hunts by hand).  Returns cmocka's exit status. */
int pm_model_main(pm_model_engine e);

#endif

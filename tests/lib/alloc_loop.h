/*
 * Allocation-failure loops (curl's torture tests): run an operation with its N-th
 * allocation failing, and every later one, for N = 1, 2, ... until it completes without an
 * injected failure.  Each failing run must return PAIMON_ENOMEM with an error that says
 * "out of memory" (a failure reported as corrupt data, an I/O error or a silent success is
 * a defect); after each, a check callback verifies that nothing changed.  Leaks on the
 * error paths show up in LeakSanitizer's report at the test's exit.
 *
 * Two variables help: PAIMON_ALLOC_LOOP_STRIDE=1 overrides the stride (every allocation
 * point, slow), and PAIMON_ALLOC_LOOP_FROM=N starts at allocation N (to debug one failure;
 * in gdb, `break should_fail if fail_at == counter + 1` stops at the failing allocation).
 *
 * The operation runs with the failure armed: it must not use cmocka's assertions or the
 * test helpers that allocate (they would fail too); it returns its code and the check,
 * which runs with the failure disarmed, asserts.
 */
#ifndef PM_TEST_ALLOC_LOOP_H
#define PM_TEST_ALLOC_LOOP_H

#include "paimon/error.h"

/* The operation: 0 when it completed, or the error code (with `err` filled). */
typedef int (*pm_test_alloc_op)(void *ctx, paimon_error *err);
/* Runs after each run with the failure disarmed: `n` the failing allocation, `rc` what the
 * operation returned (0 only on the last run, when nothing was injected). */
typedef void (*pm_test_alloc_check)(void *ctx, long n, int rc);

typedef struct pm_test_alloc_loop_opts {
    long every_first; /* run every N up to this (0: 200) */
    long stride;      /* past it, every stride-th N (0: 1, every N) */
    long max_runs;    /* fail the test past this many runs (0: 100000) */
} pm_test_alloc_loop_opts;

/* Runs the loop; `check` may be NULL.  `what` names the operation in messages.  Returns how
 * many allocations the completed run made (the allocation points the loop covered, with the
 * stride: every one up to every_first, then one in `stride`); prints it too. */
long pm_test_alloc_loop(const char *what, pm_test_alloc_op op, pm_test_alloc_check check, void *ctx,
                        const pm_test_alloc_loop_opts *opts);

/* Every file under `dir` (recursively), as paths relative to it sorted, one per line; free
 * with pm_free.  Compares a table's directory before and after a failed operation. */
char *pm_test_list_files(const char *dir);

#endif /* PM_TEST_ALLOC_LOOP_H */

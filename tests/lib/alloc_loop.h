/*
 * Allocation-failure loops (curl's torture tests): run an operation with its N-th
 * allocation failing, and every later one, for N = 1, 2, ... until it completes without an
 * injected failure.  Each failing run must return PAIMON_ENOMEM with an error that says
 * "out of memory" (a failure reported as corrupt data, an I/O error or a silent success is
 * a defect); after each, a check callback verifies that nothing changed.  The loop ends at
 * the first run in which no allocation failed.  Leaks on the
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
 * operation returned, `injected` 0 on the last run (nothing failed: rc is 0).  A run that
 * returns 0 although an allocation failed (a best-effort step, such as a commit's LATEST
 * hint after its snapshot landed) is a failure of the test unless the check accepts it:
 * it must assert what such a run may leave and restore the state for the next run. */
typedef void (*pm_test_alloc_check)(void *ctx, long n, int rc, int injected);

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

/* ---- tables that must stay as they were ------------------------------------------------ */

#include <stdint.h>

#include "paimon/write.h"
#include "util/strlist.h"

/* What a failed operation must leave unchanged: the latest snapshot, the rows and every file
 * (a failed commit removes the manifests it wrote, a failed write its data files). */
typedef struct pm_test_table_image {
    int64_t snapshot; /* latest snapshot id, 0: none */
    char *rows;       /* sorted canonical JSON lines */
    char *files;      /* pm_test_list_files of the table */
    pm_strlist names; /* every file, relative to the table, and its bytes (for restoring) */
    uint8_t **data;
    size_t *lens;
} pm_test_table_image;

void pm_test_table_image_take(const char *path, pm_test_table_image *out);
/* Fails the test (naming `what` and allocation `n`) when the table differs from `before`. */
void pm_test_table_image_check(const char *path, const pm_test_table_image *before,
                               const char *what, long n);
/* The same without reading the rows (they cannot change while the snapshot and the files
 * stay): for loops over operations that commit nothing, such as writers. */
void pm_test_table_files_check(const char *path, const pm_test_table_image *before,
                               const char *what, long n);
/* Puts the table back as `before` was taken: removes the files added since, writes back the
 * files removed or changed (the hints).  For runs that completed although an allocation
 * failed (a commit whose snapshot landed before its LATEST hint failed): the next run
 * starts from the same table. */
void pm_test_table_image_restore(const char *path, const pm_test_table_image *before);
void pm_test_table_image_free(pm_test_table_image *image);

/* Creates a table of columns (id BIGINT, p INT, v STRING) partitioned by p, with primary key
 * (id, p) when `pk`, and the options "key=value" `opts`.  Returns its path (remove with
 * pm_test_remove_table). */
char *pm_test_alloc_table(const char *tag, int pk, const char *const *opts, size_t nopt);

/* Opens a writer of `t` into `*w`, writes rows [from, to) (id i % 70, p i % 3, v
 * "value-<i>") one at a time and prepares the commit into `m`: the operation of the writer
 * loops (no assertions: it may run with allocations failing).  The caller frees `*w` (NULL
 * when the open failed), also after a failure. */
int pm_test_write_rows(paimon_table *t, int from, int to, paimon_writer **w,
                       paimon_commit_messages *m, paimon_error *err);

#endif /* PM_TEST_ALLOC_LOOP_H */

/*
 * Checks of a primary-key table's LSM shape in its latest snapshot, for tests: every live
 * file has min <= max sequence numbers, a level in [0, 1000) and a positive row count; in
 * every partition and bucket, the files of each level >= 1 have key ranges that do not
 * overlap (min key <= max key, and sorted by min key each file ends before the next one
 * starts).
 */
#ifndef PM_TEST_LSM_CHECK_H
#define PM_TEST_LSM_CHECK_H

#include <stddef.h>

/* 0 when the shape holds; else -1 with what is wrong in msg.  `*max_level` (may be NULL):
 * the highest level holding a file, -1 without files; `*files`: live files. */
int pm_test_check_lsm(const char *table, char *msg, size_t cap, int *max_level, size_t *files);

/* Where the live files of the latest snapshot sit. */
typedef struct pm_test_lsm_levels {
    int min_level;       /* the lowest level holding a file, -1 without files */
    int max_level;       /* the highest level holding a file, -1 without files */
    size_t files;        /* live files */
    size_t level0_files; /* live files at level 0 */
} pm_test_lsm_levels;

/* pm_test_check_lsm, also telling where the files sit (`out` may be NULL). */
int pm_test_check_lsm_levels(const char *table, char *msg, size_t cap, pm_test_lsm_levels *out);

#endif

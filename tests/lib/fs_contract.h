/* The pm_fs contract checks shared by the backends' tests (tests/unit/io/test_fs.c for local
 * and memory, test_s3_fs.c for S3): create and its exact bytes, a taken name, ranged and
 * whole reads, abort, create-if-absent and overwrite, listing, stat, missing things, and
 * removal that is never recursive. */
#ifndef PM_TEST_FS_CONTRACT_H
#define PM_TEST_FS_CONTRACT_H

#include "io/fs.h"

/* Runs the checks under the directory `root` (empty or absent); `missing` is a directory
 * that does not exist on `fs`. */
void pm_test_fs_contract(pm_fs *fs, const char *root, const char *missing);

#endif /* PM_TEST_FS_CONTRACT_H */

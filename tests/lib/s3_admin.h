/* The admin endpoint of the S3 test server's proxy (tests/s3/README.md), for the unit tests
 * that run against it (PAIMON_NEEDS_S3_SERVER): request counters, faults, resets.  Every
 * call asserts that $S3_ADMIN is set and that the call succeeded. */
#ifndef PM_TEST_S3_ADMIN_H
#define PM_TEST_S3_ADMIN_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "io/fs.h"

/* POSTs `what` (path and query, "/fault?fault=503&nth=1") to $S3_ADMIN; its JSON answer.
 * Caller owns it; release with json_decref(). */
json_t *pm_test_s3_admin(const char *what);

/* The same, answer dropped. */
void pm_test_s3_admin_do(const char *what);

/* Requests the proxy counted since the last /reset: all of them (kind NULL) or those of one
 * kind (GET, HEAD, PUT, LIST, UPLOAD_PART, MPU_INIT, MPU_COMPLETE, MPU_ABORT, BATCH_DELETE). */
long pm_test_s3_requests(const char *kind);

/* The most requests of one kind the proxy handled at once since the last /reset (from their
 * arrival, latency included, to their answer): how many a client had in flight together. */
long pm_test_s3_max_in_flight(const char *kind);

/* Helpers of the tests that write objects to the server: deterministic bytes (position
 * `from + i` of stream `seed`), a whole-object write that fails the test on error, and a
 * read-back that fails it unless the object holds exactly the bytes expected. */
void pm_test_s3_fill(uint8_t *b, size_t n, uint64_t from, unsigned seed);
void pm_test_s3_put(pm_fs *fs, const char *path, const void *data, size_t len);
/* Fails the test unless the object at `path` is exactly `len` bytes equal to `want`. */
void pm_test_s3_expect(pm_fs *fs, const char *path, const void *want, size_t len);

#endif /* PM_TEST_S3_ADMIN_H */

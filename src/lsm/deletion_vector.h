/*
 * Deletion vectors (metadata.md §9.4, behaviour.md §5): the row positions of a data file
 * that are deleted, kept in DELETION_VECTORS index files.
 *
 *   OFFSET  SIZE   DESCRIPTION (index file)
 *   0       1      version = 1
 *   then one record per data file, at the offset its index-manifest range names:
 *           4      int32 BE size of the blob
 *           size   blob
 *           4      int32 BE CRC-32 of the blob
 *
 *   blob, 32-bit (default):  int32 BE magic 1581511376, RoaringBitmap portable format
 *   blob, 64-bit (deletion-vectors.bitmap64):  int32 LE magic 1681511377, int64 LE count,
 *         then count x (int32 LE high key, RoaringBitmap portable format)
 *
 * The range's length is the blob size for 32-bit vectors and the whole record (4 + size +
 * 4) for 64-bit ones.  Readers tell the two apart by the magic.  CRoaring's portable
 * serialization is byte-identical to Java's RoaringBitmap (after run optimization).
 *
 * Positions are 0-based row ordinals within the data file.
 *
 * Thread safety: a pm_dv is immutable once built and may be read by several threads.
 */
#ifndef PM_LSM_DELETION_VECTOR_H
#define PM_LSM_DELETION_VECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/fs.h"
#include "util/buf.h"
#include "util/error.h"

#define PM_DV_MAGIC_32      1581511376
#define PM_DV_MAGIC_64      1681511377
#define PM_DV_INDEX_VERSION 1

typedef struct pm_dv pm_dv;

/* An empty vector.  NULL on allocation failure. */
pm_dv *pm_dv_new(void);
void pm_dv_free(pm_dv *dv);

int pm_dv_add(pm_dv *dv, uint64_t position);
bool pm_dv_contains(const pm_dv *dv, uint64_t position);
uint64_t pm_dv_cardinality(const pm_dv *dv);
/* Whether it was read from (or will be written as) the 64-bit format. */
bool pm_dv_is_64(const pm_dv *dv);

/* Decodes the record at `data` (starting at its size prefix), `len` bytes available.
 * `range_length` is the length the index manifest records (-1: unknown), checked against
 * the record as Java checks it.  The CRC is verified.  Errors name `what` and `offset`. */
PM_MUST_CHECK int pm_dv_decode(const uint8_t *data, size_t len, int64_t range_length,
                               const char *what, uint64_t offset, pm_dv **out, paimon_error *err);

/* Checks the version byte that opens every index file (data[0..len), len 0 for an empty
 * file): PAIMON_ECORRUPT naming `path` when it is not PM_DV_INDEX_VERSION.  Readers and
 * restoring writers check it alike. */
PM_MUST_CHECK int pm_dv_index_check(const uint8_t *data, size_t len, const char *path,
                                    paimon_error *err);

/* Reads the vector of a range (offset, length) of index file `path`, after checking the
 * file's version byte. */
PM_MUST_CHECK int pm_dv_read(pm_fs *fs, const char *path, int64_t offset, int64_t length,
                             pm_dv **out, paimon_error *err);

/* Appends the record (size prefix, blob, CRC) in the 32-bit or 64-bit format and gives the
 * length the index manifest must record for it. */
PM_MUST_CHECK int pm_dv_encode(const pm_dv *dv, bool bitmap64, pm_buf *out, int32_t *range_length,
                               paimon_error *err);

#endif /* PM_LSM_DELETION_VECTOR_H */

/*
 * Validation of serialized 32-bit RoaringBitmaps (the portable format of
 * RoaringFormatSpec, written by Java's RoaringBitmap and by CRoaring) before CRoaring sees
 * them.  Deletion vectors and the rbm32 aggregate read such bitmaps from files, and
 * Debian's CRoaring (0.2.x) accepts some malformed ones that later crash it, and prints to
 * stderr about others.  A bitmap that passes is structurally sound:
 *
 *   cookie 12346 (uint32 LE) + container count (uint32 LE), or cookie 12347 in the low 16
 *   bits with count - 1 in the high 16 bits, then a run flag per container;
 *   per container: key (uint16, strictly ascending) and cardinality - 1 (uint16);
 *   offsets (uint32 per container) when the format has them (checked to point at each
 *   container);
 *   containers: runs (count, then start and length - 1 pairs, ascending, not overlapping or
 *   touching, within 0..65535, their sizes adding up to the cardinality), arrays (at most
 *   4096 ascending values) or bitsets (8192 bytes whose bit count is the cardinality).
 */
#ifndef PM_UTIL_ROARING_PORTABLE_H
#define PM_UTIL_ROARING_PORTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether [p, p + len) starts with a valid serialized bitmap; its size in *used. */
bool pm_roaring_portable_valid(const uint8_t *p, size_t len, size_t *used);

#endif /* PM_UTIL_ROARING_PORTABLE_H */

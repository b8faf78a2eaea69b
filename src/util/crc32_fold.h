/*
 * CRC-32 of whole 16-byte blocks by carry-less multiplication (x86-64 with PCLMULQDQ).
 *
 * pm_crc32_fold() advances the zlib-style CRC `*crc` (pre- and post-inverted, as crc32()
 * takes and returns it) over the longest prefix of p[0, len) that is a multiple of 16 bytes
 * and at least 64 bytes long, and returns that prefix's length; it returns 0 (and leaves
 * `*crc` alone) when the CPU lacks the instructions or the input is shorter.  The caller
 * finishes the rest with zlib.  Thread-safe (the CPU check is idempotent).
 */
#ifndef PM_UTIL_CRC32_FOLD_H
#define PM_UTIL_CRC32_FOLD_H

#include <stddef.h>
#include <stdint.h>

size_t pm_crc32_fold(uint32_t *crc, const uint8_t *p, size_t len);

#endif /* PM_UTIL_CRC32_FOLD_H */

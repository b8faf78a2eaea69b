/*
 * Hash functions whose exact output is part of the Paimon format.
 *
 * pm_murmur3_words: MurmurHash3 x86_32 over 4-byte little-endian words, finalized with the
 * byte length, as Java's MurmurHashUtils.hashBytesByWords.  BinaryRow.hashCode() is this
 * function with seed 42 over the row bytes (metadata.md §11.2); the length is always a
 * multiple of 8 there, so the word form equals standard MurmurHash3_x86_32.
 */
#ifndef PM_UTIL_HASH_H
#define PM_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define PM_BINARY_ROW_HASH_SEED 42

/* `len` must be a multiple of 4 (asserted). */
int32_t pm_murmur3_words(const void *data, size_t len, uint32_t seed);

/* Java Paimon's MurmurHashUtils.hashBytes: MurmurHash3 x86_32 over 4-byte little-endian
 * words, then each trailing byte mixed alone as a sign-extended int, finalized with the
 * length.  BinaryString.hashCode() is this with seed 42. */
int32_t pm_murmur3_bytes_java(const void *data, size_t len, uint32_t seed);

/* XXH64 (xxHash, 64 bits) of `len` bytes with `seed`: zero-allocation-hashing's
 * LongHashFunction.xx() with seed 0 is what Paimon's bloom filters hash strings and
 * binaries with (behaviour.md §9.3). */
uint64_t pm_xxh64(const void *data, size_t len, uint64_t seed);

/* java.util.zip.CRC32 (= zlib crc32). */
uint32_t pm_crc32(const void *data, size_t len);
uint32_t pm_crc32_update(uint32_t crc, const void *data, size_t len);

#endif /* PM_UTIL_HASH_H */

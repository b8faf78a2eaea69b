/*
 * CRC-32 (the zlib / java.util.zip.CRC32 polynomial, bit-reflected) by carry-less
 * multiplication, for x86-64 CPUs with PCLMULQDQ: see util/crc32_fold.h.
 *
 * The method is the folding of Intel's white paper "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction" (Gopal et al., 2009): four 128-bit lanes are
 * folded forward 64 bytes at a time (constants x^(4*128+32) and x^(4*128-32) mod P), then
 * into one lane (x^(128+32), x^(128-32) mod P), then 128 -> 64 -> 32 bits, and a Barrett
 * reduction gives the remainder.  The constants are the ones every implementation of the
 * paper uses for P = 0x104C11DB7 reflected.  Page CRCs of Parquet files are computed over
 * every page written and read, so this is on the compaction's hot path; the result is the
 * same number zlib's crc32() gives, which the unit test checks over many lengths and
 * alignments.
 */
#include "util/crc32_fold.h"

#include <stdatomic.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define FOLD_TARGET __attribute__((target("pclmul,sse4.1")))

/* One 128-bit lane folded forward over `k` (lo: the constant for the low qword, hi: the
 * one for the high qword) and added to `next`. */
FOLD_TARGET static inline __m128i fold(__m128i x, __m128i k, __m128i next)
{
    __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
    __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

FOLD_TARGET static uint32_t fold_blocks(uint32_t crc, const uint8_t *p, size_t len)
{
    const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596ll, 0x154442bd4ll);
    const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009ell, 0x1751997d0ll);
    const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124ll);
    const __m128i poly = _mm_set_epi64x(0x1F7011641ll, 0x1DB710641ll);
    const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
    __m128i x0, x1, x2, x3, t;

    x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)p),
                       _mm_cvtsi32_si128((int)crc));
    x1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    x2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    x3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 48));
    p += 64;
    len -= 64;
    while (len >= 64) {
        x0 = fold(x0, k1k2, _mm_loadu_si128((const __m128i *)(const void *)p));
        x1 = fold(x1, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(p + 16)));
        x2 = fold(x2, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(p + 32)));
        x3 = fold(x3, k1k2, _mm_loadu_si128((const __m128i *)(const void *)(p + 48)));
        p += 64;
        len -= 64;
    }
    x0 = fold(x0, k3k4, x1);
    x0 = fold(x0, k3k4, x2);
    x0 = fold(x0, k3k4, x3);
    while (len >= 16) {
        x0 = fold(x0, k3k4, _mm_loadu_si128((const __m128i *)(const void *)p));
        p += 16;
        len -= 16;
    }
    /* 128 -> 64 bits: the low qword times k4, added to the high qword */
    t = _mm_clmulepi64_si128(x0, k3k4, 0x10);
    x0 = _mm_xor_si128(_mm_srli_si128(x0, 8), t);
    /* 64 -> 32 bits */
    t = _mm_and_si128(x0, mask32);
    x0 = _mm_srli_si128(x0, 4);
    t = _mm_clmulepi64_si128(t, k5, 0x00);
    x0 = _mm_xor_si128(x0, t);
    /* Barrett reduction */
    t = _mm_and_si128(x0, mask32);
    t = _mm_clmulepi64_si128(t, poly, 0x10);
    t = _mm_and_si128(t, mask32);
    t = _mm_clmulepi64_si128(t, poly, 0x00);
    x0 = _mm_xor_si128(x0, t);
    return (uint32_t)_mm_extract_epi32(x0, 1);
}

/* -1 until the first call; threads that race to set it store the same value (relaxed
 * atomics make that a defined race, which ThreadSanitizer accepts). */
static _Atomic int has_clmul = -1;

size_t pm_crc32_fold(uint32_t *crc, const uint8_t *p, size_t len)
{
    size_t n = len & ~(size_t)15;
    int clmul = atomic_load_explicit(&has_clmul, memory_order_relaxed);
    if (clmul < 0) {
        clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
        atomic_store_explicit(&has_clmul, clmul, memory_order_relaxed);
    }
    if (!clmul || n < 64)
        return 0;
    *crc = ~fold_blocks(~*crc, p, n);
    return n;
}

#else

size_t pm_crc32_fold(uint32_t *crc, const uint8_t *p, size_t len)
{
    (void)crc;
    (void)p;
    (void)len;
    return 0;
}

#endif

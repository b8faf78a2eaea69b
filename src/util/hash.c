/* Format-defining hashes: see hash.h. */
#include "util/hash.h"

#include <assert.h>
#include <zlib.h>

#include "util/bytes.h"
#include "util/crc32_fold.h"

static inline uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

static inline uint32_t fmix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

int32_t pm_murmur3_words(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    uint32_t h = seed;
    assert(len % 4 == 0);
    for (size_t i = 0; i + 4 <= len; i += 4) {
        uint32_t k = pm_load_le32(p + i);
        k *= 0xcc9e2d51u;
        k = rotl32(k, 15);
        k *= 0x1b873593u;
        h ^= k;
        h = rotl32(h, 13);
        h = h * 5 + 0xe6546b64u;
    }
    h ^= (uint32_t)len;
    return (int32_t)fmix32(h);
}

static inline uint32_t mix_k1(uint32_t k)
{
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    return k * 0x1b873593u;
}

static inline uint32_t mix_h1(uint32_t h, uint32_t k)
{
    h ^= k;
    h = rotl32(h, 13);
    return h * 5 + 0xe6546b64u;
}

int32_t pm_murmur3_bytes_java(const void *data, size_t len, uint32_t seed)
{
    const uint8_t *p = data;
    size_t aligned = len - len % 4;
    uint32_t h = seed;
    for (size_t i = 0; i < aligned; i += 4)
        h = mix_h1(h, mix_k1(pm_load_le32(p + i)));
    for (size_t i = aligned; i < len; i++) /* Java widens the byte with its sign */
        h = mix_h1(h, mix_k1((uint32_t)(int32_t)(int8_t)p[i]));
    h ^= (uint32_t)len;
    return (int32_t)fmix32(h);
}

uint32_t pm_crc32_update(uint32_t crc, const void *data, size_t len)
{
    const Bytef *p = data;
    /* whole 16-byte blocks by carry-less multiplication where the CPU has it (about 8x
     * zlib's speed), the rest by zlib */
    size_t folded = pm_crc32_fold(&crc, p, len);
    p += folded;
    len -= folded;
    /* zlib takes uInt lengths: feed huge inputs in pieces. */
    while (len > 0) {
        uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;
        crc = (uint32_t)crc32(crc, p, n);
        p += n;
        len -= n;
    }
    return crc;
}

uint32_t pm_crc32(const void *data, size_t len)
{
    return pm_crc32_update(0, data, len);
}

/* ---- XXH64 ----------------------------------------------------------------------------- */

#define XXH_P1 0x9E3779B185EBCA87ull
#define XXH_P2 0xC2B2AE3D27D4EB4Full
#define XXH_P3 0x165667B19E3779F9ull
#define XXH_P4 0x85EBCA77C2B2AE63ull
#define XXH_P5 0x27D4EB2F165667C5ull

static uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t read64le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t read32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t xxh_round(uint64_t acc, uint64_t input)
{
    acc += input * XXH_P2;
    acc = rotl64(acc, 31);
    return acc * XXH_P1;
}

static uint64_t xxh_merge(uint64_t acc, uint64_t val)
{
    acc ^= xxh_round(0, val);
    return acc * XXH_P1 + XXH_P4;
}

uint64_t pm_xxh64(const void *data, size_t len, uint64_t seed)
{
    const uint8_t *p = data, *end = p + len;
    uint64_t h;
    if (len >= 32) {
        const uint8_t *limit = end - 32;
        uint64_t v1 = seed + XXH_P1 + XXH_P2, v2 = seed + XXH_P2, v3 = seed, v4 = seed - XXH_P1;
        do {
            v1 = xxh_round(v1, read64le(p));
            v2 = xxh_round(v2, read64le(p + 8));
            v3 = xxh_round(v3, read64le(p + 16));
            v4 = xxh_round(v4, read64le(p + 24));
            p += 32;
        } while (p <= limit);
        h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        h = xxh_merge(h, v1);
        h = xxh_merge(h, v2);
        h = xxh_merge(h, v3);
        h = xxh_merge(h, v4);
    } else {
        h = seed + XXH_P5;
    }
    h += (uint64_t)len;
    while (p + 8 <= end) {
        h ^= xxh_round(0, read64le(p));
        h = rotl64(h, 27) * XXH_P1 + XXH_P4;
        p += 8;
    }
    if (p + 4 <= end) {
        h ^= (uint64_t)read32le(p) * XXH_P1;
        h = rotl64(h, 23) * XXH_P2 + XXH_P3;
        p += 4;
    }
    while (p < end) {
        h ^= (uint64_t)*p * XXH_P5;
        h = rotl64(h, 11) * XXH_P1;
        p++;
    }
    h ^= h >> 33;
    h *= XXH_P2;
    h ^= h >> 29;
    h *= XXH_P3;
    h ^= h >> 32;
    return h;
}

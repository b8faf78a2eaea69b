/* Format-defining hashes: see hash.h. */
#include "util/hash.h"

#include <assert.h>
#include <zlib.h>

#include "util/bytes.h"

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

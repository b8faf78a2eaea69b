/*
 * Byte-order loads and stores.  Paimon mixes both orders: BinaryRow bodies are little-
 * endian, the BinaryRow serialization prefix, hash index files and deletion-vector framing
 * are big-endian.  memcpy keeps every access alignment-safe; compilers turn it into a move.
 */
#ifndef PM_UTIL_BYTES_H
#define PM_UTIL_BYTES_H

#include <stdint.h>
#include <string.h>

static inline uint16_t pm_load_le16(const void *p)
{
    const uint8_t *b = p;
    return (uint16_t)(b[0] | (b[1] << 8));
}
static inline uint32_t pm_load_le32(const void *p)
{
    const uint8_t *b = p;
    return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}
static inline uint64_t pm_load_le64(const void *p)
{
    return (uint64_t)pm_load_le32(p) | ((uint64_t)pm_load_le32((const uint8_t *)p + 4) << 32);
}
static inline uint32_t pm_load_be32(const void *p)
{
    const uint8_t *b = p;
    return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | (uint32_t)b[3];
}
static inline uint64_t pm_load_be64(const void *p)
{
    return ((uint64_t)pm_load_be32(p) << 32) | pm_load_be32((const uint8_t *)p + 4);
}
static inline void pm_store_le16(void *p, uint16_t v)
{
    uint8_t *b = p;
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
}
static inline void pm_store_le32(void *p, uint32_t v)
{
    uint8_t *b = p;
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
}
static inline void pm_store_le64(void *p, uint64_t v)
{
    pm_store_le32(p, (uint32_t)v);
    pm_store_le32((uint8_t *)p + 4, (uint32_t)(v >> 32));
}
static inline void pm_store_be32(void *p, uint32_t v)
{
    uint8_t *b = p;
    b[0] = (uint8_t)(v >> 24);
    b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);
    b[3] = (uint8_t)v;
}
static inline void pm_store_be64(void *p, uint64_t v)
{
    pm_store_be32(p, (uint32_t)(v >> 32));
    pm_store_be32((uint8_t *)p + 4, (uint32_t)v);
}

#endif /* PM_UTIL_BYTES_H */

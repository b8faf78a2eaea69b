/*
 * Variable-length integers: unsigned LEB128 (7 bits a byte, low group first) and zigzag.
 * Avro ints and longs are zigzag LEB128; Thrift compact and protobuf use both forms.
 */
#ifndef PM_UTIL_VARINT_H
#define PM_UTIL_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define PM_UVARINT_MAX 10 /* bytes of the longest 64-bit varint */

/* Decodes one varint from [p, end).  Returns the bytes consumed, or 0 when the input is
 * truncated or longer than 10 bytes (both are corruption for the caller to report). */
static inline size_t pm_uvarint_decode(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    unsigned shift = 0;
    while (p + i < end && i < PM_UVARINT_MAX) {
        uint8_t b = p[i++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *out = v;
            return i;
        }
        shift += 7;
    }
    return 0;
}

static inline size_t pm_uvarint_encode(uint8_t *dst, uint64_t v)
{
    size_t i = 0;
    while (v >= 0x80) {
        dst[i++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    dst[i++] = (uint8_t)v;
    return i;
}

static inline int64_t pm_zigzag_decode(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint64_t pm_zigzag_encode(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

#endif /* PM_UTIL_VARINT_H */

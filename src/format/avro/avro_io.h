/*
 * Avro binary encoding primitives (spec "Binary Encoding"): zigzag varint int and long,
 * length-prefixed bytes and strings, little-endian float and double, union branch indexes,
 * blocked arrays and maps.  Decoding works on a bounded cursor; every read checks what
 * remains and fails (returns false) instead of reading past the end, so callers turn a
 * false into PAIMON_ECORRUPT with the file and offset.
 */
#ifndef PM_FORMAT_AVRO_IO_H
#define PM_FORMAT_AVRO_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/buf.h"
#include "util/bytes.h"
#include "util/varint.h"

typedef struct pm_avro_cursor {
    const uint8_t *p;     /* next byte */
    const uint8_t *end;   /* one past the last byte */
    const uint8_t *start; /* for offsets in messages */
} pm_avro_cursor;

static inline size_t pm_avro_offset(const pm_avro_cursor *c)
{
    return (size_t)(c->p - c->start);
}

static inline bool pm_avro_read_long(pm_avro_cursor *c, int64_t *out)
{
    uint64_t v;
    size_t n;
    /* Fast path: one-byte varints are the common case in manifests. */
    if (c->p < c->end && (*c->p & 0x80) == 0) {
        v = *c->p++;
        *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
        return true;
    }
    n = pm_uvarint_decode(c->p, c->end, &v);
    if (n == 0)
        return false;
    c->p += n;
    *out = pm_zigzag_decode(v);
    return true;
}

static inline bool pm_avro_read_int(pm_avro_cursor *c, int32_t *out)
{
    int64_t v;
    if (!pm_avro_read_long(c, &v) || v < INT32_MIN || v > INT32_MAX)
        return false;
    *out = (int32_t)v;
    return true;
}

/* Length-prefixed bytes: a view into the cursor's memory. */
static inline bool pm_avro_read_bytes(pm_avro_cursor *c, const uint8_t **data, size_t *len)
{
    int64_t n;
    if (!pm_avro_read_long(c, &n) || n < 0 || (uint64_t)n > (uint64_t)(c->end - c->p))
        return false;
    *data = c->p;
    *len = (size_t)n;
    c->p += n;
    return true;
}

static inline bool pm_avro_skip(pm_avro_cursor *c, size_t n)
{
    if (n > (size_t)(c->end - c->p))
        return false;
    c->p += n;
    return true;
}

static inline int pm_avro_write_long(pm_buf *b, int64_t v)
{
    uint8_t tmp[PM_UVARINT_MAX];
    size_t n = pm_uvarint_encode(tmp, pm_zigzag_encode(v));
    if (b->len + n < b->cap && b->len + n <= b->max) {
        memcpy(b->data + b->len, tmp, n);
        b->len += n;
        return 0;
    }
    return pm_buf_append(b, tmp, n);
}

static inline int pm_avro_write_bytes(pm_buf *b, const void *data, size_t len)
{
    int rc = pm_avro_write_long(b, (int64_t)len);
    return rc != 0 ? rc : pm_buf_append(b, data, len);
}

static inline int pm_avro_write_string(pm_buf *b, const char *s)
{
    return pm_avro_write_bytes(b, s, strlen(s));
}

#endif /* PM_FORMAT_AVRO_IO_H */
